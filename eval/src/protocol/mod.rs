//! The engine protocol: a line-based protocol on stdin/stdout in the UCI style (`uci`,
//! `isready`, `ucinewgame`, `setoption`, `position startpos|fen F [moves ...]`, `go`, `stop`,
//! `quit`, plus `d` and `moves`). Moves are complete turns in notation, capture chains
//! included (`c1d1Ad2A`). [`command`] reads the lines ([`input`] as bytes, so that a line that
//! is not UTF-8 is refused alone), [`clock`] turns a GUI's clocks into a time budget, [`info`]
//! writes and reads what a search reports, [`server`] is the engine side (its worker thread in
//! `search`), and `crate::agents::engine` the client that drives another program.

pub(crate) mod clock;
pub(crate) mod command;
pub(crate) mod info;
pub(crate) mod input;
mod output;
mod search;
pub(crate) mod server;

pub use clock::Clocks;
pub use command::{Command, CommandError, GoLimits, Start, go_command};
pub use info::info_line;
pub use input::{BadLine, MAX_LINE_BYTES, read_line};
pub use server::Server;
