//! `fanorona prove`: prove the exact value of a position (win, draw or loss for the side to
//! move, draw limits ignored) by proof-number search with the endgame tables at its leaves,
//! within a budget, continuing and updating a proof file; or check a proof file again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position};
use fanorona_exact::prover::{Progress, ProofFile, ProofReport, ProveOptions, check_file, prove};
use fanorona_exact::tables::{EndgameTables, shared_tables};
use fanorona_util::file_lock::{FileLock, LockError};
use serde_json::json;

use super::outputs::check_outputs;
use super::train::{INTERRUPTED, TERMINATED, TERMINATED_STATUS, stop_on_ctrl_c, stop_on_sigterm};
use crate::output::{logln, outln};

/// The most seconds `--seconds` takes (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// Stack of the proving thread: df-pn recurses once per turn of the line it follows.
pub(crate) const STACK: usize = 1 << 30;

/// Arguments of `fanorona prove`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position in FEN (at the start of a turn); without it, the start of --board.
    pub fen: Option<String>,
    /// The board whose start position to prove, WxH (without a FEN).
    #[arg(long, default_value = "9x5", conflicts_with = "fen")]
    pub board: String,
    /// Endgame tables for the leaves (a folder from `fanorona tables build` of the board).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Stop after this many expanded nodes.
    #[arg(long, default_value_t = 1_000_000_000)]
    pub nodes: u64,
    /// Stop after this many seconds (0 to 1e9).
    #[arg(long, value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// Positions a transposition table may hold before its open entries are dropped (about
    /// 40 bytes each).
    #[arg(long, default_value_t = 50_000_000)]
    pub max_entries: usize,
    /// Continue the searches of this proof file if it exists (every record checked first),
    /// and write it back when done or stopped by Ctrl-C or SIGTERM (settled questions keep
    /// their certificates, unsettled ones their tables). FILE.lock beside it keeps a second
    /// `prove` off the file.
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// Also settle, for every turn of the position, whether it keeps the value.
    #[arg(long)]
    pub turns: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Check the proof file named by --proof again instead of proving: every record (each
    /// certificate, and the proven positions of an unfinished search), from the rules and
    /// the tables alone; give the tables the file was made with.
    #[arg(long, requires = "proof")]
    pub check: bool,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// Reads `--seconds`: a finite number from 0 to [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(format!(
            "expected a number of seconds from 0 to {MAX_SECONDS:e}, not {text:?}"
        )),
    }
}

/// The lock file of the proof file `path`: `path.lock` beside it.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the lock of the proof file `path`, or says that another `prove` holds it.
fn lock_proof(path: &Path) -> Result<FileLock> {
    let lock = lock_path(path);
    FileLock::try_acquire(&lock).map_err(|e| match e {
        LockError::Held { holder } => anyhow::anyhow!(
            "{}: the proof file is in use by another `fanorona prove`{holder} (its lock {} is \
             held); wait for it to end, or give another --proof file",
            path.display(),
            lock.display()
        ),
        LockError::Io(e) => anyhow::anyhow!("{}: cannot take the lock: {e}", lock.display()),
    })
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).context("bad FEN")?,
        None => Position::initial(Board::parse(&args.board).context("bad --board")?),
    };
    let lock = args.proof.as_deref().map(lock_path);
    if !args.check {
        let inputs: Vec<&Path> = args.tables.iter().map(|p| p.as_path()).collect();
        check_outputs(
            &[
                ("--proof", args.proof.as_deref()),
                ("--proof (its lock file)", lock.as_deref()),
            ],
            &inputs,
        )?;
    }
    let tables = match &args.tables {
        Some(dir) => Some(shared_tables(dir, pos.board()).context("bad --tables")?),
        None => None,
    };
    if args.check {
        return run_check(&args, pos.board(), tables.as_deref());
    }
    // Held until the file is written back.
    let _lock = args.proof.as_deref().map(lock_proof).transpose()?;
    let file = match &args.proof {
        Some(path) if path.exists() => ProofFile::load(path)?,
        _ => ProofFile::new(pos.board()),
    };
    // With a proof file to save, Ctrl-C and SIGTERM stop the searches and the file is saved.
    let stop = Arc::new(AtomicBool::new(false));
    if args.proof.is_some() {
        stop_on_ctrl_c(Arc::clone(&stop), "saving the proof file")?;
        stop_on_sigterm(Arc::clone(&stop))?;
    }
    let stop_flag = Arc::clone(&stop);
    let quiet = args.quiet;
    let options_turns = args.turns;
    let (nodes, seconds, max_entries) = (args.nodes, args.seconds, args.max_entries);
    let started = Instant::now();
    // The search runs on a thread of its own, for its deep stack.
    let (report, file) = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut progress = |p: &Progress| {
                if !quiet {
                    logln!(
                        "prove: {} to win? {} nodes, {} positions in its table, {:.0} s",
                        p.question.attacker,
                        p.nodes,
                        p.entries,
                        p.seconds
                    );
                }
            };
            let options = ProveOptions {
                max_nodes: nodes,
                max_seconds: seconds,
                max_entries,
                turns: options_turns,
                progress: &mut progress,
                stop: Some(&stop_flag),
            };
            prove(&pos, tables.as_deref(), file, options)
        })
        .context("cannot start the proving thread")?
        .join()
        .map_err(|_| anyhow::anyhow!("the proving thread panicked"))??;
    if let Some(path) = &args.proof {
        file.save(path)?;
    }
    print_report(&args, &pos, &report, started.elapsed().as_secs_f64())?;
    if stop.load(Ordering::SeqCst) {
        let terminated = TERMINATED.load(Ordering::SeqCst);
        logln!(
            "{}: the proof file {} is saved; run the same command again to continue",
            if terminated {
                "terminated"
            } else {
                "interrupted"
            },
            args.proof.as_deref().unwrap_or(Path::new("")).display()
        );
        std::process::exit(if terminated {
            TERMINATED_STATUS
        } else {
            INTERRUPTED
        });
    }
    Ok(())
}

