//! The model layer: the policy/value network (burn), the learner that trains it (optimiser,
//! learning-rate schedule, losses, a moving average of the weights) and the device it runs on.

mod averaging;
mod device;
mod learner;
mod network;
mod schedule;

pub use averaging::WeightAverage;
pub use device::{ComputeDevice, DeviceError};
pub use learner::{Learner, LearnerConfig, LossReport, OptimizerConfig};
pub use network::{
    Architecture, MlpInference, MlpScratch, MlpValue, MlpValueScratch, NetworkConfig,
    NetworkConfigError, PolicyValueNet, count_denormals, flush_denormals,
};
pub use schedule::LrSchedule;
