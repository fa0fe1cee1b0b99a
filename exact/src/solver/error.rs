//! Typed errors of the solver and its table files.

use std::path::PathBuf;

/// Why a board could not be solved or a table not be used.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The board size is not a Fanorona board.
    #[error(transparent)]
    Board(#[from] fanorona_env::BoardError),
    /// The board has too many points for the solver's packed keys.
    #[error(
        "board {width}x{height} has {points} points: the solver handles boards of at most {max} points (e.g. 3x3, 5x3, 7x3, 9x3, 5x5)"
    )]
    BoardTooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Points of the board.
        points: usize,
        /// The largest number of points supported.
        max: usize,
    },
    /// The rules are a variant the solver does not support.
    #[error(
        "the solver supports the standard rules only (draw limits are ignored); unsupported: {0}"
    )]
    UnsupportedRules(String),
    /// Positions of different boards were given together.
    #[error("positions of different boards were given ({0}); solve one board at a time")]
    MixedBoards(String),
    /// No position to solve from.
    #[error("no position to solve from")]
    NoRoot,
    /// The reachable positions are more than the limit allows.
    #[error(
        "more than {limit} reachable positions (the limit): the board is too large to solve within it"
    )]
    TooManyPositions {
        /// The limit on the number of positions.
        limit: u64,
    },
    /// A distance to the end does not fit the table's 16-bit code.
    #[error("a distance to the end exceeds {max} turns, more than the table format holds")]
    DistanceOverflow {
        /// The largest distance the format holds.
        max: u16,
    },
    /// Reading or writing a table file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A table file is not a valid solver table.
    #[error("{path}: not a valid solver table: {reason}")]
    BadTable {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}
