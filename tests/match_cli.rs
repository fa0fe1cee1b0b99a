//! End-to-end: `fanorona match` plays, reports and writes its results; `fanorona replay`
//! shows a written game; bad agent specifications fail with a clear message; the help lists
//! every agent kind.

mod common;

use common::fanorona;

#[test]
fn match_writes_results_that_replay_shows() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let run = fanorona([
        "match",
        "--white",
        "minimax:depth=1",
        "--black",
        "random",
        "--games",
        "4",
        "--threads",
        "2",
        "--board",
        "5x5",
        "--seed",
        "5",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = run.assert_success();
    assert!(
        stdout.contains("minimax:depth=1 vs random: 4 games"),
        "{stdout}"
    );
    assert!(stdout.contains("Elo") && stdout.contains("LOS"), "{stdout}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["first"], "minimax:depth=1");

    let game = dir.join("games").join("game-0002.pgn");
    let text = std::fs::read_to_string(&game).unwrap();
    assert!(
        text.contains("[White \"random\"]"),
        "colours alternate: {text}"
    );
    assert!(text.contains("[Board \"5x5\"]"));
    let replay = fanorona(["replay", game.to_str().unwrap()]);
    let shown = replay.assert_success();
    assert!(shown.contains("Black: minimax:depth=1"), "{shown}");
    assert!(
        shown.contains("a   b   c   d   e"),
        "boards are drawn: {shown}"
    );
    assert!(shown.contains("result "), "{shown}");
}

#[test]
fn bad_agent_specs_are_explained() {
    let refused = |white: &str, text: &str| {
        let run = fanorona([
            "match", "--white", white, "--black", "random", "--games", "2",
        ]);
        run.assert_failure(text).to_string()
    };
    let e = refused("alphabeta", "unknown agent kind \"alphabeta\"");
    assert!(e.contains("minimax") && e.contains("greedy"), "{e}");
    refused("minimax:depth=0", "a whole number from 1 to 64");
    let e = refused(
        "minimax:speed=3",
        "accepted:\n  depth=N (1-64, default 4): ",
    );
    assert!(e.contains("\n  seed=N: "), "{e}");
}

/// The kinds of the project's registry.
const KINDS: [&str; 7] = [
    "random", "greedy", "minimax", "solver", "engine", "mcts", "net",
];

#[test]
fn help_and_unknown_kinds_list_every_agent_kind() {
    let run = fanorona(["match", "--help"]);
    let help = run.assert_success();
    // One line per kind: its summary and options.
    for kind in KINDS {
        let lines = help
            .lines()
            .filter(|l| l.trim_start().starts_with(&format!("{kind}: ")))
            .count();
        assert_eq!(lines, 1, "{kind}: {help}");
    }
    assert!(
        help.contains(
            "minimax: alpha-beta search over complete turns; options: depth=N (1-64, default 4)"
        ),
        "{help}"
    );

    let run = fanorona(["match", "--white", "bogus", "--black", "random"]);
    let error = run.assert_failure("unknown agent kind \"bogus\"");
    for kind in KINDS {
        assert!(error.contains(&format!("\n  {kind}: ")), "{kind}: {error}");
    }
}

#[test]
fn mcts_with_rollouts_beats_random_in_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fanorona([
        "match",
        "--white",
        "mcts:sims=800",
        "--black",
        "random",
        "--games",
        "6",
        "--threads",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ])
    .assert_success();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let score = summary["score"].as_f64().unwrap();
    assert!(
        score >= 5.5 / 6.0,
        "mcts:sims=800 scored {score} against random"
    );
}
