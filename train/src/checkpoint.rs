//! Checkpoints: the network, the optimiser state, the learner step, the run's RNG state and the
//! replay window's position, in one file written atomically (temporary file + rename) into a
//! run directory as `checkpoint-STEP.ckpt`. Resuming loads the latest one.
//!
//! File layout: the magic `FNRCKPT\0`, a little-endian u32 format version, then three
//! length-prefixed (u64) sections: the JSON header ([`CheckpointMeta`]), the network's burnpack
//! record, the optimiser's burnpack record; then a CRC-32 of everything before it.

use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::optim::ModuleOptimizer;
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};
use fanorona_env::{GameId, GameIdError};
use serde::{Deserialize, Serialize};

use crate::learner::{Learner, LearnerConfig, OptimizerConfig};
use crate::network::{NetworkConfig, PolicyValueNet, flush_denormals};
use crate::rng::RngState;
use fanorona_eval::atomic_write::write_atomic;

/// The first bytes of every checkpoint file.
pub(crate) const MAGIC: &[u8; 8] = b"FNRCKPT\0";
const FORMAT_VERSION: u32 = 1;
const PREFIX: &str = "checkpoint-";
const EXTENSION: &str = "ckpt";

/// A checkpoint that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// No checkpoint at the path (or none in the run directory).
    #[error("no checkpoint found at {0}")]
    Missing(PathBuf),
    /// Reading or writing failed.
    #[error("cannot {action} checkpoint {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not a checkpoint, is cut short or damaged.
    #[error("checkpoint {path} is corrupt or truncated: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A checkpoint of another network, board or game than the one asked for.
    #[error(
        "checkpoint {path} does not match this run: it has {field} {found}, expected {expected}"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        field: &'static str,
        /// The run's value.
        expected: String,
        /// The checkpoint's value.
        found: String,
    },
}

/// Everything in a checkpoint besides the tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// The game and board as [`GameId`] writes them, e.g. `fanorona 9x5`.
    pub game: String,
    /// The network's configuration.
    pub network: NetworkConfig,
    /// The optimiser, to rebuild its state.
    pub optimizer: OptimizerConfig,
    /// Learner steps taken.
    pub step: u64,
    /// Self-play iterations completed.
    pub iteration: u64,
    /// Games added to the replay buffer so far.
    pub replay_games_added: u64,
    /// The run's random generator.
    pub rng: RngState,
}

impl CheckpointMeta {
    /// The game the checkpoint was trained on.
    pub fn game_id(&self) -> Result<GameId, GameIdError> {
        self.game.parse()
    }
}

/// A loaded checkpoint.
pub struct Checkpoint {
    /// The metadata.
    pub meta: CheckpointMeta,
    /// The network, on the device it was loaded to (no autodiff).
    pub network: PolicyValueNet,
    /// The optimiser with its restored state.
    pub optimizer: ModuleOptimizer,
}

impl Checkpoint {
    /// The file name of the checkpoint at `step`.
    pub fn file_name(step: u64) -> String {
        format!("{PREFIX}{step:010}.{EXTENSION}")
    }

