//! Monte Carlo tree search for AlphaZero over any [`fanorona_env::Game`]: PUCT with Dirichlet
//! noise, first-play urgency, temperature and tree reuse; Gumbel AlphaZero root search
//! (sequential halving, completed Q-values, improved policy targets); a driver that advances
//! many searches together and sends their leaves to the evaluator in one batch; `MctsAgent`.
//!
//! Values are backed up by player to act, not by depth: in a Fanorona capture chain the same
//! player acts several times in a row, so a value changes sign only where the player changes.

pub mod agent;
pub mod config;
pub mod driver;
pub mod evaluators;
pub mod gumbel;
pub mod puct;
pub mod search;
pub mod tree;

pub use agent::MctsAgent;
pub use config::SearchConfig;
pub use driver::{BatchStats, SearchDriver};
pub use evaluators::{RolloutEvaluator, UniformEvaluator};
pub use search::{RootEdge, Search, SearchResult};
