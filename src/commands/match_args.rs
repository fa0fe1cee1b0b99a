//! The arguments every command that plays matches shares (`match`, `gauntlet`, `eval`),
//! defined once, with one set of defaults.

use anyhow::{Result, anyhow};
use fanorona_env::{Excerpt, Position};
use fanorona_eval::Openings;

use super::openings_arg::openings;

/// How the games of a match are played: threads, openings, the turn limit, the seed, and
/// whether progress is shown.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Games played at once (no more than the games, nor four per CPU core).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Openings: a number of random opening turns, or an opening file (one FEN and/or move
    /// list per line); the two games of a pair (colours swapped) share one.
    #[arg(long, default_value = "2")]
    pub openings: String,
    /// A game still going after this many turns is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_turns: usize,
    /// Seed of the openings and the agents' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hide the progress bars.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchArgs {
    /// The openings `--openings` asks for, from `start`.
    pub fn openings(&self, start: &Position) -> Result<Openings> {
        openings(&self.openings, start)
    }

    /// `--openings` as a number of random opening turns, for a command that takes no file.
    pub fn random_turns(&self) -> Result<u32> {
        self.openings.parse().map_err(|_| {
            anyhow!(
                "bad --openings {}: this command takes a number of random opening turns",
                Excerpt(&self.openings)
            )
        })
    }
}
