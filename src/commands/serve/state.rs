//! What every request handler shares: [`AppState`].

use super::agents::AgentPolicy;
use super::analyses::Analyses;
use super::store::Store;
use super::think::Thinkers;

/// What every request handler shares.
pub struct AppState {
    /// The agents requests may ask for.
    pub agents: AgentPolicy,
    /// The live games.
    pub store: Store,
    /// Where agents are built and think.
    pub thinkers: Thinkers,
    /// The analyses running.
    pub analyses: Analyses,
    /// The prover's nodes in each analysis (`--prove-nodes`; 0: no proof).
    pub prove_nodes: u64,
}
