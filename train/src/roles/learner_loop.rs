//! The learner role's loop over a shared run directory (what `fanorona learn` runs): ingest the
//! shards the self-play workers write into `games/`, take the steps they earn, publish model
//! versions, until the limits; then a checkpoint and `learner.done`, which ends the workers.

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Learner, LearnerRow};
use crate::error::TrainError;

/// How long the loop sleeps when there is nothing to ingest and no step to take.
const POLL: Duration = Duration::from_millis(100);

/// Where a learner stops: at model version `versions` or learner step `steps`, whichever comes
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnLimits {
    /// The model version to stop at.
    pub versions: u64,
    /// The learner step to stop at.
    pub steps: u64,
}

impl LearnLimits {
    /// Whether `learner` has reached a limit.
    pub fn reached(&self, learner: &Learner) -> bool {
        learner.model_version() >= self.versions || learner.step() >= self.steps
    }
}

/// What the learner loop reports as it goes.
#[derive(Debug)]
pub enum LearnerEvent<'a> {
    /// A model version was published, with its row of `learner.csv`.
    Published(&'a LearnerRow),
    /// A shard of `games/` cannot be read (damaged, or of another game): skipped, once.
    SkippedShard(&'a TrainError),
}

/// How the learner loop ended, and where the learner stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnerEnd {
    /// Whether `stop` ended it (else a limit was reached and `learner.done` marked).
    pub stopped: bool,
    /// The checkpoint written at the end.
    pub checkpoint: PathBuf,
    /// The latest model version.
    pub version: u64,
    /// Learner steps taken.
    pub step: u64,
    /// Positions in the replay window.
    pub replay_positions: usize,
}

impl LearnerEnd {
    /// Where `learner` stands after writing `checkpoint`.
    fn of(learner: &Learner, checkpoint: PathBuf, stopped: bool) -> LearnerEnd {
        LearnerEnd {
            stopped,
            checkpoint,
            version: learner.model_version(),
            step: learner.step(),
            replay_positions: learner.replay_positions(),
        }
    }
}

impl fmt::Display for LearnerEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (version, step, checkpoint) = (self.version, self.step, self.checkpoint.display());
        if self.stopped {
            write!(
                f,
                "interrupted at model version {version}, step {step}: checkpoint {checkpoint} \
                 written; run the same command again to resume"
            )
        } else {
            write!(
                f,
                "model version {version}, {step} learner steps, {} positions in replay\n\
                 checkpoint {checkpoint}",
                self.replay_positions
            )
        }
    }
}

/// Runs `learner` over its run directory until `limits` (then it checkpoints and marks the run
/// `learner.done`) or until `stop` is set (then it checkpoints only), reporting each published
/// version and each skipped shard to `on_event`. It waits, polling, while no shard is new and
/// no step is earned.
pub fn run_learner(
    learner: &mut Learner,
    limits: LearnLimits,
    stop: &AtomicBool,
    mut on_event: impl FnMut(LearnerEvent<'_>),
) -> Result<LearnerEnd, TrainError> {
    learner.dir().clear_learner_done()?;
    while !limits.reached(learner) {
        if stop.load(Ordering::SeqCst) {
            let checkpoint = learner.checkpoint()?;
            return Ok(LearnerEnd::of(learner, checkpoint, true));
        }
        let ingested =
            learner.ingest_stored(|error| on_event(LearnerEvent::SkippedShard(error)))?;
        let step = learner.step();
        for row in learner.advance(limits, stop)? {
            on_event(LearnerEvent::Published(&row));
        }
        if ingested == 0 && learner.step() == step {
            std::thread::sleep(POLL);
        }
    }
    let checkpoint = learner.checkpoint()?;
    learner.dir().mark_learner_done(learner.step())?;
    Ok(LearnerEnd::of(learner, checkpoint, false))
}
