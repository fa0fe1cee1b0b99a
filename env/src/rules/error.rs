//! Typed errors of the rules engine, each with a message that says what is expected.

use thiserror::Error;

use crate::excerpt::Excerpt;

/// A board size that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A side is even or smaller than 3.
    #[error("board {width}x{height}: both sides must be odd and at least 3 (e.g. 9x5, 5x5, 7x3)")]
    NotOdd {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// More points than a 64-bit bitboard holds.
    #[error("board {width}x{height}: at most 64 points are supported (width * height <= 64)")]
    TooLarge {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// Not of the form `WxH`.
    #[error("board size {}: expected WIDTHxHEIGHT, e.g. 9x5", Excerpt(.0))]
    Syntax(String),
}

/// The field of a FEN string that an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Field 1: the rows of pieces.
    Board,
    /// Field 2: the side to move.
    SideToMove,
    /// Field 3: the no-capture counter.
    NoCaptureCounter,
    /// Field 4: the turn number.
    TurnNumber,
    /// Field 5: a capture chain in progress.
    Chain,
    /// Anything after the last field.
    Extra,
}

impl std::fmt::Display for FenField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FenField::Board => "field 1 (board)",
            FenField::SideToMove => "field 2 (side to move)",
            FenField::NoCaptureCounter => "field 3 (no-capture counter)",
            FenField::TurnNumber => "field 4 (turn number)",
            FenField::Chain => "field 5 (capture chain)",
            FenField::Extra => "after field 5",
        })
    }
}

/// A FEN string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad FEN {}: {field}: {reason}", Excerpt(.fen))]
pub struct FenError {
    /// The whole input.
    pub fen: String,
    /// Which field is wrong.
    pub field: FenField,
    /// What is wrong and what was expected.
    pub reason: String,
}

/// Rule settings (`--rules`, the `Rules` option and record tag) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A key that names no setting.
    #[error(
        "unknown rule {key:?}: expected no-capture=N|off, repetition=N|off, mandatory[=on|off], first-turn[=on|off], vela[=white|black|off]"
    )]
    UnknownSetting {
        /// The key as written.
        key: String,
    },
    /// A value the setting does not take.
    #[error("rule {setting}: {} is not valid: expected {expected}", Excerpt(.value))]
    BadValue {
        /// The setting.
        setting: &'static str,
        /// The value as written (empty for a bare key).
        value: String,
        /// What the setting takes.
        expected: &'static str,
    },
    /// The same setting given twice.
    #[error("rule {setting} is given more than once")]
    Repeated {
        /// The setting.
        setting: &'static str,
    },
}

/// A move (turn or step) that cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not move notation.
    #[error(
        "cannot read move {}: {reason} (expected points such as e2e3, d3e3W, c1d1Ad2A)",
        Excerpt(.text)
    )]
    Syntax {
        /// The input.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Well-formed, but not a legal move here.
    #[error("illegal move {}; legal moves: {}", Excerpt(.text), list_or_none(.legal))]
    Illegal {
        /// The input.
        text: String,
        /// The legal moves in this position, in notation.
        legal: Vec<String>,
    },
    /// Matches more than one legal move with different results.
    #[error(
        "ambiguous move {}: it could be {}; add A (approach) or W (withdrawal)",
        Excerpt(.text),
        .candidates.join(" or ")
    )]
    Ambiguous {
        /// The input.
        text: String,
        /// The legal moves it could mean.
        candidates: Vec<String>,
    },
    /// The game is over or the position does not allow this kind of move.
    #[error("no move can be played: {0}")]
    NotPlayable(String),
}

fn list_or_none(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}
