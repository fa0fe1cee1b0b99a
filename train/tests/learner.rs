//! The learner on a small fixed dataset: every architecture, with a scalar or a win/draw/loss
//! value head, drives its policy loss towards the targets' entropy and its value loss towards
//! zero.

mod common;

use burn::tensor::Device;
use common::games::fixed_batch;
use fanorona_env::Fanorona;
use fanorona_train::config::{
    Architecture, LrSchedule, NetworkConfig, OptimizerConfig, TrainerConfig, ValueHead,
};
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::replay::Batch;

/// The mean entropy of the targets of positions with a policy target: the floor of the
/// policy cross-entropy.
fn target_entropy(batch: &Batch) -> f32 {
    let a = batch.num_actions;
    let mut sum = 0.0;
    for i in 0..batch.size {
        let h: f32 = batch.policy[i * a..(i + 1) * a]
            .iter()
            .filter(|&&p| p > 0.0)
            .map(|&p| -p * p.ln())
            .sum();
        sum += h * batch.policy_weights[i];
    }
    sum / batch.policy_weights.iter().sum::<f32>()
}

fn overfits(architecture: Architecture, steps: usize) {
    overfits_with(architecture, ValueHead::Scalar, steps);
}

fn overfits_with(architecture: Architecture, value_head: ValueHead, steps: usize) {
    let mut batch = fixed_batch();
    if value_head == ValueHead::Wdl {
        // Draws among the results, so that all three classes are learned.
        for v in batch.values.iter_mut().step_by(3) {
            *v = 0.0;
        }
    }
    let config =
        NetworkConfig::for_game(&Fanorona::standard(), architecture).with_value_head(value_head);
    let device = Device::flex();
    let learner_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
        schedule: LrSchedule::Constant { lr: 3e-3 },
        value_weight: 1.0,
        ema_decay: 0.0,
    };
    let mut learner = Trainer::new(
        learner_config,
        PolicyValueNet::init_seeded(&config, &device, 1).unwrap(),
        &device,
    );
    let first = learner.train_step(&batch);
    for _ in 1..steps {
        learner.train_step(&batch);
    }
    let last = learner.evaluate(&batch);
    let floor = target_entropy(&batch);
    assert_eq!(learner.step(), steps as u64);
    assert!(first.entropy > 0.0 && first.policy >= floor - 1e-3);
    assert!(
        last.policy - floor < 0.3 * (first.policy - floor),
        "policy loss {} -> {} (floor {floor})",
        first.policy,
        last.policy
    );
    assert!(
        last.value < 0.3 * first.value,
        "value loss {} -> {}",
        first.value,
        last.value
    );
    assert!((last.total - (last.policy + last.value)).abs() < 1e-4);
    // The values search takes follow the targets.
    let net = learner.inference_network();
    let mut policy = vec![0.0; batch.policy.len()];
    let mut values = vec![0.0; batch.size];
    net.infer(&batch.observations, &mut policy, &mut values);
    let error: f32 = values
        .iter()
        .zip(&batch.values)
        .map(|(v, z)| (v - z).abs())
        .sum::<f32>()
        / batch.size as f32;
    assert!(error < 0.35, "mean value error {error}");
}

#[test]
fn a_win_draw_loss_head_overfits_a_small_fixed_dataset() {
    overfits_with(Architecture::mlp(&[64]), ValueHead::Wdl, 60);
    overfits_with(Architecture::resnet(1, 8), ValueHead::Wdl, 60);
}

#[test]
fn the_mlp_overfits_a_small_fixed_dataset() {
    overfits(Architecture::mlp(&[64]), 60);
}

#[test]
fn the_residual_mlp_overfits_a_small_fixed_dataset() {
    overfits(Architecture::residual_mlp(64, 2), 60);
}

#[test]
fn the_resnet_overfits_a_small_fixed_dataset() {
    overfits(Architecture::resnet(1, 8), 60);
}
