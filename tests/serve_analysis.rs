//! The analysis board's API of `fanorona serve` over HTTP: a position named by a start and
//! turns, an analysis streamed as server-sent events (ever deeper iterations with a value and
//! a best line), stopped by a request, by the client going away or by the time cap; the
//! number of analyses capped; bad requests refused in JSON; the prover's answer first,
//! beside the endgame tables'.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use common::server::{CHAIN_FEN, Server};
use serde_json::{Value, json};

/// An analysis's event stream, read as it comes.
struct Events {
    lines: BufReader<Box<dyn Read + Send>>,
}

impl Events {
    /// Opens `GET path` as a stream; `Err` with the status and JSON body if it is refused.
    fn open(server: &Server, path: &str) -> Result<Events, (u16, Value)> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let response = agent
            .get(format!("{}{path}", server.url))
            .call()
            .expect("the server answers");
        let status = response.status().as_u16();
        if status != 200 {
            let text = response.into_body().read_to_string().unwrap();
            return Err((status, serde_json::from_str(&text).expect("a JSON error")));
        }
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert_eq!(content_type, "text/event-stream");
        let reader: Box<dyn Read + Send> = Box::new(response.into_body().into_reader());
        Ok(Events {
            lines: BufReader::new(reader),
        })
    }

    /// The next event's name and data (comments skipped); `None` at the stream's end.
    fn next(&mut self) -> Option<(String, Value)> {
        let (mut name, mut data) = (None, String::new());
        loop {
            let mut line = String::new();
            if self.lines.read_line(&mut line).expect("read the stream") == 0 {
                return None;
            }
            let line = line.trim_end_matches('\n');
            if let Some(n) = line.strip_prefix("event: ") {
                name = Some(n.to_string());
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            } else if line.is_empty()
                && let Some(name) = name.take()
            {
                return Some((name, serde_json::from_str(&data).expect("JSON data")));
            }
        }
    }

    /// The next event, which must be called `name`; its data.
    #[track_caller]
    fn expect(&mut self, name: &str) -> Value {
        let (got, data) = self.next().expect("another event");
        assert_eq!(got, name, "{data}");
        data
    }
}

#[test]
fn an_analysis_streams_deeper_iterations_and_stops_on_request_or_when_the_client_goes() {
    let server = Server::start(&["--agent", "minimax", "--max-analyses", "1"]);
    let mut events = Events::open(&server, "/api/analysis?agent=minimax").unwrap();
    let start = events.expect("start");
    assert_eq!(start["side_to_move"], "white");
    assert_eq!(start["agent"], "minimax");
    let id = start["id"].as_str().unwrap().to_string();
    // First the prover's answer: the 9x5 start is not settled in the default budget.
    let proof = events.expect("proof");
    assert!(
        proof["value"].is_null() && proof["tables"].is_null(),
        "{proof}"
    );
    // At least three successive evaluations of the position, each a turn deeper, each with
    // a value and a best line as long as its depth.
    for depth in 1..=3 {
        let it = events.expect("iteration");
        assert_eq!(it["depth"], depth, "{it}");
        let value = it["white_value"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&value), "{it}");
        assert_eq!(it["pv"].as_array().unwrap().len(), depth as usize, "{it}");
        assert!(!it["verdict"].as_str().unwrap().is_empty());
    }
    // One analysis at a time here: a second is refused while this one runs.
    let (status, body) = Events::open(&server, "/api/analysis").err().unwrap();
    assert_eq!(status, 503);
    assert!(
        body["error"].as_str().unwrap().contains("at most 1"),
        "{body}"
    );
    // Stopped by a request: the stream ends with `end`, and the place is free at once.
    server
        .post(&format!("/api/analysis/{id}/stop"), json!({}))
        .ok();
    let end = loop {
        let (name, data) = events.next().expect("the end event");
        if name == "end" {
            break data;
        }
        assert_eq!(name, "iteration");
    };
    assert_eq!(end["reason"], "stopped", "{end}");
    assert!(events.next().is_none(), "the stream ends after `end`");
    server
        .post(&format!("/api/analysis/{id}/stop"), json!({}))
        .refused(404, "no analysis");
    // Stopped by the client going away: the place is free again within a few seconds.
    let mut events = Events::open(&server, "/api/analysis?agent=minimax").unwrap();
    events.expect("start");
    drop(events);
    let left = Instant::now();
    let mut again = loop {
        match Events::open(&server, "/api/analysis?agent=minimax") {
            Ok(events) => break events,
            Err((503, _)) => {
                assert!(left.elapsed() < Duration::from_secs(10), "never freed");
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(other) => panic!("{other:?}"),
        }
    };
    again.expect("start");
}

