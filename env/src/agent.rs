//! The `Agent` trait: anything that chooses actions. Every player of the project (random,
//! minimax, solver, MCTS, networks, external engines) implements it once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::budget::Budget;
use crate::game::Game;
use crate::game_id::GameId;
use crate::wdl::Wdl;

/// Limits for an agent's next decisions, set by a caller such as an engine protocol (`go
/// movetime 500`): a budget that replaces the agent's own where [`Budget::under`] says so,
/// and a flag to stop at once. Agents that do not search ignore them.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// The caller's budget (all `None`: the agent's own budget stands).
    pub budget: Budget,
    /// Set by another thread to ask for the best decision found so far, now.
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// Limits of this budget and no stop flag.
    pub fn of(budget: Budget) -> SearchLimits {
        SearchLimits { budget, stop: None }
    }

    /// Whether another thread has asked the search to stop.
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// What an agent's last decision was based on, for display and engine `info` lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// The depth reached (complete turns for minimax).
    pub depth: Option<u32>,
    /// Expected result for the player who decided, in `[-1, 1]` (1: a win).
    pub value: Option<f32>,
    /// Probabilities of a win, a draw and a loss for the player who decided, where the agent
    /// predicts them (a network with a win/draw/loss value head).
    pub wdl: Option<Wdl>,
    /// Score in hundredths of a piece for the player who decided, where the agent counts
    /// material.
    pub centipieces: Option<i32>,
    /// A forced win in this many turns (positive) or loss (negative), when found.
    pub mate_in: Option<i32>,
    /// Positions searched or simulations run.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// The expected continuation in notation, the decision first.
    pub pv: Vec<String>,
    /// Something the agent says about the decision (e.g. that a fallback made it), shown by
    /// the engine as an `info string`.
    pub note: Option<String>,
}

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

    /// Sets the limits of the following decisions (until set again); agents that do not
    /// search ignore them.
    fn set_limits(&mut self, _limits: &SearchLimits) {}

    /// What the last decision was based on, for agents that search.
    fn last_info(&self) -> Option<SearchInfo> {
        None
    }

    /// The one game (and board) the agent was made for, if it plays no other (a network
    /// agent's); `None` for agents that play any.
    fn game(&self) -> Option<GameId> {
        None
    }
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

    fn set_limits(&mut self, limits: &SearchLimits) {
        (**self).set_limits(limits)
    }

    fn last_info(&self) -> Option<SearchInfo> {
        (**self).last_info()
    }

    fn game(&self) -> Option<GameId> {
        (**self).game()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Fanorona, RandomAgent};

    /// Remembers the limits it was given and reports them as its info.
    struct Recorder(Option<u32>);

    impl Agent<Fanorona> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }

        fn act(&mut self, _: &Fanorona) -> Result<usize, AgentError> {
            Ok(0)
        }

        fn set_limits(&mut self, limits: &SearchLimits) {
            self.0 = limits.budget.depth;
        }

        fn last_info(&self) -> Option<SearchInfo> {
            Some(SearchInfo {
                depth: self.0,
                ..SearchInfo::default()
            })
        }
    }

    #[test]
    fn boxed_agents_pass_limits_and_info_through() {
        let mut boxed: Box<dyn Agent<Fanorona>> = Box::new(Recorder(None));
        boxed.set_limits(&SearchLimits::of(Budget::fixed_depth(3)));
        assert_eq!(boxed.last_info().unwrap().depth, Some(3));
        // Agents that do not search keep the defaults.
        let mut random: Box<dyn Agent<Fanorona>> = Box::new(RandomAgent::new(1));
        random.set_limits(&SearchLimits::default());
        assert_eq!(random.last_info(), None);
    }

    #[test]
    fn the_stop_flag_is_seen() {
        let stop = Arc::new(AtomicBool::new(false));
        let limits = SearchLimits {
            stop: Some(stop.clone()),
            ..SearchLimits::default()
        };
        assert!(!limits.stop_requested());
        stop.store(true, Ordering::Relaxed);
        assert!(limits.stop_requested());
        assert!(!SearchLimits::default().stop_requested());
    }
}
