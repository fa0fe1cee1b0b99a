//! End-to-end tests of `fanorona solve`.

use std::process::{Command, Output};

fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The line of the output that starts with `label`.
fn line<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} line in:\n{text}"))
}

#[test]
fn solve_saves_a_table_that_loads_with_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("3x3.table");
    let table = table.to_str().unwrap();
    let solved = fanorona(&["solve", "--board", "3x3", "--save", table]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let text = stdout(&solved);
    assert!(line(&text, "value:").contains("for white"), "{text}");
    assert!(line(&text, "peak memory:").ends_with("MiB"), "{text}");
    let loaded = fanorona(&["solve", "--load", table, "--board", "3x3"]);
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    let again = stdout(&loaded);
    for label in ["board", "value:", "positions:"] {
        assert_eq!(line(&text, label), line(&again, label));
    }
    let wrong = fanorona(&["solve", "--load", table, "--board", "5x3"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        stderr(&wrong).contains("the table is for board 3x3"),
        "{}",
        stderr(&wrong)
    );
}

#[test]
fn bad_board_sizes_and_files_give_clear_errors() {
    let large = fanorona(&["solve", "--board", "9x5"]);
    assert_eq!(large.status.code(), Some(2));
    assert!(
        stderr(&large).contains("at most 31 points"),
        "{}",
        stderr(&large)
    );
    let even = fanorona(&["solve", "--board", "4x3"]);
    assert_eq!(even.status.code(), Some(2));
    assert!(stderr(&even).contains("odd"), "{}", stderr(&even));
    let none = fanorona(&["solve"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("--board"), "{}", stderr(&none));
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.table");
    std::fs::write(&junk, b"not a table at all").unwrap();
    let bad = fanorona(&["solve", "--load", junk.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("not a valid solver table"),
        "{}",
        stderr(&bad)
    );
}