#[test]
fn a_forced_win_completes_the_analysis_and_the_time_cap_ends_it() {
    // A small proof first (on 9x5 the prover takes about 20,000 nodes a second), within
    // the cap.
    let server = Server::start(&[
        "--agent",
        "minimax",
        "--analysis-ms",
        "500",
        "--prove-nodes",
        "1000",
    ]);
    let fen = CHAIN_FEN.replace(' ', "%20");
    let mut events = Events::open(&server, &format!("/api/analysis?fen={fen}")).unwrap();
    assert_eq!(events.expect("start")["fen"], CHAIN_FEN);
    assert_eq!(events.expect("proof")["value"], "win");
    let it = events.expect("iteration");
    assert_eq!(it["mate_in"], 1);
    assert_eq!(it["verdict"], "white wins in 1");
    assert_eq!(it["pv"], json!(["b1c1Ac2Ab2Ac3W"]));
    assert_eq!(events.expect("end")["reason"], "complete");
    // The standard position is never finished: the cap ends it, after some iterations.
    let started = Instant::now();
    let mut events = Events::open(&server, "/api/analysis?agent=minimax").unwrap();
    events.expect("start");
    let mut iterations = 0;
    let end = loop {
        let (name, data) = events.next().expect("the end event");
        if name == "end" {
            break data;
        }
        iterations += usize::from(name == "iteration");
    };
    assert_eq!(end["reason"], "time", "{end}");
    assert!(iterations >= 1);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn positions_are_replayed_and_bad_analysis_requests_are_refused_in_json() {
    let server = Server::start(&["--agent", "minimax"]);
    let fen = CHAIN_FEN.replace(' ', "%20");
    let position = server
        .get(&format!("/api/position?fen={fen}&moves=b1c1A"))
        .ok();
    assert_eq!(position["start"], CHAIN_FEN);
    assert_eq!(position["moves"], json!(["b1c1A"]));
    assert_eq!(position["side_to_move"], "black");
    assert_eq!(position["rows"], json!(["..B..", "B....", "B.W.."]));
    server
        .get(&format!("/api/position?fen={fen}&moves=b1c1A%20a1a2"))
        .refused(400, "move 2 (\"a1a2\")");
    let refused = |path: &str, status: u16, text: &str| match Events::open(&server, path) {
        Ok(_) => panic!("{path} was not refused"),
        Err((got, body)) => {
            assert_eq!(got, status, "{path}: {body}");
            let message = body["error"].as_str().unwrap();
            assert!(message.contains(text), "{path}: {message:?}");
        }
    };
    refused("/api/analysis?agent=random", 400, "does not search");
    refused("/api/analysis?agent=engine:cmd=sh", 400, "not allowed");
    refused(
        "/api/analysis?colour=white",
        400,
        "unknown parameter \"colour\"",
    );
    refused("/api/analysis?board=4x4", 400, "");
    refused(
        &format!("/api/analysis?fen={fen}&moves=b1c1Ac2Ab2Ac3W"),
        409,
        "the game is over",
    );
    server
        .post("/api/analysis/nope/stop", json!({}))
        .refused(404, "no analysis \"nope\"");
    // A huge id is echoed cut to 100 characters, with its length.
    let long = "x".repeat(5000);
    let message = server
        .post(&format!("/api/analysis/{long}/stop"), json!({}))
        .refused(404, "(5000 characters)");
    assert!(message.len() < 300, "{message}");
    let off = Server::start(&["--agent", "minimax", "--max-analyses", "0"]);
    match Events::open(&off, "/api/analysis") {
        Err((503, body)) => assert!(body["error"].as_str().unwrap().contains("at most 0")),
        other => panic!("{:?}", other.err()),
    }
}

/// A folder of the 9x5 endgame tables of up to 3 pieces.
fn tables_of_three_pieces() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    common::fanorona(["tables", "build", "--pieces", "3", "--out", out, "--quiet"])
        .assert_success();
    dir
}

