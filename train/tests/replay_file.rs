//! Saved replay windows: exact round trips, files of format version 1 (unsealed) still load,
//! and clear errors for missing, damaged, foreign and mismatched files.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use common::test_support::random_games;
use fanorona_env::{Board, Fanorona, Position};
use fanorona_train::io::{FileError, FileKind, ReplayFileError};
use fanorona_train::replay::{Batch, ReplayBuffer, ReplayConfig};
use fanorona_train::rng::TrainRng;
use rand::SeedableRng;
use safetensors::SafeTensors;

/// The metadata entries of the safetensors file `bytes`.
fn entries(bytes: &[u8]) -> HashMap<String, String> {
    let (_, header) = SafeTensors::read_metadata(bytes).unwrap();
    header.metadata().clone().unwrap()
}

/// `bytes` with its tensors and the metadata entries `entries`.
fn with_entries(bytes: &[u8], entries: HashMap<String, String>) -> Vec<u8> {
    let file = SafeTensors::deserialize(bytes).unwrap();
    safetensors::serialize(file.tensors(), Some(entries)).unwrap()
}

/// The file of format version 1 (no seal) with the contents of the version 2 file `bytes`.
fn version_1(bytes: &[u8]) -> Vec<u8> {
    let entries = entries(bytes);
    let header = entries["fanorona_replay"].replace("\"format_version\":2", "\"format_version\":1");
    assert_ne!(header, entries["fanorona_replay"]);
    with_entries(bytes, HashMap::from([("fanorona_replay".into(), header)]))
}

fn load(path: &Path, config: &ReplayConfig) -> Result<ReplayBuffer<Fanorona>, ReplayFileError> {
    ReplayBuffer::load(path, config.clone(), Fanorona::standard())
}

/// The file-level error of loading `path`, which must fail with one.
fn file_error(path: &Path, config: &ReplayConfig) -> FileError {
    match load(path, config) {
        Err(ReplayFileError::File(e)) => e,
        Err(e) => panic!("expected a file error, got {e}"),
        Ok(_) => panic!("a bad replay file loaded"),
    }
}

/// An error unless `loaded` holds the same games as `buffer` and samples the same batches.
fn assert_same(loaded: &ReplayBuffer<Fanorona>, buffer: &ReplayBuffer<Fanorona>) {
    assert_eq!(loaded.games_added(), buffer.games_added());
    assert_eq!(loaded.positions(), buffer.positions());
    assert!(loaded.iter_games().eq(buffer.iter_games()));
    let (mut a, mut b) = (Batch::default(), Batch::default());
    buffer.sample(64, &mut TrainRng::seed_from_u64(8), &mut a);
    loaded.sample(64, &mut TrainRng::seed_from_u64(8), &mut b);
    assert_eq!(
        (a.observations, a.policy, a.sources),
        (b.observations, b.policy, b.sources)
    );
}

#[test]
fn a_saved_window_loads_back_identically_and_is_sealed() {
    let (buffer, _) = random_games(5, 4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.safetensors");
    buffer.save(&path).unwrap();
    let loaded = load(&path, buffer.config()).unwrap();
    assert_eq!(loaded.games_added(), 5);
    assert_eq!(loaded.games(), 4);
    assert_same(&loaded, &buffer);
    let entries = entries(&fs::read(&path).unwrap());
    assert_eq!(entries["format"], "fanorona-replay");
    assert_eq!(entries["format_version"], "2");
    assert!(entries["data_crc32"].parse::<u32>().is_ok());
}

#[test]
fn a_window_of_format_version_1_still_loads() {
    let (buffer, _) = random_games(3, 10);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.safetensors");
    buffer.save(&path).unwrap();
    fs::write(&path, version_1(&fs::read(&path).unwrap())).unwrap();
    assert!(!entries(&fs::read(&path).unwrap()).contains_key("format"));
    assert_same(&load(&path, buffer.config()).unwrap(), &buffer);
}

#[test]
fn a_window_saved_without_root_values_loads_with_the_results_in_their_place() {
    let (buffer, _) = random_games(3, 10);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.safetensors");
    buffer.save(&path).unwrap();
    let old = version_1(&fs::read(&path).unwrap());
    let file = SafeTensors::deserialize(&old).unwrap();
    let tensors = file
        .tensors()
        .into_iter()
        .filter(|(name, _)| name != "root_values");
    let header = entries(&old);
    fs::write(
        &path,
        safetensors::serialize(tensors, Some(header)).unwrap(),
    )
    .unwrap();
    let root_only = ReplayConfig {
        root_value_weight: 1.0,
        ..buffer.config().clone()
    };
    let loaded = load(&path, &root_only).unwrap();
    let (mut results, mut targets) = (Batch::default(), Batch::default());
    buffer.sample(64, &mut TrainRng::seed_from_u64(8), &mut results);
    loaded.sample(64, &mut TrainRng::seed_from_u64(8), &mut targets);
    assert_eq!(results.values, targets.values);
    // With its root values, the same window gives other targets.
    let mut with_roots = ReplayBuffer::new(root_only, Fanorona::standard());
    buffer
        .iter_games()
        .for_each(|g| with_roots.add_game(g.clone()));
    with_roots.sample(64, &mut TrainRng::seed_from_u64(8), &mut targets);
    assert_ne!(results.values, targets.values);
}

#[test]
fn missing_damaged_foreign_and_mismatched_files_give_clear_errors() {
    let (buffer, _) = random_games(5, 4);
    let config = buffer.config().clone();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.safetensors");
    buffer.save(&path).unwrap();
    let data = fs::read(&path).unwrap();

    let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
    let err = ReplayBuffer::load(&path, config.clone(), small).unwrap_err();
    assert!(matches!(err, ReplayFileError::Mismatch { .. }), "{err}");
    assert!(err.to_string().contains("is for another game"), "{err}");

    let e = file_error(&dir.path().join("none"), &config);
    assert!(
        matches!(
            e,
            FileError::Missing {
                kind: FileKind::Replay,
                ..
            }
        ),
        "{e}"
    );
    let e = file_error(dir.path(), &config);
    assert!(matches!(e, FileError::Io { action: "read", .. }), "{e}");

    let bad = dir.path().join("bad.safetensors");
    let load_bytes = |bytes: &[u8]| {
        fs::write(&bad, bytes).unwrap();
        file_error(&bad, &config)
    };
    let corrupt = |e: FileError, expect: &str| {
        assert!(matches!(e, FileError::Corrupt { .. }), "{e}");
        assert!(e.to_string().contains(expect), "{e}");
    };
    corrupt(
        load_bytes(&data[..data.len() - 100]),
        "not a readable safetensors file",
    );
    let mut flipped = data.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x10;
    corrupt(load_bytes(&flipped), "checksum mismatch");

    let mut unsealed = entries(&data);
    unsealed.remove("format");
    let e = load_bytes(&with_entries(&data, unsealed));
    corrupt(e, "format version 2 must be sealed");
    let mut newer = entries(&data);
    newer.insert("format_version".into(), "9".into());
    let e = load_bytes(&with_entries(&data, newer));
    assert!(
        matches!(e, FileError::UnsupportedVersion { found: 9, .. }),
        "{e}"
    );
    assert!(
        e.to_string().ends_with("this build reads versions 1 and 2"),
        "{e}"
    );
    let e = load_bytes(&with_entries(&data, HashMap::new()));
    assert!(
        matches!(
            e,
            FileError::WrongKind {
                kind: FileKind::Replay,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("is not a replay file"), "{e}");
}
