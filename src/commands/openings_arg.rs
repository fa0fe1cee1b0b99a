//! The `--openings` argument of the commands that play matches: a number of random opening
//! turns, or an opening file.

use anyhow::{Context, Result};
use fanorona_env::Position;
use fanorona_eval::Openings;

/// The openings `text` asks for, from `start`.
pub fn openings(text: &str, start: &Position) -> Result<Openings> {
    match text.parse::<u32>() {
        Ok(plies) => Ok(Openings::Random { plies }),
        Err(_) => Openings::from_file(text.as_ref(), start)
            .context("bad --openings (expected a number of random turns or a file)"),
    }
}
