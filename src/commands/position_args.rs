//! The `--fen`/`--board`/`--rules` arguments shared by commands that take a position.

use anyhow::{Context, Result, bail};
use fanorona_env::{Board, Position, Rules};

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
    /// The rules asked for.
    pub fn rules(&self) -> Result<Rules> {
        Rules::parse(&self.rules).context("bad --rules")
    }

    /// The position asked for.
    pub fn position(&self) -> Result<Position> {
        let rules = self.rules()?;
        match (&self.fen, &self.board) {
            (Some(fen), Some(board)) => {
                let pos = Position::from_fen_with_rules(fen, rules)?;
                let b = Board::parse(board)?;
                if !std::ptr::eq(b, pos.board()) {
                    bail!(
                        "--board {board} does not match the FEN's board ({}x{})",
                        pos.board().width(),
                        pos.board().height()
                    );
                }
                Ok(pos)
            }
            (Some(fen), None) => Ok(Position::from_fen_with_rules(fen, rules)?),
            (None, Some(board)) => Ok(Position::initial(Board::parse(board)?).with_rules(rules)),
            (None, None) => Ok(Position::standard().with_rules(rules)),
        }
    }
}
