//! The exact solver for small boards: every position reachable from the initial position is
//! enumerated ([`enumerate`]), indexed compactly ([`index`]) and labelled win, loss or draw
//! with its distance to the end by retrograde analysis ([`retrograde`]), under the standard
//! rules without draw limits (a game that can go on for ever is a draw). The result, a
//! [`Solution`], answers queries ([`query`]), is saved to and loaded from a table file
//! ([`table`]) and drives the perfect player of `fanorona-eval`.

pub(crate) mod cache;
pub(crate) mod enumerate;
pub(crate) mod error;
pub(crate) mod index;
pub(crate) mod query;
pub(crate) mod retrograde;
pub(crate) mod solution;
pub(crate) mod table;
pub(crate) mod value;

pub use cache::{TableSource, shared_solution};
pub use error::SolverError;
pub use index::MAX_SOLVER_POINTS;
pub use solution::{ClassReport, OutcomeCounts, Solution, SolveOptions, SolveReport, check_rules};
pub use value::Value;
