//! End-to-end: error messages say what is wrong and what is expected: the flag a bad agent was
//! given to, "from 1 to N" for a number too large, and long input echoed only in part (its
//! first 100 characters, an ellipsis and its length) in FEN, game-record and protocol errors.

mod common;

use common::{fanorona, fanorona_with_stdin};

/// The standard start position in FEN without its counters.
const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

#[test]
fn a_bad_opponent_names_its_flag() {
    // The opponent is checked before the network is looked for.
    fanorona(["eval", "--checkpoint", "none.ckpt", "--vs", "bogus"])
        .assert_failure("bad --vs: unknown agent kind \"bogus\"");
}

#[test]
fn a_number_too_large_is_not_called_too_small() {
    let fen = format!("{START} 0 99999999999");
    fanorona(["show", "--fen", &fen]).assert_failure(
        "field 4 (turn number): \"99999999999\": expected a turn number from 1 to 4294967295",
    );
}

#[test]
fn long_input_is_echoed_in_part() {
    let long = "x".repeat(100_000);
    let shown = format!("\"{}\"… (100000 characters)", "x".repeat(100));

    let stderr = fanorona(["show", "--fen", &long])
        .assert_failure(&shown)
        .to_string();
    assert!(stderr.len() < 1_000, "{} bytes", stderr.len());

    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.pgn");
    let token = "y".repeat(5_000_000);
    std::fs::write(&game, format!("[Result \"*\"]\n\n1. {token} *\n")).unwrap();
    let stderr = fanorona(["review", game.to_str().unwrap()])
        .assert_failure("(5000000 characters)")
        .to_string();
    assert!(stderr.len() < 1_000, "{} bytes", stderr.len());

    let engine = fanorona_with_stdin(["engine"], format!("{long}\nquit\n"));
    let stdout = engine.assert_success();
    assert!(
        stdout.contains(&shown),
        "{}",
        &stdout[..stdout.len().min(2_000)]
    );
    assert!(stdout.len() < 1_000, "{} bytes", stdout.len());
}
