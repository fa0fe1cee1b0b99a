//! End-to-end tests of `fanorona perft`, `moves` and `show`.

use std::process::{Command, Output};

fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn perft_counts_the_reference_numbers() {
    let out = fanorona(&["perft", "--depth", "3"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("perft 3 = 724"), "{}", stdout(&out));
}

#[test]
fn perft_divide_lists_each_first_turn() {
    let out = fanorona(&["perft", "--depth", "2", "--divide"]);
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 5, "{text}");
    let sum: u64 = rows
        .iter()
        .map(|r| r.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 39);
    assert!(text.contains("perft 2 = 39"));
}

#[test]
fn perft_on_another_board_by_size_or_fen() {
    let by_size = stdout(&fanorona(&["perft", "--depth", "2", "--board", "5x5"]));
    let by_fen = stdout(&fanorona(&[
        "perft",
        "--depth",
        "2",
        "--fen",
        "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1",
    ]));
    assert_eq!(by_size, by_fen);
    assert!(by_size.starts_with("perft 2 = "));
}

#[test]
fn moves_lists_sorted_legal_turns() {
    let out = fanorona(&["moves"]);
    assert_eq!(stdout(&out), "d2e3A\nd3e3A\nd3e3W\ne2e3A\nf2e3A\n");
    let out = fanorona(&["moves", "--fen", "9/9/9/9/W8 b"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "", "a side without pieces has no moves");
}

#[test]
fn show_draws_the_board() {
    let text = stdout(&fanorona(&["show", "--board", "5x5"]));
    assert!(text.contains("3  B---W---.---B---W"), "{text}");
    assert!(text.contains("white to move"));
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code() {
    let out = fanorona(&["moves", "--fen", "9/9/9/9/8 w"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("field 1 (board)") && err.contains("row 5"),
        "{err}"
    );
    let out = fanorona(&["perft", "--depth", "1", "--board", "8x5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("odd"));
    let out = fanorona(&[
        "perft",
        "--depth",
        "1",
        "--board",
        "5x5",
        "--fen",
        "9/9/9/9/W8 w",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match"));
    let out = fanorona(&["perft", "--depth", "1", "--rules", "fast"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown rule"));
    let out = fanorona(&["perft"]);
    assert!(!out.status.success());
}
