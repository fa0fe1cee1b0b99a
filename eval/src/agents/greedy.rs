//! The greedy player: the turn that captures most pieces, ties broken by a seeded generator.

use fanorona_env::{AgentError, Fanorona, Turn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::turn_agent::TurnChooser;

/// Chooses a turn capturing the most pieces (any turn when none captures), at random among
/// equals.
#[derive(Debug)]
pub struct GreedyChooser {
    name: String,
    seed: u64,
    rng: StdRng,
    best: Vec<Turn>,
}

impl GreedyChooser {
    /// A greedy chooser called `name`, seeded with `seed`.
    pub fn new(name: impl Into<String>, seed: u64) -> GreedyChooser {
        GreedyChooser {
            name: name.into(),
            seed,
            rng: StdRng::seed_from_u64(seed),
            best: Vec::new(),
        }
    }
}

impl TurnChooser for GreedyChooser {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
        let mut most = 0;
        self.best.clear();
        game.position().for_each_turn(|t| {
            let n = t.captured().count_ones();
            if n > most {
                most = n;
                self.best.clear();
            }
            if n == most {
                self.best.push(*t);
            }
        });
        if self.best.is_empty() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: "no legal turn in this position".into(),
            });
        }
        Ok(self.best[self.rng.random_range(0..self.best.len())])
    }

    fn reset(&mut self) {
        self.rng = StdRng::seed_from_u64(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Position;

    #[test]
    fn takes_the_biggest_capture() {
        // docs/rules.md example 1: white f5->g5 withdraws and removes e5, d5, c5 (three) and can
        // go on to h4, taking i3 by approach (four); i1i2A takes only i3.
        let pos = Position::from_fen("B1BBBW3/9/8B/9/8W w").unwrap();
        assert_eq!(pos.legal_turns().len(), 3);
        let game = Fanorona::new(pos);
        for seed in 0..5 {
            let turn = GreedyChooser::new("greedy", seed)
                .choose_turn(&game)
                .unwrap();
            assert_eq!(turn.notation(pos.board()), "f5g5Wh4A");
        }
    }
}
