//! `fanorona learn --run DIR`: the learner over a shared run directory ([`run_learner`]). It
//! creates the run (`--preset`/`--config`) or resumes it; it stops at `--iterations` versions
//! or `--steps` steps (marking `DIR/learner.done`), or at Ctrl-C with a checkpoint.

use std::sync::{Arc, atomic::AtomicBool};

use anyhow::{Context, Result, bail};
use fanorona_train::config::RunConfig;
use fanorona_train::roles::{LearnLimits, Learner, LearnerEvent, run_learner};
use fanorona_train::run_dir::RunDir;
use fanorona_util::atomic_write::check_writable_dir;

use super::role_args::LearnArgs;
use super::train::{INTERRUPTED, stop_on_ctrl_c};
use crate::output::{logln, outln};

/// Runs the command.
pub fn run(args: LearnArgs) -> Result<()> {
    let requested = match (&args.config, &args.preset) {
        (Some(path), _) => Some(RunConfig::load(path)?),
        (None, Some(name)) => Some(RunConfig::preset(name)?),
        (None, None) if RunDir::new(&args.run).has_config() => None,
        (None, None) => bail!(
            "{} is not a run directory yet: start it with --preset NAME or --config FILE",
            args.run.display()
        ),
    };
    check_writable_dir(&args.run)
        .with_context(|| format!("bad --run: cannot write into {}", args.run.display()))?;
    let mut learner = Learner::open(requested, &args.run, args.replay_ratio)?;
    let versions = args.iterations.unwrap_or(learner.config().run.iterations);
    let limits = LearnLimits {
        versions,
        steps: args.steps.unwrap_or(u64::MAX),
    };
    if !args.quiet {
        logln!("{}", learner.describe(&limits));
    }
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "writing a checkpoint of the steps taken")?;
    let end = run_learner(&mut learner, limits, &stop, |event| match event {
        LearnerEvent::Published(row) if !args.quiet => logln!("{}", row.summary()),
        LearnerEvent::SkippedShard(error) => logln!("warning: skipping shard: {error}"),
        LearnerEvent::Published(_) => {}
    })?;
    if end.stopped {
        eprintln!("{end}");
        std::process::exit(INTERRUPTED);
    }
    Ok(outln!("{end}")?)
}
