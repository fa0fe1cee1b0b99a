//! Exported policy files: exact round trips, checkpoints exported and loaded directly, and
//! clear errors for damaged, foreign and mismatched files.

mod common;

use std::collections::HashMap;
use std::fs;

use common::games::fixed_batch;
use common::{outputs, trained};
use fanorona_env::action::ENCODING_VERSION;
use fanorona_env::{GameId, Rules};
use fanorona_train::config::{Architecture, NetworkConfig};
use fanorona_train::io::POLICY_FORMAT;
use fanorona_train::io::{
    CheckpointMeta, FileError, FileKind, PolicyFileError, PolicyMeta, export_checkpoint,
    export_policy, load_policy,
};
use fanorona_train::model::PolicyValueNet;
use fanorona_train::run_dir::RunDir;
use fanorona_train::{RngState, TrainRng};
use rand::SeedableRng;
use safetensors::SafeTensors;
use safetensors::tensor::TensorView;

fn meta(net: &PolicyValueNet) -> PolicyMeta {
    PolicyMeta {
        game: GameId::standard(),
        rules: Rules::default().to_string(),
        encoding_version: ENCODING_VERSION,
        network: net.config().clone(),
        step: 2,
    }
}

/// The metadata entries of the safetensors file `bytes`.
fn entries(bytes: &[u8]) -> HashMap<String, String> {
    let (_, header) = SafeTensors::read_metadata(bytes).unwrap();
    header.metadata().clone().unwrap()
}

fn round_trip(architecture: Architecture) {
    let dir = tempfile::tempdir().unwrap();
    let learner = trained(architecture, 1e-2, 2);
    let net = learner.network();
    let path = dir.path().join("agent.safetensors");
    export_policy(net, &meta(net), &path).unwrap();
    let loaded = load_policy(&path).unwrap();
    assert_eq!(loaded.meta, meta(net));
    let batch = fixed_batch();
    assert!(batch.size > 1);
    assert_eq!(outputs(&loaded.net, &batch), outputs(net, &batch));
    // Any safetensors reader sees the metadata.
    let entries = entries(&fs::read(&path).unwrap());
    assert_eq!(entries["format"], POLICY_FORMAT);
    assert_eq!(entries["format_version"], "1");
    assert_eq!(entries["observation_shape"], "18x5x9");
    assert_eq!(entries["num_actions"], "1081");
    assert_eq!(entries["training_step"], "2");
    assert!(entries["data_crc32"].parse::<u32>().is_ok());
}

#[test]
fn mlp_export_then_load_reproduces_the_outputs_exactly() {
    round_trip(Architecture::mlp(&[32, 16]));
}

#[test]
fn resnet_export_then_load_reproduces_the_outputs_exactly() {
    round_trip(Architecture::resnet(1, 4));
}

#[test]
fn a_checkpoint_is_exported_and_also_loads_directly() {
    let dir = tempfile::tempdir().unwrap();
    let learner = trained(Architecture::mlp(&[8]), 1e-2, 2);
    let checkpoint_meta = CheckpointMeta {
        game: "fanorona 9x5".into(),
        network: learner.network().config().clone(),
        optimizer: learner.config().optimizer.clone(),
        step: 0,
        iteration: 1,
        replay_games_added: 4,
        rng: RngState::of(&TrainRng::seed_from_u64(1)),
        learner: None,
        best_iteration: None,
    };
    let checkpoint = RunDir::new(dir.path())
        .save_checkpoint(&learner, checkpoint_meta)
        .unwrap();
    let out = dir.path().join("agent.safetensors");
    let written = export_checkpoint(&checkpoint, &out).unwrap();
    assert_eq!(written, meta(learner.network()));
    let batch = fixed_batch();
    let from_file = load_policy(&out).unwrap();
    let from_checkpoint = load_policy(&checkpoint).unwrap();
    assert_eq!(from_checkpoint.meta, written);
    assert_eq!(
        outputs(&from_file.net, &batch),
        outputs(learner.network(), &batch)
    );
    assert_eq!(
        outputs(&from_checkpoint.net, &batch),
        outputs(learner.network(), &batch)
    );
}

