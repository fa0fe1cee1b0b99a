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

/// Runs the command: one turn per line, sorted. A finished position (the position occurring
/// for the first time) has no legal turn: nothing is listed, and standard error says how the
/// game ended.
pub fn run(args: Args) -> Result<()> {
    let pos = args.position.position()?;
    if let Some(outcome) = pos.outcome(1) {
        eprintln!("game over: {outcome}");
        return Ok(());
    }
    for name in pos.legal_turn_names() {
        outln!("{name}")?;
    }
    Ok(())
}
