//! The `--fen`/`--board`/`--rules` arguments shared by commands that take a position.

use anyhow::Result;
use fanorona_env::{Position, StartError, start_position};

/// Where a command starts: a FEN, or the initial position of a board, under some rules.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Position in FEN (its rows give the board size); default: the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Board size WxH (odd sides, at most 64 points) for the initial position.
    #[arg(long)]
    pub board: Option<String>,
    /// Rule settings, comma-separated, each at most once: no-capture=N|off (1-65535),
    /// repetition=N|off (2-255), mandatory[=on|off], first-turn[=on|off],
    /// vela[=white|black|off].
    #[arg(long, default_value = "")]
    pub rules: String,
}

impl PositionArgs {
    /// The position asked for.
    pub fn position(&self) -> Result<Position> {
        start_position(self.fen.as_deref(), self.board.as_deref(), &self.rules).map_err(|e| match e
        {
            StartError::Rules(e) => anyhow::Error::new(e).context("bad --rules"),
            StartError::BoardMismatch { .. } => anyhow::anyhow!("--{e}"),
            e => e.into(),
        })
    }
}