    /// Writes the learner's network and optimiser with `meta` (whose `step`, `network` and
    /// `optimizer` are taken from the learner) into `dir`, atomically; returns the file's path.
    pub fn save(
        dir: &Path,
        learner: &Learner,
        mut meta: CheckpointMeta,
    ) -> Result<PathBuf, CheckpointError> {
        meta.step = learner.step();
        meta.network = learner.network().config().clone();
        meta.optimizer = learner.config().optimizer.clone();
        let path = dir.join(Checkpoint::file_name(meta.step));
        let corrupt = |reason: String| CheckpointError::Corrupt {
            path: path.clone(),
            reason,
        };
        let header = serde_json::to_vec_pretty(&meta).map_err(|e| corrupt(e.to_string()))?;
        let model = learner
            .inference_network()
            .into_record()
            .into_bytes()
            .map_err(|e| corrupt(format!("network record: {e}")))?;
        let optimizer = learner
            .optimizer()
            .into_bytes()
            .map_err(|e| corrupt(format!("optimiser record: {e}")))?;
        let mut data = Vec::with_capacity(header.len() + model.len() + optimizer.len() + 64);
        data.extend_from_slice(MAGIC);
        data.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for section in [&header[..], &model[..], &optimizer[..]] {
            data.extend_from_slice(&(section.len() as u64).to_le_bytes());
            data.extend_from_slice(section);
        }
        let crc = crc32fast::hash(&data);
        data.extend_from_slice(&crc.to_le_bytes());
        write_atomic(&path, &data).map_err(|source| CheckpointError::Io {
            action: "write",
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }

    /// Reads the checkpoint at `path` onto `device`.
    pub fn load(path: &Path, device: &Device) -> Result<Checkpoint, CheckpointError> {
        let data = match fs::read(path) {
            Ok(data) => data,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(CheckpointError::Missing(path.to_path_buf()));
            }
            Err(source) => {
                return Err(CheckpointError::Io {
                    action: "read",
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        Checkpoint::from_bytes(path, &data, device)
    }

    /// Reads a checkpoint from the bytes of the file at `path` (named in errors) onto
    /// `device`.
    pub fn from_bytes(
        path: &Path,
        data: &[u8],
        device: &Device,
    ) -> Result<Checkpoint, CheckpointError> {
        let corrupt = |reason: String| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        if data.len() < MAGIC.len() + 4 || &data[..MAGIC.len()] != MAGIC {
            return Err(corrupt("not a checkpoint file (bad magic bytes)".into()));
        }
        let version = u32::from_le_bytes(data[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {version}, this build reads version {FORMAT_VERSION}"
            )));
        }
        let (body, crc) = data.split_at(data.len().saturating_sub(4).max(12));
        let mut sections = Vec::with_capacity(3);
        let mut at = 12;
        for name in ["header", "network", "optimiser"] {
            let len = body
                .get(at..at + 8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
                .ok_or_else(|| corrupt(format!("file ends before the {name} section")))?;
            let section = body
                .get(at + 8..(at + 8).saturating_add(len))
                .ok_or_else(|| corrupt(format!("file ends inside the {name} section")))?;
            sections.push(section);
            at += 8 + len;
        }
        if crc.len() != 4 || at != body.len() {
            return Err(corrupt("unexpected length after the last section".into()));
        }
        let expected = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != expected {
            return Err(corrupt("checksum mismatch".into()));
        }
        let meta: CheckpointMeta =
            serde_json::from_slice(sections[0]).map_err(|e| corrupt(format!("header: {e}")))?;
        let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(sections[1].to_vec()))
            .map_err(|e| corrupt(format!("network record: {e}")))?;
        let network = meta
            .network
            .init(device)
            .map_err(|e| corrupt(e.to_string()))?
            .try_load_record(record)
            .map_err(|e| corrupt(format!("network record does not fit its header: {e}")))?;
        // Files written before the learner flushed denormals may hold some.
        let network = flush_denormals(network);
        let optimizer = meta
            .optimizer
            .init()
            .from_bytes(Bytes::from_bytes_vec(sections[2].to_vec()))
            .map_err(|e| corrupt(format!("optimiser record: {e}")))?;
        Ok(Checkpoint {
            meta,
            network,
            optimizer,
        })
    }

    /// Reads the checkpoint at `path` and checks it was made for `game` with `network`.
    pub fn load_matching(
        path: &Path,
        game: GameId,
        network: &NetworkConfig,
        device: &Device,
    ) -> Result<Checkpoint, CheckpointError> {
        let checkpoint = Checkpoint::load(path, device)?;
        checkpoint.check_matches(path, game, network)?;
        Ok(checkpoint)
    }

    /// An error unless the checkpoint was made for `game` with `network`.
    pub fn check_matches(
        &self,
        path: &Path,
        game: GameId,
        network: &NetworkConfig,
    ) -> Result<(), CheckpointError> {
        let found = &self.meta.network;
        let mismatch = |field, expected: String, found: String| {
            Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                field,
                expected,
                found,
            })
        };
        if self.meta.game_id() != Ok(game) {
            return mismatch("game", game.to_string(), self.meta.game.clone());
        }
        if [found.planes, found.height, found.width]
            != [network.planes, network.height, network.width]
        {
            return mismatch(
                "observation shape",
                format!("{}x{}x{}", network.planes, network.height, network.width),
                format!("{}x{}x{}", found.planes, found.height, found.width),
            );
        }
        if found.num_actions != network.num_actions {
            return mismatch(
                "action count",
                network.num_actions.to_string(),
                found.num_actions.to_string(),
            );
        }
        if found.architecture != network.architecture {
            return mismatch(
                "architecture",
                network.architecture.describe(),
                found.architecture.describe(),
            );
        }
        Ok(())
    }

    /// A learner continuing from this checkpoint (its step, network and optimiser state).
    pub fn into_learner(self, config: LearnerConfig, device: &Device) -> Learner {
        Learner::resume(config, self.network, self.optimizer, self.meta.step, device)
    }

    /// The checkpoint files in `dir`, oldest (lowest step) first.
    pub fn list(dir: &Path) -> Result<Vec<PathBuf>, CheckpointError> {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(CheckpointError::Io {
                    action: "list",
                    path: dir.to_path_buf(),
                    source,
                });
            }
        };
        let mut found: Vec<(u64, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let step = name
                    .strip_prefix(PREFIX)?
                    .strip_suffix(&format!(".{EXTENSION}"))?
                    .parse()
                    .ok()?;
                Some((step, entry.path()))
            })
            .collect();
        found.sort();
        Ok(found.into_iter().map(|(_, path)| path).collect())
    }

    /// The latest checkpoint in the run directory `dir`.
    pub fn latest(dir: &Path) -> Result<PathBuf, CheckpointError> {
        Checkpoint::list(dir)?
            .pop()
            .ok_or_else(|| CheckpointError::Missing(dir.to_path_buf()))
    }

    /// Deletes all but the `keep` latest checkpoints in `dir`.
    pub fn prune(dir: &Path, keep: usize) -> Result<(), CheckpointError> {
        let files = Checkpoint::list(dir)?;
        let excess = files.len().saturating_sub(keep.max(1));
        for path in &files[..excess] {
            fs::remove_file(path).map_err(|source| CheckpointError::Io {
                action: "delete",
                path: path.clone(),
                source,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::Architecture;
    use crate::rng::TrainRng;
    use crate::schedule::LrSchedule;
    use crate::test_support::fixed_batch;
    use fanorona_env::{Board, Fanorona, Game, Position};
    use rand::SeedableRng;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fanorona-ckpt-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn learner(architecture: Architecture) -> Learner {
        let device = Device::flex();
        let config = NetworkConfig::for_game(&Fanorona::standard(), architecture);
        let learner_config = LearnerConfig {
            optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
            schedule: LrSchedule::Constant { lr: 1e-3 },
            value_weight: 1.0,
        };
        Learner::new(learner_config, config.init(&device).unwrap(), &device)
    }

    fn meta(learner: &Learner) -> CheckpointMeta {
        CheckpointMeta {
            game: "fanorona 9x5".into(),
            network: learner.network().config().clone(),
            optimizer: learner.config().optimizer.clone(),
            step: 0,
            iteration: 4,
            replay_games_added: 123,
            rng: RngState::of(&TrainRng::seed_from_u64(9)),
        }
    }

    fn outputs(net: &PolicyValueNet, batch: &crate::replay::Batch) -> (Vec<f32>, Vec<f32>) {
        let mut policy = vec![0.0; batch.size * batch.num_actions];
        let mut values = vec![0.0; batch.size];
        net.valid()
            .infer(&batch.observations, &mut policy, &mut values);
        (policy, values)
    }

    fn round_trip(architecture: Architecture, name: &str) {
        let dir = temp_dir(name);
        let batch = fixed_batch();
        let mut original = learner(architecture);
        for _ in 0..3 {
            original.train_step(&batch);
        }
        let path = Checkpoint::save(&dir, &original, meta(&original)).unwrap();
        assert_eq!(path, dir.join("checkpoint-0000000003.ckpt"));
        assert_eq!(Checkpoint::latest(&dir).unwrap(), path);

        let device = Device::flex();
        let loaded = Checkpoint::load_matching(
            &path,
            GameId::standard(),
            original.network().config(),
            &device,
        )
        .unwrap();
        assert_eq!(loaded.meta.step, 3);
        assert_eq!(loaded.meta.replay_games_added, 123);
        assert_eq!(loaded.meta.rng, RngState::of(&TrainRng::seed_from_u64(9)));
        assert_eq!(
            outputs(&loaded.network, &batch),
            outputs(original.network(), &batch)
        );

        // The optimiser state came back too: one more step gives the same network.
        let mut resumed = loaded.into_learner(original.config().clone(), &device);
        assert_eq!(resumed.step(), 3);
        let a = original.train_step(&batch);
        let b = resumed.train_step(&batch);
        assert_eq!(a, b);
        assert_eq!(
            outputs(resumed.network(), &batch),
            outputs(original.network(), &batch)
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn mlp_checkpoint_round_trip_is_exact() {
        round_trip(Architecture::mlp(&[32]), "mlp");
    }

    #[test]
    fn resnet_checkpoint_round_trip_is_exact() {
        round_trip(Architecture::resnet(1, 4), "resnet");
    }

    #[test]
    fn damaged_missing_and_mismatched_checkpoints_give_clear_errors() {
        let dir = temp_dir("errors");
        let device = Device::flex();
        assert!(matches!(
            Checkpoint::latest(&dir),
            Err(CheckpointError::Missing(_))
        ));
        let missing = Checkpoint::load(&dir.join("nothing.ckpt"), &device);
        assert!(matches!(missing, Err(CheckpointError::Missing(_))));

        let learner = learner(Architecture::mlp(&[8]));
        let path = Checkpoint::save(&dir, &learner, meta(&learner)).unwrap();
        let data = fs::read(&path).unwrap();
        let damaged = |bytes: &[u8], expect: &str| {
            let bad = dir.join("bad.ckpt");
            fs::write(&bad, bytes).unwrap();
            match Checkpoint::load(&bad, &device) {
                Err(e @ CheckpointError::Corrupt { .. }) => {
                    assert!(e.to_string().contains(expect), "{e}");
                }
                Err(e) => panic!("expected a corrupt-file error, got {e}"),
                Ok(_) => panic!("a damaged checkpoint loaded"),
            }
        };
        damaged(&data[..data.len() / 2], "ends inside");
        damaged(&data[..16], "ends before");
        damaged(b"hello", "bad magic");
        let mut flipped = data.clone();
        flipped[data.len() / 2] ^= 0x40;
        damaged(&flipped, "checksum");

        let other_arch = NetworkConfig {
            architecture: Architecture::mlp(&[16]),
            ..learner.network().config().clone()
        };
        let err = Checkpoint::load_matching(&path, GameId::standard(), &other_arch, &device)
            .err()
            .expect("architecture mismatch");
        assert!(err.to_string().contains("architecture mlp 8"), "{err}");
        let small = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
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
        let err =
            Checkpoint::load_matching(&path, GameId::Telo, learner.network().config(), &device)
                .err()
                .expect("game mismatch");
        assert!(err.to_string().contains("game fanorona 9x5"), "{err}");
        assert_eq!(small.num_actions(), 15 * 24 + 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
