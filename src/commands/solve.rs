//! `fanorona solve`: solve a small board exactly (or load a solved table) and report the value
//! of its initial position, the outcome counts, time and peak memory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position};
use fanorona_exact::solver::{ClassReport, Solution, SolveOptions, SolveReport};
use serde::Serialize;

use super::outputs::{check_outputs, write_json_lines};
use crate::output::{OutputError, logln, outln};

/// Arguments of `fanorona solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size WxH (odd sides, at most 31 points: 3x3, 5x3, 3x5, 7x3, 3x7, 9x3, 3x9, 5x5;
    /// those over 21 points, 9x3, 3x9 and 5x5, are beyond full enumeration on a 24 GB machine).
    #[arg(long)]
    pub board: Option<String>,
    /// Save the solved table to this file (checked to be writable before solving).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Load a solved table instead of solving (its board must match --board, if given).
    #[arg(long, conflicts_with = "save")]
    pub load: Option<PathBuf>,
    /// Give up beyond this many reachable positions (about 10 bytes each).
    #[arg(long, default_value_t = 400_000_000)]
    pub max_positions: u64,
    /// Write one JSON line per material class (positions, outcomes, longest distance).
    #[arg(long)]
    pub metrics: Option<PathBuf>,
    /// Log each material class to stderr as it is done.
    #[arg(long)]
    pub progress: bool,
}

/// The peak resident memory of this process in bytes (VmHWM), where the system tells it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let board = args.board.as_deref().map(Board::parse).transpose()?;
    // Solving can take many minutes: the files are checked first.
    check_outputs(
        &[
            ("--save", args.save.as_deref()),
            ("--metrics", args.metrics.as_deref()),
        ],
        &args.load.as_deref().into_iter().collect::<Vec<_>>(),
    )?;
    let started = Instant::now();
    let (solution, solved) = match (&args.load, board) {
        (Some(path), board) => (load(path, board)?, None),
        (None, Some(board)) => {
            let (solution, report) = solve(board, &args)?;
            (solution, Some(report))
        }
        (None, None) => bail!("give --board WxH to solve, or --load FILE"),
    };
    let secs = started.elapsed().as_secs_f64();
    // Files are written before anything is printed: a closed output loses no work.
    if let Some(path) = &args.save {
        solution.save(path)?;
    }
    if let Some(report) = solved {
        outln!(
            "solved: enumerate {:.2} s, label {:.2} s",
            report.enumerate_secs,
            report.label_secs
        )?;
    }
    print_solution(&solution)?;
    if let Some(path) = &args.save {
        outln!("saved {}", path.display())?;
    }
    outln!("time: {secs:.2} s")?;
    print_peak_memory()?;
    Ok(())
}

/// Loads a solved table, refusing one for another board than `board` (when given).
fn load(path: &Path, board: Option<&'static Board>) -> Result<Solution> {
    let solution = Solution::load(path)?;
    if let Some(b) = board
        && !std::ptr::eq(b, solution.board())
    {
        bail!(
            "{}: the table is for board {}x{}, not --board {}x{}",
            path.display(),
            solution.board().width(),
            solution.board().height(),
            b.width(),
            b.height()
        );
    }
    outln!("loaded {}", path.display())?;
    Ok(solution)
}

/// Solves `board` from its initial position, writing the per-class metrics where `--metrics`
/// asks for them.
fn solve(board: &'static Board, args: &Args) -> Result<(Solution, SolveReport)> {
    let options = SolveOptions {
        max_positions: args.max_positions,
        log: if args.progress {
            |line| logln!("{line}")
        } else {
            |_| {}
        },
    };
    let (solution, report) = Solution::solve_from(&[Position::initial(board)], &options)?;
    if let Some(path) = &args.metrics {
        write_metrics(path, &report.classes)?;
    }
    Ok((solution, report))
}

/// One line of `--metrics`: a material class's figures.
#[derive(Serialize)]
struct ClassLine {
    /// White's piece count.
    white: u8,
    /// Black's piece count.
    black: u8,
    /// Positions in the class.
    positions: u64,
    /// Wins for the side to move.
    wins: u64,
    /// Losses for the side to move.
    losses: u64,
    /// Draws.
    draws: u64,
    /// The longest distance to the end in the class.
    max_distance: u16,
}

impl From<&ClassReport> for ClassLine {
    fn from(c: &ClassReport) -> ClassLine {
        ClassLine {
            white: c.white,
            black: c.black,
            positions: c.positions,
            wins: c.counts.wins,
            losses: c.counts.losses,
            draws: c.counts.draws,
            max_distance: c.max_distance,
        }
    }
}

/// Writes one JSON line per material class to `path`: positions, outcomes, longest distance.
fn write_metrics(path: &Path, classes: &[ClassReport]) -> Result<()> {
    write_json_lines(path, classes.iter().map(ClassLine::from))
}

/// Prints the board, the value of its initial position and the outcome counts.
fn print_solution(solution: &Solution) -> Result<()> {
    let board = solution.board();
    let root = solution.roots()[0];
    let value = solution
        .value(&root)
        .context("the table does not hold its own root")?;
    let counts = solution.counts();
    outln!(
        "board {}x{} (standard rules, no draw limits)",
        board.width(),
        board.height()
    )?;
    outln!(
        "value: {value} for {} (the side to move in {})",
        root.side_to_move(),
        root.to_fen()
    )?;
    outln!(
        "positions: {} (side to move: {} wins, {} losses, {} draws)",
        solution.len(),
        counts.wins,
        counts.losses,
        counts.draws
    )?;
    Ok(())
}

/// Prints the peak resident memory, or that the system does not tell it.
pub(crate) fn print_peak_memory() -> Result<(), OutputError> {
    match peak_memory() {
        Some(bytes) => outln!("peak memory: {:.1} MiB", bytes as f64 / (1 << 20) as f64),
        None => outln!("peak memory: unknown (no /proc/self/status)"),
    }
}

#[cfg(test)]
mod tests {
    use fanorona_exact::solver::OutcomeCounts;

    use super::*;

    #[test]
    fn the_metrics_file_has_one_json_line_per_class() {
        let class = |white, black, wins| ClassReport {
            white,
            black,
            positions: 10,
            counts: OutcomeCounts {
                wins,
                losses: 3,
                draws: 10 - 3 - wins,
            },
            max_distance: 5,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metrics.jsonl");
        write_metrics(&path, &[class(1, 1, 0), class(2, 1, 7)]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"white\":1,\"black\":1,\"positions\":10,\"wins\":0,\"losses\":3,\"draws\":7,\
             \"max_distance\":5}\n\
             {\"white\":2,\"black\":1,\"positions\":10,\"wins\":7,\"losses\":3,\"draws\":0,\
             \"max_distance\":5}\n"
        );
    }
}