#[test]
fn with_endgame_tables_the_analysis_knows_a_long_win_at_once() {
    let dir = tables_of_three_pieces();
    let tables = dir.path().to_str().unwrap();
    // Black to move loses in 6 turns (white wins in 3 of its own): too deep for the first
    // iterations without tables.
    let fen = "9/9/9/W8/1W1B5%20b";
    let first = |args: &[&str]| {
        let server = Server::start(args);
        let path = format!("/api/analysis?fen={fen}&agent=minimax");
        let mut events = Events::open(&server, &path).unwrap();
        events.expect("start");
        events.expect("proof");
        events.expect("iteration")
    };
    let with = first(&["--agent", "minimax", "--tables", tables]);
    assert_eq!(with["mate_in"], -3, "{with}");
    assert!(
        with["verdict"]
            .as_str()
            .unwrap()
            .contains("white wins in 3"),
        "{with}"
    );
    let without = first(&["--agent", "minimax"]);
    assert!(without["mate_in"].is_null(), "{without}");
    // A folder without the standard board's tables is refused at the start.
    let empty = tempfile::tempdir().unwrap();
    common::fanorona([
        "serve",
        "--tables",
        empty.path().to_str().unwrap(),
        "--addr",
        "127.0.0.1:0",
    ])
    .assert_failure("bad --tables");
}

#[test]
fn the_proof_shows_the_proven_value_and_its_turns_beside_the_tables_answer() {
    let dir = tables_of_three_pieces();
    let tables = dir.path().to_str().unwrap();
    let server = Server::start(&["--agent", "minimax", "--tables", tables]);
    let proof_of = |fen: &str| {
        let path = format!("/api/analysis?fen={}", fen.replace(' ', "%20"));
        let mut events = Events::open(&server, &path).unwrap();
        let id = events.expect("start")["id"].as_str().unwrap().to_string();
        let proof = events.expect("proof");
        // Stopped (unless it has ended: a forced result), so that the next has the place.
        let stop = server.post(&format!("/api/analysis/{id}/stop"), json!({}));
        assert!(matches!(stop.status, 200 | 404), "{}", stop.body);
        while events.next().is_some_and(|(name, _)| name != "end") {}
        proof
    };
    // White wins by taking both black pieces; stopping after the first does not win.
    let won = proof_of("9/9/3B5/9/2W1B4 w");
    assert_eq!(won["value"], "win", "{won}");
    assert_eq!(won["side_to_move"], "white");
    assert_eq!(
        won["turns"],
        json!([
            {"turn": "c1d1A", "status": "spoils"},
            {"turn": "c1d1Ad2A", "status": "keeps"},
        ])
    );
    assert_eq!(
        won["tables"],
        json!({"value": "win", "distance": 1, "keeps": ["c1d1Ad2A"]})
    );
    // A lost position: every turn keeps the loss, for the prover as for the tables.
    let lost = proof_of("9/9/9/W8/1W1B5 b");
    assert_eq!(lost["value"], "loss", "{lost}");
    assert_eq!(lost["tables"]["value"], "loss");
    assert_eq!(lost["tables"]["distance"], 6);
    let turns = lost["turns"].as_array().unwrap();
    assert!(!turns.is_empty() && turns.iter().all(|t| t["status"] == "keeps"));
    assert_eq!(
        lost["tables"]["keeps"].as_array().unwrap().len(),
        turns.len()
    );
    // Beyond the tables: no answer of theirs.
    let start = proof_of("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w");
    assert!(
        start["tables"].is_null() && start["value"].is_null(),
        "{start}"
    );
    // --prove-nodes 0: no proof, the iterations come at once.
    let off = Server::start(&["--agent", "minimax", "--prove-nodes", "0"]);
    let mut events = Events::open(&off, "/api/analysis").unwrap();
    events.expect("start");
    events.expect("iteration");
}
