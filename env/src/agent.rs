//! The `Agent` trait: anything that chooses actions. Every player of the project (random,
//! minimax, solver, MCTS, networks, external engines) implements it once.

use crate::game::Game;

/// An agent that could not choose an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{agent}: {reason}")]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// What went wrong.
    pub reason: String,
}

/// A player: given a state where it is to act, it chooses a legal action.
pub trait Agent<G: Game>: Send {
    /// A short name for logs and game records, e.g. `minimax:depth=4`.
    fn name(&self) -> String;

    /// Chooses a legal action in `state` (never called on a finished game).
    fn act(&mut self, state: &G) -> Result<usize, AgentError>;

    /// Forgets everything about the current game (called before each new game).
    fn reset(&mut self) {}
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        (**self).act(state)
    }

    fn reset(&mut self) {
        (**self).reset()
    }
}
