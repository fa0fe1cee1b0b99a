//! Exact Fanorona: what perfect play is worth, computed rather than estimated.
//!
//! - [`solver`]: every position reachable from the start of a small board (up to 31 points),
//!   labelled win, loss or draw with its distance to the end by retrograde analysis.
//! - [`tables`]: endgame tables, the exact value of every position with few pieces on any
//!   board of up to 64 points (the standard 9 x 5 included), up to the board's symmetries,
//!   in checksummed files that are memory-mapped for probing.
//! - [`prover`]: proof-number search over the rules with the tables at its leaves, proving
//!   the value of a position on any board, with a certificate checked from the rules and the
//!   tables alone.
//!
//! Values follow one convention throughout ([`solver::Value`]): win, draw or loss for the
//! side to move under the standard rules without draw limits; a game neither side can force
//! to an end is a draw. The agents that play from this knowledge live in `fanorona-eval`.

mod envelope;
pub mod prover;
pub mod solver;
pub mod tables;
