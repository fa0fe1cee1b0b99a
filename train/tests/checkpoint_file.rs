//! Training checkpoints: exact round trips (network, optimiser state, averaged weights,
//! metadata), files of format version 1 still load, and clear errors for missing, damaged,
//! foreign and mismatched files.

mod common;

use std::fs;

use burn::tensor::Device;
use common::games::fixed_batch;
use common::{outputs, trained, trained_with_average};
use fanorona_env::{Board, Fanorona, Game, GameId, Position};
use fanorona_train::config::{Architecture, NetworkConfig};
use fanorona_train::io::{
    Checkpoint, CheckpointError, CheckpointMeta, FileError, FileKind, load_policy,
};
use fanorona_train::model::Trainer;
use fanorona_train::run_dir::{RunDir, find_checkpoint};
use fanorona_train::{RngState, TrainRng};
use rand::SeedableRng;

fn meta(learner: &Trainer) -> CheckpointMeta {
    CheckpointMeta {
        game: "fanorona 9x5".into(),
        network: learner.network().config().clone(),
        optimizer: learner.config().optimizer.clone(),
        step: 0,
        iteration: 4,
        replay_games_added: 123,
        rng: RngState::of(&TrainRng::seed_from_u64(9)),
        learner: None,
        best_iteration: None,
    }
}

fn round_trip(architecture: Architecture) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let batch = fixed_batch();
    let mut original = trained(architecture, 1e-3, 3);
    let path = RunDir::new(dir)
        .save_checkpoint(&original, meta(&original))
        .unwrap();
    assert_eq!(path, dir.join("checkpoint-0000000003.ckpt"));
    assert_eq!(find_checkpoint(dir).unwrap(), path);

    let device = Device::flex();
    let loaded = Checkpoint::load_matching(
        &path,
        GameId::standard(),
        original.network().config(),
        &device,
    )
    .unwrap();
    assert_eq!(loaded.meta.step, 3);
    assert_eq!(loaded.meta.iteration, 4);
    assert_eq!(loaded.meta.replay_games_added, 123);
    assert_eq!(loaded.meta.rng, RngState::of(&TrainRng::seed_from_u64(9)));
    assert_eq!(
        outputs(&loaded.network, &batch),
        outputs(original.network(), &batch)
    );

    // The optimiser state came back too: one more step gives the same network.
    let mut resumed = loaded.into_trainer(original.config().clone(), &device);
    assert_eq!(resumed.step(), 3);
    let a = original.train_step(&batch);
    let b = resumed.train_step(&batch);
    assert_eq!(a, b);
    assert_eq!(
        outputs(resumed.network(), &batch),
        outputs(original.network(), &batch)
    );
}

#[test]
fn mlp_checkpoint_round_trip_is_exact() {
    round_trip(Architecture::mlp(&[32]));
}

#[test]
fn resnet_checkpoint_round_trip_is_exact() {
    round_trip(Architecture::resnet(1, 4));
}

#[test]
fn averaged_weights_are_saved_resumed_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let batch = fixed_batch();
    let mut original = trained_with_average(Architecture::mlp(&[32]), 1e-2, 20, 0.9);
    let averaged = original.averaged_network().unwrap().clone();
    assert_ne!(
        outputs(&averaged, &batch),
        outputs(original.network(), &batch)
    );
    let path = RunDir::new(dir)
        .save_checkpoint(&original, meta(&original))
        .unwrap();
    let device = Device::flex();
    let loaded = Checkpoint::load(&path, &device).unwrap();
    assert_eq!(
        outputs(loaded.averaged.as_ref().unwrap(), &batch),
        outputs(&averaged, &batch)
    );
    let (play, last) = Checkpoint::load(&path, &device)
        .unwrap()
        .into_play_networks();
    assert_eq!(outputs(&play, &batch), outputs(&averaged, &batch));
    assert_eq!(
        outputs(&last.unwrap(), &batch),
        outputs(original.network(), &batch)
    );
    // A policy read from the checkpoint is the average; the last weights come with it.
    let policy = load_policy(&path).unwrap();
    assert_eq!(outputs(&policy.net, &batch), outputs(&averaged, &batch));
    assert_eq!(
        outputs(policy.last_weights.as_ref().unwrap(), &batch),
        outputs(original.network(), &batch)
    );
    // A resumed learner goes on averaging exactly as the original.
    let mut resumed = loaded.into_trainer(original.config().clone(), &device);
    original.train_step(&batch);
    resumed.train_step(&batch);
    assert_eq!(
        outputs(resumed.averaged_network().unwrap(), &batch),
        outputs(original.averaged_network().unwrap(), &batch)
    );
}

#[test]
fn a_checkpoint_of_format_version_1_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let learner = trained(Architecture::mlp(&[16]), 1e-3, 2);
    let path = RunDir::new(dir.path())
        .save_checkpoint(&learner, meta(&learner))
        .unwrap();
    let data = fs::read(&path).unwrap();
    // Version 2 ends with an empty averaged-network section (its length, 0) and the CRC.
    let body_end = data.len() - 4 - 8;
    assert_eq!(data[body_end..data.len() - 4], [0; 8]);
    assert_eq!(data[8..12], 2u32.to_le_bytes());
    let mut old = data[..8].to_vec();
    old.extend_from_slice(&1u32.to_le_bytes());
    old.extend_from_slice(&data[12..body_end]);
    let crc = crc32fast::hash(&old);
    old.extend_from_slice(&crc.to_le_bytes());
    fs::write(&path, &old).unwrap();
    let loaded = Checkpoint::load(&path, &Device::flex()).unwrap();
    assert!(loaded.averaged.is_none());
    let batch = fixed_batch();
    assert_eq!(
        outputs(&loaded.network, &batch),
        outputs(learner.network(), &batch)
    );
}

