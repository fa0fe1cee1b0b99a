//! A `fanorona serve` process for tests: started on a free port of 127.0.0.1, stopped when
//! dropped, with a small JSON client, raw TCP exchanges and its peak memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::command;

/// A 5x3 position where white's chain b1c1A c2A b2A c3W takes every black piece; its first
/// step may capture by approach (d1, e1) or by withdrawal (a1).
pub const CHAIN_FEN: &str = "2B2/B4/BW1BB w 0 1";

/// A running server.
pub struct Server {
    child: Child,
    /// Its base URL, `http://127.0.0.1:PORT`.
    pub url: String,
    agent: ureq::Agent,
}

/// An answer: its status and its body (JSON, or text as a JSON string).
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Value,
}

impl Answer {
    /// Asserts a 200 answer and returns its body.
    #[track_caller]
    pub fn ok(self) -> Value {
        assert_eq!(self.status, 200, "{}", self.body);
        self.body
    }

    /// Asserts a refusal with `status` whose message contains `text`; returns the message.
    #[track_caller]
    pub fn refused(self, status: u16, text: &str) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let message = self.body["error"].as_str().unwrap_or_default().to_string();
        assert!(message.contains(text), "no {text:?} in {message:?}");
        message
    }
}

impl Server {
    /// Starts `fanorona serve --addr 127.0.0.1:0` with `args` and waits until it listens.
    pub fn start(args: &[&str]) -> Server {
        let mut command = command(["serve", "--addr", "127.0.0.1:0"]);
        command.args(args);
        Server::spawn(command)
    }

    /// [`Server::start`] with at most `open_files` file descriptors (`ulimit -n`).
    pub fn start_with_open_files(open_files: u32, args: &[&str]) -> Server {
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {open_files} && exec \"$0\" \"$@\""))
            .args([super::BIN, "serve", "--addr", "127.0.0.1:0"])
            .args(args);
        Server::spawn(command)
    }

    /// Spawns `command` (a server) and waits until it listens.
    fn spawn(mut command: std::process::Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start fanorona serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line)
            .expect("read the server's first line");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Server { child, url, agent }
    }

    /// Its address, `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// The most memory it has had resident, in MiB (VmHWM of /proc/PID/status).
    pub fn peak_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .expect("a VmHWM line");
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("VmHWM in kB");
        kib / 1024
    }

    /// Sends `bytes` on a new connection and reads until the server closes it or `limit`
    /// has passed.
    pub fn exchange(&self, bytes: &[u8], limit: Duration) -> Exchange {
        let started = Instant::now();
        let mut stream = TcpStream::connect(self.addr()).expect("connect to the server");
        stream.write_all(bytes).expect("send");
        read_until_closed(stream, started, limit)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Answer {
        answer(self.agent.get(format!("{}{path}", self.url)).call())
    }

    /// `POST path` with `body` sent as it is, as JSON.
    pub fn post_raw(&self, path: &str, body: &str) -> Answer {
        self.post_typed(path, "application/json", body)
    }

    /// `POST path` with `body` sent as it is, labelled `content_type`.
    pub fn post_typed(&self, path: &str, content_type: &str, body: &str) -> Answer {
        answer(
            self.agent
                .post(format!("{}{path}", self.url))
                .content_type(content_type)
                .send(body),
        )
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: Value) -> Answer {
        self.post_raw(path, &body.to_string())
    }
}

/// What came back on a raw connection.
pub struct Exchange {
    /// Everything read.
    pub text: String,
    /// Whether the server closed the connection (else the time limit ended the reading).
    pub closed: bool,
    /// How long it took.
    pub elapsed: Duration,
}

impl Exchange {
    /// The status of the answer, if one came.
    pub fn status(&self) -> Option<u16> {
        self.text
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|code| code.parse().ok())
    }

    /// The answer's body parsed as JSON (panics if it is not).
    #[track_caller]
    pub fn json(&self) -> Value {
        let body = self.text.split("\r\n\r\n").nth(1).unwrap_or_default();
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: not JSON:\n{}", self.text))
    }
}

/// Reads `stream` until it is closed or `limit` (from `started`) has passed.
pub fn read_until_closed(mut stream: TcpStream, started: Instant, limit: Duration) -> Exchange {
    let mut bytes = Vec::new();
    let mut buffer = [0; 4096];
    let closed = loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            break false;
        }
        stream.set_read_timeout(Some(left)).expect("a read timeout");
        match stream.read(&mut buffer) {
            Ok(0) => break true,
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
            Err(_) => break false,
        }
    };
    Exchange {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        closed,
        elapsed: started.elapsed(),
    }
}

fn answer(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    let mut response = result.expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("a text body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Answer { status, body }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
