//! End-to-end tests of `fanorona perft`, `moves` and `show`.

mod common;

use common::fanorona;

#[test]
fn perft_counts_the_reference_numbers() {
    let out = fanorona(["perft", "--depth", "3"]);
    assert!(
        out.assert_success().contains("perft 3 = 724"),
        "{}",
        out.stdout
    );
}

#[test]
fn perft_divide_lists_each_first_turn() {
    let out = fanorona(["perft", "--depth", "2", "--divide"]);
    let text = out.assert_success();
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
    let by_size = fanorona(["perft", "--depth", "2", "--board", "5x5"]);
    let by_fen = fanorona([
        "perft",
        "--depth",
        "2",
        "--fen",
        "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1",
    ]);
    assert_eq!(by_size.assert_success(), by_fen.assert_success());
    assert!(by_size.stdout.starts_with("perft 2 = "));
}

#[test]
fn moves_lists_sorted_legal_turns() {
    let out = fanorona(["moves"]);
    assert_eq!(out.assert_success(), "d2e3A\nd3e3A\nd3e3W\ne2e3A\nf2e3A\n");
}

#[test]
fn moves_of_a_finished_position_say_why_the_game_is_over() {
    for (fen, why) in [
        (
            "9/9/9/9/W8 b",
            "game over: white wins (black has no pieces left)",
        ),
        (
            "W8/9/9/9/9 w",
            "game over: white wins (black has no pieces left)",
        ),
        ("BBB/B1W/WWW w 500 1", "game over: draw (no-capture limit)"),
        (
            "BW7/WW7/9/9/9 b",
            "game over: white wins (black has no legal move)",
        ),
    ] {
        let out = fanorona(["moves", "--fen", fen]);
        assert_eq!(
            out.assert_success(),
            "",
            "{fen}: a finished game has no moves"
        );
        assert!(out.stderr.contains(why), "{fen}: {}", out.stderr);
    }
}

#[test]
fn perft_at_depth_0_is_one_leaf_and_divide_refuses_it() {
    let out = fanorona(["perft", "--depth", "0"]);
    assert!(
        out.assert_success().contains("perft 0 = 1"),
        "{}",
        out.stdout
    );
    fanorona(["perft", "--depth", "0", "--divide"])
        .assert_failure("--divide needs --depth 1 or more");
}

#[test]
fn show_draws_the_board() {
    let out = fanorona(["show", "--board", "5x5"]);
    let text = out.assert_success();
    assert!(text.contains("3  B---W---.---B---W"), "{text}");
    assert!(text.contains("white to move"));
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code() {
    let err = fanorona(["moves", "--fen", "9/9/9/9/8 w"])
        .assert_failure("field 1 (board)")
        .to_string();
    assert!(err.contains("row 5"), "{err}");
    fanorona(["perft", "--depth", "1", "--board", "8x5"]).assert_failure("odd");
    fanorona([
        "perft",
        "--depth",
        "1",
        "--board",
        "5x5",
        "--fen",
        "9/9/9/9/W8 w",
    ])
    .assert_failure("does not match");
    fanorona(["perft", "--depth", "1", "--rules", "fast"]).assert_failure("unknown rule");
    fanorona(["perft"]).assert_failure("--depth");
}

#[test]
fn rules_settings_are_read_strictly() {
    // White d3 may stop after d3e3A, unless a chain must go on while it can.
    let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2";
    let moves = |rules: &str| {
        let out = fanorona(["moves", "--fen", fen, "--rules", rules]);
        out.assert_success().lines().any(|m| m == "d3e3A")
    };
    assert!(moves(""));
    for off in [
        "mandatory=false",
        "mandatory=off",
        "mandatory=off,first-turn=off",
    ] {
        assert!(moves(off), "{off}");
    }
    for on in [
        "mandatory",
        "mandatory=true",
        "mandatory=on",
        "mandatory=on,first-turn=on",
    ] {
        assert!(!moves(on), "{on}");
    }
    for (rules, message) in [
        (
            "mandatory=no",
            "rule mandatory: \"no\" is not valid: expected on, off, true or false",
        ),
        (
            "mandatory=false,mandatory",
            "rule mandatory is given more than once",
        ),
        (
            "first-turn=bogus",
            "rule first-turn: \"bogus\" is not valid",
        ),
        ("no-capture=0", "expected a number from 1 to 65535, or off"),
        ("repetition=1", "expected a number from 2 to 255, or off"),
        ("vela=white,vela=black", "rule vela is given more than once"),
    ] {
        fanorona(["perft", "--depth", "1", "--rules", rules]).assert_failure(message);
    }
}
