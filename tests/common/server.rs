//! A `fanorona serve` process for tests: started on a free port of 127.0.0.1, stopped when
//! dropped, with a small JSON client.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

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
        let mut child = command(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
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
