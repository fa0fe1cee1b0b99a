//! End-to-end tests of `fanorona tables build` and `fanorona tables probe`.

mod common;

use common::fanorona;

/// The line of the output that starts with `label`.
fn line<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} line in:\n{text}"))
}

#[test]
fn build_resumes_and_probe_prints_the_value_and_best_turns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    let out = out.to_str().unwrap();
    let metrics = dir.path().join("metrics.jsonl");
    let run = fanorona([
        "tables",
        "build",
        "--board",
        "9x5",
        "--pieces",
        "3",
        "--out",
        out,
        "--quiet",
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let text = run.assert_success();
    assert!(
        line(text, "class 1v1:").contains("1980 positions"),
        "{text}"
    );
    assert!(line(text, "class 2v1:").contains("built in"), "{text}");
    assert!(
        line(text, "9x5:").contains("3 classes of up to 3 pieces"),
        "{text}"
    );
    let jsonl = std::fs::read_to_string(&metrics).unwrap();
    assert_eq!(jsonl.lines().count(), 3);
    assert!(
        jsonl.contains("\"mover\":1,\"opponent\":2,\"positions\":42570"),
        "{jsonl}"
    );

    // Without --quiet each class is logged on stderr as it is done.
    let again = fanorona(["tables", "build", "--pieces", "3", "--out", out]);
    let text = again.assert_success();
    assert!(
        line(text, "class 1v2:").contains("file found and checked"),
        "{text}"
    );
    let logged = "tables: class 1v2: 42570 positions (2822 wins, 26982 losses, 12766 draws), \
                  file found and checked";
    assert!(again.stderr.contains(logged), "{}", again.stderr);

    // White c1 takes both black pieces with the chain c1d1Ad2A.
    let probe = fanorona(["tables", "probe", "--tables", out, "9/9/3B5/9/2W1B4 w"]);
    let text = probe.assert_success();
    assert!(
        line(text, "value:").starts_with("value: win in 1 for white"),
        "{text}"
    );
    assert_eq!(
        line(text, "distance:"),
        "distance: 1 turn to the end of the game"
    );
    assert_eq!(line(text, "best turns:"), "best turns: c1d1Ad2A");
    // A lone piece against a lone piece far away: nobody can force anything.
    let probe = fanorona(["tables", "probe", "--tables", out, "W8/9/9/9/8B b"]);
    let text = probe.assert_success();
    assert!(
        line(text, "value:").starts_with("value: draw for black"),
        "{text}"
    );
}

#[test]
fn bad_arguments_and_damaged_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    fanorona(["tables", "build", "--pieces", "1", "--out", out])
        .assert_failure("tables of 9x5 are built for 2 to 12 pieces");
    fanorona([
        "tables", "build", "--board", "4x3", "--pieces", "3", "--out", out,
    ])
    .assert_failure("bad --board");
    fanorona(["tables", "probe", "--tables", out, "9/9/3B5/9/2W1B4 w"])
        .assert_failure("no endgame tables of 9x5");
    fanorona([
        "tables", "build", "--board", "5x3", "--pieces", "2", "--out", out, "--quiet",
    ])
    .assert_success();
    fanorona(["tables", "probe", "--tables", out, "5/1W1B1/5 w"]).assert_success();
    fanorona(["tables", "probe", "--tables", out, "5/1WBB1/5 w"])
        .assert_failure("3 pieces; the tables hold at most 2");
    fanorona(["tables", "probe", "--tables", out, "5/1W3/5 w"]).assert_failure("game is over");
    fanorona(["tables", "probe", "--tables", out, "not a fen"]).assert_failure("bad FEN");
    let file = dir.path().join("5x3-1v1.egtb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[50] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    fanorona(["tables", "probe", "--tables", out, "5/1W1B1/5 w"])
        .assert_failure("the file is damaged");
    let file_as_out = file.to_str().unwrap();
    fanorona(["tables", "build", "--pieces", "2", "--out", file_as_out])
        .assert_failure("bad --out");
}
