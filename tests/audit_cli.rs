//! End-to-end: `fanorona audit` on a short 5x3 match with tiny endgame tables: the table it
//! prints and the JSON it writes agree with each other and with the games, the same with one
//! thread or two; bad input (a missing file, a malformed record, a match's games.jsonl, games
//! of another board than the tables) is refused with a clear message.

mod common;

use std::path::Path;

use common::fanorona;
use serde_json::Value;

/// Builds 4-piece tables of 5x3 in `dir/tables` and plays a 6-game match into `dir/match`.
fn match_and_tables(dir: &Path) {
    let tables = dir.join("tables");
    fanorona([
        "tables",
        "build",
        "--board",
        "5x3",
        "--pieces",
        "4",
        "--out",
        tables.to_str().unwrap(),
        "--quiet",
    ])
    .assert_success();
    let games = dir.join("match");
    fanorona([
        "match",
        "--white",
        "minimax:depth=2",
        "--black",
        "greedy",
        "--board",
        "5x3",
        "--games",
        "6",
        "--out",
        games.to_str().unwrap(),
        "--quiet",
    ])
    .assert_success();
}

/// Audits `dir/match` with `threads` into `dir/NAME`; returns the JSON without its seconds,
/// and what was printed.
fn audit(dir: &Path, name: &str, threads: &str) -> (Value, String) {
    let json = dir.join(name);
    let run = fanorona([
        "audit",
        dir.join("match").to_str().unwrap(),
        "--tables",
        dir.join("tables").to_str().unwrap(),
        "--nodes",
        "200000",
        "--threads",
        threads,
        "--json",
        json.to_str().unwrap(),
    ]);
    let stdout = run.assert_success().to_string();
    // Standard error is no terminal here: a line per game instead of the bar.
    assert_eq!(run.stderr.matches("audit: ").count(), 6, "{}", run.stderr);
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert!(value["seconds"].as_f64().unwrap() >= 0.0);
    value.as_object_mut().unwrap().remove("seconds");
    (value, stdout)
}

#[test]
fn a_match_is_audited_into_a_table_and_json() {
    let dir = tempfile::tempdir().unwrap();
    match_and_tables(dir.path());
    let (json, stdout) = audit(dir.path(), "audit.json", "1");
    assert_eq!(
        (json["board"].as_str(), json["games"].as_u64()),
        (Some("5x3"), Some(6))
    );
    assert_eq!(json["tables_pieces"], 4);
    let count = |name: &str| json[name].as_u64().unwrap();
    assert_eq!(
        count("lost") + count("kept") + count("unsettled") + count("not_audited"),
        6
    );
    // The first losses by agent and colour add up to the games lost, piece count by piece
    // count, and agree with the games' own lines.
    let games = json["per_game"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    let mut by_game = std::collections::BTreeMap::<(String, String, String), u64>::new();
    for game in games {
        assert!(game["file"].as_str().unwrap().ends_with(".pgn"), "{game}");
        if game["audit"] == "lost" {
            let agent = game["agent"].as_str().unwrap();
            let colour = game["colour"].as_str().unwrap();
            assert_eq!(game[colour].as_str(), Some(agent), "{game}");
            assert!(["minimax:depth=2", "greedy"].contains(&agent), "{game}");
            assert!(game["pieces"].as_u64().unwrap() <= 14, "{game}");
            assert_ne!(game["before"], "loss", "{game}");
            let key = (agent.into(), colour.into(), game["pieces"].to_string());
            *by_game.entry(key).or_default() += 1;
        }
    }
    let mut by_row = std::collections::BTreeMap::new();
    for row in json["first_losses"].as_array().unwrap() {
        for (pieces, games) in row["by_pieces"].as_object().unwrap() {
            let key = (
                row["agent"].as_str().unwrap().to_string(),
                row["colour"].as_str().unwrap().to_string(),
                pieces.clone(),
            );
            by_row.insert(key, games.as_u64().unwrap());
        }
    }
    assert_eq!(by_row, by_game);
    assert_eq!(by_game.values().sum::<u64>(), count("lost"));
    // The printed table says the same.
    assert!(
        stdout.contains("audit of 6 games of 5x3, every turn"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("lost their value: {}, ", count("lost"))),
        "{stdout}"
    );
    // The same audit with two threads.
    let (again, _) = audit(dir.path(), "again.json", "2");
    assert_eq!(again, json);
}

#[test]
fn bad_games_are_refused_with_clear_messages() {
    let dir = tempfile::tempdir().unwrap();
    match_and_tables(dir.path());
    let tables = dir.path().join("tables");
    // Audits `games`, which must fail with `message`.
    let refused = |games: &Path, message: &str| {
        let args = [games, tables.as_path()].map(|p| p.to_str().unwrap().to_string());
        fanorona(["audit", &args[0], "--tables", &args[1]]).assert_failure(message);
    };
    refused(&dir.path().join("missing.pgn"), "cannot read");
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Result \"1-0\"]\n\n1. z9z8 1-0\n").unwrap();
    refused(&bad, "bad game record");
    let results = dir.path().join("match").join("games.jsonl");
    refused(&results, "lists the games' results, not their turns");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(&empty, "no game records (*.pgn)");
    // A game of 5x5 with the tables of 5x3.
    let five = dir.path().join("five.pgn");
    std::fs::write(&five, "[Board \"5x5\"]\n[Result \"*\"]\n\n*\n").unwrap();
    refused(&five, "bad --tables: the games are of 5x5");
}
