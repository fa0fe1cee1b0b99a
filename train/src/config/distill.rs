//! A distillation's settings, as a training run's `[distill]` section (the run ends by
//! teaching its network to the student `abnet` searches with) and as the defaults of
//! `fanorona distill`'s options: one place for the settings and their defaults.

use serde::{Deserialize, Serialize};

use super::{Architecture, MAX_BATCH, NetworkConfig, NetworkConfigError, ValueHead};

/// The most positions (training and held-out together) a student may be taught on, about a
/// gigabyte of positions.
pub const MAX_POSITIONS: usize = 20_000_000;

/// Settings a student cannot be taught with.
#[derive(Debug, thiserror::Error)]
pub enum DistillSettingsError {
    /// The student's shape is not a valid network.
    #[error("the student's shape is not valid: {0}")]
    Student(#[from] NetworkConfigError),
    /// A count that must be positive is not.
    #[error("{what} must be at least 1 (got 0)")]
    Zero {
        /// Which count.
        what: &'static str,
    },
    /// The chance of keeping a leaf is not a chance.
    #[error("the chance of keeping a leaf must be in (0, 1], got {0}")]
    Keep(f64),
    /// A setting is outside its range.
    #[error("{what} must be {expected} (got {found})")]
    OutOfRange {
        /// Which setting.
        what: &'static str,
        /// What it may be.
        expected: &'static str,
        /// The value given.
        found: String,
    },
}

/// How a student is taught, everything but the seed (`fanorona distill --seed`; a run uses its
/// own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DistillSettings {
    /// The student MLP's hidden widths.
    pub hidden: Vec<usize>,
    /// Training positions (leaves of alpha-beta searches in seeded games).
    pub positions: usize,
    /// Held-out positions the student is compared with the teacher on after each epoch.
    pub held_out: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step.
    pub batch_size: usize,
    /// The highest learning rate (Adam; warm-up, then cosine decay).
    pub lr: f64,
    /// Weight of the value loss against the policy loss.
    pub value_weight: f32,
    /// Depth of the searches whose leaves are sampled, in complete turns.
    pub depth: u32,
    /// Chance that a search's leaf is kept.
    pub keep: f64,
}

impl Default for DistillSettings {
    /// The settings of the shipped student (`models/fanorona-9x5-64x32.safetensors`).
    fn default() -> DistillSettings {
        DistillSettings {
            hidden: vec![64, 32],
            positions: 1_000_000,
            held_out: 20_000,
            epochs: 4,
            batch_size: 512,
            lr: 1e-3,
            value_weight: 10.0,
            depth: 3,
            keep: 0.02,
        }
    }
}

impl DistillSettings {
    /// An error if the student is no network, a count is 0, the chance of keeping a leaf is
    /// not in `(0, 1]` or another setting is out of its range.
    pub fn validate(&self) -> Result<(), DistillSettingsError> {
        let student = NetworkConfig {
            planes: 1,
            height: 1,
            width: 1,
            num_actions: 1,
            architecture: Architecture::mlp(&self.hidden),
            value_head: ValueHead::Scalar,
        };
        student.validate()?;
        for (what, count) in [
            ("positions", self.positions),
            ("held-out positions", self.held_out),
            ("epochs", self.epochs),
            ("batch size", self.batch_size),
            ("search depth", self.depth as usize),
        ] {
            if count == 0 {
                return Err(DistillSettingsError::Zero { what });
            }
        }
        let keep = self.keep;
        if !(keep > 0.0 && keep <= 1.0) {
            return Err(DistillSettingsError::Keep(keep));
        }
        let out_of_range = |what, expected, found: String| {
            Err(DistillSettingsError::OutOfRange {
                what,
                expected,
                found,
            })
        };
        let sampled = self.positions.saturating_add(self.held_out);
        if sampled > MAX_POSITIONS {
            let expected = "at most 20000000 training and held-out positions together";
            return out_of_range("positions", expected, sampled.to_string());
        }
        if self.batch_size > MAX_BATCH {
            return out_of_range("batch size", "at most 65536", self.batch_size.to_string());
        }
        if !(self.lr > 0.0 && self.lr <= 1.0) {
            return out_of_range("learning rate", "a number in (0, 1]", self.lr.to_string());
        }
        let weight = self.value_weight;
        if !(weight.is_finite() && weight >= 0.0) {
            let expected = "a finite number at least 0";
            return out_of_range("value weight", expected, weight.to_string());
        }
        Ok(())
    }
}
