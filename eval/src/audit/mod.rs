//! Audits of played games: where each game's value was first lost.
//!
//! A game record ([`crate::GameRecord`]) is replayed; at each turn start with few enough
//! pieces the value for the side to move (win, draw or loss, draw limits ignored, as the
//! tables and the prover count) is read from the endgame tables where they hold the position
//! and proven by the prover ([`fanorona_exact::prover`]) within a node budget elsewhere; a
//! turn keeps its mover's value where the value after it is the same ([`judge`]). The first
//! turn that lost it (a win to a draw or a loss, a draw to a loss) is the game's first loss
//! ([`audit_game`]); a turn the values do not settle before it leaves the game unsettled.
//! The games together ([`AuditReport`]) give, by agent and colour, how many games first lost
//! their value at each piece count.

pub(crate) mod error;
pub(crate) mod game;
pub(crate) mod judge;
pub(crate) mod records;
pub(crate) mod report;

pub use error::AuditError;
pub use game::{AuditBudget, FirstLoss, GameAudit, LostTurn, audit_game};
pub use judge::{Judgement, judge};
pub use records::{RecordFile, read_records};
pub use report::AuditReport;
