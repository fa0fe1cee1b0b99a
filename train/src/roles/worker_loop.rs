//! The self-play worker's loop over a shared run directory (what `fanorona selfplay` runs):
//! wait for the learner's first model, then play shard after shard with the newest model of
//! `models/` (taken up between shards), each written atomically into `games/`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::SelfPlayWorker;
use crate::error::TrainError;
use crate::io::{Shard, check_worker};
use crate::run_dir::{RunDir, RunDirError};

/// How often the run directory is looked at while waiting for a model.
const POLL: Duration = Duration::from_millis(200);

/// Where a worker stops, besides the learner being done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerLimits {
    /// Games to play (rounded up to whole shards); `None`: until the learner is done.
    pub games: Option<u64>,
    /// How long to wait for a model before giving up.
    pub wait: Duration,
}

/// What a worker loop played in all.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkerTotals {
    /// Shards written.
    pub shards: u64,
    /// Games played.
    pub games: u64,
    /// Positions recorded.
    pub positions: u64,
    /// Seconds from the first model to the end.
    pub seconds: f64,
}

/// The newest model of `run` once it has a configuration and a model, waiting up to `wait`;
/// `None` if `stop` is set meanwhile.
fn wait_for_model(
    run: &RunDir,
    wait: Duration,
    stop: &AtomicBool,
) -> Result<Option<(u64, PathBuf)>, TrainError> {
    let started = Instant::now();
    loop {
        if run.has_config()
            && let Some(model) = run.latest_model()?
        {
            return Ok(Some(model));
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        if started.elapsed() > wait {
            return Err(TrainError::NoModel {
                run: run.path().to_path_buf(),
                models: run.models(),
                waited_s: wait.as_secs(),
            });
        }
        std::thread::sleep(POLL);
    }
}

/// Runs the self-play worker `name` (1 to 64 letters, digits, `-` or `_`; it names its shards,
/// and a restarted worker of the same name goes on with its numbering) over the run
/// directory `run` until `limits`, the learner is done, or `stop` is set (after the shard
/// under way); `on_shard` hears of each shard written, with its path.
pub fn run_worker(
    run: &RunDir,
    name: &str,
    limits: WorkerLimits,
    stop: &AtomicBool,
    mut on_shard: impl FnMut(&Path, &Shard),
) -> Result<WorkerTotals, TrainError> {
    check_worker(name)?;
    let mut totals = WorkerTotals::default();
    if wait_for_model(run, limits.wait, stop)?.is_none() {
        return Ok(totals);
    }
    let started = Instant::now();
    let mut worker = SelfPlayWorker::new(run.load_config()?, name)?;
    let mut sequence = run.next_sequence(name)?;
    while !stop.load(Ordering::SeqCst)
        && !run.is_learner_done()
        && limits.games.is_none_or(|games| totals.games < games)
    {
        let Some((version, path)) = wait_for_model(run, limits.wait, stop)? else {
            break;
        };
        if worker.model_version() != Some(version) {
            match std::fs::read(&path) {
                Ok(bytes) => worker.set_model(&bytes, version)?,
                // Pruned by the learner meanwhile: a newer one is there.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => {
                    return Err(RunDirError::Io {
                        action: "read",
                        path,
                        error,
                    }
                    .into());
                }
            }
        }
        let shard = worker.play_shard(sequence)?;
        on_shard(&run.write_shard(&shard)?, &shard);
        sequence += 1;
        totals.shards += 1;
        totals.games += shard.games.len() as u64;
        totals.positions += shard.positions() as u64;
    }
    totals.seconds = started.elapsed().as_secs_f64();
    Ok(totals)
}
