//! `fanorona audit`: where the games of a match lost their value. Each game record is
//! replayed; at each turn start with at most `--pieces` pieces the mover's value is read from
//! the endgame tables or proven by the prover within `--nodes` nodes, and the first turn that
//! lost it is found (`fanorona_eval::audit`). Prints a table of the first losses by agent,
//! colour and piece count; `--json` writes every game's audit too.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use fanorona_eval::audit::{
    AuditBudget, AuditReport, FirstLoss, GameAudit, audit_game, read_records,
};
use fanorona_exact::tables::shared_tables;
use fanorona_util::atomic_write::write_atomic;
use fanorona_util::denormals;
use fanorona_util::progress::{self, ProgressBar};
use rayon::prelude::*;

use super::outputs::check_outputs;
use crate::output::{logln, out};
use fanorona_exact::prover::PROVER_STACK;

/// The prover's node budget for one position when `--nodes` is not given.
const AUDIT_NODES: u64 = 100_000;

/// Arguments of `fanorona audit`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game records (*.pgn), or folders searched with their subfolders for them, as
    /// `fanorona match --out` and `fanorona gauntlet --out` write them; all of one board.
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// Endgame tables of the games' board (`fanorona tables build`): they answer the
    /// positions they hold and serve the prover's leaves.
    #[arg(long)]
    pub tables: PathBuf,
    /// Judge only the turns that start with at most this many pieces on the board (default:
    /// every turn).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..))]
    pub pieces: Option<u32>,
    /// The most nodes the prover expands for one position's value; a turn whose values it
    /// does not settle leaves its game unsettled.
    #[arg(long, default_value_t = AUDIT_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Also write the audit as JSON to this file: the counts, the first losses by agent,
    /// colour and piece count, and every game's audit.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Games audited at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Hide the progress bar (or, where standard error is no terminal, the line per game).
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let inputs: Vec<&std::path::Path> = args
        .games
        .iter()
        .map(PathBuf::as_path)
        .chain([args.tables.as_path()])
        .collect();
    check_outputs(&[("--json", args.json.as_deref())], &inputs)?;
    let records = read_records(&args.games)?;
    let board = records[0].record.start.board();
    let tables = shared_tables(&args.tables, board)
        .with_context(|| format!("bad --tables: the games are of {board}"))?;
    let budget = AuditBudget {
        pieces: args.pieces,
        nodes: args.nodes,
        max_entries: usize::try_from(args.nodes.saturating_mul(4)).unwrap_or(usize::MAX),
    };
    let pool = denormals::build_pool(
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads as usize)
            .stack_size(PROVER_STACK),
    )?;
    let started = Instant::now();
    let progress = Progress::new(!args.quiet, records.len());
    let games = pool.install(|| {
        records
            .par_iter()
            .map(|file| {
                let audit = audit_game(file, &tables, budget)?;
                progress.game_done(&audit);
                Ok(audit)
            })
            .collect::<Result<Vec<GameAudit>>>()
    })?;
    progress.finish();
    let report = AuditReport {
        board: board.to_string(),
        tables_pieces: tables.pieces(),
        budget,
        games,
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.json {
        let mut json = report.to_json();
        json["seconds"] = seconds.into();
        let text = serde_json::to_string_pretty(&json)? + "\n";
        write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out!("{}", report.table())?;
    out!("({seconds:.1} s)\n")?;
    Ok(())
}

/// The progress of an audit on standard error: a bar on a terminal, else a line per game.
struct Progress {
    bar: ProgressBar,
    /// Lines instead of the bar (standard error is no terminal).
    lines: bool,
    total: usize,
    /// Games done so far.
    done: AtomicUsize,
}

impl Progress {
    /// The progress of `total` games, shown if `shown`.
    fn new(shown: bool, total: usize) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress {
            bar: progress::bar_if(shown && terminal, total as u64, "games"),
            lines: shown && !terminal,
            total,
            done: AtomicUsize::new(0),
        }
    }

    /// Counts a game audited, with a line saying how it went where lines are shown.
    fn game_done(&self, audit: &GameAudit) {
        self.bar.inc(1);
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.lines {
            return;
        }
        let how = match &audit.first {
            FirstLoss::Lost(lost) => format!(
                "lost by {} ({}) at move {}, {} pieces: {} -> {}",
                lost.mover,
                audit.agent(lost.mover),
                lost.number,
                lost.pieces,
                lost.before.name(),
                lost.after.name()
            ),
            FirstLoss::Unsettled { number, pieces } => {
                format!("unsettled at move {number}, {pieces} pieces")
            }
            other => other.name().to_string(),
        };
        logln!(
            "audit: {done}/{} games; {}: {how}",
            self.total,
            audit.file.path.display()
        );
    }

    /// Clears the bar.
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
