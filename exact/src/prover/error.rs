//! Typed errors of the prover.

use std::path::PathBuf;

/// Why a proof could not be made, saved, read or checked.
#[derive(Debug, thiserror::Error)]
pub enum ProverError {
    /// The position cannot be proven under the prover's rules.
    #[error("cannot prove this position: {0}")]
    BadPosition(String),
    /// Reading or writing a proof file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A proof file is damaged, of another format, or of another position.
    #[error("{path}: not a valid proof file: {reason}")]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The options of a run are out of range.
    #[error("bad prover options: {0}")]
    BadOptions(String),
    /// A proof file was made with other endgame tables than those given.
    #[error(
        "the proof file was made with {needed}, and {given}: give those tables, or tables of \
         more pieces that agree with them"
    )]
    WrongTables {
        /// The tables the file needs, in words.
        needed: String,
        /// What was given instead, in words.
        given: String,
    },
    /// A record of a proof file does not hold: its certificate does not check, or its search
    /// table claims proofs that do not hold.
    #[error(
        "the proof file cannot be trusted: {0}; it was damaged or edited (or made with other \
         tables): delete it to start afresh"
    )]
    Untrusted(String),
    /// Another run holds the lock of the proof file.
    #[error(
        "{path}: the proof file is in use by another run of the prover{holder} (its lock \
         {lock} is held); wait for it to end, or give another proof file"
    )]
    Locked {
        /// The proof file.
        path: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// ` (process N)` naming the holder where known, else empty.
        holder: String,
    },
    /// The proving thread could not be started.
    #[error("cannot start the proving thread: {0}")]
    Thread(std::io::Error),
    /// A certificate did not pass its check.
    #[error("the certificate does not check: {0}")]
    Refuted(String),
}
