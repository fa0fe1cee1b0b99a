//! `fanorona show`: a position drawn as text.

use anyhow::Result;

use super::position_args::PositionArgs;
use crate::output::out;

/// Arguments of `fanorona show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let pos = args.position.position()?;
    out!("{}", pos.render(None))?;
    Ok(())
}
