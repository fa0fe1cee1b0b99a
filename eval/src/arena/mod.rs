//! Matches between two agents: openings, parallel games, Elo with a confidence interval,
//! likelihood of superiority and the sequential probability ratio test.

pub mod elo;
pub mod error;
pub mod game;
pub mod opening;
pub mod output;
pub mod report;
pub mod runner;
pub mod sprt;

pub use error::ArenaError;
pub use game::{Forfeit, GameResult, PlayedGame, Seat, play_game};
pub use output::check_out_dir;
pub use report::MatchReport;
pub use runner::{AgentFactory, Built, Match, MatchConfig, spec_factory};
