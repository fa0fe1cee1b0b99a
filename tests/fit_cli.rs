//! End-to-end tests of `fanorona fit`: a network taught by an exact set it makes first, the
//! built-in exam's positions never learnt, and bad inputs refused with nothing written.

mod common;

use std::path::Path;

use common::fanorona;

/// A small exact 5x5 set made by the prover in `dir`.
fn exact_set(dir: &Path) -> String {
    let set = dir.join("set.txt").to_str().unwrap().to_string();
    fanorona([
        "exam",
        "--board",
        "5x5",
        "--make-set",
        &set,
        "--prove",
        "--positions",
        "40",
        "--pieces",
        "4-12",
        "--seed",
        "5",
        "--quiet",
    ])
    .assert_success();
    set
}

#[test]
fn fit_writes_a_network_that_plays_and_epoch_lines_with_both_exams() {
    let dir = tempfile::tempdir().unwrap();
    let set = exact_set(dir.path());
    let out = dir.path().join("fitted.safetensors");
    let out_text = out.to_str().unwrap();
    let run = fanorona([
        "fit",
        "--set",
        &set,
        "--out",
        out_text,
        "--network",
        "mlp:32",
        "--epochs",
        "3",
        "--batch",
        "16",
        "--held-out",
        "8",
    ]);
    let said = run.assert_success();
    assert!(said.contains("wrote"), "{said}");
    let metrics = std::fs::read_to_string(out.with_extension("metrics.jsonl")).unwrap();
    let epochs: Vec<serde_json::Value> = metrics
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(epochs.len(), 3);
    for (i, epoch) in epochs.iter().enumerate() {
        assert_eq!(epoch["epoch"], i + 1);
        let built_in = epoch["builtin"]["keeps"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&built_in), "{epoch}");
        assert!(epoch["held_out"]["value_accuracy"].as_f64().is_some());
    }
    // The network is a 5x5 policy file that the agents and the exams take.
    let exam = fanorona([
        "exam",
        "--set",
        "data/exam-5x5-exact.txt",
        "--agent",
        &format!("net:path={out_text},sims=0"),
        "--json",
        "--quiet",
    ]);
    let report: serde_json::Value = serde_json::from_str(exam.assert_success()).unwrap();
    assert!(report["value_head"].is_object(), "{report}");
}

#[test]
fn the_built_in_exam_is_never_learnt_and_bad_inputs_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fitted.safetensors");
    let out_text = out.to_str().unwrap();
    // Every position of the built-in 5x5 set is left out: nothing is left to learn.
    let fit_builtin = |more: &[&str]| {
        let mut args = vec!["fit", "--set", "data/exam-5x5-exact.txt", "--out", out_text];
        args.extend(more);
        fanorona(args)
    };
    fit_builtin(&["--held-out", "0"]).assert_failure("no position to learn from");
    // A set labelled by a search, two boards, a bad learning rate.
    fanorona(["fit", "--set", "data/exam-9x5.txt", "--out", out_text])
        .assert_failure("labelled by a search");
    fit_builtin(&["--set", "data/exam-9x5-exact.txt"]).assert_failure("fit one board at a time");
    fit_builtin(&["--lr", "0"]).assert_failure("learning rate must be above 0");
    assert!(!out.exists(), "nothing written");
    assert!(
        !out.with_extension("metrics.jsonl").exists(),
        "no metrics written"
    );
}
