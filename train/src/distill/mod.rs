//! Knowledge distillation (Hinton, Vinyals and Dean 2015, "Distilling the knowledge in a neural
//! network"): a smaller MLP, the student, trained to give a trained network's (the teacher's)
//! policy and value on the positions where an alpha-beta search asks for values
//! ([`sample_leaves`]), so that `abnet` searches with a network that is cheaper at every leaf
//! (NNUE engines keep their later layers small for the same reason; speeds and strength in
//! docs/experiments/2026-12-02-distillation.md). Where the teacher is an MLP whose first layer
//! has the student's first layer's shape, the student starts from it.
//!
//! The loss is the trainer's ([`Trainer`]): cross-entropy against the teacher's policy over
//! the legal actions plus `value_weight` times the squared error against the teacher's
//! value, with Adam and a warm-up-cosine learning rate. The labels are computed batch by batch
//! ([`lesson`]), so only the positions are kept in memory. With endgame tables, the value
//! target of a position they hold is its exact value instead of the teacher's.

mod leaves;
mod lesson;

pub use leaves::{LeafSampling, sample_leaves};
pub use lesson::lesson;

use std::sync::atomic::{AtomicBool, Ordering};

use burn::tensor::Device;
use fanorona_env::Position;
use fanorona_eval::minimax::LARGEST_LOGIT;
use fanorona_exact::tables::EndgameTables;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;

use crate::config::{
    Architecture, DistillSettings, DistillSettingsError, LrSchedule, NetworkConfig,
    OptimizerConfig, TrainerConfig, ValueHead,
};
use crate::model::{LossReport, PolicyValueNet, Trainer};
use crate::replay::Batch;
use crate::rng::TrainRng;
use crate::table_labels::exact_value;

/// Why a student cannot be taught.
#[derive(Debug, thiserror::Error)]
pub enum DistillError {
    /// The settings are out of their ranges, or the student's shape is not a valid network.
    #[error(transparent)]
    Settings(#[from] DistillSettingsError),
    /// A step's loss is not a finite number: the student diverged, and is not returned.
    #[error(
        "step {step}: the {loss} loss is {value}; the student diverged (nothing written: \
         lower the learning rate or the value weight?)"
    )]
    NonFiniteLoss {
        /// The step (from 0).
        step: u64,
        /// Which loss: `policy`, `value` or `total`.
        loss: &'static str,
        /// Its value.
        value: f32,
    },
    /// The start position has no game to sample from.
    #[error("the start position has no legal turn: no positions to learn from")]
    NoPositions,
    /// The stop flag was set: the student is not done, and not returned.
    #[error("stopped before the student was taught")]
    Stopped,
}

/// What happened so far, for progress reports and metrics.
#[derive(Clone, Debug)]
pub enum DistillEvent {
    /// The positions were sampled.
    Sampled {
        /// Training positions.
        train: usize,
        /// Held-out positions.
        held_out: usize,
        /// Training positions whose value target is exact (held by the endgame tables).
        exact: usize,
    },
    /// A learner step was taken (of `total`).
    Step {
        /// The step's losses.
        loss: LossReport,
        /// Steps in all.
        total: u64,
    },
    /// An epoch ended.
    Epoch(EpochReport),
}

/// How close the student came to the teacher after an epoch, on the held-out positions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Learner steps so far.
    pub step: u64,
    /// Mean absolute difference of the values (in `[-1, 1]`).
    pub value_mae: f32,
    /// Root mean squared difference of the values.
    pub value_rmse: f32,
    /// Largest difference of the values.
    pub value_max: f32,
    /// Mean absolute difference of the values' logits ([`value_logit`]), the scale on which
    /// `abnet` compares positions.
    pub logit_mae: f32,
    /// Mean cross-entropy of the student's policy against the teacher's.
    pub policy_loss: f32,
}

