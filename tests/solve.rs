//! End-to-end tests of `fanorona solve`.

mod common;

use common::{Stream, fanorona, fanorona_closed};

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
    let solved = fanorona(["solve", "--board", "3x3", "--save", table]);
    let text = solved.assert_success();
    assert!(line(text, "value:").contains("for white"), "{text}");
    assert!(line(text, "peak memory:").ends_with("MiB"), "{text}");
    let loaded = fanorona(["solve", "--load", table, "--board", "3x3"]);
    let again = loaded.assert_success();
    for label in ["board", "value:", "positions:"] {
        assert_eq!(line(text, label), line(again, label));
    }
    fanorona(["solve", "--load", table, "--board", "5x3"])
        .assert_failure("the table is for board 3x3");
}

#[test]
fn bad_board_sizes_and_files_give_clear_errors() {
    fanorona(["solve", "--board", "9x5"]).assert_failure("at most 31 points");
    fanorona(["solve", "--board", "4x3"]).assert_failure("odd");
    fanorona(["solve"]).assert_failure("--board");
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.table");
    std::fs::write(&junk, b"not a table at all").unwrap();
    fanorona(["solve", "--load", junk.to_str().unwrap()])
        .assert_failure("not a valid solver table");
}

#[test]
fn an_unwritable_save_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the table should go: refused at once, before 5x3 is solved.
    let run = fanorona([
        "solve",
        "--board",
        "5x3",
        "--save",
        dir.path().to_str().unwrap(),
    ]);
    run.assert_failure(&format!(
        "bad --save: cannot write {}: it is a folder",
        dir.path().display()
    ));
    assert!(!run.stdout.contains("solved"), "{}", run.stdout);
}

#[test]
fn a_closed_stdout_loses_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("3x3.table");
    let run = fanorona_closed(
        ["solve", "--board", "3x3", "--save", table.to_str().unwrap()],
        Stream::Stdout,
    );
    assert!(run.status.success(), "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(table.exists());
}
