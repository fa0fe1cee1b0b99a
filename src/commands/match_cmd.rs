//! `fanorona match`: a match between two agents with Elo, LOS and an optional SPRT.

use fanorona_util::progress;
use std::path::PathBuf;

use anyhow::{Context, Result};
use fanorona_eval::{Match, MatchConfig, Sprt, check_out_dir, spec_factory};

use super::agent_arg::agent_spec;
use super::agent_help::agent_help;
use super::forfeits::refuse_all_forfeited;
use super::match_args::MatchArgs;
use super::position_args::PositionArgs;
use crate::output::{out, outln};

/// Arguments of `fanorona match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first agent (white in odd-numbered games), e.g. minimax:depth=4,seed=1.
    #[arg(long, long_help = agent_help("The first agent (white in odd-numbered games)."))]
    pub white: String,
    /// The second agent (black in odd-numbered games); the same kinds as --white.
    #[arg(long)]
    pub black: String,
    /// Number of games; colours alternate, each pair from the same opening.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Sequential probability ratio test: elo0,elo1[,alpha,beta]; stops once decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Folder for summary.json, games.jsonl and the game records: a new or empty folder, or
    /// one of an earlier match, whose results are replaced; checked before the first game.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub play: MatchArgs,
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let registry = fanorona_train::players::registry();
    let first = agent_spec(&registry, &args.white, "white")?;
    let second = agent_spec(&registry, &args.black, "black")?;
    let start = args.position.position()?;
    let openings = args.play.openings(&start)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .context("bad --sprt")?;
    if let Some(dir) = &args.out {
        check_out_dir(dir).context("bad --out")?;
    }
    let config = MatchConfig {
        games: args.games,
        threads: args.play.threads,
        start,
        openings,
        max_turns: args.play.max_turns,
        seed: args.play.seed,
        sprt,
        event: "fanorona match".into(),
        progress: progress::bar_if(!args.play.quiet, 0, "games"),
    };
    let make_first = spec_factory(&registry, &first);
    let make_second = spec_factory(&registry, &second);
    let report = Match::new(config, &make_first, &make_second).run()?;
    // The results are written before anything is printed: a closed output loses no work.
    if let Some(dir) = &args.out {
        report.write(dir)?;
    }
    out!("{}", report.text())?;
    if let Some(dir) = &args.out {
        outln!("wrote {}", dir.display())?;
    }
    refuse_all_forfeited(
        &report,
        &format!("--white {}", args.white),
        &format!("--black {}", args.black),
    )
}
