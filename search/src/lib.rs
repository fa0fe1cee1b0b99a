//! Monte Carlo tree search for AlphaZero over any [`fanorona_env::Game`]: PUCT with Dirichlet
//! noise, first-play urgency, temperature and tree reuse; KataGo's forced playouts and policy
//! target pruning; Gumbel AlphaZero root search
//! (sequential halving, completed Q-values, improved policy targets); a driver that advances
//! many searches together and sends their leaves to the [`Evaluator`] in one batch; evaluators
//! without a network (uniform, random playouts); and [`MctsAgent`], search as a player.
//!
//! Values are backed up by player to act, not by depth: in a Fanorona capture chain the same
//! player acts several times in a row, so a value changes sign only where the player changes.
//!
//! The crate knows no network: a trained model plugs in by implementing [`Evaluator`].

mod agent;
mod budget;
mod config;
mod driver;
mod evaluator;
mod evaluators;
mod forced;
mod gumbel;
mod kind;
pub mod options;
mod puct;
mod search;
mod temperature;
mod tree;

pub use agent::MctsAgent;
pub use budget::SIMULATION_CAP;
pub use config::SearchConfig;
pub use driver::{BatchStats, SearchDriver};
pub use evaluator::Evaluator;
pub use evaluators::{RolloutEvaluator, UniformEvaluator};
pub use kind::{MCTS_KIND, MCTS_OPTIONS, mcts_agent, register};
pub use puct::legal_softmax;
pub use search::{RootEdge, Search, SearchResult};
pub use temperature::sample_with_temperature;
