//! Fanorona for reinforcement learning: exact bitboard rules for every odd board and variant,
//! notation and FEN, perft, and (in later modules) a gym-like environment.

pub mod rules;

pub use rules::board::{Board, Direction, Point, Points};
pub use rules::color::Color;
pub use rules::error::{BoardError, FenError, FenField, MoveError};
pub use rules::history::History;
pub use rules::movegen::StepList;
pub use rules::outcome::{DrawReason, Outcome, WinReason};
pub use rules::perft::{divide, perft};
pub use rules::position::{Chain, Position};
pub use rules::settings::Rules;
pub use rules::step::{Step, StepKind};
pub use rules::turn::{MAX_TURN_STEPS, Turn};

pub mod agent;
pub mod fanorona;
pub mod game;

pub use agent::{Agent, AgentError};
pub use fanorona::Fanorona;
pub use game::{ActionError, Game};
