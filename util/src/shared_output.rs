//! [`SharedOutput`]: a writer whose bytes can be read back while another owner (a server, a
//! progress bar) holds a clone and writes to it: to capture what a component prints.

use std::io::{self, Write};
use std::string::FromUtf8Error;
use std::sync::{Arc, Mutex, PoisonError};

/// An in-memory writer shared by its clones: what one clone writes, every clone reads.
#[derive(Clone, Debug, Default)]
pub struct SharedOutput(Arc<Mutex<Vec<u8>>>);

impl SharedOutput {
    /// The text written so far, left in place; an error if it is not UTF-8.
    pub fn text(&self) -> Result<String, FromUtf8Error> {
        String::from_utf8(self.bytes().clone())
    }

    /// The text written so far, taken out: the next call sees only what is written after; an
    /// error (the bytes taken all the same) if it is not UTF-8.
    pub fn take_text(&self) -> Result<String, FromUtf8Error> {
        String::from_utf8(std::mem::take(&mut *self.bytes()))
    }

    /// The lines written so far, taken out (see [`SharedOutput::take_text`]).
    pub fn take_lines(&self) -> Result<Vec<String>, FromUtf8Error> {
        Ok(self.take_text()?.lines().map(str::to_string).collect())
    }

    fn bytes(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_what_is_written_and_taking_empties_it() {
        let out = SharedOutput::default();
        let mut writer = out.clone();
        write!(writer, "one\ntwo").unwrap();
        assert_eq!(out.text().unwrap(), "one\ntwo");
        assert_eq!(out.take_text().unwrap(), "one\ntwo");
        writeln!(writer, "three\nfour").unwrap();
        assert_eq!(out.text().unwrap(), "three\nfour\n");
        assert_eq!(out.take_lines().unwrap(), ["three", "four"]);
        assert_eq!(out.text().unwrap(), "");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_an_error() {
        let out = SharedOutput::default();
        out.clone().write_all(&[b'a', 0xFF]).unwrap();
        assert!(out.text().is_err());
        assert!(out.take_lines().is_err());
        assert_eq!(out.text().unwrap(), "", "taken all the same");
    }
}
