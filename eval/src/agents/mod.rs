//! Agents without a network: greedy, and the adapter that lets an agent
//! thinking in complete turns play one step at a time.

pub mod greedy;
pub mod turn_agent;
