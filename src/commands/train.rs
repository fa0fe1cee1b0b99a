//! `fanorona train`: self-play training from an embedded preset or a TOML configuration, into
//! a run directory that a later call resumes.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use fanorona_env::GameId;
use fanorona_train::config::{ComputeDevice, RunConfig};
use fanorona_train::run::{TrainOptions, train};
use fanorona_train::run_dir::{RunDir, read_metrics};
use fanorona_util::atomic_write::check_writable_dir;

use super::run_arg::run_or_deprecated;
use crate::output::{logln, outln};
use crate::plot::plot_metrics;
use crate::run_progress::RunProgress;

/// Arguments of `fanorona train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A run configuration file (TOML, like the presets in train/presets/).
    #[arg(long, conflicts_with = "preset")]
    pub config: Option<PathBuf>,
    /// An embedded preset: tiny (seconds, 5x3), small (minutes, 5x3), default (9x5, under 10 min
    /// on two CPU cores: a network and its student RUN/student.safetensors), long (9x5, about 40 minutes: the shipped model and its
    /// student RUN/student.safetensors), full (9x5, for a GPU), 5x5 (the solved 5x5 board, a
    /// win/draw/loss value head, measured against its exact set), abnet (9x5: the agent that plays, trained by its own alpha-beta self-play from the
    /// shipped student; its agent is RUN/best.safetensors).
    #[arg(long)]
    pub preset: Option<String>,
    /// The run directory (default runs/PRESET-BOARD); an existing one is resumed.
    #[arg(long, conflicts_with = "out")]
    pub run: Option<PathBuf>,
    /// The former name of --run (deprecated).
    #[arg(long, hide = true)]
    pub out: Option<PathBuf>,
    /// The board, WxH (odd sizes, e.g. 9x5, 5x3, 3x3).
    #[arg(long)]
    pub board: Option<String>,
    /// The game: fanorona or telo (Fanoron-Telo, 3x3).
    #[arg(long)]
    pub game: Option<String>,
    /// Where the network runs: flex (CPU), or cuda / wgpu when compiled in.
    #[arg(long)]
    pub device: Option<ComputeDevice>,
    /// Total iterations of the run (a resumed run goes on until it has this many).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Endgame tables (a directory of `fanorona tables build` for the run's board) or a
    /// solved board (the file of `fanorona solve --save`): the
    /// self-play positions they hold take their exact values as value targets (the run's
    /// `selfplay.tables`; a resumed run takes them too).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// A policy file whose network a new run starts from instead of random weights (e.g. of
    /// `fanorona fit`; of the run's game, architecture and value head: the run's `run.init`).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Hide the progress bars and log lines.
    #[arg(long)]
    pub quiet: bool,
}

