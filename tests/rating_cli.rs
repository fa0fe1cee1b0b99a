//! End-to-end: `fanorona gauntlet` plays one match per opponent from the same openings and
//! writes them with a summary; `fanorona rate` rates every agent in the folders found,
//! anchored at a named agent, and refuses empty folders, unknown anchors and players the
//! games do not connect; the gauntlet refuses a folder that holds anything.

mod common;

use std::path::Path;

use common::fanorona;

/// The first `n` turns of a game record's move text.
fn first_turns(record: &str, n: usize) -> Vec<String> {
    let moves = record.split("\n\n").nth(1).unwrap();
    moves
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .take(n)
        .map(str::to_string)
        .collect()
}

/// Runs a small gauntlet on 5x5 into `dir`.
fn gauntlet(dir: &Path, agent: &str, vs: &str) -> String {
    let run = fanorona([
        "gauntlet",
        "--agent",
        agent,
        "--vs",
        vs,
        "--games",
        "4",
        "--board",
        "5x5",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run.assert_success().to_string()
}

#[test]
fn a_gauntlet_is_written_and_rated() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let stdout = gauntlet(&out, "minimax:depth=2", "minimax:depth=1,seed=3,random");
    assert!(
        stdout.contains("[1/2] minimax:depth=2 vs minimax:depth=1,seed=3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[2/2] minimax:depth=2 vs random"),
        "{stdout}"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("gauntlet.json")).unwrap()).unwrap();
    assert_eq!(summary["agent"], "minimax:depth=2");
    let opponents = summary["opponents"].as_array().unwrap();
    assert_eq!(opponents.len(), 2);
    assert_eq!(opponents[1]["folder"], "02-random");
    assert_eq!(opponents[1]["summary"]["games"], 4);
    assert_eq!(opponents[1]["summary"]["second"], "random");
    // The same openings against every opponent, colours alternating.
    let record = |folder: &str, game: &str| {
        std::fs::read_to_string(out.join(folder).join("games").join(game)).unwrap()
    };
    for game in ["game-0001.pgn", "game-0004.pgn"] {
        let (a, b) = (
            record("01-minimax-depth-1-seed-3", game),
            record("02-random", game),
        );
        assert_eq!(first_turns(&a, 2), first_turns(&b, 2), "{a}\n{b}");
    }
    assert!(record("02-random", "game-0002.pgn").contains("[White \"random\"]"));

    let json = dir.path().join("ratings.json");
    let run = fanorona([
        "rate",
        out.to_str().unwrap(),
        "--anchor",
        "random",
        "--bootstrap",
        "100",
        "--json",
        json.to_str().unwrap(),
    ]);
    let table = run.assert_success();
    assert!(table.starts_with("rank  agent"), "{table}");
    let ratings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let players = ratings["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(ratings["games"], 8);
    let random = players.iter().find(|p| p["agent"] == "random").unwrap();
    assert_eq!(random["rating"], 0.0);
    assert_eq!(random["games"], 4);
    assert_eq!(players[0]["agent"], "minimax:depth=2", "{table}");

    // The default anchor is minimax:depth=1, which is not among these names.
    let run = fanorona(["rate", out.to_str().unwrap()]);
    run.assert_failure("the anchor \"minimax:depth=1\" played no game here");
    // A gauntlet does not write into a folder that holds anything.
    let run = fanorona([
        "gauntlet",
        "--agent",
        "random",
        "--vs",
        "greedy",
        "--games",
        "2",
        "--board",
        "5x5",
        "--out",
        out.to_str().unwrap(),
    ]);
    run.assert_failure("choose a new or empty folder");
    // The matches need --agent; --run (the evaluator of a run directory) excludes them.
    fanorona(["gauntlet", "--vs", "random", "--out", "/tmp/x"]).assert_failure("--agent");
    fanorona(["gauntlet", "--run", "/tmp/x", "--agent", "random"])
        .assert_failure("cannot be used with");
}

#[test]
fn rating_refuses_what_cannot_be_rated() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    fanorona(["rate", empty.to_str().unwrap()]).assert_failure("no finished games");
    fanorona(["rate", dir.path().join("missing").to_str().unwrap()])
        .assert_failure("is not a folder");

    // Two gauntlets whose players never met.
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    gauntlet(&a, "minimax:depth=1", "random");
    gauntlet(&b, "greedy", "minimax:depth=2");
    let run = fanorona(["rate", a.to_str().unwrap(), b.to_str().unwrap()]);
    run.assert_failure("groups that never played each other");
    // Each alone is fine; without a prior, a clean sweep (4-0 here) has no finite rating.
    fanorona(["rate", a.to_str().unwrap(), "--bootstrap", "10"]).assert_success();
    fanorona(["rate", a.to_str().unwrap(), "--prior", "0"])
        .assert_failure("maximum-likelihood ratings are infinite");
}
