//! `fanorona selfplay --run DIR`: a self-play worker over a shared run directory. It waits for
//! the learner's first model, plays shard after shard with the newest model in `DIR/models/`
//! (picking up each new version between shards) and writes them atomically into
//! `DIR/games/WORKER-SEQUENCE.shard`, until `--games` are played, the learner is done, or
//! Ctrl-C (which ends after the shard under way).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use fanorona_train::config::RunConfig;
use fanorona_train::io::check_worker;
use fanorona_train::roles::SelfPlayWorker;
use fanorona_train::run_dir::RunDir;
use fanorona_util::atomic_write::check_writable_dir;

use super::train::stop_on_ctrl_c;
use crate::output::{logln, outln};

/// How often the directory is looked at while waiting.
const POLL: Duration = Duration::from_millis(200);

/// Arguments of `fanorona selfplay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run directory, shared with `fanorona learn` (which creates it).
    #[arg(long)]
    pub run: PathBuf,
    /// The worker's name: 1 to 64 letters, digits, `-` or `_`; it names its shards, and a
    /// restarted worker of the same name goes on with its numbering [default: w + process id].
    #[arg(long)]
    pub worker: Option<String>,
    /// Stop after this many games (rounded up to whole shards of `games_per_iteration`)
    /// [default: until the learner is done].
    #[arg(long)]
    pub games: Option<u64>,
    /// Seconds to wait for the learner's first model before giving up.
    #[arg(long, default_value_t = 600)]
    pub wait: u64,
    /// Hide the log line of each shard.
    #[arg(long)]
    pub quiet: bool,
}

/// Waits up to `wait` for the run's configuration and first model.
fn wait_for_run(run: &RunDir, wait: Duration) -> Result<RunConfig> {
    let started = Instant::now();
    while !run.has_config() || run.latest_model()?.is_none() {
        if started.elapsed() > wait {
            bail!(
                "no model in {models} after {seconds} s: start `fanorona learn --run {run} \
                 --preset NAME` first",
                models = run.models().display(),
                seconds = wait.as_secs(),
                run = run.path().display()
            );
        }
        std::thread::sleep(POLL);
    }
    Ok(run.load_config()?)
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let name = args
        .worker
        .clone()
        .unwrap_or_else(|| format!("w{}", std::process::id()));
    check_worker(&name)?;
    // A path that is not a folder (a device, a pipe, a file) is refused now, not waited for.
    check_writable_dir(&args.run)
        .with_context(|| format!("bad --run: cannot write into {}", args.run.display()))?;
    let run = RunDir::new(&args.run);
    let config = wait_for_run(&run, Duration::from_secs(args.wait))?;
    let mut actor = SelfPlayWorker::new(config, &name)?;
    run.create_shards()?;
    let mut sequence = run.next_sequence(&name)?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&stop), "finishing the shard under way")?;
    let started = Instant::now();
    let (mut shards, mut games, mut positions) = (0u64, 0u64, 0u64);
    while !stop.load(Ordering::SeqCst)
        && !run.is_learner_done()
        && args.games.is_none_or(|limit| games < limit)
    {
        let (version, path) = run.latest_model()?.context("the run's models are gone")?;
        if actor.model_version() != Some(version) {
            match std::fs::read(&path) {
                Ok(bytes) => actor.set_model(&bytes, version)?,
                // Pruned by the learner meanwhile: a newer one is there.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => bail!("cannot read model {}: {e}", path.display()),
            }
        }
        let shard = actor.play_shard(sequence)?;
        let written = run.write_shard(&shard)?;
        let header = &shard.header;
        if !args.quiet {
            logln!(
                "{}: {} games, {} positions, {:.0} positions/s, model version {}",
                written.display(),
                shard.games.len(),
                shard.positions(),
                shard.positions() as f64 / header.seconds.max(1e-9),
                header.model_version
            );
        }
        sequence += 1;
        shards += 1;
        games += shard.games.len() as u64;
        positions += shard.positions() as u64;
    }
    outln!(
        "worker {name}: {shards} shards, {games} games, {positions} positions, {:.0} positions/s",
        positions as f64 / started.elapsed().as_secs_f64().max(1e-9)
    )?;
    Ok(())
}