/// The configuration asked for on the command line (`None` if nothing was asked), and the
/// name of the run directory it suggests.
fn requested(args: &Args) -> Result<(Option<RunConfig>, String)> {
    let explicit = args.config.is_some()
        || args.preset.is_some()
        || args.board.is_some()
        || args.game.is_some();
    let (mut config, name) = match (&args.config, &args.preset) {
        (Some(path), _) => (
            RunConfig::load(path)?,
            path.file_stem()
                .map_or("run".into(), |s| s.to_string_lossy().into_owned()),
        ),
        (None, preset) => {
            let name = preset.as_deref().unwrap_or("default");
            (RunConfig::preset(name)?, name.to_string())
        }
    };
    let (game, board) = match &args.game {
        Some(text) => match text.parse::<GameId>() {
            // `telo` and `fanorona WxH` name their board too.
            Ok(id) => (id.name(), id.board().to_string()),
            // `fanorona` keeps the preset's board; an unknown name is refused below.
            Err(_) => (text.as_str(), config.game.board().to_string()),
        },
        None => (config.game.name(), config.game.board().to_string()),
    };
    let board = args.board.clone().unwrap_or(board);
    config.game = GameId::from_parts(game, &board).context("bad --game or --board")?;
    config.validate().context("bad --game or --board")?;
    let suffix = match config.game.fanorona_board() {
        Some(board) => board.to_string(),
        None => config.game.name().to_string(),
    };
    Ok((explicit.then_some(config), format!("{name}-{suffix}")))
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let (requested, name) = requested(&args)?;
    let out = run_or_deprecated(args.run.clone(), args.out.clone(), "train", "--out")
        .unwrap_or_else(|| PathBuf::from("runs").join(name));
    check_writable_dir(&out)
        .with_context(|| format!("bad --run: cannot write into {}", out.display()))?;
    let mut config = RunDir::new(&out).resolve_config(requested)?;
    if let Some(iterations) = args.iterations {
        config.run.iterations = iterations;
    }
    if let Some(device) = args.device {
        config.run.device = device;
    }
    if let Some(tables) = args.tables {
        // Kept absolute in the run's configuration: a resumed run, from whatever folder, finds
        // the same tables.
        let tables = std::path::absolute(&tables)
            .with_context(|| format!("bad --tables {}", tables.display()))?;
        config.selfplay.tables = Some(tables);
    }
    if let Some(init) = args.init {
        if RunDir::new(&out).latest_checkpoint()?.is_some() {
            bail!(
                "bad --init: {} has checkpoints already and goes on from them; --init starts a \
                 new run",
                out.display()
            );
        }
        let init =
            std::path::absolute(&init).with_context(|| format!("bad --init {}", init.display()))?;
        config.run.init = Some(init);
    }
    config.validate()?;
    if !args.quiet {
        let tables = match &config.selfplay.tables {
            Some(path) => format!(", exact value targets from {}", path.display()),
            None => String::new(),
        };
        logln!(
            "training {} ({}) for {} iterations on {} into {}{tables}",
            config.game,
            config.network.describe(),
            config.run.iterations,
            config.run.device,
            out.display()
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(
        Arc::clone(&stop),
        "finishing the current iteration, then writing a checkpoint",
    )?;
    let mut progress = RunProgress::new(!args.quiet, &out);
    let summary = train(
        &config,
        &out,
        TrainOptions {
            events: Box::new(|event| progress.show(event)),
            stop: Some(stop),
        },
    )?;
    draw_curves(&RunDir::new(&out))?;
    outln!(
        "{} iterations, {} learner steps, {} positions in replay",
        summary.iterations,
        summary.step,
        summary.replay_positions
    )?;
    if let Some(row) = &summary.last_metrics {
        outln!(
            "last iteration: loss {:.3} (policy {:.3}, value {:.3}), {:.0} positions/s",
            row.loss_total,
            row.loss_policy,
            row.loss_value,
            row.positions_per_s
        )?;
    }
    outln!("checkpoint {}", summary.checkpoint.display())?;
    outln!("curves {}", RunDir::new(&out).curves().display())?;
    if let Some(agent) = &summary.agent {
        outln!("agent abnet:path={}", agent.display())?;
    }
    if summary.interrupted {
        let student = if summary.iterations < config.run.iterations {
            ""
        } else {
            ", before its student was taught"
        };
        eprintln!(
            "interrupted after iteration {} of {}{student}: checkpoint {} written; run the same \
             command again to resume",
            summary.iterations,
            config.run.iterations,
            summary.checkpoint.display()
        );
        std::process::exit(INTERRUPTED);
    }
    Ok(())
}

/// Draws the run's metrics rows, if it has any, as its `curves.png`.
fn draw_curves(run: &RunDir) -> Result<()> {
    let rows = read_metrics(&run.metrics())?;
    if !rows.is_empty() {
        plot_metrics(&rows, &run.curves())?;
    }
    Ok(())
}

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

/// The exit status of a command stopped by SIGTERM (128 + SIGTERM, as shells report it).
pub const TERMINATED_STATUS: i32 = 143;

/// Set once SIGTERM arrived (see [`stop_on_sigterm`]).
pub(crate) static TERMINATED: AtomicBool = AtomicBool::new(false);

/// Sets `stop` (and [`TERMINATED`]) at the first SIGTERM, so that the command saves its work
/// and ends (its exit status then 143, 128 + SIGTERM); a second SIGTERM exits at once.
#[cfg(unix)]
pub(crate) fn stop_on_sigterm(stop: Arc<AtomicBool>) -> Result<()> {
    // SAFETY: the action only stores to atomics or calls `_exit`, both async-signal-safe.
    unsafe {
        signal_hook_registry::register(libc::SIGTERM, move || {
            if TERMINATED.swap(true, Ordering::SeqCst) {
                libc::_exit(TERMINATED_STATUS);
            }
            stop.store(true, Ordering::SeqCst);
        })
    }
    .context("cannot install the SIGTERM handler")?;
    Ok(())
}

/// Elsewhere there is no SIGTERM to handle.
#[cfg(not(unix))]
pub(crate) fn stop_on_sigterm(_stop: Arc<AtomicBool>) -> Result<()> {
    Ok(())
}

/// Ends a command that a signal stopped, its work saved: says `terminated: MESSAGE` (after
/// SIGTERM) or `interrupted: MESSAGE` (after Ctrl-C) and exits with the status of the signal.
pub(crate) fn exit_stopped(message: std::fmt::Arguments) -> ! {
    let terminated = TERMINATED.load(Ordering::SeqCst);
    let how = if terminated {
        "terminated"
    } else {
        "interrupted"
    };
    logln!("{how}: {message}");
    std::process::exit(if terminated {
        TERMINATED_STATUS
    } else {
        INTERRUPTED
    });
}

/// Sets `stop` at the first Ctrl-C (SIGINT), saying on stderr that the command is `finishing`
/// (e.g. the iteration, then writing a checkpoint); a second Ctrl-C exits at once.
pub(crate) fn stop_on_ctrl_c(stop: Arc<AtomicBool>, finishing: &'static str) -> Result<()> {
    ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::SeqCst) {
            eprintln!("interrupted again: exiting at once");
            std::process::exit(INTERRUPTED);
        }
        eprintln!("interrupted: {finishing} (Ctrl-C again to exit at once)");
    })
    .context("cannot install the Ctrl-C handler")
}
