//! Endgame tables: the exact value of every position with few pieces on any board of at most
//! 64 points (the standard 9 x 5 included), not only the positions reachable from the start.
//!
//! Positions are grouped by material class, the piece counts of the side to move and of the
//! other side (colour plays no part in the rules), and numbered combinatorially within a class
//! ([`index`]). Classes are labelled win, loss or draw for the side to move, with the number of
//! turns to the end of the game, by retrograde analysis from the fewest pieces up ([`build`]),
//! under the standard rules without draw limits, as the solver ([`crate::solver`]). Each class
//! is one CRC-sealed file of one byte a position ([`file`]); [`EndgameTables`] loads a folder
//! of them into memory and answers probes ([`probe`]); [`shared_tables`] shares them within
//! the process.

pub(crate) mod build;
pub(crate) mod cache;
pub(crate) mod error;
pub(crate) mod file;
pub(crate) mod guard;
pub(crate) mod index;
pub(crate) mod probe;

pub use build::{BuildOptions, BuiltClass, build};
pub use cache::shared_tables;
pub use error::TablesError;
pub use file::{ClassTable, class_file_name};
pub use index::{ClassIndex, MAX_TABLE_PIECES};
pub use probe::EndgameTables;