/// Teaches a student of shape `settings.hidden` from `teacher` (an inference copy) on positions
/// of games from `start`, seeded by `seed` (the games, the student's initial weights, the order
/// of the positions); returns the student (an inference copy). `progress` hears of each
/// stage, step and epoch; `stop`, when set (e.g. by Ctrl-C), ends the teaching at the next
/// step with [`DistillError::Stopped`].
pub fn distill(
    teacher: &PolicyValueNet,
    tables: Option<&EndgameTables>,
    start: &Position,
    settings: &DistillSettings,
    seed: u64,
    progress: &mut dyn FnMut(DistillEvent),
    stop: Option<&AtomicBool>,
) -> Result<PolicyValueNet, DistillError> {
    settings.validate()?;
    let sampling = LeafSampling {
        depth: settings.depth,
        keep: settings.keep,
        seed,
    };
    // A scalar value head whatever the teacher's: the student learns the value alpha-beta
    // searches, the teacher's P(win) - P(loss) for a win/draw/loss teacher.
    let student_config = NetworkConfig {
        architecture: Architecture::mlp(&settings.hidden),
        value_head: ValueHead::Scalar,
        ..teacher.config().clone()
    };
    let device = Device::flex();
    let mut student = PolicyValueNet::init_seeded(&student_config, &device, seed)
        .map_err(DistillSettingsError::from)?;
    student.adopt_first_layer(teacher);

    let mut positions = sample_leaves(start, settings.positions + settings.held_out, sampling);
    if positions.len() < settings.positions + settings.held_out {
        return Err(DistillError::NoPositions);
    }
    let held_out = positions.split_off(settings.positions);
    let exact = tables.map_or(0, |t| {
        positions
            .iter()
            .filter(|p| exact_value(t, p).is_some())
            .count()
    });
    progress(DistillEvent::Sampled {
        train: positions.len(),
        held_out: held_out.len(),
        exact,
    });

    let steps_per_epoch = positions.len().div_ceil(settings.batch_size) as u64;
    let total = steps_per_epoch * settings.epochs as u64;
    let trainer_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 0.0 },
        schedule: LrSchedule::warmup_cosine_over(settings.lr, total, 0.02),
        value_weight: settings.value_weight,
        ema_decay: 0.0,
    };
    let mut trainer = Trainer::new(trainer_config, student, &device);
    let mut rng = TrainRng::seed_from_u64(seed);
    let (mut batch, mut next, mut logits) = (Batch::default(), Batch::default(), Vec::new());
    for epoch in 1..=settings.epochs {
        positions.shuffle(&mut rng);
        let mut chunks = positions.chunks(settings.batch_size).peekable();
        if let Some(first) = chunks.peek() {
            lesson(teacher, tables, first, &mut next, &mut logits);
        }
        while chunks.next().is_some() {
            if stop.is_some_and(|stop| stop.load(Ordering::SeqCst)) {
                return Err(DistillError::Stopped);
            }
            std::mem::swap(&mut batch, &mut next);
            // The teacher labels the next minibatch while the student learns this one.
            let (loss, ()) = rayon::join(
                || trainer.train_step(&batch),
                || {
                    if let Some(chunk) = chunks.peek() {
                        lesson(teacher, tables, chunk, &mut next, &mut logits);
                    }
                },
            );
            if let Some((which, value)) = loss.non_finite() {
                return Err(DistillError::NonFiniteLoss {
                    step: loss.step,
                    loss: which,
                    value,
                });
            }
            progress(DistillEvent::Step { loss, total });
        }
        let report = compare(teacher, tables, &trainer, &held_out, settings.batch_size);
        progress(DistillEvent::Epoch(EpochReport {
            epoch,
            step: trainer.step(),
            ..report
        }));
    }
    Ok(trainer.inference_network())
}

/// The student's errors against the teacher (its values made exact where `tables` hold the
/// position) on `positions` (epoch and step left at 0).
fn compare(
    teacher: &PolicyValueNet,
    tables: Option<&EndgameTables>,
    trainer: &Trainer,
    positions: &[Position],
    batch_size: usize,
) -> EpochReport {
    let student = trainer.inference_network();
    let (mut batch, mut logits) = (Batch::default(), Vec::new());
    let (mut policy, mut values) = (Vec::new(), Vec::new());
    let (mut abs, mut squares, mut max) = (0.0f64, 0.0f64, 0.0f32);
    let (mut logit_abs, mut policy_loss) = (0.0f64, 0.0f64);
    for chunk in positions.chunks(batch_size) {
        lesson(teacher, tables, chunk, &mut batch, &mut logits);
        policy.resize(batch.policy.len(), 0.0);
        values.resize(batch.size, 0.0);
        student.infer(&batch.observations, &mut policy, &mut values);
        for (&s, &t) in values.iter().zip(&batch.values) {
            let d = (s - t).abs();
            abs += f64::from(d);
            squares += f64::from(d * d);
            max = max.max(d);
            logit_abs += f64::from((value_logit(s) - value_logit(t)).abs());
        }
        policy_loss += f64::from(trainer.evaluate(&batch).policy) * chunk.len() as f64;
    }
    let n = positions.len() as f64;
    EpochReport {
        epoch: 0,
        step: 0,
        value_mae: (abs / n) as f32,
        value_rmse: (squares / n).sqrt() as f32,
        value_max: max,
        logit_mae: (logit_abs / n) as f32,
        policy_loss: (policy_loss / n) as f32,
    }
}

