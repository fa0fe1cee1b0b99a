//! What the commands print. `out!` and `outln!` write to standard output and return an
//! [`OutputError`] instead of panicking as `print!` does when the reader has gone (`fanorona
//! review G.pgn | head -1`); `main` ends quietly and successfully on a closed pipe. `logln!`
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

/// `error` and its causes joined by `: `, each cause left out where the message before it
/// already quotes it (errors that print their source and also report it as their cause).
pub fn error_message(error: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if message.is_empty() {
            message = text;
        } else if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read games.pgn: {source}")]
    struct Quoting {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_the_message_already_quotes_is_printed_once() {
        let io = std::io::Error::new(io::ErrorKind::InvalidData, "stream did not contain UTF-8");
        let error = anyhow::Error::new(Quoting { source: io }).context("rate failed");
        assert_eq!(
            error_message(&error),
            "rate failed: cannot read games.pgn: stream did not contain UTF-8"
        );
        let plain = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_message(&plain), "outer: inner");
    }
}
