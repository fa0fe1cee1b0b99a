//! End-to-end: `fanorona match` plays, reports and writes its results; `fanorona replay`
//! shows a written game; bad agent specifications fail with a clear message; the help lists
//! every agent kind.

use std::process::Command;

fn fanorona() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
}

#[test]
fn match_writes_results_that_replay_shows() {
    let dir = std::env::temp_dir().join(format!("fanorona-match-cli-{}", std::process::id()));
    let output = fanorona()
        .args([
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
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
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
    let output = fanorona().arg("replay").arg(&game).output().unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(shown.contains("Black: minimax:depth=1"), "{shown}");
    assert!(
        shown.contains("a   b   c   d   e"),
        "boards are drawn: {shown}"
    );
    assert!(shown.contains("result "), "{shown}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_agent_specs_are_explained() {
    let run = |white: &str| {
        let output = fanorona()
            .args([
                "match", "--white", white, "--black", "random", "--games", "2",
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).to_string()
    };
    let e = run("alphabeta");
    assert!(e.contains("unknown agent kind \"alphabeta\""), "{e}");
    assert!(e.contains("minimax") && e.contains("greedy"), "{e}");
    let e = run("minimax:depth=0");
    assert!(e.contains("a whole number from 1 to 64"), "{e}");
    let e = run("minimax:speed=3");
    assert!(
        e.contains("accepted:\n  depth=N (1-64, default 4): ") && e.contains("\n  seed=N: "),
        "{e}"
    );
}

/// The kinds of the project's registry.
const KINDS: [&str; 7] = [
    "random", "greedy", "minimax", "solver", "engine", "mcts", "net",
];

#[test]
fn help_and_unknown_kinds_list_every_agent_kind() {
    let output = fanorona().args(["match", "--help"]).output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
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

    let output = fanorona()
        .args(["match", "--white", "bogus", "--black", "random"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("unknown agent kind \"bogus\""), "{error}");
    for kind in KINDS {
        assert!(error.contains(&format!("\n  {kind}: ")), "{kind}: {error}");
    }
}

#[test]
fn mcts_with_rollouts_beats_random_in_a_match() {
    let dir = std::env::temp_dir().join(format!("fanorona-mcts-cli-{}", std::process::id()));
    let output = fanorona()
        .args([
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
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let score = summary["score"].as_f64().unwrap();
    assert!(
        score >= 5.5 / 6.0,
        "mcts:sims=800 scored {score} against random"
    );
    std::fs::remove_dir_all(&dir).ok();
}
