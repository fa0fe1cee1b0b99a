//! Evaluating Fanorona agents: players that need no network (random, greedy, the minimax
//! baseline, the exact solver, external engines), endgame tables, their agent kinds for the
//! registry, the arena (matches, Elo, SPRT), ratings of many agents, game records, the engine
//! protocol, and exams against solved values or a labelled test set.

pub mod agents;
pub mod arena;
pub mod atomic_write;
pub mod exam;
pub mod kinds;
pub mod minimax;
pub mod protocol;
pub mod rating;
pub mod record;
pub mod solver;
pub mod tables;

pub use agents::complete_turn::{agent_turn, turn_of_steps};
pub use agents::engine::{EngineAgent, EngineConfig};
pub use agents::greedy::GreedyChooser;
pub use agents::turn_agent::{TurnAgent, TurnChooser};
pub use arena::elo::Tally;
pub use arena::opening::{Opening, OpeningError, Openings};
pub use arena::sprt::{Sprt, SprtDecision};
pub use arena::{
    AgentFactory, ArenaError, Built, Forfeit, GameResult, Match, MatchConfig, MatchReport,
    PlayedGame, Seat, check_out_dir, play_game, spec_factory,
};
pub use kinds::{register, registry};
pub use minimax::player::MinimaxChooser;
pub use minimax::search::{Limits, MinimaxResult, Searcher};
pub use rating::{RatingError, RatingSettings, Ratings, collect_games, rate};
pub use record::{GameRecord, RecordError};
