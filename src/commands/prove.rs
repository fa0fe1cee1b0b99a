//! `fanorona prove`: prove the exact value of a position (win, draw or loss for the side to
//! move, draw limits ignored) by proof-number search with the endgame tables at its leaves,
//! within a budget, continuing and updating a proof file; or check a proof file again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position};
use fanorona_exact::prover::{
    DEFAULT_MAX_ENTRIES, DEFAULT_MAX_NODES, Outcome, Progress, ProofFile, ProofReport,
    ProveOptions, TurnState, check_file, lock_path, prove_file,
};
use fanorona_exact::tables::{EndgameTables, shared_tables};

use super::outputs::check_outputs;
use super::train::{exit_stopped, stop_on_ctrl_c, stop_on_sigterm};
use crate::output::{logln, outln};

/// The most seconds `--seconds` takes (about 31 years).
const MAX_SECONDS: f64 = 1e9;

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
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub nodes: u64,
    /// Stop after this many seconds (0 to 1e9).
    #[arg(long, value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// Positions a transposition table may hold before its open entries are dropped (about
    /// 40 bytes each).
    #[arg(long, default_value_t = DEFAULT_MAX_ENTRIES)]
    pub max_entries: usize,
    /// Continue the searches of this proof file if it exists (every record checked first),
    /// and write it back, compressed, when done or stopped by Ctrl-C or SIGTERM (settled
    /// questions keep their certificates, unsettled ones what they settled and their open
    /// positions beyond the unexplored edge). FILE.lock beside it keeps a second `prove` off
    /// the file.
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
    /// Threads: 2 searches the position's two questions (can the side to move win? can the
    /// other?) at once, --nodes bounding each; 1 one after the other [default: 2 where the
    /// machine has two cores or more].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub threads: Option<u64>,
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
    // With a proof file to save, Ctrl-C and SIGTERM stop the searches and the file is saved.
    let stop = Arc::new(AtomicBool::new(false));
    if args.proof.is_some() {
        stop_on_ctrl_c(Arc::clone(&stop), "saving the proof file")?;
        stop_on_sigterm(Arc::clone(&stop))?;
    }
    let quiet = args.quiet;
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
        max_nodes: args.nodes,
        max_seconds: args.seconds,
        max_entries: args.max_entries,
        turns: args.turns,
        progress: &mut progress,
        stop: Some(&stop),
        parallel: args.threads.map_or_else(
            || std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2),
            |n| n == 2,
        ),
    };
    let started = Instant::now();
    let report = prove_file(&pos, tables.as_deref(), args.proof.as_deref(), options)?;
    print_report(&args, &pos, &report, started.elapsed().as_secs_f64())?;
    if stop.load(Ordering::SeqCst) {
        exit_stopped(format_args!(
            "the proof file {} is saved; run the same command again to continue",
            args.proof.as_deref().unwrap_or(Path::new("")).display()
        ));
    }
    Ok(())
}

fn print_report(args: &Args, pos: &Position, report: &ProofReport, seconds: f64) -> Result<()> {
    if args.json {
        outln!("{}", report.to_json(pos, args.proof.as_deref()))?;
        return Ok(());
    }
    let board = pos.board();
    let value = report.value.map(|v| v.name());
    outln!(
        "value: {} for {} to move (standard rules, draw limits ignored)",
        value.unwrap_or("unproven"),
        pos.side_to_move()
    )?;
    for q in &report.questions {
        let t = &q.root_turns;
        outln!(
            "{} to win: {} ({} nodes over every run, {:.1} s; {} {}; of the {} turns here, {} \
             proven and {} disproven for it)",
            q.question.attacker,
            q.outcome.name(),
            q.nodes,
            q.seconds,
            q.size,
            if q.outcome == Outcome::Unproven {
                "positions in its table"
            } else {
                "positions in its certificate, checked"
            },
            t.each.len(),
            t.proven(),
            t.disproven()
        )?;
        if q.outcome == Outcome::Unproven {
            for (turn, state) in &t.each {
                let state = match state {
                    TurnState::Open { pn, dn } => {
                        format!("open (proof number {pn}, disproof number {dn})")
                    }
                    settled => settled.name().to_string(),
                };
                outln!("  after {}: {state}", turn.notation(board))?;
            }
        }
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
