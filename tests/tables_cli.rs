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
    assert!(line(text, "class 1v1:").contains("660 positions"), "{text}");
    assert!(line(text, "class 2v1:").contains("built in"), "{text}");
    assert!(
        line(text, "9x5:").contains("3 classes of up to 3 pieces"),
        "{text}"
    );
    let jsonl = std::fs::read_to_string(&metrics).unwrap();
    assert_eq!(jsonl.lines().count(), 3);
    assert!(
        jsonl.contains("\"mover\":1,\"opponent\":2,\"positions\":14190"),
        "{jsonl}"
    );

    // Without --quiet each class is logged on stderr as it is done.
    let again = fanorona(["tables", "build", "--pieces", "3", "--out", out]);
    let text = again.assert_success();
    assert!(
        line(text, "class 1v2:").contains("file found and checked"),
        "{text}"
    );
    let logged = "tables: class 1v2: 14190 positions (1075 wins, 8495 losses, 4620 draws), \
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

#[test]
fn the_engine_and_the_set_exam_probe_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let out = tables.to_str().unwrap();
    fanorona(["tables", "build", "--pieces", "3", "--out", out, "--quiet"]).assert_success();

    // The engine: `setoption name Tables` adds them to the agent, a bad folder is refused and
    // changes nothing, `<empty>` removes them.
    let script = format!(
        "setoption name Tables value {out}\nuci\nsetoption name Tables value {out}/none\n\
         uci\nposition fen 9/9/3B5/9/2W1B4 w\ngo\nsetoption name Tables value <empty>\nuci\n"
    );
    let run = common::fanorona_with_stdin(["engine", "--agent", "minimax:depth=2"], script);
    let lines: Vec<&str> = run.assert_success().lines().collect();
    let tables_lines: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("option name Tables "))
        .collect();
    let with = format!("option name Tables type string default {out}");
    assert_eq!(tables_lines.len(), 3, "{lines:?}");
    assert_eq!(*tables_lines[0], with);
    assert_eq!(*tables_lines[1], with, "a refused folder changes nothing");
    assert_eq!(
        *tables_lines[2],
        "option name Tables type string default <empty>"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info string error:")
            && l.contains("no endgame tables of 9x5")
            && l.ends_with("the tables are unchanged")),
        "{lines:?}"
    );
    assert!(lines.contains(&"bestmove c1d1Ad2A"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("id name") && l.contains(&format!("tables={out}"))),
        "{lines:?}"
    );

    // The set exam: the two positions of up to 3 pieces are scored exactly (a win kept, a
    // draw kept), the one of 4 pieces only against its label.
    let set = dir.path().join("set.txt");
    std::fs::write(
        &set,
        "# fanorona exam set\n# version: 1\n# board: 9x5\n# labeller: by hand\n\
         9/9/3B5/9/2W1B4 w 0 1 ; 1.0 ; c1d1Ad2A ; 999999\n\
         W8/9/9/9/8B b 0 1 ; 0.0 ; i1h1 ; 0\n\
         9/9/3B5/9/2W1BB3 w 0 1 ; 0.5 ; c1d1A ; 100\n",
    )
    .unwrap();
    let exam = |agent: &str| -> serde_json::Value {
        let run = fanorona([
            "exam",
            "--json",
            "--quiet",
            "--agent",
            agent,
            "--set",
            set.to_str().unwrap(),
            "--tables",
            out,
        ]);
        serde_json::from_str(run.assert_success()).expect("a JSON report")
    };
    let report = exam("minimax:depth=2");
    assert_eq!(report["positions"], 3);
    assert_eq!(report["exact"]["positions"], 2, "{report}");
    assert_eq!(report["exact"]["wins"], 1);
    assert_eq!(report["exact"]["draws"], 1);
    assert_eq!(report["exact"]["keeps_value"], 1.0);
    fanorona([
        "exam",
        "--agent",
        "greedy",
        "--set",
        set.to_str().unwrap(),
        "--tables",
        &format!("{out}/none"),
    ])
    .assert_failure("bad --tables");
}

#[test]
fn metrics_inside_the_tables_folder_are_refused_whether_it_exists_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new");
    let metrics = out.join("m.jsonl");
    let build = || {
        fanorona([
            "tables",
            "build",
            "--board",
            "5x3",
            "--pieces",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--metrics",
            metrics.to_str().unwrap(),
        ])
    };
    let first = build();
    let refusal = first.assert_failure("an input of the command (the --out folder");
    assert!(!out.exists(), "nothing was built");
    std::fs::create_dir(&out).unwrap();
    let second = build();
    assert_eq!(
        second.assert_failure("an input of the command (the --out folder"),
        refusal,
        "the same refusal either way"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}
