//! End-to-end: `fanorona match` plays, reports and writes its results; `fanorona review`
//! shows a written game; bad agent specifications fail with a clear message; the help lists
//! every agent kind; forfeits are shown and a match forfeited entirely fails; `--out` is
//! checked before the first game; `--threads` is capped; a closed output ends quietly.

mod common;

use std::path::Path;

use common::{Stream, fanorona, fanorona_closed};

#[test]
fn match_writes_results_that_review_shows() {
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
    let review = fanorona(["review", game.to_str().unwrap()]);
    let shown = review.assert_success();
    assert!(shown.contains("Black: minimax:depth=1"), "{shown}");
    assert!(
        shown.contains("a   b   c   d   e"),
        "boards are drawn: {shown}"
    );
    assert!(shown.contains("result "), "{shown}");
    // The command's former name still works.
    let former = fanorona(["replay", game.to_str().unwrap()]);
    assert_eq!(former.assert_success(), shown);
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
const KINDS: [&str; 9] = [
    "random", "greedy", "minimax", "solver", "perfect", "engine", "mcts", "net", "abnet",
];

#[test]
fn help_and_unknown_kinds_list_every_agent_kind() {
    let registered: Vec<&str> = fanorona_train::players::registry()
        .kinds()
        .iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(registered, KINDS);
    // Every command with an agent argument: one line per kind, its summary and options.
    for command in ["match", "eval", "play", "engine"] {
        let run = fanorona([command, "--help"]);
        let help = run.assert_success();
        for kind in KINDS {
            let lines = help
                .lines()
                .filter(|l| l.trim_start().starts_with(&format!("{kind}: ")))
                .count();
            assert_eq!(lines, 1, "{command} --help, {kind}: {help}");
        }
        assert!(
            help.contains(
                "minimax: alpha-beta search over complete turns; options: depth=N (1-64, default 4)"
            ),
            "{help}"
        );
    }

    let run = fanorona(["match", "--white", "bogus", "--black", "random"]);
    let error = run.assert_failure("unknown agent kind \"bogus\"");
    for kind in KINDS {
        assert!(error.contains(&format!("\n  {kind}: ")), "{kind}: {error}");
    }
}

/// A quick match of random movers on 5x3 with `extra` arguments.
fn quick_match(games: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "match", "--white", "random", "--black", "random", "--games", games, "--board", "5x3",
        "--quiet",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn match_and_review_end_quietly_on_a_closed_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let out_text = out.to_str().unwrap();
    let run = fanorona_closed(quick_match("2", &["--out", out_text]), Stream::Stdout);
    assert!(run.status.success(), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(out.join("summary.json").exists(), "the results are written");

    let game = out.join("games").join("game-0001.pgn");
    let run = fanorona_closed(["review", game.to_str().unwrap()], Stream::Stdout);
    assert!(run.status.success(), "{}", run.stderr);
    assert_eq!(run.stderr, "");
}

#[test]
fn threads_beyond_the_games_are_not_started() {
    // 100000 threads for two games: two are used, and the match is over at once.
    let run = fanorona(quick_match("2", &["--threads", "100000"]));
    assert!(run.assert_success().contains("random vs random: 2 games"));
}

#[test]
fn forfeits_are_shown_and_a_match_forfeited_entirely_fails() {
    // The 3x3 solver cannot play on the default 9x5 board: it forfeits every game.
    let run = fanorona([
        "match",
        "--white",
        "solver:board=3x3",
        "--black",
        "random",
        "--games",
        "4",
        "--quiet",
    ]);
    run.assert_failure("--white solver:board=3x3 forfeited all 4 games; the first forfeit: ");
    assert!(run.stdout.contains("+0 =0 -4"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("solver:board=3x3 forfeited 4 of 4 games; the first, game 1: "),
        "{}",
        run.stdout
    );
}

/// The game records in the match folder `dir`, sorted.
fn game_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn out_is_checked_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    // A file, not a folder: refused before any game (a thousand would take minutes).
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    fanorona([
        "match",
        "--white",
        "minimax:depth=4",
        "--black",
        "minimax:depth=4",
        "--games",
        "1000",
        "--quiet",
        "--out",
        file.to_str().unwrap(),
    ])
    .assert_failure("bad --out: cannot write the match results into");

    // A folder of other files is refused.
    let foreign = dir.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let run = fanorona(quick_match("2", &["--out", foreign.to_str().unwrap()]));
    run.assert_failure("\"notes.txt\", which is not part of a match's results");
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);

    // An earlier match's results are replaced, its extra game records removed.
    let out = dir.path().join("m");
    let out_text = out.to_str().unwrap();
    fanorona(quick_match("4", &["--out", out_text])).assert_success();
    assert_eq!(game_files(&out).len(), 4);
    fanorona(quick_match("2", &["--out", out_text])).assert_success();
    assert_eq!(game_files(&out), ["game-0001.pgn", "game-0002.pgn"]);
    let lines = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 2);
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

#[test]
fn off_a_terminal_the_progress_bar_is_written_as_plain_lines_and_quiet_hides_it() {
    let args = [
        "match", "--white", "random", "--black", "random", "--games", "2", "--board", "5x3",
        "--seed", "1",
    ];
    // Standard error is a pipe here: the bar's first drawing comes as a line of its own.
    let shown = fanorona(args);
    shown.assert_success();
    let lines: Vec<&str> = shown
        .stderr
        .lines()
        .filter(|l| l.contains("/2 games"))
        .collect();
    assert!(!lines.is_empty(), "{}", shown.stderr);
    assert!(lines.iter().all(|l| !l.contains('\r')), "{lines:?}");
    let quiet = fanorona(args.into_iter().chain(["--quiet"]));
    quiet.assert_success();
    assert!(!quiet.stderr.contains("games"), "{}", quiet.stderr);
}
