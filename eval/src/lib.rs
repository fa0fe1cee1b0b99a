//! Evaluating Fanorona agents: players that need no network (random, greedy, the minimax
//! baseline, the perfect players of a solved board and of the endgame tables, external
//! engines), their agent kinds for the registry, the arena (matches, Elo, SPRT), ratings of
//! many agents, game records, the engine protocol, and exams against exact values or a
//! labelled test set. The exact knowledge itself (solver, endgame tables) is
//! `fanorona-exact`.
//!
//! Every type has one path. The agents, the arena, the agent kinds and game records are at the
//! crate root; the public modules are subsystems with their own vocabulary: [`minimax`] (the
//! alpha-beta baseline), [`exam`] (agents against exact values), [`audit`] (where played
//! games lost their value), [`rating`] (ratings of many
//! agents) and [`protocol`] (the engine protocol).

mod agents;
mod arena;
pub mod audit;
pub mod exam;
mod kinds;
pub mod minimax;
pub mod protocol;
pub mod rating;
mod record;
mod session;

pub use agents::complete_turn::{agent_turn, turn_of_steps};
pub use agents::engine::{EngineAgent, EngineConfig};
pub use agents::greedy::GreedyChooser;
pub use agents::solver::SolverAgent;
pub use agents::tables_first::TablesFirst;
pub use agents::turn_agent::{TurnAgent, TurnChooser};
pub use arena::elo::Tally;
pub use arena::opening::{Opening, OpeningError, Openings};
pub use arena::sprt::{Sprt, SprtDecision};
pub use arena::{
    AgentFactory, ArenaError, Built, Forfeit, GameResult, Match, MatchConfig, MatchReport,
    PlayedGame, Seat, check_out_dir, play_game, spec_factory,
};
pub use kinds::{
    AB_DEPTH, AB_HASH, AB_LMR, AB_MS, AB_NODES, AB_TABLES, AB_UNFINISHED, alpha_beta_chooser,
    register, registry, tables_dir,
};
pub use record::{GameRecord, MAX_RECORD_BYTES, RecordError};
pub use session::{
    AgentJob, AgentMove, AgentReport, GameSession, MAX_TURNS, Player, SessionError, StepInput,
    TurnTrace, captures,
};
