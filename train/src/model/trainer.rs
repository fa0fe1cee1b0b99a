//! The trainer: one gradient step on a replay minibatch. Loss = policy cross-entropy against
//! the search's target distribution (illegal actions masked out, positions without a policy
//! target skipped) + `value_weight` x the value loss (a scalar head's squared error; a
//! win/draw/loss head's cross-entropy against the target read as
//! [`Wdl::from_value`](fanorona_env::Wdl::from_value): the game's result or an exact value
//! one-hot, a mix with the root value spread), with L2 weight decay in the optimiser (Adam or
//! SGD with momentum) and a learning-rate schedule over steps. Denormal weights are set to zero
//! after every step (see [`crate::model::flush_denormals`]). With `ema_decay` > 0 the trainer
//! also keeps a moving average of the weights ([`WeightAverage`]), for play.

use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use crate::config::{OptimizerConfig, TrainerConfig, ValueHead};
use crate::model::WeightAverage;
use crate::model::{PolicyValueNet, flush_denormals};
use crate::replay::Batch;

/// A logit added to illegal actions: far below any real logit, yet finite (no NaN in `0 * x`).
const ILLEGAL_LOGIT: f64 = -1.0e9;

/// The burn optimiser of `config`.
pub fn init_optimizer(config: &OptimizerConfig) -> ModuleOptimizer {
    let decay = |penalty: f32| (penalty > 0.0).then(|| WeightDecayConfig::new(penalty));
    match *config {
        OptimizerConfig::Adam { weight_decay } => AdamConfig::new()
            .with_weight_decay(decay(weight_decay))
            .init(),
        OptimizerConfig::Sgd {
            momentum,
            weight_decay,
        } => SgdConfig::new()
            .with_weight_decay(decay(weight_decay))
            .with_momentum(Some(
                MomentumConfig::new()
                    .with_momentum(momentum)
                    .with_dampening(0.0)
                    .with_nesterov(true),
            ))
            .init(),
    }
}

/// The losses of one step (means over the batch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LossReport {
    /// The step's number (before it was taken).
    pub step: u64,
    /// The learning rate used.
    pub lr: f64,
    /// `policy + value_weight * value`.
    pub total: f32,
    /// Policy cross-entropy against the targets (over positions with a policy target).
    pub policy: f32,
    /// The value loss: squared error of a scalar head, cross-entropy of a win/draw/loss one.
    pub value: f32,
    /// Mean entropy of the network's (masked) policy.
    pub entropy: f32,
}

impl LossReport {
    /// The first of the policy, value and total losses that is not a finite number, with its
    /// value: the network has diverged.
    pub fn non_finite(&self) -> Option<(&'static str, f32)> {
        [
            ("policy", self.policy),
            ("value", self.value),
            ("total", self.total),
        ]
        .into_iter()
        .find(|(_, loss)| !loss.is_finite())
    }
}

/// Trains a [`PolicyValueNet`] on replay minibatches.
pub struct Trainer {
    config: TrainerConfig,
    net: PolicyValueNet,
    optimizer: ModuleOptimizer,
    step: u64,
    device: Device,
    averaging: Option<WeightAverage>,
}

impl Trainer {
    /// A trainer for `net`, moved to the autodiff version of `device`, with a fresh optimiser.
    pub fn new(config: TrainerConfig, net: PolicyValueNet, device: &Device) -> Trainer {
        let optimizer = init_optimizer(&config.optimizer);
        Trainer::resume(config, net, optimizer, None, 0, device)
    }

