//! The uniformly random agent: any legal action of any [`Game`], with a seeded generator.

use fanorona_env::{Agent, AgentError, Game};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Chooses uniformly among the legal actions (steps, for Fanorona), reproducibly from a seed.
#[derive(Debug)]
pub struct RandomAgent {
    name: String,
    seed: u64,
    rng: StdRng,
    actions: Vec<usize>,
}

impl RandomAgent {
    /// A random agent called `name`, seeded with `seed`.
    pub fn new(name: impl Into<String>, seed: u64) -> RandomAgent {
        RandomAgent {
            name: name.into(),
            seed,
            rng: StdRng::seed_from_u64(seed),
            actions: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        state.legal_actions(&mut self.actions);
        if self.actions.is_empty() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: "no legal action in this state".into(),
            });
        }
        Ok(self.actions[self.rng.random_range(0..self.actions.len())])
    }

    /// Restarts the generator from the seed, so every game is reproducible on its own.
    fn reset(&mut self) {
        self.rng = StdRng::seed_from_u64(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Fanorona;

    #[test]
    fn plays_legal_actions_reproducibly() {
        let play = |seed| {
            let mut agent = RandomAgent::new("random", seed);
            let mut game = Fanorona::standard();
            let mut actions = Vec::new();
            while !game.is_terminal() && actions.len() < 200 {
                let a = Agent::<Fanorona>::act(&mut agent, &game).unwrap();
                game.apply(a).unwrap();
                actions.push(a);
            }
            actions
        };
        assert_eq!(play(3), play(3));
        assert_ne!(play(3), play(4));
    }
}
