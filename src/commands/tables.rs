//! `fanorona tables build|probe`: build the endgame tables of a board into a folder, and probe
//! them for the exact value and best turns of a position.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position};
use fanorona_exact::solver::Value;
use fanorona_exact::tables::{BuildOptions, BuiltClass, EndgameTables, build};
use fanorona_util::atomic_write::check_writable_dir;
use fanorona_util::output_file::inside_folder;
use fanorona_util::progress;
use serde::Serialize;

use super::outputs::{check_outputs, write_json_lines};
use super::solve::print_peak_memory;
use crate::output::{logln, outln};

/// Arguments of `fanorona tables`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TablesCommand {
    /// Build every class of up to --pieces pieces (classes whose files exist are loaded and
    /// checked instead: an interrupted build resumes).
    Build(BuildArgs),
    /// Print the exact value of a position, its distance to the end and its best turns.
    Probe(ProbeArgs),
}

/// Arguments of `fanorona tables build`.
#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Board size WxH (odd sides, at most 64 points).
    #[arg(long, default_value = "9x5")]
    board: String,
    /// The most pieces (both sides together), 2 or more.
    #[arg(long)]
    pieces: usize,
    /// The folder of the class files (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// Write one JSON line per class (positions, outcomes, longest distance, seconds, bytes).
    #[arg(long)]
    metrics: Option<PathBuf>,
    /// No progress bar nor per-class lines on standard error while building.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `fanorona tables probe`.
#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// The folder of the class files.
    #[arg(long)]
    tables: PathBuf,
    /// The position in FEN (its rows give the board size).
    fen: String,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        TablesCommand::Build(args) => run_build(args),
        TablesCommand::Probe(args) => run_probe(args),
    }
}

fn run_build(args: BuildArgs) -> Result<()> {
    let board = Board::parse(&args.board).context("bad --board")?;
    // Building can take many minutes: the places are checked first. The metrics never go
    // into the tables folder, whether it exists yet or not: every file there is a class file
    // the build reads.
    if let Some(metrics) = &args.metrics
        && inside_folder(metrics, &args.out)
    {
        bail!(
            "bad --metrics: cannot write {}: it is inside {}, an input of the command (the \
             --out folder, whose files the build reads as tables): write elsewhere",
            metrics.display(),
            args.out.display()
        );
    }
    check_writable_dir(&args.out)
        .with_context(|| format!("bad --out: cannot write into {}", args.out.display()))?;
    check_outputs(&[("--metrics", args.metrics.as_deref())], &[&args.out])?;
    let started = Instant::now();
    let bar = progress::bar_if(!args.quiet, 0, "positions");
    let shown = bar.clone();
    let options = BuildOptions {
        progress: bar,
        on_class: Box::new(move |report: &BuiltClass| {
            if !args.quiet {
                // Above the bar on a terminal, and a line of the log elsewhere.
                shown.suspend(|| logln!("tables: {}, {}", report.summary(), report.status()));
            }
        }),
    };
    let (_, reports) = build(board, args.pieces, &args.out, &options)?;
    let secs = started.elapsed().as_secs_f64();
    if let Some(path) = &args.metrics {
        write_metrics(path, &reports)?;
    }
    let mut bytes = 0;
    for r in &reports {
        let size = std::fs::metadata(&r.path).map(|m| m.len()).unwrap_or(0);
        bytes += size;
        outln!(
            "{}, longest {}, {}",
            r.summary(),
            r.max_distance
                .map_or("none (all draws)".to_string(), |d| format!("{d} turns")),
            r.status()
        )?;
    }
    let positions: u64 = reports.iter().map(|r| r.positions).sum();
    outln!(
        "{board}: {} classes of up to {} pieces, {positions} positions, {:.1} MB in {}",
        reports.len(),
        args.pieces,
        bytes as f64 / 1e6,
        args.out.display()
    )?;
    outln!("time: {secs:.1} s")?;
    print_peak_memory()?;
    Ok(())
}

