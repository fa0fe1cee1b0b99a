//! Why games cannot be audited.

use std::path::PathBuf;

use fanorona_exact::prover::ProverError;
use fanorona_exact::solver::SolverError;

use crate::record::RecordError;

/// Games that cannot be audited: unreadable or malformed records, records of several boards
/// or of another board than the tables, rules the prover does not know, a failed proof.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A file or folder cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not a game record.
    #[error("bad game record {path}: {source}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// Why.
        source: RecordError,
    },
    /// A match's `games.jsonl` was given: it lists results, not the turns.
    #[error(
        "{0} lists the games' results, not their turns: give the match's folder (its game records games/*.pgn are read) or the records themselves"
    )]
    ResultsOnly(PathBuf),
    /// No game record was found.
    #[error(
        "no game records (*.pgn) in {0}: expected the folder of fanorona match --out or gauntlet --out, or record files"
    )]
    NoRecords(String),
    /// The records are of more than one board.
    #[error("{path} is a game of {board}, {first} one of {first_board}: audit one board at a time")]
    Boards {
        /// The first record.
        first: PathBuf,
        /// Its board.
        first_board: String,
        /// A record of another board.
        path: PathBuf,
        /// Its board.
        board: String,
    },
    /// A record is of another board than the tables.
    #[error("{path} is a game of {board}, the tables are of {tables}")]
    Board {
        /// The record.
        path: PathBuf,
        /// Its board.
        board: String,
        /// The tables' board.
        tables: String,
    },
    /// A record's rules are not those the tables and the prover know.
    #[error("{path}: {source}")]
    Rules {
        /// The record.
        path: PathBuf,
        /// Why.
        source: SolverError,
    },
    /// A proof failed.
    #[error("{path}, the position after {played} turns ({fen}): {source}")]
    Prover {
        /// The record.
        path: PathBuf,
        /// The turns played before it.
        played: usize,
        /// The position.
        fen: String,
        /// Why (boxed: a prover error is large).
        source: Box<ProverError>,
    },
}
