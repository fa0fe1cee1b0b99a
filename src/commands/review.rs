//! `fanorona review` (formerly `replay`): shows a recorded game turn by turn.

use std::path::PathBuf;

use anyhow::{Context, Result};
use fanorona_eval::{GameRecord, MAX_RECORD_BYTES};
use fanorona_util::input_file::read_text_limited;

use crate::output::{out, outln};

/// Arguments of `fanorona review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game record (as written by `fanorona match --out`).
    pub file: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let text = read_text_limited(&args.file, MAX_RECORD_BYTES, "a game record")
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record =
        GameRecord::parse(&text).with_context(|| format!("bad record {}", args.file.display()))?;
    for (name, value) in record.tags() {
        outln!("{name}: {value}")?;
    }
    let history = record.history()?;
    outln!("\nstart")?;
    out!("{}", history.start().render(None))?;
    for (i, (turn, pos)) in history
        .turns()
        .iter()
        .zip(&history.positions()[1..])
        .enumerate()
    {
        let before = &history.positions()[i];
        outln!(
            "\n{}. {} {}",
            before.turn_number(),
            before.side_to_move(),
            turn.notation(before.board())
        )?;
        out!("{}", pos.render(Some(turn)))?;
    }
    outln!("\nresult {}", record.result)?;
    Ok(())
}
