//! The gauntlet's loop over a shared run directory (what `fanorona gauntlet --run` runs):
//! evaluate the model versions of `models/` not evaluated yet, appending their rows to
//! `gauntlet.csv` (read back on a restart, so no version is evaluated twice), and with
//! `follow` wait for new ones until the learner is done.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Evaluation, Gauntlet, GauntletRow};
use crate::config::RunConfig;
use crate::error::TrainError;
use crate::io::load_policy;
use crate::run_dir::{MetricsWriter, RunDir, read_rows};

/// How often a following gauntlet looks for new versions.
const POLL: Duration = Duration::from_millis(500);

/// Which versions a gauntlet loop evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GauntletSchedule {
    /// Every `every`-th model version; `None`: the run's `eval_every_iterations`.
    pub every: Option<u64>,
    /// Wait for new versions until the learner is done, instead of stopping after those there.
    pub follow: bool,
}

/// Evaluates the model versions of the run directory `run` (of configuration `config`) that `schedule` picks and
/// `gauntlet.csv` does not hold yet, appending a row for each and passing it to
/// `on_evaluated` with its evaluation, until they are done (following: until the learner is
/// done) or `stop` is set (after the evaluation under way). Returns how many it evaluated.
pub fn run_gauntlet(
    run: &RunDir,
    config: &RunConfig,
    schedule: GauntletSchedule,
    stop: &AtomicBool,
    mut on_evaluated: impl FnMut(&GauntletRow, &Evaluation),
) -> Result<u64, TrainError> {
    let gauntlet = Gauntlet::for_run(config).ok_or(TrainError::NoEvaluation {
        game: config.game.to_string(),
    })?;
    let every = schedule
        .every
        .unwrap_or(config.run.eval_every_iterations)
        .max(1);
    let path = run.gauntlet();
    let mut last = if path.exists() {
        read_rows::<GauntletRow>(&path)?
            .last()
            .map(|row| row.version)
    } else {
        None
    };
    let mut writer = MetricsWriter::<GauntletRow>::open(&path, last.unwrap_or(0))?;
    let mut evaluated = 0;
    loop {
        // Seen before the pass: a learner done by then has published its last version.
        let done = run.is_learner_done();
        for (version, model) in run.list_models()? {
            if stop.load(Ordering::SeqCst) {
                return Ok(evaluated);
            }
            if last.is_some_and(|l| version <= l) || !version.is_multiple_of(every) {
                continue;
            }
            let loaded = match load_policy(&model) {
                Ok(loaded) => loaded,
                // Pruned by the learner meanwhile.
                Err(_) if !model.exists() => continue,
                Err(error) => return Err(error.into()),
            };
            let evaluation = gauntlet.evaluate(&loaded.net, version)?;
            let row = GauntletRow::new(version, loaded.meta.step, &evaluation);
            writer.append(&row)?;
            on_evaluated(&row, &evaluation);
            last = Some(version);
            evaluated += 1;
        }
        if !schedule.follow || done || stop.load(Ordering::SeqCst) {
            return Ok(evaluated);
        }
        std::thread::sleep(POLL);
    }
}
