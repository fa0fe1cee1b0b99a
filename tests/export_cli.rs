//! End-to-end: `fanorona export` turns a training checkpoint into a policy file, which then
//! plays through the shared agent factory: `net:path=...` in `fanorona match`, and the bare
//! file path as `fanorona engine --agent FILE`. A tiny untrained network keeps it fast.

mod common;

use std::path::{Path, PathBuf};

use common::{fanorona, fanorona_with_stdin};
use fanorona_env::{Fanorona, GameId};
use fanorona_train::config::{
    Architecture, ComputeDevice, LrSchedule, NetworkConfig, OptimizerConfig, TrainerConfig,
};
use fanorona_train::io::CheckpointMeta;
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::run_dir::RunDir;
use fanorona_train::{RngState, TrainRng};
use rand::SeedableRng;

/// A checkpoint of a tiny untrained MLP for the standard board in `dir`.
fn tiny_checkpoint(dir: &Path) -> PathBuf {
    let device = ComputeDevice::Flex.device().unwrap();
    let network = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[16]));
    let config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 0.0 },
        schedule: LrSchedule::Constant { lr: 1e-3 },
        value_weight: 1.0,
        ema_decay: 0.0,
    };
    let learner = Trainer::new(
        config,
        PolicyValueNet::init_seeded(&network, &device, 1).unwrap(),
        &device,
    );
    let meta = CheckpointMeta {
        game: GameId::standard().to_string(),
        network: network.clone(),
        optimizer: learner.config().optimizer.clone(),
        step: 0,
        iteration: 0,
        replay_games_added: 0,
        rng: RngState::of(&TrainRng::seed_from_u64(0)),
        learner: None,
        best_iteration: None,
    };
    RunDir::new(dir).save_checkpoint(&learner, meta).unwrap()
}

#[test]
fn an_exported_network_plays_in_match_and_engine() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = tiny_checkpoint(dir.path());
    let file = dir.path().join("agent.safetensors");
    let file_text = file.to_str().unwrap();
    let out = fanorona([
        "export",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        file_text,
    ]);
    let stdout = out.assert_success();
    assert!(
        stdout.contains("fanorona 9x5") && stdout.contains("mlp 16"),
        "{stdout}"
    );

    let out = fanorona([
        "match",
        "--white",
        &format!("net:path={file_text},sims=8"),
        "--black",
        "random",
        "--games",
        "2",
        "--quiet",
        "--max-turns",
        "60",
    ]);
    let stdout = out.assert_success();
    assert!(stdout.contains("net:path="), "{stdout}");

    let engine = fanorona_with_stdin(
        ["engine", "--agent", file_text],
        "position startpos\ngo nodes 16\nquit\n",
    );
    let stdout = engine.assert_success();
    let best = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {stdout}"));
    let legal = Fanorona::standard().position().legal_turn_names();
    assert!(legal.iter().any(|t| t == best), "{best} not in {legal:?}");
}

#[test]
fn a_network_for_another_board_or_a_damaged_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = tiny_checkpoint(dir.path());
    let file = dir.path().join("agent.safetensors");
    let file_text = file.to_str().unwrap();
    fanorona([
        "export",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        file_text,
    ])
    .assert_success();

    // The agent moves first on a board its network was not made for.
    fanorona([
        "play", "--agent", file_text, "--human", "black", "--board", "5x3",
    ])
    .assert_failure("made for fanorona 9x5");

    let bytes = std::fs::read(&file).unwrap();
    let damaged = dir.path().join("damaged.safetensors");
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    fanorona(["engine", "--agent", damaged.to_str().unwrap()])
        .assert_failure("corrupt or truncated");

    fanorona([
        "export",
        "--checkpoint",
        file_text,
        "--out",
        "x.safetensors",
    ])
    .assert_failure("checkpoint");
}

#[test]
fn an_unreadable_checkpoint_names_the_os_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    // Below a file: "Not a directory".
    let checkpoint = file.join("checkpoint-0000000001.ckpt");
    let out = fanorona([
        "export",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        dir.path().join("agent.safetensors").to_str().unwrap(),
    ]);
    let stderr = out.assert_failure(&format!(
        "cannot read checkpoint {}: ",
        checkpoint.display()
    ));
    assert_eq!(stderr.matches("(os error").count(), 1, "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_policy_file_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = tiny_checkpoint(dir.path());
    // Nobody may create files in /proc, not even root.
    let out = fanorona([
        "export",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        "/proc/a.safetensors",
    ]);
    // Refused by the check made before any work.
    let stderr = out.assert_failure("bad --out: cannot write /proc/a.safetensors: ");
    assert_eq!(stderr.matches("/proc").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("(os error").count(), 1, "{stderr}");
}

