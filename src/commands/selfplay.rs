//! `fanorona selfplay --run DIR`: a self-play worker over a shared run directory
//! ([`run_worker`]): it waits for the learner's first model, then plays shards with the newest
//! model into `DIR/games/WORKER-SEQUENCE.shard`, until `--games` are played, the learner is
//! done, or Ctrl-C (which ends after the shard under way).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result};
use fanorona_train::roles::{WorkerLimits, run_worker};
use fanorona_train::run_dir::RunDir;
use fanorona_util::atomic_write::check_writable_dir;

use super::role_args::SelfplayArgs;
use super::train::stop_on_ctrl_c;
use crate::output::{logln, outln};

/// Runs the command.
pub fn run(args: SelfplayArgs) -> Result<()> {
    let name = (args.worker.clone()).unwrap_or_else(|| format!("w{}", std::process::id()));
    // A path that is not a folder (a device, a pipe, a file) is refused now, not waited for.
    check_writable_dir(&args.run)
        .with_context(|| format!("bad --run: cannot write into {}", args.run.display()))?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "finishing the shard under way")?;
    let limits = WorkerLimits {
        games: args.games,
        wait: Duration::from_secs(args.wait),
    };
    let totals = run_worker(
        &RunDir::new(&args.run),
        &name,
        limits,
        &stop,
        |path, shard| {
            if !args.quiet {
                logln!("{}: {}", path.display(), shard.summary());
            }
        },
    )?;
    outln!(
        "worker {name}: {} shards, {} games, {} positions, {:.0} positions/s",
        totals.shards,
        totals.games,
        totals.positions,
        totals.positions as f64 / totals.seconds.max(1e-9)
    )?;
    Ok(())
}
