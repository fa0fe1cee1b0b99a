//! The engine's output, shared by the server and its search thread: each line is written and
//! flushed whole.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// The output of an engine session.
pub(super) struct Output<W>(Arc<Mutex<W>>);

impl<W: Write> Output<W> {
    /// An output writing to `out`.
    pub(super) fn new(out: W) -> Self {
        Output(Arc::new(Mutex::new(out)))
    }

    /// Writes `line` and flushes it.
    pub(super) fn send(&self, line: &str) -> io::Result<()> {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{line}")?;
        out.flush()
    }

    /// Writes `lines` one by one.
    pub(super) fn send_all(&self, lines: &[String]) -> io::Result<()> {
        lines.iter().try_for_each(|line| self.send(line))
    }
}

impl<W> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output(self.0.clone())
    }
}

/// `message` as one `info string error:` line; the lines of a longer message (a list of agent
/// kinds or options) are joined with ` | `.
pub(super) fn error_line(message: &str) -> String {
    let lines: Vec<&str> = message.lines().map(str::trim).collect();
    format!("info string error: {}", lines.join(" | "))
}
