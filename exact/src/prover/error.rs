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
    /// A certificate did not pass its check.
    #[error("the certificate does not check: {0}")]
    Refuted(String),
}
