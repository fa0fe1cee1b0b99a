//! What the commands print. `out!` and `outln!` write to standard output and return an
//! [`OutputError`] instead of panicking as `print!` does when the reader has gone (`fanorona
//! replay G.pgn | head -1`); `main` ends quietly and successfully on a closed pipe. `logln!`
//! writes a line to standard error and ignores failures: a closed log never stops the work.

use std::fmt;
use std::io::{self, Write};

/// Standard output cannot be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {0}")]
pub struct OutputError(io::Error);

impl OutputError {
    /// Whether the reader closed the pipe (nothing more is wanted: not a failure).
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Writes `args` to standard output.
pub fn write_out(args: fmt::Arguments) -> Result<(), OutputError> {
    io::stdout().lock().write_fmt(args).map_err(OutputError)
}

/// Writes `args` and a line end to standard error, ignoring failures.
pub fn write_log(args: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// `print!` that returns `Result<(), OutputError>`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_out(format_args!($($arg)*))
    };
}

/// `println!` that returns `Result<(), OutputError>`.
macro_rules! outln {
    () => {
        $crate::output::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that ignores a closed or failing standard error.
macro_rules! logln {
    ($($arg:tt)*) => {
        $crate::output::write_log(format_args!($($arg)*))
    };
}

pub(crate) use {logln, out, outln};