/// The logit of `value` (its `atanh`) within +-[`LARGEST_LOGIT`], the range of the scores
/// `abnet` compares ([`score_of_logit`]).
///
/// [`score_of_logit`]: fanorona_eval::minimax::score_of_logit
fn value_logit(value: f32) -> f32 {
    value
        .clamp(-1.0, 1.0)
        .atanh()
        .clamp(-LARGEST_LOGIT, LARGEST_LOGIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::module::Module;
    use fanorona_env::Fanorona;

    fn config(epochs: usize) -> DistillSettings {
        DistillSettings {
            hidden: vec![32, 8],
            positions: 512,
            held_out: 128,
            epochs,
            batch_size: 64,
            lr: 3e-3,
            value_weight: 4.0,
            depth: 2,
            keep: 0.05,
        }
    }

    /// Why `distill` refuses `settings` on the standard board.
    fn refused(settings: &DistillSettings) -> DistillError {
        let start = Position::standard();
        distill(&teacher(), None, &start, settings, 1, &mut |_| {}, None).unwrap_err()
    }

    /// A seeded teacher MLP 32-32.
    fn teacher() -> PolicyValueNet {
        let config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[32, 32]));
        PolicyValueNet::init_seeded(&config, &Device::flex(), 8)
            .unwrap()
            .valid()
    }

    #[test]
    fn the_student_comes_closer_to_the_teacher() {
        let teacher = teacher();
        let mut reports = Vec::new();
        let mut steps = 0;
        let student = distill(
            &teacher,
            None,
            &Position::standard(),
            &config(4),
            1,
            &mut |p| match p {
                DistillEvent::Epoch(report) => reports.push(report),
                DistillEvent::Step { total, .. } => {
                    steps += 1;
                    assert_eq!(total, 32);
                }
                DistillEvent::Sampled {
                    train,
                    held_out,
                    exact,
                } => assert_eq!((train, held_out, exact), (512, 128, 0)),
            },
            None,
        )
        .unwrap();
        assert_eq!(steps, 32);
        assert_eq!(student.config().architecture, Architecture::mlp(&[32, 8]));
        assert_eq!(reports.len(), 4);
        assert_eq!(reports[3].step, 32);
        let (first, last) = (reports[0], reports[3]);
        assert!(last.value_rmse < first.value_rmse, "{first:?} -> {last:?}");
        assert!(last.logit_mae < first.logit_mae, "{first:?} -> {last:?}");
        assert!(
            last.policy_loss < first.policy_loss,
            "{first:?} -> {last:?}"
        );
        assert!(last.value_mae <= last.value_rmse && last.value_rmse <= last.value_max);
        assert!(
            last.logit_mae >= last.value_mae,
            "atanh grows faster than its argument"
        );
    }

    #[test]
    fn bad_settings_are_refused_before_any_work() {
        let mut bad = config(0);
        let error = refused(&bad);
        assert_eq!(error.to_string(), "epochs must be at least 1 (got 0)");
        bad = config(1);
        bad.keep = 1.5;
        let error = refused(&bad);
        assert!(
            matches!(error, DistillError::Settings(DistillSettingsError::Keep(_))),
            "{error}"
        );
        bad = DistillSettings {
            hidden: vec![],
            ..config(1)
        };
        let error = refused(&bad);
        assert!(error.to_string().contains("hidden layer"), "{error}");
        for (bad, what) in [
            (
                DistillSettings {
                    lr: f64::NAN,
                    ..config(1)
                },
                "learning rate",
            ),
            (
                DistillSettings {
                    lr: 1e30,
                    ..config(1)
                },
                "learning rate",
            ),
            (
                DistillSettings {
                    value_weight: f32::INFINITY,
                    ..config(1)
                },
                "value weight",
            ),
            (
                DistillSettings {
                    positions: usize::MAX,
                    ..config(1)
                },
                "positions",
            ),
            (
                DistillSettings {
                    batch_size: 1 << 20,
                    ..config(1)
                },
                "batch size",
            ),
        ] {
            let error = refused(&bad);
            assert!(error.to_string().starts_with(what), "{error}");
        }
        let huge = DistillSettings {
            hidden: vec![100_000_000],
            ..config(1)
        };
        let error = refused(&huge);
        assert!(error.to_string().contains("above the limit"), "{error}");
        let lost = Position::from_fen("B8/9/9/9/9 w").unwrap();
        let error = distill(&teacher(), None, &lost, &config(1), 1, &mut |_| {}, None).unwrap_err();
        assert!(matches!(error, DistillError::NoPositions), "{error}");
    }

    #[test]
    fn a_stop_ends_the_teaching_at_the_next_step() {
        let stop = AtomicBool::new(false);
        let mut steps = 0;
        let error = distill(
            &teacher(),
            None,
            &Position::standard(),
            &config(4),
            1,
            &mut |p| {
                if let DistillEvent::Step { .. } = p {
                    steps += 1;
                    if steps == 3 {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            },
            Some(&stop),
        )
        .unwrap_err();
        assert!(matches!(error, DistillError::Stopped), "{error}");
        assert_eq!(steps, 3, "no step after the stop");
    }
}
