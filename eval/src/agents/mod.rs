//! Agents without a network: greedy, the adapter that lets an agent thinking in complete
//! turns play one step at a time, collecting a step-level agent's actions into a turn, and
//! external engines driven through the engine protocol.

pub(crate) mod complete_turn;
pub(crate) mod engine;
pub(crate) mod greedy;
pub(crate) mod turn_agent;
