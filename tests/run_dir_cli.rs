//! One name for a run directory: `--run DIR` on `train`, `eval` and `export`; the former names
//! (`train --out`, `eval --checkpoint`, `export --checkpoint`) still work, with a note on
//! stderr; giving both is refused.

mod common;

use common::fanorona;

const DEPRECATED: &str = "is deprecated and will be removed; use --run";

#[test]
fn run_names_the_run_directory_and_the_old_names_still_work_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let old = dir.path().join("old");
    let run_s = run.to_str().unwrap();
    let old_s = old.to_str().unwrap();

    let trained = fanorona(["train", "--preset", "tiny", "--run", run_s, "--quiet"]);
    trained.assert_success();
    assert!(!trained.stderr.contains(DEPRECATED), "{}", trained.stderr);
    let resumed = fanorona(["train", "--preset", "tiny", "--out", old_s, "--quiet"]);
    resumed.assert_success();
    assert!(
        resumed
            .stderr
            .contains("`fanorona train --out` is deprecated"),
        "{}",
        resumed.stderr
    );
    assert!(old.join("config.toml").is_file());

    let policy = dir.path().join("agent.safetensors");
    let policy_s = policy.to_str().unwrap();
    let exported = fanorona(["export", "--run", run_s, "--out", policy_s]);
    assert!(exported.assert_success().starts_with("wrote "));
    assert!(!exported.stderr.contains(DEPRECATED), "{}", exported.stderr);
    let again = fanorona(["export", "--checkpoint", run_s, "--out", policy_s]);
    again.assert_success();
    assert!(
        again
            .stderr
            .contains("`fanorona export --checkpoint` is deprecated"),
        "{}",
        again.stderr
    );

    let eval = ["--vs", "random", "--games", "2", "--sims", "4", "--quiet"];
    let played = fanorona([&["eval", "--run", run_s][..], &eval].concat());
    assert!(
        played.assert_success().contains("2 games"),
        "{}",
        played.stdout
    );
    assert!(!played.stderr.contains(DEPRECATED), "{}", played.stderr);
    let played = fanorona([&["eval", "--checkpoint", run_s][..], &eval].concat());
    played.assert_success();
    assert!(
        played
            .stderr
            .contains("`fanorona eval --checkpoint` is deprecated"),
        "{}",
        played.stderr
    );
}

#[test]
fn both_names_at_once_or_neither_are_refused() {
    for args in [
        &["train", "--preset", "tiny", "--run", "a", "--out", "b"][..],
        &["export", "--run", "a", "--checkpoint", "b", "--out", "c"],
        &["eval", "--run", "a", "--checkpoint", "b", "--vs", "random"],
    ] {
        let refused = fanorona(args);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert!(
            refused.stderr.contains("cannot be used with"),
            "{}",
            refused.stderr
        );
    }
    let refused = fanorona(["eval", "--vs", "random"]);
    assert!(refused.stderr.contains("--run"), "{}", refused.stderr);
    assert!(!refused.status.success());
}
