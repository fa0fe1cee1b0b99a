//! `fanorona moves`: the legal complete turns of a position.

use anyhow::Result;

use super::position_args::PositionArgs;
use crate::output::outln;

/// Arguments of `fanorona moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Runs the command: one turn per line, sorted.
pub fn run(args: Args) -> Result<()> {
    let pos = args.position.position()?;
    for name in pos.legal_turn_names() {
        outln!("{name}")?;
    }
    Ok(())
}
