//! `fanorona learn --run DIR`: the learner over a shared run directory. It creates the run
//! (`--preset`/`--config`) or resumes it from its latest checkpoint, publishes model version 0,
//! then ingests the shards self-play workers write into `DIR/games/` (each once: the shards
//! consumed are part of its checkpoints), takes learner steps at the replay ratio (waiting when
//! data is short), publishes a model version every `steps_per_iteration` steps with a row of
//! `DIR/learner.csv`, and checkpoints like `fanorona train`. It stops at `--iterations` model
//! versions or `--steps` learner steps (then writes `DIR/learner.done`, which ends the
//! workers), or at Ctrl-C with a checkpoint.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use fanorona_train::config::RunConfig;
use fanorona_train::roles::{DEFAULT_REPLAY_RATIO, Learner, LearnerRow};
use fanorona_train::run_dir::RunDir;
use fanorona_util::atomic_write::check_writable_dir;

use super::train::{INTERRUPTED, stop_on_ctrl_c};
use crate::output::{logln, outln};

/// How long the learner sleeps when there is nothing to do.
const POLL: Duration = Duration::from_millis(100);

/// Arguments of `fanorona learn`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run directory, shared with the self-play workers; an existing one is resumed.
    #[arg(long)]
    pub run: PathBuf,
    /// A run configuration file (TOML) for a new run.
    #[arg(long, conflicts_with = "preset")]
    pub config: Option<PathBuf>,
    /// An embedded preset for a new run: tiny, small, default, long, full.
    #[arg(long)]
    pub preset: Option<String>,
    /// Stop when this many model versions are published [default: the run's iterations].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this many learner steps in all.
    #[arg(long)]
    pub steps: Option<u64>,
    /// Positions sampled for training per new self-play position.
    #[arg(long, default_value_t = DEFAULT_REPLAY_RATIO)]
    pub replay_ratio: f64,
    /// Hide the log line of each model version.
    #[arg(long)]
    pub quiet: bool,
}

/// The configuration asked for, if any; a new run must ask for one.
fn requested(args: &Args) -> Result<Option<RunConfig>> {
    let config = match (&args.config, &args.preset) {
        (Some(path), _) => Some(RunConfig::load(path)?),
        (None, Some(name)) => Some(RunConfig::preset(name)?),
        (None, None) => None,
    };
    if config.is_none() && !RunDir::new(&args.run).has_config() {
        bail!(
            "{} is not a run directory yet: start it with --preset NAME or --config FILE",
            args.run.display()
        );
    }
    Ok(config)
}

/// The log line of a model version.
fn log_line(row: &LearnerRow) -> String {
    format!(
        "version {:>4} step {:>6} | {} shards, {} positions, {:.0} pos/s ingested, {:.0} pos/s \
         per worker | staleness {:.2} (max {}) | loss {:.3} (policy {:.3} value {:.3}) | replay {}",
        row.version,
        row.step,
        row.shards,
        row.positions,
        row.ingest_positions_per_s,
        row.worker_positions_per_s,
        row.staleness_mean,
        row.staleness_max,
        row.loss_total,
        row.loss_policy,
        row.loss_value,
        row.replay_positions
    )
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let requested = requested(&args)?;
    check_writable_dir(&args.run)
        .with_context(|| format!("bad --run: cannot write into {}", args.run.display()))?;
    let mut learner = Learner::open(requested, &args.run, args.replay_ratio)?;
    let iterations = args.iterations.unwrap_or(learner.config().run.iterations);
    let steps = args.steps.unwrap_or(u64::MAX);
    let run = RunDir::new(&args.run);
    run.clear_learner_done()?;
    if !args.quiet {
        logln!(
            "learning {} ({}) in {} from model version {}, step {}, until version {iterations}{}",
            learner.config().game,
            learner.config().network.describe(),
            args.run.display(),
            learner.model_version(),
            learner.step(),
            args.steps
                .map_or(String::new(), |s| format!(" or step {s}"))
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "writing a checkpoint of the steps taken")?;
    while learner.model_version() < iterations && learner.step() < steps {
        if stop.load(Ordering::SeqCst) {
            let checkpoint = learner.checkpoint()?;
            eprintln!(
                "interrupted at model version {}, step {}: checkpoint {} written; run the same \
                 command again to resume",
                learner.model_version(),
                learner.step(),
                checkpoint.display()
            );
            std::process::exit(INTERRUPTED);
        }
        let ingested = learner.ingest_stored(|error| logln!("warning: skipping shard: {error}"))?;
        let limit = usize::try_from(steps - learner.step()).unwrap_or(usize::MAX);
        let took = learner.train_earned(limit)?;
        if learner.steps_to_next_version() == 0 {
            learner.publish()?;
            if !args.quiet
                && let Some(row) = learner.last_row()
            {
                logln!("{}", log_line(row));
            }
        }
        if ingested == 0 && took == 0 {
            std::thread::sleep(POLL);
        }
    }
    let checkpoint = learner.checkpoint()?;
    run.mark_learner_done(learner.step())?;
    outln!(
        "model version {}, {} learner steps, {} positions in replay",
        learner.model_version(),
        learner.step(),
        learner.replay_positions()
    )?;
    outln!("checkpoint {}", checkpoint.display())?;
    Ok(())
}
