//! The roles through their bytes API (what the Ray actors call): a worker plays a shard with
//! the learner's model bytes, the learner ingests the shard bytes once, trains at the replay
//! ratio, publishes versions and resumes with the shards it consumed; damaged shards are
//! refused by their checksum; shards are reproducible from the run's seed, worker and sequence;
//! hostile shards (a header edited, or forged with a path as its worker) are refused and write
//! nothing.

use std::path::Path;

use fanorona_env::{Board, GameId};
use fanorona_train::TrainError;
use fanorona_train::config::RunConfig;
use fanorona_train::io::{Checkpoint, FileError, Shard, ShardError};
use fanorona_train::roles::{Learner, SelfPlayWorker};
use fanorona_train::run_dir::RunDir;

fn tiny() -> RunConfig {
    RunConfig::preset("tiny").unwrap()
}

#[test]
fn a_worker_and_a_learner_exchange_models_and_shards_as_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut learner = Learner::open(Some(tiny()), &run, 2.0).unwrap();
    assert_eq!((learner.model_version(), learner.step()), (0, 0));
    assert_eq!(
        RunDir::new(&run).list_models().unwrap().len(),
        1,
        "version 0 is published"
    );

    let mut worker = SelfPlayWorker::new(tiny(), "w1").unwrap();
    worker.set_model(&learner.model_bytes(), 0).unwrap();
    let first = worker.play_shard_bytes(0).unwrap();
    // The same worker, sequence and model give the same games; another sequence other games.
    let games = |bytes: &[u8]| learner.read_shard(Path::new("x"), bytes).unwrap().games;
    let first_games = games(&first);
    assert!(first_games == games(&worker.play_shard_bytes(0).unwrap()));
    assert!(first_games != games(&worker.play_shard_bytes(1).unwrap()));

    let ingested = learner.ingest_bytes(&first).unwrap().expect("a new shard");
    assert_eq!(ingested.games, 8);
    assert_eq!(ingested.staleness, 0);
    // The same shard again is not counted twice.
    assert_eq!(learner.ingest_bytes(&first).unwrap(), None);
    // The window holds >= 32 positions: each new position earns 2 / 32 steps, up to two
    // versions' worth (16 steps).
    let earned = (ingested.positions * 2 / 32).min(16);
    assert_eq!(learner.steps_earned(), earned);
    let took = learner.train_earned(usize::MAX).unwrap();
    assert_eq!(took, earned.min(8));
    while learner.steps_to_next_version() > 0 {
        let bytes = worker.play_shard_bytes(2 + learner.step()).unwrap();
        learner.ingest_bytes(&bytes).unwrap().unwrap();
        learner.train_earned(usize::MAX).unwrap();
    }
    let (version, model) = learner.publish().unwrap();
    assert_eq!(version, 1);
    assert_eq!(model, learner.model_bytes());
    assert_eq!(learner.last_row().unwrap().step, 8);

    // Steps owed stop at two versions' worth, however much data comes in.
    for sequence in 200..204 {
        let bytes = worker.play_shard_bytes(sequence).unwrap();
        learner.ingest_bytes(&bytes).unwrap().unwrap();
    }
    assert_eq!(learner.steps_earned(), 16);
    // A shard played by version 0 and ingested after version 1 is one version stale.
    let stale = worker.play_shard_bytes(100).unwrap();
    assert_eq!(learner.ingest_bytes(&stale).unwrap().unwrap().staleness, 1);
    worker.set_model(&model, version).unwrap();
    assert_eq!(worker.model_version(), Some(1));
    let shard = learner
        .read_shard(Path::new("x"), &worker.play_shard_bytes(101).unwrap())
        .unwrap();
    assert_eq!(
        (shard.header.model_version, shard.header.model_step),
        (1, 8)
    );

    // A resumed learner knows the shards it consumed.
    let checkpoint = learner.checkpoint().unwrap();
    drop(learner);
    let meta = Checkpoint::load(&checkpoint, &burn::tensor::Device::flex())
        .unwrap()
        .meta;
    let progress = meta
        .learner
        .expect("a learner's checkpoint records its shards");
    assert!(progress.consumed.contains("w1-00000000.shard"));
    let mut resumed = Learner::open(None, &run, 2.0).unwrap();
    assert_eq!(resumed.model_version(), meta.iteration);
    assert_eq!(resumed.ingest_bytes(&first).unwrap(), None);
    assert_eq!(resumed.ingest_bytes(&stale).unwrap(), None);
}