/// One line of `--metrics`: a class's figures.
#[derive(Serialize)]
struct ClassLine {
    /// The side to move's pieces.
    mover: usize,
    /// The other side's pieces.
    opponent: usize,
    /// Positions of the class.
    positions: u64,
    /// Wins for the side to move.
    wins: u64,
    /// Losses for the side to move.
    losses: u64,
    /// Draws.
    draws: u64,
    /// The longest distance to the end (`null`: every position is a draw).
    max_distance: Option<u16>,
    /// Whether the class was built now (false: its file was there and was loaded).
    built: bool,
    /// Seconds spent on the class, to the millisecond.
    seconds: f64,
    /// The size of the class's file.
    bytes: u64,
}

impl ClassLine {
    /// The line of `report`, whose file has `bytes` bytes.
    fn new(report: &BuiltClass, bytes: u64) -> ClassLine {
        ClassLine {
            mover: report.mover,
            opponent: report.opponent,
            positions: report.positions,
            wins: report.counts.wins,
            losses: report.counts.losses,
            draws: report.counts.draws,
            max_distance: report.max_distance,
            built: report.built,
            seconds: (report.seconds * 1000.0).round() / 1000.0,
            bytes,
        }
    }
}

/// Writes one JSON line per class to `path`.
fn write_metrics(path: &Path, reports: &[BuiltClass]) -> Result<()> {
    write_json_lines(
        path,
        reports.iter().map(|r| {
            let bytes = std::fs::metadata(&r.path).map(|m| m.len()).unwrap_or(0);
            ClassLine::new(r, bytes)
        }),
    )
}

fn run_probe(args: ProbeArgs) -> Result<()> {
    let pos = Position::from_fen(&args.fen).context("bad FEN")?;
    let tables = EndgameTables::open(&args.tables, pos.board())?;
    let turns = tables.try_turn_values(&pos)?;
    // No legal turn: the side to move has lost.
    let value = turns
        .iter()
        .map(|&(_, v)| v)
        .max()
        .unwrap_or(Value::Loss(0));
    outln!(
        "value: {value} for {} to move (standard rules, draw limits ignored; tables of up to {} pieces)",
        pos.side_to_move(),
        tables.pieces()
    )?;
    outln!(
        "distance: {}",
        value.distance().map_or(
            "none (a draw: neither side can force a win)".to_string(),
            |d| format!(
                "{d} turn{} to the end of the game",
                if d == 1 { "" } else { "s" }
            )
        )
    )?;
    let mut named: Vec<(String, Value)> = turns
        .iter()
        .map(|(turn, v)| (turn.notation(pos.board()), *v))
        .collect();
    // Best first; among equal values by name.
    named.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let best: Vec<&str> = named
        .iter()
        .filter(|(_, v)| *v == value)
        .map(|(name, _)| name.as_str())
        .collect();
    outln!(
        "best turns: {}",
        if best.is_empty() {
            "none (no legal turn: lost)".to_string()
        } else {
            best.join(" ")
        }
    )?;
    for (name, v) in &named {
        outln!("  {name}: {v}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use fanorona_exact::solver::OutcomeCounts;

    use super::*;

    #[test]
    fn a_metrics_line_is_the_class_in_json_with_seconds_to_the_millisecond() {
        let mut report = BuiltClass {
            mover: 2,
            opponent: 1,
            positions: 42570,
            counts: OutcomeCounts {
                wins: 40996,
                losses: 24,
                draws: 1550,
            },
            max_distance: Some(7),
            built: true,
            seconds: 0.12345,
            path: PathBuf::from("unused"),
        };
        let line =
            |report: &BuiltClass| serde_json::to_string(&ClassLine::new(report, 99)).unwrap();
        assert_eq!(
            line(&report),
            "{\"mover\":2,\"opponent\":1,\"positions\":42570,\"wins\":40996,\"losses\":24,\
             \"draws\":1550,\"max_distance\":7,\"built\":true,\"seconds\":0.123,\"bytes\":99}"
        );
        report.max_distance = None;
        report.built = false;
        report.seconds = 0.0;
        assert!(
            line(&report)
                .ends_with("\"max_distance\":null,\"built\":false,\"seconds\":0.0,\"bytes\":99}"),
            "{}",
            line(&report)
        );
    }
}
