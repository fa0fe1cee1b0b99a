//! Supervised training on exact knowledge (`fanorona fit`): a network with a win/draw/loss
//! value head taught the proven values and keeping turns of exact sets (`fanorona exam --make-set
//! --prove`), instead of self-play's search targets. What a network of a shape reaches with
//! perfect labels is the ceiling of a self-play run with that network: it tells whether a
//! run's curve bends for its targets or for its network.
//!
//! Each proven turn start and each position along its keeping turns' chains is a sample
//! ([`fit_samples`]): the policy target is spread evenly over the actions that keep the value
//! there, the value target is the proven value (a lost position teaches its value only). The
//! loss is the trainer's ([`Trainer`]), with Adam and a warm-up-cosine learning rate; each
//! position goes through a random symmetry of the board. After each epoch the network takes
//! the exact exam on held-out positions of the training sets and on the board's built-in set
//! (whose positions, and their images, are never trained on).

mod samples;

pub use samples::{FitSample, FitSamples, fit_samples};

use std::sync::atomic::{AtomicBool, Ordering};

use burn::tensor::Device;
use fanorona_env::{Board, Fanorona, Game, Position};
use fanorona_eval::exam::ExactSet;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::config::{
    Architecture, LrSchedule, NetworkConfig, NetworkConfigError, OptimizerConfig, TrainerConfig,
    ValueHead,
};
use crate::exam::{BuiltinExactSet, ExactScores, exact_scores};
use crate::model::{LossReport, PolicyValueNet, Trainer};
use crate::replay::Batch;
use crate::rng::TrainRng;

/// How a network is fitted to exact sets.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSettings {
    /// The network's trunk (its value head is win/draw/loss).
    pub architecture: Architecture,
    /// Passes over the samples.
    pub epochs: usize,
    /// Samples a step.
    pub batch_size: usize,
    /// The highest learning rate (warm-up over the first 2% of steps, then cosine decay to
    /// 5% of it).
    pub lr: f64,
    /// Weight of the value loss against the policy loss.
    pub value_weight: f32,
    /// Adam's L2 weight decay.
    pub weight_decay: f32,
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            architecture: Architecture::mlp(&[256, 256]),
            epochs: 20,
            batch_size: 512,
            lr: 2e-3,
            value_weight: 1.0,
            weight_decay: 1e-4,
        }
    }
}

impl FitSettings {
    /// An error naming the first setting out of its range.
    pub fn validate(&self) -> Result<(), FitError> {
        let bad = |what: String| Err(FitError::Settings(what));
        if self.epochs == 0 {
            return bad(format!("epochs must be at least 1 (got {})", self.epochs));
        }
        if !(1..=65_536).contains(&self.batch_size) {
            return bad(format!(
                "batch size must be 1 to 65536 (got {})",
                self.batch_size
            ));
        }
        if !(self.lr.is_finite() && self.lr > 0.0 && self.lr <= 1.0) {
            return bad(format!(
                "learning rate must be above 0 and at most 1 (got {})",
                self.lr
            ));
        }
        if !(self.value_weight.is_finite() && self.value_weight >= 0.0) {
            return bad(format!(
                "value weight must be a finite number >= 0 (got {})",
                self.value_weight
            ));
        }
        if !(self.weight_decay.is_finite() && self.weight_decay >= 0.0) {
            return bad(format!(
                "weight decay must be a finite number >= 0 (got {})",
                self.weight_decay
            ));
        }
        Ok(())
    }
}

/// Why a network cannot be fitted.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// A setting is out of its range.
    #[error("{0}")]
    Settings(String),
    /// The architecture makes no valid network.
    #[error(transparent)]
    Network(#[from] NetworkConfigError),
    /// No sample to learn from.
    #[error("the sets hold no position to learn from (after leaving out the test positions)")]
    NoSamples,
    /// A step's loss is not a finite number.
    #[error(
        "step {step}: the {loss} loss is {value}; the network diverged (nothing written: \
         lower the learning rate?)"
    )]
    NonFiniteLoss {
        /// The step (from 0).
        step: u64,
        /// Which loss.
        loss: &'static str,
        /// Its value.
        value: f32,
    },
    /// An exam after an epoch failed.
    #[error("the exam after an epoch failed: {0}")]
    Exam(String),
    /// The stop flag was set: the network is not returned.
    #[error("stopped before the network was fitted")]
    Stopped,
}

/// The network's figures after an epoch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitEpoch {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Learner steps so far.
    pub step: u64,
    /// Mean policy loss over the epoch's steps.
    pub policy_loss: f32,
    /// Mean value loss over the epoch's steps.
    pub value_loss: f32,
    /// The exact exam on the held-out positions (none held out: `None`).
    pub held_out: Option<ExactScores>,
    /// The exact exam on the board's built-in set (a board without one: `None`).
    pub builtin: Option<ExactScores>,
}

