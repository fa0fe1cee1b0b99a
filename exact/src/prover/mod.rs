//! The prover: depth-first proof-number search (df-pn) over the rules, with the endgame
//! tables at its leaves and a transposition table, that proves the exact value of a position
//! on any board (win, draw or loss for the side to move, the tables' convention: no draw
//! limits; a game neither side can force to an end is a draw) within a budget, or says it is
//! unproven.
//!
//! A value takes one or two *questions* ([`Question`]): "can this side force a win?". A win
//! for the side to move is one proof; a loss is a disproof of its win and a proof of the
//! other side's; a draw is two disproofs, one for each side.
//!
//! Why df-pn rather than PN²: the game graph here has many transpositions and long paika
//! lines, and df-pn keeps only a bounded transposition table (its working memory does not
//! grow with the proof tree as PN²'s explicit first-level tree does), resumes naturally from
//! that table (saved in the proof file), and its thresholds make it spend effort where the
//! proof is cheapest.
//!
//! Repetitions and the graph history interaction problem: a position repeated on the current
//! path cannot help the attacker (a winning strategy never needs to repeat), so it counts as
//! a disproof *for this path only*. Proofs never lean on a repetition and are stored for good;
//! a disproof that leans on a repetition of a position above the node is kept apart
//! (*tentative*), never reused by the search from another path, and becomes part of the result
//! only through the certificate. Soundness does not rest on the search: every answer is
//! certified ([`certificate`]) and the certificate is checked from the rules and the tables
//! alone: a proof by a set of positions with strictly decreasing proof heights (each attacker
//! node has a proven child of smaller height, each defender node has only such children), a
//! disproof by a *trap*, a set of positions the defender can keep the game in forever or
//! leave only for positions the tables value as no win for the attacker.

pub(crate) mod certificate;
pub(crate) mod error;
pub(crate) mod file;
pub(crate) mod json;
pub(crate) mod node;
pub(crate) mod prove;
pub(crate) mod search;
pub(crate) mod session;
pub(crate) mod table;
pub(crate) mod tables_id;

pub use certificate::{Certificate, CheckReport};
pub use error::ProverError;
pub use file::ProofFile;
pub use node::Key;
pub use prove::{
    Progress, ProofReport, ProveOptions, QuestionReport, RootTurns, TurnState, TurnStatus, Verdict,
    check_file, prove,
};
pub use search::{Outcome, Question};
pub use session::{DEFAULT_MAX_ENTRIES, DEFAULT_MAX_NODES, PROVER_STACK, lock_path, prove_file};
pub use tables_id::TablesId;