#[test]
fn a_distilled_student_is_written_with_its_metrics_and_plays_as_abnet() {
    let dir = tempfile::tempdir().unwrap();
    let teacher = tiny_checkpoint(dir.path());
    let student = dir.path().join("student.safetensors");
    let student_text = student.to_str().unwrap();
    let distill = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "distill",
            "--teacher",
            teacher.to_str().unwrap(),
            "--out",
            out,
            "--hidden",
            "16,4",
            "--positions",
            "300",
            "--held-out",
            "50",
            "--epochs",
            "2",
            "--batch",
            "64",
            "--depth",
            "1",
        ];
        args.extend_from_slice(extra);
        fanorona(args)
    };
    let out = distill(student_text, &["--keep", "0.5"]);
    let stdout = out.assert_success();
    assert!(stdout.contains("mlp 16-4, 10 steps"), "{stdout}");
    assert!(
        out.stderr.contains("epoch 2: value error"),
        "{}",
        out.stderr
    );
    let metrics = std::fs::read_to_string(dir.path().join("student.metrics.jsonl")).unwrap();
    let kinds: Vec<String> = metrics
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].to_string())
        .collect();
    // Losses at steps 0 (every 20 steps) and the two epochs' errors.
    assert_eq!(kinds, ["\"step\"", "\"epoch\"", "\"epoch\""], "{metrics}");

    let out = fanorona([
        "match",
        "--white",
        &format!("abnet:path={student_text},depth=1"),
        "--black",
        "random",
        "--games",
        "2",
        "--quiet",
        "--max-turns",
        "40",
    ]);
    assert!(out.assert_success().contains("abnet:path="));

    // The teacher's own file is never overwritten; a bad chance is refused.
    let before = std::fs::read(&teacher).unwrap();
    distill(teacher.to_str().unwrap(), &["--keep", "0.5"]).assert_failure("is the same file as");
    assert_eq!(std::fs::read(&teacher).unwrap(), before);
    let other = dir.path().join("other.safetensors");
    distill(other.to_str().unwrap(), &["--keep", "0"])
        .assert_failure("chance of keeping a leaf must be in (0, 1], got 0");
    assert!(!other.exists());
    // Nor is it overwritten by the metrics; settings that would break the student are refused.
    let other_text = other.to_str().unwrap();
    // Endgame tables give exact value targets where they reach; a folder without the
    // teacher's board is refused before anything is written.
    let tables = dir.path().join("tables");
    let tables_text = tables.to_str().unwrap();
    distill(other_text, &["--tables", tables_text]).assert_failure("bad --tables");
    assert!(!other.exists());
    fanorona([
        "tables",
        "build",
        "--pieces",
        "3",
        "--out",
        tables_text,
        "--quiet",
    ])
    .assert_success();
    let out = distill(other_text, &["--tables", tables_text]);
    out.assert_success();
    assert!(
        out.stderr.contains("of them valued exactly by the tables"),
        "{}",
        out.stderr
    );
    std::fs::remove_file(&other).unwrap();
    distill(other_text, &["--metrics", teacher.to_str().unwrap()])
        .assert_failure("bad --metrics: cannot write");
    assert_eq!(std::fs::read(&teacher).unwrap(), before);
    for (flag, value, message) in [
        (
            "--lr",
            "nan",
            "learning rate must be a number in (0, 1] (got NaN)",
        ),
        ("--lr", "1e30", "learning rate must be a number in (0, 1]"),
        (
            "--value-weight",
            "inf",
            "value weight must be a finite number at least 0",
        ),
        ("--hidden", "100000000", "above the limit of 16384"),
        ("--hidden", "0", "each of positive width"),
    ] {
        let out = distill(other_text, &[flag, value]);
        let stderr = out.assert_failure(message);
        assert_eq!(
            stderr.matches(message).count(),
            1,
            "the cause once: {stderr}"
        );
        assert!(!other.exists());
    }
}

#[test]
fn export_never_writes_over_its_checkpoint_or_a_run_s_files() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = tiny_checkpoint(dir.path());
    let before = std::fs::read(&checkpoint).unwrap();
    let export = |out: &Path| {
        fanorona([
            "export",
            "--checkpoint",
            dir.path().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    export(&checkpoint).assert_failure("an input of the command");
    assert_eq!(std::fs::read(&checkpoint).unwrap(), before);
    // In a run directory, none of its own names is written, existing or not.
    std::fs::write(dir.path().join("config.toml"), "").unwrap();
    for name in [
        "checkpoint-0000009999.ckpt",
        "metrics.csv",
        "models/model-0000000001.safetensors",
    ] {
        export(&dir.path().join(name)).assert_failure("is a file of the training run");
        assert!(!dir.path().join(name).exists(), "{name}");
    }
    export(&dir.path().join("agent.safetensors")).assert_success();
}