/// What happened so far, for progress reports and metrics.
#[derive(Clone, Debug)]
pub enum FitEvent {
    /// A learner step was taken (of `total`).
    Step {
        /// The step's losses.
        loss: LossReport,
        /// Steps in all.
        total: u64,
    },
    /// An epoch ended.
    Epoch(FitEpoch),
}

/// Fits a new network (of `settings.architecture`, seeded by `seed`) for `board` to `samples`; after
/// each epoch it takes the exact exam on `held_out` (positions kept out of the samples) and on
/// the board's built-in set. `progress` hears of each step and epoch; `stop`, when set, ends
/// the fitting at the next step with [`FitError::Stopped`].
pub fn fit(
    board: &'static Board,
    samples: &[FitSample],
    held_out: Option<&ExactSet>,
    settings: &FitSettings,
    seed: u64,
    progress: &mut dyn FnMut(FitEvent),
    stop: Option<&AtomicBool>,
) -> Result<PolicyValueNet, FitError> {
    settings.validate()?;
    if samples.is_empty() {
        return Err(FitError::NoSamples);
    }
    let game = Fanorona::new(Position::initial(board));
    let config = NetworkConfig::for_game(&game, settings.architecture.clone())
        .with_value_head(ValueHead::Wdl);
    let device = Device::flex();
    let net = PolicyValueNet::init_seeded(&config, &device, seed)?;
    let steps_per_epoch = samples.len().div_ceil(settings.batch_size) as u64;
    let total = steps_per_epoch * settings.epochs as u64;
    let trainer_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam {
            weight_decay: settings.weight_decay,
        },
        schedule: LrSchedule::warmup_cosine_over(settings.lr, total, 0.05),
        value_weight: settings.value_weight,
        ema_decay: 0.0,
    };
    let mut trainer = Trainer::new(trainer_config, net, &device);
    let mut rng = TrainRng::seed_from_u64(seed);
    let mut order: Vec<&FitSample> = samples.iter().collect();
    let mut batch = Batch::default();
    let builtin = BuiltinExactSet::of_board(board.width(), board.height());
    // The bands of piece counts of the exams: the built-in set's, or three wide ones.
    let phases = builtin.map_or([0..=9, 10..=16, 17..=64], |b| b.phases.clone());
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        let (mut policy, mut value) = (0.0f64, 0.0f64);
        for chunk in order.chunks(settings.batch_size) {
            if stop.is_some_and(|stop| stop.load(Ordering::SeqCst)) {
                return Err(FitError::Stopped);
            }
            fill_batch(&game, chunk, &mut rng, &mut batch);
            let loss = trainer.train_step(&batch);
            if let Some((which, value)) = loss.non_finite() {
                return Err(FitError::NonFiniteLoss {
                    step: loss.step,
                    loss: which,
                    value,
                });
            }
            policy += f64::from(loss.policy);
            value += f64::from(loss.value);
            progress(FitEvent::Step { loss, total });
        }
        let net = trainer.inference_network();
        let exam = |set: &ExactSet| exact_scores(&net, set, &phases).map_err(FitError::Exam);
        progress(FitEvent::Epoch(FitEpoch {
            epoch,
            step: trainer.step(),
            policy_loss: (policy / steps_per_epoch as f64) as f32,
            value_loss: (value / steps_per_epoch as f64) as f32,
            held_out: held_out.map(exam).transpose()?,
            builtin: builtin.map(|b| exam(b.set())).transpose()?,
        }));
    }
    Ok(trainer.inference_network())
}