#[test]
fn damaged_and_foreign_shards_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let learner = Learner::open(Some(tiny()), &run, 4.0).unwrap();
    let mut worker = SelfPlayWorker::new(tiny(), "w").unwrap();
    worker.set_model(&learner.model_bytes(), 0).unwrap();
    let shard = worker.play_shard(0).unwrap();
    let path = RunDir::new(dir.path()).write_shard(&shard).unwrap();
    assert!(path.ends_with("w-00000000.shard"));
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(learner.read_shard_file(&path).unwrap() == shard);

    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let err = learner.read_shard(&path, &bytes).unwrap_err();
    assert!(
        matches!(
            err,
            TrainError::Shard(ShardError::File(FileError::Corrupt { .. }))
        ),
        "{err}"
    );
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
    let cut = learner
        .read_shard(&path, &bytes[..bytes.len() / 2])
        .unwrap_err();
    assert!(cut.to_string().contains("corrupt or truncated"), "{cut}");

    // A shard of 3x3 games does not go into a 5x3 run.
    let mut small = tiny();
    small.game = GameId::Fanorona(Board::new(3, 3).unwrap());
    let other = Learner::open(Some(small.clone()), &dir.path().join("other"), 4.0).unwrap();
    let mut small_worker = SelfPlayWorker::new(small, "s").unwrap();
    small_worker.set_model(&other.model_bytes(), 0).unwrap();
    let foreign = small_worker.play_shard_bytes(0).unwrap();
    let err = learner.read_shard(&path, &foreign).unwrap_err();
    assert!(
        matches!(err, TrainError::Shard(ShardError::Mismatch { .. })),
        "{err}"
    );
    // And a 3x3 model does not go into a 5x3 worker.
    let err = worker.set_model(&other.model_bytes(), 0).unwrap_err();
    assert!(err.to_string().contains("is for fanorona 3x3"), "{err}");
    assert!(matches!(
        SelfPlayWorker::new(tiny(), "no/slash"),
        Err(TrainError::Shard(ShardError::BadWorker(_)))
    ));
}

/// The safetensors file `bytes` with the JSON of its metadata entry `fanorona_shard` changed by
/// `edit`, its checksums left as they were (the header's length and padding rewritten).
fn edit_header(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let length = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut outer: serde_json::Value = serde_json::from_slice(&bytes[8..8 + length]).unwrap();
    let entry = &mut outer["__metadata__"]["fanorona_shard"];
    let mut header: serde_json::Value = serde_json::from_str(entry.as_str().unwrap()).unwrap();
    edit(&mut header);
    *entry = serde_json::Value::String(header.to_string());
    let mut json = serde_json::to_vec(&outer).unwrap();
    json.resize(json.len().next_multiple_of(8), b' ');
    let mut forged = (json.len() as u64).to_le_bytes().to_vec();
    forged.extend_from_slice(&json);
    forged.extend_from_slice(&bytes[8 + length..]);
    forged
}

