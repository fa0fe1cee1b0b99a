//! The model layer: the policy/value network (burn), built from its configuration
//! ([`crate::config::NetworkConfig`]), and the trainer that takes its gradient steps
//! (optimiser, learning-rate schedule, losses, a moving average of the weights).

mod averaging;
mod network;
mod trainer;

pub use averaging::WeightAverage;
#[cfg(test)]
pub(crate) use network::mlp_value_tests;
pub use network::{
    MlpInference, MlpScratch, MlpValue, MlpValueScratch, PolicyValueNet, count_denormals,
    flush_denormals,
};
pub use trainer::{LossReport, Trainer, init_optimizer};
