//! End-to-end: what `fanorona match` and `fanorona review` read is checked: an opening on
//! another board than the match's, an empty record and a record whose result contradicts its
//! moves are refused with a clear message.

mod common;

use common::fanorona;

#[test]
fn match_refuses_an_opening_on_another_board() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# one 3x3 opening\nBBB/B1W/WWW w 0 1\n").unwrap();
    fanorona([
        "match",
        "--white",
        "random",
        "--black",
        "random",
        "--games",
        "2",
        "--board",
        "5x3",
        "--quiet",
        "--openings",
        openings.to_str().unwrap(),
    ])
    .assert_failure("opening line 2: the FEN's board is 3x3, the match is played on 5x3");
}

#[test]
fn replay_refuses_an_empty_record() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.pgn");
    std::fs::write(&file, "\n").unwrap();
    fanorona(["review", file.to_str().unwrap()]).assert_failure("no moves and no result");
}

#[test]
fn replay_refuses_a_result_the_moves_contradict() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pgn");
    // White a1 takes black's last piece: white wins, yet the record says black did.
    std::fs::write(
        &file,
        "[Result \"0-1\"]\n[FEN \"9/9/9/9/W1B6 w\"]\n\n1. a1b1A 0-1\n",
    )
    .unwrap();
    fanorona(["review", file.to_str().unwrap()])
        .assert_failure("the result 0-1 does not fit the game: the moves end the game: white wins");
    // The same game still open after a paika step, with a result and no reason given.
    std::fs::write(
        &file,
        "[Result \"1-0\"]\n[FEN \"9/9/9/9/W7B w\"]\n\n1. a1a2 1-0\n",
    )
    .unwrap();
    fanorona(["review", file.to_str().unwrap()]).assert_failure("no Termination tag");
}
