//! Why an exam cannot be taken.

use fanorona_env::SpecError;

/// An exam that cannot be set or taken.
#[derive(Debug, thiserror::Error)]
pub enum ExamError {
    /// Impossible settings (no positions, no agents).
    #[error("bad exam settings: {0}")]
    Settings(String),
    /// An agent could not be built.
    #[error("cannot create an agent: {0}")]
    Build(SpecError),
    /// An agent failed to choose a turn.
    #[error("agent {agent}: {reason}")]
    Agent {
        /// The agent's specification or name.
        agent: String,
        /// What went wrong.
        reason: String,
    },
    /// A position is not in the solved table (a table solved from other positions).
    #[error(
        "position {fen} is not in the solved table (the table must hold every position reachable from the board's initial position; solve it with fanorona solve --board WxH --save FILE)"
    )]
    NotSolved {
        /// The position.
        fen: String,
    },
    /// A labelling was stopped (its journal keeps what was proven).
    #[error("stopped after {tried} positions tried, {settled} settled")]
    Stopped {
        /// Candidates proven so far, over every sitting.
        tried: usize,
        /// Of those, the ones the prover settled.
        settled: usize,
    },
    /// A labelling thread could not be started.
    #[error("cannot start a labelling thread: {0}")]
    Thread(std::io::Error),
    /// A test-set file cannot be read or written, or is malformed.
    #[error("{path}: {reason}")]
    SetFile {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}
