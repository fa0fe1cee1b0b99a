//! How the learner trains: the optimiser, the learning-rate schedule and the loss weights (the
//! run configuration's `[training.trainer]` section).

use serde::{Deserialize, Serialize};

use super::LrSchedule;

/// The optimiser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum OptimizerConfig {
    /// Adam with L2 weight decay.
    Adam {
        /// L2 penalty added to the gradients.
        weight_decay: f32,
    },
    /// SGD with (Nesterov) momentum and L2 weight decay.
    Sgd {
        /// Momentum factor.
        momentum: f64,
        /// L2 penalty added to the gradients.
        weight_decay: f32,
    },
}

/// How the learner trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainerConfig {
    /// The optimiser.
    pub optimizer: OptimizerConfig,
    /// The learning rate over steps.
    pub schedule: LrSchedule,
    /// Weight of the value loss against the policy loss.
    #[serde(default = "default_value_weight")]
    pub value_weight: f32,
    /// The decay of the exponential moving average of the weights kept for play, in `[0, 1)`
    /// (0: none; e.g. 0.999 averages over the last ~1,000 steps).
    #[serde(default)]
    pub ema_decay: f64,
}

fn default_value_weight() -> f32 {
    1.0
}
