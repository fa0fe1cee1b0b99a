//! `fanorona rate`: maximum-likelihood Elo ratings of every agent in folders of games (as
//! `fanorona gauntlet` and `fanorona match --out` write them), anchored at a named agent,
//! with bootstrap 95% intervals; a table, and optionally JSON.

use std::path::PathBuf;

use anyhow::{Context, Result};
use fanorona_eval::atomic_write::{check_writable_file, write_atomic};
use fanorona_eval::{RatingSettings, collect_games, rate};

use crate::output::{out, outln};

/// Arguments of `fanorona rate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Folders searched (with their subfolders) for game records, *.pgn.
    #[arg(required = true)]
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
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if let Some(path) = &args.json {
        check_writable_file(path).with_context(|| format!("bad --json {}", path.display()))?;
    }
    let found = collect_games(&args.dirs)?;
    let settings = RatingSettings {
        anchor: args.anchor.clone(),
        prior: args.prior,
        bootstrap: args.bootstrap,
        seed: args.seed,
    };
    let ratings = rate(&found.results, &settings)?;
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
    Ok(())
}
