//! `fanorona rate`: maximum-likelihood Elo ratings of every agent in folders of games (as
//! `fanorona gauntlet` and `fanorona match --out` write them), anchored at a named agent,
//! with bootstrap 95% intervals; a table, and optionally JSON. With `--curve RUN` it also
//! gives the run's learning curve: the ratings of its checkpoints against training time.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use fanorona_eval::rating::{RatingSettings, Ratings, collect_games, rate};
use fanorona_train::run::{
    CurvePoint, ExamPoint, curve_csv, curve_table, exam_curve, learning_curve,
};
use fanorona_train::run_dir::RunDir;
use fanorona_util::atomic_write::write_atomic;

use super::outputs::check_outputs;
use crate::output::{out, outln};
use crate::plot::plot_learning_curves;

/// Arguments of `fanorona rate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Folders searched (with their subfolders) for game records, *.pgn (none: only the
    /// exact exams of the `--curve` runs are drawn).
    #[arg(required_unless_present = "curve")]
    pub dirs: Vec<PathBuf>,
    /// The agent rated 0, as the records name it.
    #[arg(long, default_value = "minimax:depth=1")]
    pub anchor: String,
    /// Virtual games added to every pair that met, half won by each (as BayesElo's virtual
    /// draws): keeps ratings finite when an agent won or lost every game; 0 for pure
    /// maximum likelihood.
    #[arg(long, default_value_t = 2.0)]
    pub prior: f64,
    /// Bootstrap samples (games resampled with replacement) for the 95% intervals; 0: none.
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the ratings as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// A training run whose rated checkpoints (agents with `path=RUN/checkpoint-STEP.ckpt`)
    /// and student (`path=RUN/student.safetensors`, at the run's end) make a learning curve:
    /// rating against training time from RUN/metrics.csv, and its exact exams (the PNG's
    /// second panel). Repeatable.
    #[arg(long, value_name = "RUN")]
    pub curve: Vec<PathBuf>,
    /// Cores the runs trained on, turning wall-clock hours into core hours (default: this
    /// machine's).
    #[arg(long, requires = "curve", value_parser = clap::value_parser!(u32).range(1..))]
    pub cores: Option<u32>,
    /// Write the learning curves as CSV to this file.
    #[arg(long, requires = "curve")]
    pub curve_csv: Option<PathBuf>,
    /// Draw the learning curves into this PNG.
    #[arg(long, requires = "curve")]
    pub curve_png: Option<PathBuf>,
}

/// The learning curves of `runs` in `ratings`, one run after another.
fn curves(runs: &[PathBuf], ratings: &Ratings, cores: f64) -> Result<Vec<CurvePoint>> {
    let mut points = Vec::new();
    for run in runs {
        points.extend(learning_curve(run, ratings, cores)?);
    }
    Ok(points)
}

/// Writes the learning curves (and the runs' exact `exams`, drawn in the PNG) to the files
/// asked for.
fn write_curves(
    points: &[CurvePoint],
    exams: &[ExamPoint],
    csv: Option<&Path>,
    png: Option<&Path>,
) -> Result<()> {
    if let Some(path) = csv {
        write_atomic(path, curve_csv(points).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("wrote {}", path.display())?;
    }
    if let Some(path) = png {
        plot_learning_curves(points, exams, path)?;
        outln!("wrote {}", path.display())?;
    }
    Ok(())
}

/// Rates the games of `args.dirs`, prints (and writes, with `--json`) the ratings, and
/// returns the learning curves of the `--curve` runs in them.
fn rate_games(args: &Args, cores: f64) -> Result<Vec<CurvePoint>> {
    let found = collect_games(&args.dirs)?;
    let settings = RatingSettings {
        anchor: args.anchor.clone(),
        prior: args.prior,
        bootstrap: args.bootstrap,
        seed: args.seed,
    };
    let ratings = rate(&found.results, &settings)?;
    let points = curves(&args.curve, &ratings, cores)?;
    if let Some(path) = &args.json {
        write_atomic(path, ratings.to_json().as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out!("{}", ratings.table())?;
    if found.unfinished > 0 {
        outln!("{} unfinished games left out", found.unfinished)?;
    }
    if let Some(path) = &args.json {
        outln!("wrote {}", path.display())?;
    }
    Ok(points)
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    // The runs' metrics are read for the curves: never written over.
    let metrics: Vec<PathBuf> = args
        .curve
        .iter()
        .map(|run| RunDir::new(run).metrics())
        .collect();
    check_outputs(
        &[
            ("--json", args.json.as_deref()),
            ("--curve-csv", args.curve_csv.as_deref()),
            ("--curve-png", args.curve_png.as_deref()),
        ],
        &metrics.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
    )?;
    let cores = args.cores.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        f64::from,
    );
    let mut exams = Vec::new();
    for run in &args.curve {
        exams.extend(exam_curve(run, cores)?);
    }
    let points = if args.dirs.is_empty() {
        if exams.is_empty() {
            bail!(
                "nothing to rate or draw: no folders of games, and the --curve runs took no \
                 exact exam (give folders of games, or runs with exact exams in metrics.csv)"
            );
        }
        Vec::new()
    } else {
        rate_games(&args, cores)?
    };
    if !points.is_empty() || !exams.is_empty() {
        if !points.is_empty() {
            outln!("\nlearning curve ({cores} cores):")?;
            out!("{}", curve_table(&points))?;
        }
        write_curves(
            &points,
            &exams,
            args.curve_csv.as_deref(),
            args.curve_png.as_deref(),
        )?;
    }
    Ok(())
}
