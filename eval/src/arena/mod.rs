//! Matches between two agents: openings, parallel games, Elo with a confidence interval,
//! likelihood of superiority and the sequential probability ratio test.

pub(crate) mod elo;
pub(crate) mod error;
pub(crate) mod game;
pub(crate) mod opening;
pub(crate) mod output;
pub(crate) mod report;
pub(crate) mod runner;
pub(crate) mod sprt;

pub use error::ArenaError;
pub use game::{Forfeit, GameResult, PlayedGame, Seat, play_game};
pub use output::check_out_dir;
pub use report::MatchReport;
pub use runner::{AgentFactory, Built, Match, MatchConfig, spec_factory};