/// Every file under `root`, sorted.
fn files_under(root: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn hostile_shards_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("a").join("b").join("run");
    let mut learner = Learner::open(Some(tiny()), &run, 2.0).unwrap();
    let mut worker = SelfPlayWorker::new(tiny(), "w").unwrap();
    worker.set_model(&learner.model_bytes(), 0).unwrap();
    let honest = worker.play_shard(0).unwrap();
    let honest_bytes = honest.to_bytes(Path::new("w")).unwrap();
    let before = files_under(dir.path());

    // The header edited after sealing (the worker, or the model version the learner trusts):
    // its checksum no longer matches.
    let edits: [(&str, serde_json::Value); 4] = [
        ("worker", "../../x".into()),
        ("worker", "/abs".into()),
        ("worker", "".into()),
        ("model_version", 7.into()),
    ];
    for (key, value) in edits {
        let forged = edit_header(&honest_bytes, |h| h[key] = value.clone());
        for result in [
            learner.ingest_and_store(&forged),
            learner.ingest_bytes(&forged),
        ] {
            let err = result.unwrap_err();
            assert!(
                matches!(
                    err,
                    TrainError::Shard(ShardError::File(FileError::Corrupt { .. }))
                ),
                "{key} = {value}: {err}"
            );
            assert!(err.to_string().contains("the metadata"), "{err}");
        }
    }
    // Forged with valid checksums (as a hostile worker would write them): the worker name is
    // refused where it would become a path.
    let long = "x".repeat(65);
    for name in ["../../x", "/abs", "", "a/b", "..", "w.shard", long.as_str()] {
        let mut shard = honest.clone();
        shard.header.worker = name.to_string();
        let forged = shard.to_bytes(Path::new("forged")).unwrap();
        for result in [
            learner.ingest_and_store(&forged),
            learner.ingest_bytes(&forged),
        ] {
            assert!(
                matches!(result, Err(TrainError::Shard(ShardError::BadWorker(ref w))) if w == name),
                "{name:?}: {result:?}"
            );
        }
        assert!(RunDir::new(&run).write_shard(&shard).is_err(), "{name:?}");
    }
    // A sealed header with a nonsense field.
    let mut shard = honest.clone();
    shard.header.seconds = -1.0;
    let forged = shard.to_bytes(Path::new("forged")).unwrap();
    let err = learner.ingest_and_store(&forged).unwrap_err();
    assert!(
        matches!(err, TrainError::Shard(ShardError::BadHeader { .. })),
        "{err}"
    );
    assert_eq!(files_under(dir.path()), before, "nothing was written");
    assert_eq!(learner.replay_positions(), 0, "nothing was ingested");
    // The honest shard still goes in.
    let shard: Shard = learner.read_shard(Path::new("w"), &honest_bytes).unwrap();
    assert!(shard == honest);
    assert!(learner.ingest_and_store(&honest_bytes).unwrap().is_some());
}

#[test]
fn a_resumed_learner_publishes_again_the_versions_after_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut config = tiny();
    config.run.checkpoint_every_steps = 1000;
    let mut learner = Learner::open(Some(config.clone()), &run, 8.0).unwrap();
    let mut worker = SelfPlayWorker::new(config, "w").unwrap();
    worker.set_model(&learner.model_bytes(), 0).unwrap();
    let mut sequence = 0;
    for _ in 0..2 {
        while learner.steps_to_next_version() > 0 {
            let shard = worker.play_shard_bytes(sequence).unwrap();
            sequence += 1;
            learner.ingest_bytes(&shard).unwrap();
            learner.train_earned(usize::MAX).unwrap();
        }
        learner.publish().unwrap();
    }
    // Version 1 was checkpointed (the first), version 2 not (1,000 steps apart): a learner
    // that dies here resumes at version 1, and version 2 is gone until it is published again.
    let versions = |run: &Path| -> Vec<u64> {
        RunDir::new(run)
            .list_models()
            .unwrap()
            .iter()
            .map(|m| m.0)
            .collect()
    };
    assert_eq!(versions(&run), [0, 1, 2]);
    drop(learner);
    let resumed = Learner::open(None, &run, 8.0).unwrap();
    assert_eq!((resumed.model_version(), resumed.step()), (1, 8));
    assert_eq!(versions(&run), [0, 1]);
}
