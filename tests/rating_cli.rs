//! End-to-end: `fanorona gauntlet` plays one match per opponent from the same openings and
//! writes them with a summary; `fanorona rate` rates every agent in the folders found,
//! anchored at a named agent, and refuses empty folders, unknown anchors and players the
//! games do not connect; the gauntlet refuses a folder that holds anything; `rate --curve`
//! places a run's rated checkpoints at their training time.

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
    gauntlet_on(dir, agent, vs, "5x5")
}

/// Runs a small gauntlet on `board` into `dir`.
fn gauntlet_on(dir: &Path, agent: &str, vs: &str, board: &str) -> String {
    let run = fanorona([
        "gauntlet",
        "--agent",
        agent,
        "--vs",
        vs,
        "--games",
        "4",
        "--board",
        board,
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

/// Trains the tiny preset (3 iterations, 5x3) into `out`.
fn train_tiny(out: &Path) {
    fanorona([
        "train",
        "--preset",
        "tiny",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ])
    .assert_success();
}

#[test]
fn the_rated_checkpoints_of_a_run_make_its_learning_curve() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_tiny(&run);
    // The tiny preset: 8 learner steps an iteration, a checkpoint every 8, the last 2 kept.
    let games = dir.path().join("games");
    for (step, folder) in [(16, "a"), (24, "b")] {
        let checkpoint = run.join(format!("checkpoint-{step:010}.ckpt"));
        assert!(checkpoint.exists(), "{}", checkpoint.display());
        let agent = format!("net:path={},sims=4", checkpoint.display());
        gauntlet_on(&games.join(folder), &agent, "random", "5x3");
    }
    let (csv, png) = (dir.path().join("curve.csv"), dir.path().join("curve.png"));
    let rate = fanorona([
        "rate",
        games.to_str().unwrap(),
        "--anchor",
        "random",
        "--bootstrap",
        "20",
        "--curve",
        run.to_str().unwrap(),
        "--cores",
        "2",
        "--curve-csv",
        csv.to_str().unwrap(),
        "--curve-png",
        png.to_str().unwrap(),
    ]);
    let table = rate.assert_success();
    assert!(table.contains("learning curve (2 cores)"), "{table}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    // search, step, iteration; positions and core hours grow with the step, core hours are
    // twice the wall-clock hours.
    assert_eq!(
        (rows[0][1], rows[0][2], rows[0][3]),
        ("sims=4", "16", "2"),
        "{text}"
    );
    assert_eq!((rows[1][2], rows[1][3]), ("24", "3"), "{text}");
    let number = |row: &[&str], i: usize| row[i].parse::<f64>().unwrap();
    assert!(number(&rows[1], 4) > number(&rows[0], 4), "{text}");
    assert!(number(&rows[1], 5) > number(&rows[0], 5), "{text}");
    assert!(
        (number(&rows[0], 6) - 2.0 * number(&rows[0], 5)).abs() < 1e-9,
        "{text}"
    );
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");

    // A run none of whose checkpoints played, and a curve option without --curve.
    let other = dir.path().join("other");
    train_tiny(&other);
    fanorona([
        "rate",
        games.to_str().unwrap(),
        "--anchor",
        "random",
        "--curve",
        other.to_str().unwrap(),
    ])
    .assert_failure("no rated agent is a checkpoint or the student of");
    fanorona(["rate", games.to_str().unwrap(), "--cores", "2"]).assert_failure("--curve");
}
