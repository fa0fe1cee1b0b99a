//! End-to-end: `fanorona play` driven by a scripted stdin: an illegal turn and its error, an
//! ambiguous turn resolved by answering the question, the agent's reply and evaluation, undo,
//! hint, the legal turns, resignation and the result line; a line that is not UTF-8 is refused
//! and the game goes on.

mod common;

use common::fanorona_with_stdin;

/// The output of `fanorona play` with `args`, after it succeeded on `script`.
fn play(args: &[&str], script: impl AsRef<[u8]>) -> String {
    let run = fanorona_with_stdin(["play"].iter().chain(args), script);
    run.assert_success();
    format!("{}{}", run.stdout, run.stderr)
}

#[test]
fn a_scripted_game_uses_every_command() {
    // White d3 can go to e3 taking f3 (approach) or c3 (withdrawal).
    let fen = "8B/9/2BW1B3/9/W8 w";
    let script = "zz\nd3e3\nw\neval\nundo\nundo\nhint\nmoves\nhelp\nresign\n";
    let out = play(&["--agent", "minimax:depth=2", "--fen", fen], script);
    assert!(out.contains("error: cannot read move \"zz\""), "{out}");
    assert!(
        out.contains("approach or withdrawal? [a/w] (1) d3e3A 2) d3e3W)"),
        "{out}"
    );
    assert!(out.contains("you play d3e3W"), "{out}");
    // The board marks the turn: the piece now on e3 in lower case, c3 captured.
    assert!(out.contains(".---.---x---o---w---B"), "{out}");
    assert!(out.contains("minimax:depth=2 plays "), "{out}");
    assert!(out.contains("eval: value "), "{out}");
    assert!(
        out.contains("took back your last turn and the reply"),
        "{out}"
    );
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("legal turns: a1b2A d3e3A d3e3W"), "{out}");
    assert!(
        out.trim_end().ends_with("Result: 0-1 (white resigns)"),
        "{out}"
    );
}

#[test]
fn the_human_may_play_black_and_illegal_turns_are_explained() {
    // The agent (white) moves first; the human's illegal turn is refused with the legal list.
    let out = play(
        &["--agent", "random", "--human", "black", "--board", "5x5"],
        "a1a2\nquit\n",
    );
    assert!(out.contains("random plays "), "{out}");
    assert!(
        out.contains("error: illegal move \"a1a2\"; legal moves: "),
        "{out}"
    );
    assert!(out.contains("game abandoned"), "{out}");
    fanorona_with_stdin(["play", "--agent", "minimax", "--sims", "5"], "")
        .assert_failure("unknown option \"sims\"");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let out = play(
        &["--agent", "random", "--board", "5x5"],
        b"\xffe2\nresign\n",
    );
    assert!(
        out.contains("white> error: the line is not valid UTF-8 (invalid byte at position 0)"),
        "{out}"
    );
    assert!(
        out.trim_end().ends_with("Result: 0-1 (white resigns)"),
        "{out}"
    );
}

#[test]
fn eval_after_a_hint_is_still_the_agents_evaluation_for_its_side() {
    // The agent (white) plays first and shows its evaluation; the human's hint is a search
    // for black, and `eval` afterwards still shows the agent's own, for white.
    let fen = "8B/9/2BW1B3/9/W8 w";
    let out = play(
        &[
            "--agent",
            "minimax:depth=2",
            "--fen",
            fen,
            "--human",
            "black",
        ],
        "hint\neval\nresign\n",
    );
    let evals: Vec<&str> = out.lines().filter(|l| l.contains("eval: ")).collect();
    assert_eq!(evals.len(), 2, "{out}");
    let shown = |line: &str| line[line.find("eval: ").unwrap()..].to_string();
    assert_eq!(shown(evals[0]), shown(evals[1]), "{out}");
    assert!(evals[1].contains("for white"), "{out}");
    let hint = out.lines().find(|l| l.contains("hint: ")).unwrap();
    assert!(hint.contains("for black"), "{out}");
    // Before the agent has played, there is no evaluation, however many hints.
    let out = play(
        &["--agent", "minimax:depth=2", "--fen", fen],
        "hint\neval\nresign\n",
    );
    assert!(out.contains("no evaluation yet"), "{out}");
}
