//! `fanorona gauntlet --run DIR`: the evaluator over a shared run directory
//! ([`run_gauntlet`]): it evaluates the model versions of `DIR/models/` not in
//! `DIR/gauntlet.csv` yet (every `--every`-th) and appends their rows; with `--follow` it
//! waits for new versions until the learner is done. Ctrl-C ends after the evaluation under
//! way.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use fanorona_train::roles::{GauntletSchedule, run_gauntlet};
use fanorona_train::run_dir::RunDir;

use super::train::stop_on_ctrl_c;
use crate::output::outln;

/// Evaluates the model versions of the run directory `dir`: every `every`-th (default: the
/// run's `eval_every_iterations`), and with `follow` the new ones until the learner is done.
pub fn evaluate_run(dir: &Path, every: Option<u64>, follow: bool) -> Result<()> {
    let run = RunDir::new(dir);
    let config =
        (run.load_config()).with_context(|| format!("{} is not a run directory", dir.display()))?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "finishing the evaluation under way")?;
    let schedule = GauntletSchedule { every, follow };
    // Standard output closed (`| head -1`): nothing more is wanted; stop after this one.
    let mut failed = None;
    run_gauntlet(&run, &config, schedule, &stop, |row, evaluation| {
        let (version, step) = (row.version, row.step);
        if let Err(error) = outln!(
            "model version {version} (step {step}): {}",
            evaluation.summary()
        ) {
            failed = Some(error);
            stop.store(true, Ordering::SeqCst);
        }
    })?;
    Ok(failed.map_or(Ok(()), Err)?)
}