#[test]
fn the_latest_checkpoints_are_listed_and_older_ones_pruned_with_their_replay_windows() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let mut learner = trained(Architecture::mlp(&[8]), 1e-3, 0);
    let batch = fixed_batch();
    let run = RunDir::new(dir);
    for _ in 0..3 {
        learner.train_step(&batch);
        run.save_checkpoint(&learner, meta(&learner)).unwrap();
    }
    fs::write(dir.join("notes.txt"), "not a checkpoint").unwrap();
    // Replay windows beside the checkpoints, and one whose checkpoint was never written.
    for step in 1..=4 {
        fs::write(run.replay(step), "window").unwrap();
    }
    assert_eq!(
        run.checkpoints().unwrap(),
        [1, 2, 3].map(|s| run.checkpoint(s))
    );
    run.prune_checkpoints(2).unwrap();
    assert_eq!(
        run.checkpoints().unwrap(),
        [2, 3].map(|s| run.checkpoint(s))
    );
    for step in 1..=4 {
        let kept = run.replay(step).exists();
        assert_eq!(kept, step == 2 || step == 3, "replay of step {step}");
    }
    assert_eq!(run.latest_checkpoint().unwrap(), Some(run.checkpoint(3)));
}

/// The file-level error of `result`, which must have failed.
fn file_error<T>(result: Result<T, CheckpointError>) -> FileError {
    match result {
        Err(CheckpointError::File(e)) => e,
        Err(e) => panic!("expected a file error, got {e}"),
        Ok(_) => panic!("a bad checkpoint loaded"),
    }
}

#[test]
fn missing_damaged_and_foreign_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let device = Device::flex();
    let e = file_error(find_checkpoint(dir));
    assert!(
        matches!(
            e,
            FileError::Missing {
                kind: FileKind::Checkpoint,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        format!("no checkpoint found at {}", dir.display())
    );
    let e = file_error(Checkpoint::load(&dir.join("nothing.ckpt"), &device));
    assert!(matches!(e, FileError::Missing { .. }), "{e}");
    let e = file_error(Checkpoint::load(dir, &device));
    assert!(matches!(e, FileError::Io { action: "read", .. }), "{e}");

    let learner = trained(Architecture::mlp(&[8]), 1e-3, 0);
    let path = RunDir::new(dir)
        .save_checkpoint(&learner, meta(&learner))
        .unwrap();
    let data = fs::read(&path).unwrap();
    let load = |bytes: &[u8]| {
        let bad = dir.join("bad.ckpt");
        fs::write(&bad, bytes).unwrap();
        file_error(Checkpoint::load(&bad, &device))
    };
    let corrupt = |bytes: &[u8], expect: &str| {
        let e = load(bytes);
        assert!(matches!(e, FileError::Corrupt { .. }), "{e}");
        assert!(e.to_string().contains("is corrupt or truncated"), "{e}");
        assert!(e.to_string().contains(expect), "{e}");
    };
    corrupt(&data[..data.len() / 2], "ends inside the network section");
    corrupt(&data[..16], "ends before the header section");
    corrupt(&[&data[..], b"tail"].concat(), "does not fit its sections");
    let mut flipped = data.clone();
    flipped[data.len() / 2] ^= 0x40;
    corrupt(&flipped, "checksum mismatch");

    let e = load(b"hello");
    assert!(
        matches!(
            e,
            FileError::WrongKind {
                kind: FileKind::Checkpoint,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("is not a checkpoint"), "{e}");
    let mut version = data.clone();
    version[8] = 9;
    let e = load(&version);
    assert!(
        matches!(e, FileError::UnsupportedVersion { found: 9, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .ends_with("has format version 9; this build reads versions 1 and 2"),
        "{e}"
    );
}

#[test]
fn a_checkpoint_for_another_network_board_or_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let device = Device::flex();
    let learner = trained(Architecture::mlp(&[8]), 1e-3, 0);
    let path = RunDir::new(dir.path())
        .save_checkpoint(&learner, meta(&learner))
        .unwrap();
    let other_arch = NetworkConfig {
        architecture: Architecture::mlp(&[16]),
        ..learner.network().config().clone()
    };
    let err = Checkpoint::load_matching(&path, GameId::standard(), &other_arch, &device)
        .err()
        .expect("architecture mismatch");
    assert!(err.to_string().contains("architecture mlp 8"), "{err}");
    let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
    assert_eq!(small.num_actions(), 15 * 24 + 1);
    let small_config = NetworkConfig::for_game(&small, Architecture::mlp(&[8]));
    let err = Checkpoint::load_matching(&path, GameId::standard(), &small_config, &device)
        .err()
        .expect("board mismatch");
    assert!(
        matches!(
            err,
            CheckpointError::Mismatch {
                field: "observation shape",
                ..
            }
        ),
        "{err}"
    );
    let err = Checkpoint::load_matching(&path, GameId::Telo, learner.network().config(), &device)
        .err()
        .expect("game mismatch");
    assert!(err.to_string().contains("game fanorona 9x5"), "{err}");
}