/// Fills `batch` with `samples`, each through a random symmetry of the board: the mover's
/// observation, the legal actions as the mask, the keeping actions sharing the policy target
/// evenly (no target without them) and the exact value.
fn fill_batch(game: &Fanorona, samples: &[&FitSample], rng: &mut TrainRng, batch: &mut Batch) {
    let [planes, height, width] = game.observation_shape();
    let (len, a) = (planes * height * width, game.num_actions());
    batch.reset(samples.len(), len, a);
    let mut observation = vec![0.0; len];
    let mut legal = Vec::new();
    for (i, sample) in samples.iter().enumerate() {
        let state = Fanorona::new(sample.position);
        let symmetry = rng.random_range(0..state.num_symmetries());
        let mover = |action: usize| state.transform_action(symmetry, state.to_mover_action(action));
        state.write_observation(&mut observation);
        state.transform_observation(
            symmetry,
            &observation,
            &mut batch.observations[i * len..(i + 1) * len],
        );
        let row = i * a;
        state.legal_actions(&mut legal);
        for &action in &legal {
            batch.mask[row + mover(action)] = 1.0;
        }
        let share = 1.0 / sample.actions.len().max(1) as f32;
        for &action in &sample.actions {
            batch.policy[row + mover(action)] = share;
        }
        batch.policy_weights[i] = if sample.actions.is_empty() { 0.0 } else { 1.0 };
        batch.values[i] = sample.value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The samples of a small 5x5 set of won, drawn and lost positions.
    fn samples() -> (ExactSet, Vec<FitSample>) {
        let set = ExactSet::parse(
            "# fanorona exact exam set\n# version: 1\n# board: 5x5\n# labeller: test\n\
             # sources: test\n\
             B1BBB/B2BB/3BW/3W1/W2W1 b 0 1 ; win ; d3c3Wb2A d3c3Wb2Ac2A d3c3Wb4W\n\
             BBBBB/BBBBB/1B2W/WWWWW/WWWWW w 0 1 ; draw ; d2d3Ac3A d2c3A\n\
             B1BBB/B2BB/5/2B2/3W1 w 0 1 ; loss ; d1d2 d1e1 d1c1\n",
        )
        .unwrap();
        let samples = fit_samples(std::slice::from_ref(&set), &[]).samples;
        (set, samples)
    }

    fn settings(epochs: usize) -> FitSettings {
        FitSettings {
            architecture: Architecture::mlp(&[32]),
            epochs,
            batch_size: 4,
            lr: 1e-2,
            ..FitSettings::default()
        }
    }

    #[test]
    fn the_batch_holds_the_mover_frame_targets_through_the_symmetry() {
        let (_, samples) = samples();
        let board = Board::new(5, 5).unwrap();
        let game = Fanorona::new(Position::initial(board));
        let refs: Vec<&FitSample> = samples.iter().collect();
        let mut batch = Batch::default();
        fill_batch(&game, &refs, &mut TrainRng::seed_from_u64(3), &mut batch);
        let a = game.num_actions();
        for (i, sample) in samples.iter().enumerate() {
            let row = &batch.policy[i * a..(i + 1) * a];
            let mask = &batch.mask[i * a..(i + 1) * a];
            let mut legal = Vec::new();
            Fanorona::new(sample.position).legal_actions(&mut legal);
            assert_eq!(mask.iter().sum::<f32>() as usize, legal.len());
            // Every target is on a legal (masked) action, and the targets sum to one.
            assert!(row.iter().zip(mask).all(|(&p, &m)| p == 0.0 || m == 1.0));
            if sample.actions.is_empty() {
                assert_eq!(batch.policy_weights[i], 0.0);
                assert_eq!(row.iter().sum::<f32>(), 0.0);
            } else {
                assert_eq!(batch.policy_weights[i], 1.0);
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            }
            assert_eq!(batch.values[i], sample.value);
        }
    }

    #[test]
    fn fitting_learns_the_keeping_turns_of_its_samples_and_a_stop_ends_it() {
        let (set, samples) = samples();
        let board = Board::new(5, 5).unwrap();
        let mut epochs = Vec::new();
        fit(
            board,
            &samples,
            Some(&set),
            &settings(60),
            1,
            &mut |event| {
                if let FitEvent::Epoch(e) = event {
                    epochs.push(e);
                }
            },
            None,
        )
        .unwrap();
        assert_eq!(epochs.len(), 60);
        let (first, last) = (&epochs[0], &epochs[59]);
        assert!(
            last.policy_loss < first.policy_loss / 2.0,
            "{first:?} {last:?}"
        );
        let held = last.held_out.as_ref().unwrap();
        assert_eq!(
            held.keeps, 1.0,
            "the two scored positions are learnt: {held:?}"
        );
        assert_eq!(held.value_accuracy, 1.0, "{held:?}");
        assert!(last.builtin.is_some(), "5x5 has a built-in set");

        let stop = AtomicBool::new(true);
        let error = fit(
            board,
            &samples,
            None,
            &settings(1),
            1,
            &mut |_| {},
            Some(&stop),
        );
        assert!(matches!(error, Err(FitError::Stopped)));
    }

    #[test]
    fn bad_settings_and_no_samples_are_refused() {
        let board = Board::new(5, 5).unwrap();
        let (_, samples) = samples();
        for (bad, what) in [
            (settings(0), "epochs"),
            (
                FitSettings {
                    lr: f64::NAN,
                    ..settings(1)
                },
                "learning rate",
            ),
            (
                FitSettings {
                    batch_size: 0,
                    ..settings(1)
                },
                "batch size",
            ),
            (
                FitSettings {
                    value_weight: -1.0,
                    ..settings(1)
                },
                "value weight",
            ),
        ] {
            let error = fit(board, &samples, None, &bad, 1, &mut |_| {}, None).unwrap_err();
            assert!(error.to_string().starts_with(what), "{error}");
        }
        let error = fit(board, &[], None, &settings(1), 1, &mut |_| {}, None).unwrap_err();
        assert!(matches!(error, FitError::NoSamples), "{error}");
        let wide = FitSettings {
            architecture: Architecture::mlp(&[100_000_000]),
            ..settings(1)
        };
        let error = fit(board, &samples, None, &wide, 1, &mut |_| {}, None).unwrap_err();
        assert!(matches!(error, FitError::Network(_)), "{error}");
    }
}
