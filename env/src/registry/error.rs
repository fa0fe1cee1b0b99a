//! Why an agent specification cannot be used.

use crate::excerpt::Excerpt;

/// An agent specification that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Nothing was given.
    #[error("empty agent specification: expected kind[:key=value,...], e.g. minimax:depth=4")]
    Empty,
    /// The text is not `kind[:key=value,...]`.
    #[error("cannot read agent specification {}: {reason}", Excerpt(.spec))]
    Syntax {
        /// The text given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// No registered kind has this name.
    #[error("unknown agent kind {}; known kinds:{known}", Excerpt(.kind))]
    UnknownKind {
        /// The kind given.
        kind: String,
        /// The registered kinds, one line each (`name: summary`).
        known: String,
    },
    /// The kind does not take this option.
    #[error("agent {kind}: unknown option {}; accepted:{accepted}", Excerpt(.option))]
    UnknownOption {
        /// The agent kind.
        kind: String,
        /// The option given.
        option: String,
        /// The options the kind declares, one line each.
        accepted: String,
    },
    /// An option appears twice.
    #[error("agent {kind}: option {} is given twice", Excerpt(.option))]
    DuplicateOption {
        /// The agent kind.
        kind: String,
        /// The repeated option.
        option: String,
    },
    /// A required option is not given.
    #[error("agent {kind}: option {option} is required: {usage}")]
    MissingOption {
        /// The agent kind.
        kind: String,
        /// The option.
        option: String,
        /// The option's help line.
        usage: String,
    },
    /// The specification is valid but the agent could not be made (a program that does not
    /// start, a file that cannot be read).
    #[error("agent {spec} cannot be used: {reason}")]
    Unavailable {
        /// The specification.
        spec: String,
        /// What went wrong.
        reason: String,
    },
    /// An option's value is not acceptable.
    #[error(
        "agent {kind}: bad value {} for option {option}: expected {expected}",
        Excerpt(.value)
    )]
    BadValue {
        /// The agent kind.
        kind: String,
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}
