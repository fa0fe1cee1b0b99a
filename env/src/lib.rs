//! Fanorona for reinforcement learning: exact bitboard rules for every odd board and variant,
//! notation and FEN, perft, the `Game` and `Agent` traits with Fanorona and Fanoron-Telo
//! behind them, and gym-like environments: [`Env`], [`SingleAgentEnv`] and the batched,
//! multi-threaded [`VecEnv`].
//!
//! Every type has one path, at the crate root. Two modules are public on purpose, as groups of
//! free functions and constants whose names need their module: [`action`] (Fanorona's action
//! encoding) and [`observation`] (its observation planes).

mod agent;
mod budget;
mod env;
mod excerpt;
mod fanorona;
mod game;
mod game_id;
mod random;
mod registry;
mod rules;
mod single_agent;
mod telo;
mod vec_env;
mod wdl;

pub use fanorona::{action, observation};

pub use rules::board::{Board, Direction, Point, Points};
pub use rules::color::Color;
pub use rules::error::{BoardError, FenError, FenField, MoveError, RulesError};
pub use rules::history::History;
pub use rules::movegen::StepList;
pub use rules::outcome::{DrawReason, Outcome, WinReason};
pub use rules::perft::{divide, perft};
pub use rules::position::{Chain, Position};
pub use rules::settings::Rules;
pub use rules::start::{StartError, start_position};
pub use rules::step::{Step, StepKind};
pub use rules::turn::{MAX_TURN_STEPS, Turn};

pub use agent::{Agent, AgentError, SearchInfo, SearchLimits};
pub use budget::Budget;
pub use env::{Env, EnvConfig, EnvStep, Observation, StepInfo, Transition};
pub use excerpt::Excerpt;
pub use fanorona::Fanorona;
pub use fanorona::symmetry::{NUM_SYMMETRIES, Symmetry};
pub use game::{ActionError, Game};
pub use game_id::{GameId, GameIdError, GameVisitor};
pub use random::RandomAgent;
pub use registry::{
    AgentKind, AgentOptions, AgentSpec, Factory, OptionDef, OptionDefault, Registry, SpecError,
    ValueType, split_spec_list,
};
pub use single_agent::{SingleAgentEnv, SingleAgentError, SingleAgentStep};
pub use telo::{Telo, TeloError};
pub use vec_env::{VecEnv, VecEnvError};
pub use wdl::{Wdl, WdlClass};
