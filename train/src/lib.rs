//! Learning to play Fanorona by self-play: Monte Carlo tree search, the policy/value network,
//! self-play, replay, the learner, checkpoints and export.

pub mod agent_spec;
pub mod evaluator;
pub mod mcts;

pub use evaluator::Evaluator;