/// `bytes` rewritten with `edit` applied to its metadata and tensors, checksum renewed.
fn rewrite(
    bytes: &[u8],
    edit: impl FnOnce(&mut HashMap<String, String>, &mut Vec<(String, TensorView<'_>)>),
) -> Vec<u8> {
    let file = SafeTensors::deserialize(bytes).unwrap();
    let mut tensors = file.tensors();
    let mut entries = entries(bytes);
    edit(&mut entries, &mut tensors);
    let first = safetensors::serialize(tensors.clone(), Some(entries.clone())).unwrap();
    // The tensor data follows the 8-byte header length and the header.
    let header_len = u64::from_le_bytes(first[..8].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&first[8 + header_len..]);
    entries.insert("data_crc32".into(), crc.to_string());
    safetensors::serialize(tensors, Some(entries)).unwrap()
}

/// A directory with a good policy file, its bytes, and a loader of edited copies of it.
struct Fixture {
    dir: tempfile::TempDir,
    good: std::path::PathBuf,
    bytes: Vec<u8>,
    net: PolicyValueNet,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let net = trained(Architecture::mlp(&[8]), 1e-2, 2).network().clone();
        let good = dir.path().join("good.safetensors");
        export_policy(&net, &meta(&net), &good).unwrap();
        let bytes = fs::read(&good).unwrap();
        Fixture {
            dir,
            good,
            bytes,
            net,
        }
    }

    /// The error of loading `data` as a policy file.
    fn load(&self, data: &[u8]) -> PolicyFileError {
        let path = self.dir.path().join("bad.safetensors");
        fs::write(&path, data).unwrap();
        match load_policy(&path) {
            Ok(_) => panic!("a bad file loaded"),
            Err(e) => e,
        }
    }

    /// The error of loading the good file with `edit` applied.
    fn load_edited(
        &self,
        edit: impl FnOnce(&mut HashMap<String, String>, &mut Vec<(String, TensorView<'_>)>),
    ) -> PolicyFileError {
        self.load(&rewrite(&self.bytes, edit))
    }
}

#[test]
fn missing_damaged_and_foreign_files_are_refused_with_clear_errors() {
    let f = Fixture::new();
    let e = load_policy(&f.dir.path().join("none.safetensors"))
        .err()
        .unwrap();
    assert!(
        matches!(
            e,
            PolicyFileError::File(FileError::Missing {
                kind: FileKind::Policy,
                ..
            })
        ),
        "{e}"
    );
    assert!(e.to_string().starts_with("no policy file found at "), "{e}");
    let corrupt = |e: PolicyFileError, expect: &str| {
        assert!(
            matches!(e, PolicyFileError::File(FileError::Corrupt { .. })),
            "{e}"
        );
        assert!(e.to_string().contains(expect), "{e}");
    };
    corrupt(
        f.load(&f.bytes[..f.bytes.len() - 10]),
        "not a readable safetensors file",
    );
    corrupt(f.load(b"hello, world"), "not a readable safetensors file");
    let mut flipped = f.bytes.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x10;
    corrupt(
        f.load(&flipped),
        "checksum mismatch: the tensor data has CRC-32",
    );

    let e = f.load_edited(|m, _| {
        m.remove("format");
    });
    assert!(
        matches!(e, PolicyFileError::File(FileError::WrongKind { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("is not a policy file"), "{e}");
    let e = f.load_edited(|m, _| {
        m.insert("format_version".into(), "7".into());
    });
    assert!(
        matches!(
            e,
            PolicyFileError::File(FileError::UnsupportedVersion { found: 7, .. })
        ),
        "{e}"
    );
    assert!(e.to_string().ends_with("this build reads version 1"), "{e}");
}

#[test]
fn files_for_another_encoding_board_or_network_are_refused() {
    let f = Fixture::new();
    let e = f.load_edited(|m, _| {
        m.insert("encoding_version".into(), "99".into());
    });
    assert!(
        matches!(e, PolicyFileError::EncodingMismatch { found: 99, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("encoding version 99"), "{e}");
    let e = f.load_edited(|m, _| {
        m.insert("board".into(), "5x3".into());
    });
    assert!(
        matches!(e, PolicyFileError::BadMetadata { key: "board", .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .ends_with("entry `board`: 5x3 disagrees with the network's 9x5"),
        "{e}"
    );
    let e = f.load_edited(|_, tensors| {
        tensors.retain(|(name, _)| !name.contains("value_out.weight"));
    });
    match &e {
        PolicyFileError::MissingTensors { tensors, .. } => {
            assert_eq!(tensors.len(), 1);
            assert!(tensors[0].contains("value_out.weight"), "{e}");
        }
        other => panic!("expected missing tensors, got {other}"),
    }
    let wider = NetworkConfig {
        architecture: Architecture::mlp(&[16]),
        ..f.net.config().clone()
    };
    let e = f.load_edited(|m, _| {
        m.insert("network".into(), serde_json::to_string(&wider).unwrap());
    });
    assert!(
        matches!(&e, PolicyFileError::WrongShape { expected, found, .. }
            if expected.contains(&16) && found.contains(&8)),
        "{e}"
    );

    let loaded = load_policy(&f.good).unwrap();
    loaded.meta.check_game(&f.good, GameId::standard()).unwrap();
    let e = loaded
        .meta
        .check_game(&f.good, "fanorona 5x3".parse().unwrap())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "policy file {} is for fanorona 9x5, not fanorona 5x3",
            f.good.display()
        )
    );
}
