//! Agents without a network: greedy, the perfect players of a solved board, of the endgame
//! tables and of the prover within a budget, the adapter that lets an agent thinking in complete
//! turns play one step at a time, collecting a step-level agent's actions into a turn, and
//! external engines driven through the engine protocol.

pub(crate) mod complete_turn;
pub(crate) mod engine;
pub(crate) mod greedy;
pub(crate) mod perfect;
pub(crate) mod solver;
pub(crate) mod tables_first;
pub(crate) mod turn_agent;
