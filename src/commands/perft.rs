//! `fanorona perft`: complete-turn perft, optionally split by first turn.

use std::time::Instant;

use anyhow::{Result, bail};
use fanorona_env::{divide, perft};

use super::position_args::PositionArgs;
use crate::output::{logln, outln};

/// Arguments of `fanorona perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in complete turns.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print the count under each legal first turn.
    #[arg(long)]
    pub divide: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if args.divide && args.depth == 0 {
        bail!(
            "--divide needs --depth 1 or more: at depth 0 the only leaf is the position itself, \
             reached by no first turn (perft 0 = 1)"
        );
    }
    let pos = args.position.position()?;
    let started = Instant::now();
    let total = if args.divide {
        let rows = divide(&pos, args.depth);
        for (turn, count) in &rows {
            outln!("{turn}: {count}")?;
        }
        rows.iter().map(|(_, c)| c).sum()
    } else {
        perft(&pos, args.depth)
    };
    let secs = started.elapsed().as_secs_f64();
    outln!("perft {} = {total}", args.depth)?;
    logln!(
        "{:.3} s, {:.1} million leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