fn print_report(args: &Args, pos: &Position, report: &ProofReport, seconds: f64) -> Result<()> {
    let board = pos.board();
    let value = report.value.map(|v| v.name());
    if args.json {
        let json = json!({
            "fen": pos.to_fen(),
            "board": board.to_string(),
            "side_to_move": pos.side_to_move().to_string(),
            "value": value,
            "questions": report.questions.iter().map(|q| json!({
                "attacker": q.question.attacker.to_string(),
                "outcome": q.outcome.name(),
                "nodes": q.nodes,
                "seconds": q.seconds,
                "size": q.size,
            })).collect::<Vec<_>>(),
            "turns": report.turns.iter().map(|(t, s)| json!({
                "turn": t.notation(board),
                "status": s.name(),
            })).collect::<Vec<_>>(),
            "nodes": report.nodes,
            "seconds": seconds,
            "proof": args.proof.as_ref().map(|p| p.display().to_string()),
        });
        outln!("{json}")?;
        return Ok(());
    }
    outln!(
        "value: {} for {} to move (standard rules, draw limits ignored)",
        value.unwrap_or("unproven"),
        pos.side_to_move()
    )?;
    for q in &report.questions {
        outln!(
            "{} to win: {} ({} nodes over every run, {:.1} s; {} {})",
            q.question.attacker,
            q.outcome.name(),
            q.nodes,
            q.seconds,
            q.size,
            if q.outcome == fanorona_exact::prover::Outcome::Unproven {
                "positions in its table"
            } else {
                "positions in its certificate, checked"
            }
        )?;
    }
    for (turn, status) in &report.turns {
        outln!("  {}: {}", turn.notation(board), status.name())?;
    }
    outln!("this run: {} nodes, {seconds:.1} s", report.nodes)?;
    if let Some(path) = &args.proof {
        outln!("proof file: {}", path.display())?;
    }
    Ok(())
}

fn run_check(args: &Args, board: &'static Board, tables: Option<&EndgameTables>) -> Result<()> {
    let path = args
        .proof
        .as_ref()
        .expect("clap requires --proof with --check");
    let file = ProofFile::load(path)?;
    if !std::ptr::eq(file.board(), board) {
        bail!(
            "the proof file is of {}; give its board with --board or a FEN",
            file.board()
        );
    }
    let started = Instant::now();
    let checked = check_file(&file, tables)?;
    outln!(
        "{}: every record checks ({checked} positions, {:.1} s)",
        path.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}