    /// A learner resuming at `step` with a saved optimiser state and moving average of the
    /// weights, if any (as a checkpoint keeps them); with `ema_decay` > 0 and no saved
    /// average, the average starts from `net`.
    pub fn resume(
        config: TrainerConfig,
        net: PolicyValueNet,
        optimizer: ModuleOptimizer,
        averaged: Option<PolicyValueNet>,
        step: u64,
        device: &Device,
    ) -> Trainer {
        let averaging = (config.ema_decay > 0.0).then(|| {
            let start = averaged.unwrap_or_else(|| net.clone());
            WeightAverage::new(config.ema_decay, start.to_device(device), step)
        });
        let device = device.clone().autodiff();
        Trainer {
            config,
            net: net.to_device(&device).train(),
            optimizer,
            step,
            device,
            averaging,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &TrainerConfig {
        &self.config
    }

    /// Steps taken so far.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The network being trained (on the autodiff device).
    pub fn network(&self) -> &PolicyValueNet {
        &self.net
    }

    /// An inference copy of the network (no autodiff), for self-play and evaluation.
    pub fn inference_network(&self) -> PolicyValueNet {
        self.net.valid()
    }

    /// The moving average of the weights (no autodiff), if `ema_decay` > 0.
    pub fn averaged_network(&self) -> Option<&PolicyValueNet> {
        self.averaging.as_ref().map(WeightAverage::network)
    }

    /// The optimiser (with its per-parameter state).
    pub fn optimizer(&self) -> &ModuleOptimizer {
        &self.optimizer
    }

    /// The losses of the network on `batch` without training (no gradient step).
    pub fn evaluate(&self, batch: &Batch) -> LossReport {
        let net = self.net.valid();
        let device = self.device.clone().without_autodiff();
        let (total, report) = losses(&net, batch, &device, self.config.value_weight);
        LossReport {
            step: self.step,
            lr: self.config.schedule.lr_at(self.step),
            total: total.into_scalar::<f32>(),
            ..report
        }
    }

    /// One gradient step on `batch`; returns its losses (measured before the step).
    pub fn train_step(&mut self, batch: &Batch) -> LossReport {
        let lr = self.config.schedule.lr_at(self.step);
        let (total, report) = losses(&self.net, batch, &self.device, self.config.value_weight);
        let total_value = total.clone().into_scalar::<f32>();
        let grads = GradientsParams::from_grads(total.backward(), &self.net);
        self.net = flush_denormals(self.optimizer.step(lr, self.net.clone(), grads));
        if let Some(average) = &mut self.averaging {
            average.update(&self.net.valid());
        }
        let report = LossReport {
            step: self.step,
            lr,
            total: total_value,
            ..report
        };
        self.step += 1;
        report
    }
}

/// The total loss (a scalar tensor, differentiable on an autodiff device) and the parts.
fn losses(
    net: &PolicyValueNet,
    batch: &Batch,
    device: &Device,
    value_weight: f32,
) -> (Tensor<1>, LossReport) {
    let (b, a) = (batch.size, batch.num_actions);
    assert_eq!(
        a,
        net.config().num_actions,
        "batch and network action spaces differ"
    );
    let matrix =
        |data: &[f32]| Tensor::<2>::from_data(TensorData::new(data.to_vec(), [b, a]), device);
    let vector = |data: &[f32]| Tensor::<1>::from_data(TensorData::new(data.to_vec(), [b]), device);
    let input = net.input_tensor(&batch.observations, device);
    let (logits, raw_value) = net.forward_raw(input);
    let mask = matrix(&batch.mask);
    let target = matrix(&batch.policy);
    let weights = vector(&batch.policy_weights);
    let z = vector(&batch.values);

    let masked = logits + mask.sub_scalar(1.0).mul_scalar(-ILLEGAL_LOGIT);
    let log_p = log_softmax(masked, 1);
    let cross_entropy = (target * log_p.clone()).sum_dim(1).flatten::<1>(0, 1).neg();
    let weight_sum: f32 = batch.policy_weights.iter().sum::<f32>().max(1.0);
    let policy_loss = (cross_entropy * weights).sum().div_scalar(weight_sum);
    let value_loss = match net.config().value_head {
        ValueHead::Scalar => (net.value_of_raw(raw_value) - z).powi_scalar(2).mean(),
        ValueHead::Wdl => {
            // [max(z, 0), 1 - |z|, max(-z, 0)]: Wdl::from_value, batched.
            let win = z.clone().clamp_min(0.0);
            let loss = z.neg().clamp_min(0.0);
            let draw = (win.clone() + loss.clone()).neg().add_scalar(1.0);
            let target = Tensor::stack::<2>(vec![win, draw, loss], 1);
            (target * log_softmax(raw_value, 1)).sum_dim(1).mean().neg()
        }
    };
    let entropy = {
        let log_p = log_p.detach();
        (log_p.clone().exp() * log_p).sum_dim(1).mean().neg()
    };
    let total = policy_loss.clone() + value_loss.clone().mul_scalar(value_weight);
    let report = LossReport {
        policy: policy_loss.into_scalar::<f32>(),
        value: value_loss.into_scalar::<f32>(),
        entropy: entropy.into_scalar::<f32>(),
        ..LossReport::default()
    };
    (total, report)
}
