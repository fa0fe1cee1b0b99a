//! The engine protocol: a line-based protocol on stdin/stdout in the UCI style (`uci`,
//! `isready`, `ucinewgame`, `setoption`, `position startpos|fen F [moves ...]`, `go`, `stop`,
//! `quit`, plus `d` and `moves`). Moves are complete turns in notation, capture chains
//! included (`c1d1Ad2A`). [`command`] reads the lines, [`info`] writes and reads what a search
//! reports, [`server`] is the engine side, and `crate::agents::engine` the client that drives
//! another program.

pub mod command;
pub mod info;
pub mod server;

pub use command::{Command, CommandError, GoLimits, Start};
pub use info::info_line;
pub use server::Server;
