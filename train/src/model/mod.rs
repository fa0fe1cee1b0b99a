//! The model layer: the policy/value network (burn), the trainer that takes its gradient steps (optimiser,
//! learning-rate schedule, losses, a moving average of the weights) and the device it runs on.

mod averaging;
mod device;
mod network;
mod schedule;
mod trainer;

pub use averaging::WeightAverage;
pub use device::{ComputeDevice, DeviceError};
#[cfg(test)]
pub(crate) use network::mlp_value_tests;
pub use network::{
    Architecture, MlpInference, MlpScratch, MlpValue, MlpValueScratch, NetworkConfig,
    NetworkConfigError, PolicyValueNet, count_denormals, flush_denormals,
};
pub use schedule::LrSchedule;
pub use trainer::{LossReport, OptimizerConfig, Trainer, TrainerConfig};
