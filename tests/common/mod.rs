//! The launcher the CLI tests share: runs the `fanorona` binary, with arguments and an optional
//! script on stdin, and checks how it ended.

// Each test binary uses only part of the launcher.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, ExitStatus, Stdio};

pub mod server;

/// The path of the `fanorona` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

/// The exit code of every error the binary reports (bad input, failed commands).
pub const ERROR_CODE: i32 = 2;

/// A finished run of the binary.
pub struct Run {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

impl Run {
    /// Asserts the run succeeded (showing both streams otherwise); returns its stdout.
    #[track_caller]
    pub fn assert_success(&self) -> &str {
        assert!(
            self.status.success(),
            "{}\nstdout:\n{}\nstderr:\n{}",
            self.status,
            self.stdout,
            self.stderr
        );
        &self.stdout
    }

    /// Asserts the run failed with [`ERROR_CODE`] and a message containing `text` on stderr;
    /// returns its stderr.
    #[track_caller]
    pub fn assert_failure(&self, text: &str) -> &str {
        assert_eq!(self.status.code(), Some(ERROR_CODE), "{}", self.stderr);
        assert!(
            self.stderr.contains(text),
            "no {text:?} in:\n{}",
            self.stderr
        );
        &self.stderr
    }
}

/// The binary with `args`, ready to be given pipes and spawned.
pub fn command<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Command {
    let mut command = Command::new(BIN);
    command.args(args);
    command
}

/// An output stream of the binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Runs the binary with `args`, its `closed` stream a pipe whose reader is gone (as after
/// `| head` has stopped reading), the other one captured.
pub fn fanorona_closed<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>, closed: Stream) -> Run {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut command = command(args);
    command.stdin(Stdio::null());
    match closed {
        Stream::Stdout => command.stdout(writer).stderr(Stdio::piped()),
        Stream::Stderr => command.stderr(writer).stdout(Stdio::piped()),
    };
    let output = command.output().expect("the binary runs");
    Run {
        status: output.status,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs the binary with `args` and nothing on stdin.
pub fn fanorona<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Run {
    fanorona_with_stdin(args, "")
}

/// Runs the binary with `args`, writing `stdin` (text, or any bytes) to its standard input and
/// closing it.
pub fn fanorona_with_stdin<S: AsRef<OsStr>>(
    args: impl IntoIterator<Item = S>,
    stdin: impl AsRef<[u8]>,
) -> Run {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A binary that ends without reading its input fails this write; its output tells why.
    let _ = pipe.write_all(stdin.as_ref());
    drop(pipe);
    let output = child.wait_with_output().expect("the binary runs");
    Run {
        status: output.status,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
