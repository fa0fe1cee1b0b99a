//! `RandomAgent`: plays uniformly among the legal actions, from a seeded RNG, for any game;
//! and the `random` agent kind ([`RandomAgent::KIND`]).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::agent::{Agent, AgentError};
use crate::fanorona::Fanorona;
use crate::game::Game;
use crate::registry::{AgentKind, AgentOptions, OptionDef, SpecError};

/// The factory of [`RandomAgent::KIND`].
fn create(options: &AgentOptions, seed: u64) -> Result<Box<dyn Agent<Fanorona>>, SpecError> {
    let name = options.spec().to_string();
    Ok(Box::new(
        RandomAgent::new(options.seed_or(seed)).named(name),
    ))
}

/// A player that picks a legal action uniformly at random. The same seed gives the same
/// choices in the same states.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    name: String,
    seed: u64,
    rng: SmallRng,
    legal: Vec<usize>,
}

impl RandomAgent {
    /// The `random` agent kind: a [`RandomAgent`], named by its specification.
    pub const KIND: AgentKind = AgentKind {
        name: "random",
        summary: "uniformly random legal steps",
        options: &[OptionDef::SEED],
        path_extensions: &[],
        factory: create,
    };

    /// A random player called `random`, drawing from a generator seeded with `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            name: "random".to_string(),
            seed,
            rng: SmallRng::seed_from_u64(seed),
            legal: Vec::new(),
        }
    }

    /// The same player under another name (for game records and logs).
    pub fn named(mut self, name: impl Into<String>) -> RandomAgent {
        self.name = name.into();
        self
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        state.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: format!("no legal action in {}", state.to_text()),
            });
        }
        Ok(self.legal[self.rng.random_range(0..self.legal.len())])
    }

    /// Restarts the generator from the seed, so that every game is reproducible on its own.
    fn reset(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Fanorona, Telo};

    #[test]
    fn picks_every_legal_action_and_only_those() {
        let game = Fanorona::standard();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let mut agent = RandomAgent::new(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let a = agent.act(&game).unwrap();
            assert!(game.is_legal(a));
            seen.insert(a);
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), legal);
    }

    #[test]
    fn same_seed_same_choices_and_finished_games_are_refused() {
        let game = Telo::new();
        let picks = |seed| {
            let mut agent = RandomAgent::new(seed);
            (0..20)
                .map(|_| agent.act(&game).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(5), picks(5));
        assert_ne!(picks(5), picks(6));
        let over = Telo::from_text("WWW/BB1/B2 b 6", None).unwrap();
        assert!(RandomAgent::new(0).act(&over).is_err());
    }
}
