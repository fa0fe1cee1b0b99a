//! Matches between two agents: openings, parallel games, Elo with a confidence interval,
//! likelihood of superiority and the sequential probability ratio test.

pub mod elo;
pub mod error;
pub mod game;
pub mod opening;
pub mod report;
pub mod runner;
pub mod sprt;

pub use error::ArenaError;
pub use game::{GameResult, PlayedGame, play_game};
pub use report::MatchReport;
pub use runner::{AgentFactory, Match, MatchConfig};
