//! Players with a trained network: the network as the search's leaf evaluator (its values
//! optionally mixed with alpha-beta probes, or made exact by endgame tables), the `net` agent kind, the `abnet` kind (an
//! alpha-beta over the network's value), the registry of every agent
//! kind of the project, and the adapter that makes any agent an opponent in burn-rl's
//! environment.

mod alpha_beta_mix;
mod alpha_beta_net;
mod board_model;
mod mcts_kind;
mod net_kind;
mod network_evaluator;
mod registry;
mod rl_adapter;
mod table_leaves;

pub use alpha_beta_net::{ABNET_KIND, NetValue, sample_planes};
pub use board_model::board_spec;
pub use mcts_kind::MCTS_TABLES_KIND;
pub use net_kind::{
    MODEL, NET_KIND, NetAgent, PATH, PolicyAgent, load_fanorona_net, network_agent,
};
pub use network_evaluator::NetworkEvaluator;
pub use registry::registry;
pub use rl_adapter::{RlEnv, RlState};
pub use table_leaves::TableLeaves;
