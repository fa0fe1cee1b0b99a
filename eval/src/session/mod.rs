//! A game between people and agents with undo ([`GameSession`]), and what a finished turn did,
//! point by point ([`TurnTrace`]), as `fanorona play` and `fanorona serve` show them.

mod game_session;
mod trace;

pub use game_session::{
    AgentJob, AgentMove, AgentReport, GameSession, MAX_TURNS, Player, SessionError, StepInput,
};
pub use trace::{TurnTrace, captures};
