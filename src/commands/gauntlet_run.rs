//! `fanorona gauntlet --run DIR`: the evaluator over a shared run directory. It plays the
//! model versions of `DIR/models/` that it has not evaluated yet (every `--every`-th) against
//! the run configuration's evaluation opponents, with its `eval_games` and
//! `eval_simulations`, and appends their scores to `DIR/gauntlet.csv` (which a restart reads
//! back, so no version is evaluated twice). With `--follow` it waits for new versions until the
//! learner is done.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use fanorona_train::io::load_policy;
use fanorona_train::roles::{Gauntlet, GauntletRow};
use fanorona_train::run_dir::{MetricsWriter, RunDir, read_rows};

use crate::output::outln;

/// How often `--follow` looks for new versions.
const POLL: Duration = Duration::from_millis(500);

/// The latest version already in `path` (a gauntlet file), if any.
fn last_evaluated(path: &Path) -> Result<Option<u64>> {
    if !path.exists() {
        return Ok(None);
    }
    Ok(read_rows::<GauntletRow>(path)?
        .last()
        .map(|row| row.version))
}

/// Evaluates the model versions of the run directory `dir`: every `every`-th (default: the
/// run's `eval_every_iterations`, or 1), and with `follow` the new ones until the learner is
/// done.
pub fn evaluate_run(dir: &Path, every: Option<u64>, follow: bool) -> Result<()> {
    let run = RunDir::new(dir);
    let config = run
        .load_config()
        .with_context(|| format!("{} is not a run directory", dir.display()))?;
    let evaluator = Gauntlet::for_run(&config).ok_or_else(|| {
        anyhow!(
            "{} has no evaluation opponents (they play Fanorona only)",
            config.game
        )
    })?;
    let every = every.unwrap_or(config.run.eval_every_iterations).max(1);
    let path = run.gauntlet();
    let mut last = last_evaluated(&path)?;
    let mut writer = MetricsWriter::<GauntletRow>::open(&path, last.unwrap_or(0))?;
    loop {
        // Seen before the pass: a learner done by then has published its last version.
        let done = run.is_learner_done();
        for (version, model) in run.list_models()? {
            if last.is_some_and(|l| version <= l) || !version.is_multiple_of(every) {
                continue;
            }
            let loaded = match load_policy(&model) {
                Ok(loaded) => loaded,
                // Pruned by the learner meanwhile.
                Err(_) if !model.exists() => continue,
                Err(e) => return Err(e.into()),
            };
            let evaluation = evaluator.evaluate(&loaded.net, version)?;
            writer.append(&GauntletRow::new(version, loaded.meta.step, &evaluation))?;
            outln!(
                "model version {version} (step {}): {}",
                loaded.meta.step,
                evaluation.summary()
            )?;
            last = Some(version);
        }
        if !follow || done {
            return Ok(());
        }
        std::thread::sleep(POLL);
    }
}
