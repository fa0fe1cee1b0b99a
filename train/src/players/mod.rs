//! Players with a trained network: the network as the search's leaf evaluator, and the
//! adapter that makes any agent an opponent in burn-rl's environment.

mod network_evaluator;
mod rl_adapter;

pub use network_evaluator::NetworkEvaluator;
pub use rl_adapter::{RlEnv, RlState};
