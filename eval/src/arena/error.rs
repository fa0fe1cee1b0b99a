//! Why a match cannot be played or its results cannot be written.

use fanorona_env::SpecError;

/// A match that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An agent could not be built.
    #[error("cannot create agent {which}: {reason}")]
    Agent {
        /// `first` or `second`.
        which: &'static str,
        /// Why.
        reason: SpecError,
    },
    /// Impossible settings.
    #[error("bad match settings: {0}")]
    Settings(String),
    /// The folder for the results cannot be used (checked before the match is played).
    #[error("cannot write the match results into {path}: {reason}")]
    OutDir {
        /// The folder.
        path: String,
        /// Why.
        reason: String,
    },
    /// Results cannot be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}
