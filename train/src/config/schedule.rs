//! Learning-rate schedules as pure functions of the learner step, so a resumed run continues
//! the schedule exactly from its saved step.

use serde::{Deserialize, Serialize};

/// The learning rate over training steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LrSchedule {
    /// The same rate throughout.
    Constant {
        /// The rate.
        lr: f64,
    },
    /// Linear warm-up from 0 to `peak` over `warmup_steps`, then cosine decay to
    /// `peak * final_fraction` at `total_steps` (and constant after).
    WarmupCosine {
        /// The highest rate.
        peak: f64,
        /// Steps of linear warm-up.
        warmup_steps: u64,
        /// The step where the decay ends.
        total_steps: u64,
        /// The final rate as a fraction of `peak`.
        final_fraction: f64,
    },
    /// `lr * gamma^(step / every)`.
    Step {
        /// The initial rate.
        lr: f64,
        /// Factor applied every `every` steps.
        gamma: f64,
        /// Steps between reductions.
        every: u64,
    },
}

impl LrSchedule {
    /// The warm-up-cosine schedule of a fixed number of steps (`fit`, `distill`): warm-up
    /// over the first 2% of `total_steps` (at least one step), then cosine decay to
    /// `peak * final_fraction` at `total_steps`.
    pub fn warmup_cosine_over(peak: f64, total_steps: u64, final_fraction: f64) -> LrSchedule {
        LrSchedule::WarmupCosine {
            peak,
            warmup_steps: (total_steps / 50).max(1),
            total_steps,
            final_fraction,
        }
    }

    /// The rate for step `step` (counting from 0).
    pub fn lr_at(&self, step: u64) -> f64 {
        match *self {
            LrSchedule::Constant { lr } => lr,
            LrSchedule::WarmupCosine {
                peak,
                warmup_steps,
                total_steps,
                final_fraction,
            } => {
                if step < warmup_steps {
                    return peak * (step + 1) as f64 / warmup_steps as f64;
                }
                let span = total_steps.saturating_sub(warmup_steps).max(1);
                let t = ((step - warmup_steps) as f64 / span as f64).min(1.0);
                let floor = peak * final_fraction;
                floor + (peak - floor) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
            }
            LrSchedule::Step { lr, gamma, every } => {
                lr * gamma.powi((step / every.max(1)).min(i32::MAX as u64) as i32)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warmup_cosine_rises_peaks_and_decays_to_its_floor() {
        let s = LrSchedule::WarmupCosine {
            peak: 1e-3,
            warmup_steps: 10,
            total_steps: 110,
            final_fraction: 0.1,
        };
        assert!((s.lr_at(0) - 1e-4).abs() < 1e-12);
        assert!((s.lr_at(9) - 1e-3).abs() < 1e-12);
        assert!((s.lr_at(10) - 1e-3).abs() < 1e-12);
        assert!((s.lr_at(60) - 0.55e-3).abs() < 1e-9);
        assert!((s.lr_at(110) - 1e-4).abs() < 1e-12);
        assert!((s.lr_at(1000) - 1e-4).abs() < 1e-12);
        assert!(s.lr_at(30) > s.lr_at(40));
    }

    #[test]
    fn a_schedule_over_steps_warms_up_over_two_percent_of_them() {
        let s = LrSchedule::warmup_cosine_over(1e-3, 1000, 0.05);
        assert_eq!(
            s,
            LrSchedule::WarmupCosine {
                peak: 1e-3,
                warmup_steps: 20,
                total_steps: 1000,
                final_fraction: 0.05
            }
        );
        let short = LrSchedule::warmup_cosine_over(1e-3, 10, 0.05);
        assert!(matches!(
            short,
            LrSchedule::WarmupCosine {
                warmup_steps: 1,
                ..
            }
        ));
    }

    #[test]
    fn step_schedule_reduces_every_period() {
        let s = LrSchedule::Step {
            lr: 0.1,
            gamma: 0.5,
            every: 100,
        };
        assert_eq!(s.lr_at(99), 0.1);
        assert_eq!(s.lr_at(100), 0.05);
        assert_eq!(s.lr_at(250), 0.025);
        let text = toml::to_string(&s).unwrap();
        assert_eq!(toml::from_str::<LrSchedule>(&text).unwrap(), s);
    }
}
