//! Helpers of the training tests: a learner trained a few steps, network outputs, and (in
//! `games`) seeded random games and a fixed batch. Each test file uses a part of them.
#![allow(dead_code)]

use burn::module::Module;
use burn::tensor::Device;
use fanorona_env::{Fanorona, Game};
use fanorona_train::config::{
    Architecture, LrSchedule, NetworkConfig, OptimizerConfig, TrainerConfig,
};
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::replay::Batch;

pub mod games;

use games::fixed_batch;

/// A learner for the standard board with Adam at learning rate `lr`, trained `steps` steps on
/// the fixed batch (so batch-norm statistics are not the initial ones).
pub fn trained(architecture: Architecture, lr: f64, steps: usize) -> Trainer {
    trained_with_average(architecture, lr, steps, 0.0)
}

/// As [`trained`], keeping a moving average of the weights with `ema_decay` (0: none).
pub fn trained_with_average(
    architecture: Architecture,
    lr: f64,
    steps: usize,
    ema_decay: f64,
) -> Trainer {
    let device = Device::flex();
    let config = NetworkConfig::for_game(&Fanorona::standard(), architecture);
    let learner_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
        schedule: LrSchedule::Constant { lr },
        value_weight: 1.0,
        ema_decay,
    };
    let mut learner = Trainer::new(
        learner_config,
        PolicyValueNet::init_seeded(&config, &device, 1).unwrap(),
        &device,
    );
    let batch = fixed_batch();
    for _ in 0..steps {
        learner.train_step(&batch);
    }
    learner
}

/// The network's policy logits and values on `batch`.
pub fn outputs(net: &PolicyValueNet, batch: &Batch) -> (Vec<f32>, Vec<f32>) {
    let mut policy = vec![0.0; batch.size * batch.num_actions];
    let mut values = vec![0.0; batch.size];
    net.valid()
        .infer(&batch.observations, &mut policy, &mut values);
    (policy, values)
}

/// The logits and value of `net` at `game`'s position, one vector (logits first).
pub fn position_outputs(net: &PolicyValueNet, game: &Fanorona) -> Vec<f32> {
    let config = net.config();
    let mut observation = vec![0.0; config.observation_len()];
    game.write_observation(&mut observation);
    let mut out = vec![0.0; config.num_actions + 1];
    let (logits, value) = out.split_at_mut(config.num_actions);
    net.infer(&observation, logits, value);
    out
}
