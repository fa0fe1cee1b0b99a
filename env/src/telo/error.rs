//! Why a Telo position cannot be built.

use crate::excerpt::Excerpt;

/// A Telo position that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeloError {
    /// The text form could not be read.
    #[error("cannot read Telo position {}: {reason}", Excerpt(.text))]
    Syntax {
        /// The input.
        text: String,
        /// What is wrong and what is expected.
        reason: String,
    },
    /// The pieces cannot arise in a game.
    #[error("impossible Telo position: {0}")]
    Impossible(String),
}
