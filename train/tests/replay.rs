//! The replay buffer: augmented samples match the mapped positions, the window keeps the latest
//! games, value targets mix results and root values; and its saved windows: exact round trips,
//! files of format version 1 (unsealed) still load, and clear errors for missing, damaged,
//! foreign and mismatched files.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use common::games::random_games;
use fanorona_env::{Board, Fanorona, Game, Position};
use fanorona_train::TrainRng;
use fanorona_train::config::ReplayConfig;
use fanorona_train::io::{FileError, FileKind, ReplayFileError};
use fanorona_train::replay::{Batch, ReplayBuffer, Trajectory};
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

/// The FEN of the position mapped by symmetry `sym` (rows reversed for 2 and 3, columns
/// for 1 and 3), for positions without a chain in progress.
fn mirrored_fen(fen: &str, sym: usize) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() > 4 {
        return None;
    }
    let mut rows: Vec<Vec<char>> = fields[0]
        .split('/')
        .map(|row| {
            row.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    if sym == 1 || sym == 3 {
        rows.iter_mut().for_each(|r| r.reverse());
    }
    if sym == 2 || sym == 3 {
        rows.reverse();
    }
    let rows: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let mut text = rows.join("/");
    for field in &fields[1..] {
        text.push(' ');
        text.push_str(field);
    }
    Some(text)
}

#[test]
fn augmented_samples_match_the_mapped_positions() {
    let (buffer, fens) = random_games(6, 10);
    let mut rng = TrainRng::seed_from_u64(3);
    let mut batch = Batch::default();
    buffer.sample(256, &mut rng, &mut batch);
    let a = batch.num_actions;
    let len = batch.observation_len;
    let mut checked = [0; 4];
    let mut obs = vec![0.0; len];
    for (slot, src) in batch.sources.iter().enumerate() {
        let mask = &batch.mask[slot * a..(slot + 1) * a];
        let policy = &batch.policy[slot * a..(slot + 1) * a];
        // Targets live on legal actions only and still sum to one.
        assert!(policy.iter().zip(mask).all(|(&p, &m)| m == 1.0 || p == 0.0));
        assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let expected_weight = if src.ply % 3 == 0 { 0.0 } else { 1.0 };
        assert_eq!(batch.policy_weights[slot], expected_weight);
        let Some(fen) = mirrored_fen(&fens[src.game as usize][src.ply], src.symmetry) else {
            continue;
        };
        let mapped = Fanorona::new(Position::from_fen(&fen).unwrap());
        let mut legal = Vec::new();
        mapped.legal_actions(&mut legal);
        let mut expected = vec![0.0; a];
        for action in legal {
            expected[mapped.to_mover_action(action)] = 1.0;
        }
        assert_eq!(
            mask,
            &expected[..],
            "mask of {fen} under symmetry {}",
            src.symmetry
        );
        mapped.write_observation(&mut obs);
        let cells = len / 18;
        // The pieces planes (the draw counters may differ from a fresh game).
        assert_eq!(
            &batch.observations[slot * len..slot * len + 2 * cells],
            &obs[..2 * cells]
        );
        checked[src.symmetry] += 1;
    }
    assert!(checked.iter().all(|&n| n > 5), "{checked:?}");
}

#[test]
fn the_window_keeps_the_latest_games_and_values_follow_the_mover() {
    let (buffer, _) = random_games(7, 3);
    assert_eq!(buffer.games(), 3);
    assert_eq!(buffer.games_added(), 7);
    let total: usize = buffer.iter_games().map(Trajectory::len).sum();
    assert_eq!(buffer.positions(), total);
    let mut rng = TrainRng::seed_from_u64(5);
    let mut batch = Batch::default();
    buffer.sample(64, &mut rng, &mut batch);
    assert!(batch.sources.iter().all(|s| (4..7).contains(&s.game)));
    for game in buffer.iter_games() {
        assert_eq!(game.meta.length, game.len());
        // Values are each mover's return: a decided game has both signs unless one side
        // moved throughout, a draw (or unfinished game) only zeros.
        for &v in game.values() {
            assert!(game.meta.returns.contains(&v));
        }
    }
}

#[test]
fn value_targets_mix_the_result_with_the_root_value_by_their_weight() {
    let (buffer, _) = random_games(4, 4);
    let mixed_config = ReplayConfig {
        root_value_weight: 0.25,
        ..buffer.config().clone()
    };
    let mut mixed = ReplayBuffer::new(mixed_config, Fanorona::standard());
    buffer.iter_games().for_each(|g| mixed.add_game(g.clone()));
    let mut batch = Batch::default();
    for (buffer, weight) in [(&buffer, 0.0), (&mixed, 0.25)] {
        buffer.sample(128, &mut TrainRng::seed_from_u64(2), &mut batch);
        for (slot, src) in batch.sources.iter().enumerate() {
            let game = buffer.iter_games().nth(src.game as usize).unwrap();
            let result = game.values()[src.ply];
            // random_games records the root value (ply % 7) / 3 - 1.
            let root_value = (src.ply % 7) as f32 / 3.0 - 1.0;
            let expected = (1.0 - weight) * result + weight * root_value;
            assert!((batch.values[slot] - expected).abs() < 1e-6, "slot {slot}");
        }
    }
    assert!(batch.values.iter().any(|v| ![-1.0, 0.0, 1.0].contains(v)));
}
