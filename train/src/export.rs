//! Exported policies: a network's weights in the safetensors format with string metadata that
//! says what the network is for, so any tool can load it and a file made for another game,
//! board or encoding is refused before it plays.
//!
//! Metadata keys (all strings): `format` (`fanorona-policy`), `format_version`, `game`
//! (`fanorona` or `telo`), `board` (`WxH`), `rules` (as `--rules` reads them),
//! `encoding_version` (of the action encoding and observation planes, see
//! [`fanorona_env::fanorona::action::ENCODING_VERSION`]), `observation_shape`
//! (`PLANESxHEIGHTxWIDTH`), `num_actions`, `architecture` (a short description), `network`
//! (the [`NetworkConfig`] as JSON, from which the network is rebuilt), `training_step` and
//! `data_crc32` (a CRC-32 of the tensor data, so a damaged file is refused). Tensors are named
//! by their path in the network (e.g. `body.Mlp.hidden.0.weight`), f32.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::store::{ApplyError, ModuleSnapshot, SafetensorsStore};
use burn::tensor::Device;
use fanorona_env::fanorona::action::ENCODING_VERSION;
use fanorona_env::{GameId, GameIdError, Rules};
use fanorona_eval::atomic_write::write_atomic;
use safetensors::SafeTensors;

use crate::checkpoint::{self, Checkpoint, CheckpointError, CheckpointMeta};
use crate::network::{NetworkConfig, PolicyValueNet, flush_denormals};

/// The value of the `format` metadata key.
pub const FORMAT: &str = "fanorona-policy";
/// The version of the file layout this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// An exported policy that cannot be written or loaded.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// No file at the path.
    #[error("no policy file at {0}")]
    Missing(PathBuf),
    /// Reading or writing failed.
    #[error("cannot {action} policy file {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not a safetensors file, cut short or damaged.
    #[error("policy file {path} is corrupt or truncated: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A safetensors file without this project's metadata, or with a bad value in it.
    #[error("{path} is not a usable Fanorona policy file: metadata {key}: {reason}")]
    BadMetadata {
        /// The file.
        path: PathBuf,
        /// The metadata key.
        key: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A file layout this build does not read.
    #[error(
        "policy file {path} has format version {found}; this build reads version {}",
        FORMAT_VERSION
    )]
    UnsupportedFormat {
        /// The file.
        path: PathBuf,
        /// The file's version.
        found: u32,
    },
    /// A network trained on another action encoding or observation planes.
    #[error(
        "policy file {path} was made for encoding version {found}; this build uses encoding \
         version {} (export the network again from a checkpoint of this version)",
        ENCODING_VERSION
    )]
    EncodingMismatch {
        /// The file.
        path: PathBuf,
        /// The file's encoding version.
        found: u32,
    },
    /// A network for another game or board than the one asked for.
    #[error("policy file {path} is for {found}, not {expected}")]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game and board asked for, e.g. `fanorona 5x3`.
        expected: String,
        /// The file's game and board.
        found: String,
    },
    /// The network its metadata describes needs tensors the file lacks.
    #[error("policy file {path} lacks tensors of its network: {}", .tensors.join(", "))]
    MissingTensors {
        /// The file.
        path: PathBuf,
        /// The missing tensors.
        tensors: Vec<String>,
    },
    /// Tensors its network does not have.
    #[error("policy file {path} has tensors its network does not have: {}", .tensors.join(", "))]
    UnexpectedTensors {
        /// The file.
        path: PathBuf,
        /// The extra tensors.
        tensors: Vec<String>,
    },
    /// A tensor of another shape than the network needs.
    #[error(
        "policy file {path}: tensor {tensor} has shape {found:?}, its network needs {expected:?}"
    )]
    WrongShape {
        /// The file.
        path: PathBuf,
        /// The tensor.
        tensor: String,
        /// The shape the network needs.
        expected: Vec<usize>,
        /// The shape in the file.
        found: Vec<usize>,
    },
    /// A training checkpoint that cannot be read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// What an exported policy is for, besides its tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyMeta {
    /// The game and board (metadata keys `game` and `board`).
    pub game: GameId,
    /// The rules it was trained under, as `--rules` reads them.
    pub rules: String,
    /// The action and observation encoding version it was trained on.
    pub encoding_version: u32,
    /// The network's configuration.
    pub network: NetworkConfig,
    /// Learner steps it was trained for.
    pub step: u64,
}

impl PolicyMeta {
    /// The metadata of the network in the training checkpoint at `path` (trained under the
    /// default rules and this build's encoding).
    pub fn of_checkpoint(meta: &CheckpointMeta, path: &Path) -> Result<PolicyMeta, ExportError> {
        let game = meta.game_id().map_err(|e| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        Ok(PolicyMeta {
            game,
            rules: Rules::default().to_string(),
            encoding_version: ENCODING_VERSION,
            network: meta.network.clone(),
            step: meta.step,
        })
    }

    /// An error unless the policy was made for `game`.
    pub fn check_game(&self, path: &Path, game: GameId) -> Result<(), ExportError> {
        if self.game == game {
            return Ok(());
        }
        Err(ExportError::WrongGame {
            path: path.to_path_buf(),
            expected: game.to_string(),
            found: self.game.to_string(),
        })
    }

    fn observation_shape(&self) -> String {
        let n = &self.network;
        format!("{}x{}x{}", n.planes, n.height, n.width)
    }

    /// The metadata entries, with the tensor data's checksum if known.
    fn entries(&self, crc: Option<u32>) -> Vec<(&'static str, String)> {
        let mut entries = vec![
            ("format", FORMAT.to_string()),
            ("format_version", FORMAT_VERSION.to_string()),
            (
                "producer",
                format!("fanorona {}", env!("CARGO_PKG_VERSION")),
            ),
            ("game", self.game.name().to_string()),
            ("board", self.game.board().to_string()),
            ("rules", self.rules.clone()),
            ("encoding_version", self.encoding_version.to_string()),
            ("observation_shape", self.observation_shape()),
            ("num_actions", self.network.num_actions.to_string()),
            ("architecture", self.network.architecture.describe()),
            (
                "network",
                serde_json::to_string(&self.network).expect("a network config serialises"),
            ),
            ("training_step", self.step.to_string()),
        ];
        if let Some(crc) = crc {
            entries.push(("data_crc32", crc.to_string()));
        }
        entries
    }

    /// Reads and checks the metadata of the file at `path`.
    fn from_entries(map: &HashMap<String, String>, path: &Path) -> Result<PolicyMeta, ExportError> {
        let bad = |key: &'static str, reason: String| ExportError::BadMetadata {
            path: path.to_path_buf(),
            key,
            reason,
        };
        let get = |key: &'static str| {
            map.get(key)
                .map(String::as_str)
                .ok_or_else(|| bad(key, "missing".into()))
        };
        let number = |key: &'static str| -> Result<u64, ExportError> {
            get(key)?
                .parse()
                .map_err(|_| bad(key, format!("{:?} is not a whole number", get(key).ok())))
        };
        if get("format")? != FORMAT {
            return Err(bad(
                "format",
                format!("{:?}, expected {FORMAT:?}", get("format")?),
            ));
        }
        let version = number("format_version")? as u32;
        if version != FORMAT_VERSION {
            return Err(ExportError::UnsupportedFormat {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let encoding_version = number("encoding_version")? as u32;
        if encoding_version != ENCODING_VERSION {
            return Err(ExportError::EncodingMismatch {
                path: path.to_path_buf(),
                found: encoding_version,
            });
        }
        let network: NetworkConfig =
            serde_json::from_str(get("network")?).map_err(|e| bad("network", e.to_string()))?;
        network
            .validate()
            .map_err(|e| bad("network", e.to_string()))?;
        let game = GameId::from_parts(get("game")?, get("board")?).map_err(|e| match e {
            GameIdError::Unknown(_) | GameIdError::MissingBoard => bad("game", e.to_string()),
            GameIdError::Board(_) | GameIdError::TeloBoard(_) => bad("board", e.to_string()),
        })?;
        let meta = PolicyMeta {
            game,
            rules: get("rules")?.to_string(),
            encoding_version,
            network,
            step: number("training_step")?,
        };
        if get("observation_shape")? != meta.observation_shape() {
            return Err(bad(
                "observation_shape",
                format!(
                    "{} disagrees with the network's {}",
                    get("observation_shape")?,
                    meta.observation_shape()
                ),
            ));
        }
        if number("num_actions")? != meta.network.num_actions as u64 {
            return Err(bad(
                "num_actions",
                format!("disagrees with the network's {}", meta.network.num_actions),
            ));
        }
        let board = meta.game.board();
        if (board.width(), board.height()) != (meta.network.width, meta.network.height) {
            return Err(bad(
                "board",
                format!(
                    "{board} disagrees with the network's {}x{}",
                    meta.network.width, meta.network.height
                ),
            ));
        }
        Ok(meta)
    }
}

/// A loaded policy: the network (inference, no autodiff) and what it is for.
pub struct LoadedPolicy {
    /// The network.
    pub net: PolicyValueNet,
    /// Its metadata.
    pub meta: PolicyMeta,
}

/// The safetensors bytes of `net` with metadata `entries`.
fn serialize(
    net: &PolicyValueNet,
    entries: Vec<(&'static str, String)>,
) -> Result<Vec<u8>, String> {
    let mut store = SafetensorsStore::from_bytes(None).clear_metadata();
    for (key, value) in entries {
        store = store.metadata(key, value);
    }
    net.save_into(&mut store).map_err(|e| e.to_string())?;
    store.get_bytes().map_err(|e| e.to_string())
}

/// The tensor data of a safetensors file (everything after its header), if the header's
/// length fits the file.
fn tensor_data(bytes: &[u8]) -> Option<&[u8]> {
    let header = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    bytes.get(8usize.checked_add(usize::try_from(header).ok()?)?..)
}

/// The exported file's bytes: `net`'s tensors with `meta` (whose network configuration must
/// be `net`'s) and the checksum of the tensor data.
fn policy_bytes(net: &PolicyValueNet, meta: &PolicyMeta) -> Result<Vec<u8>, String> {
    let first = serialize(net, meta.entries(None))?;
    let crc = crc32fast::hash(tensor_data(&first).ok_or("header longer than the file")?);
    serialize(net, meta.entries(Some(crc)))
}

/// Writes `net` (its inference copy) with `meta` to `out` atomically. `meta.network` is taken
/// from `net`.
pub fn export_policy(
    net: &PolicyValueNet,
    meta: &PolicyMeta,
    out: &Path,
) -> Result<(), ExportError> {
    // The inference copy has its batch-norm running statistics brought up to date; the
    // training module may still hold the last update aside. No denormal weight is written.
    let net = &flush_denormals(net.valid());
    let meta = PolicyMeta {
        network: net.config().clone(),
        ..meta.clone()
    };
    let bytes = policy_bytes(net, &meta).map_err(|reason| ExportError::Corrupt {
        path: out.to_path_buf(),
        reason: format!("cannot serialise the network: {reason}"),
    })?;
    write_atomic(out, &bytes).map_err(|source| ExportError::Io {
        action: "write",
        path: out.to_path_buf(),
        source,
    })
}

/// Exports the network of the training checkpoint at `checkpoint` to `out`; returns what was
/// written.
pub fn export_checkpoint(checkpoint: &Path, out: &Path) -> Result<PolicyMeta, ExportError> {
    let loaded = Checkpoint::load(checkpoint, &Device::flex())?;
    let meta = PolicyMeta::of_checkpoint(&loaded.meta, checkpoint)?;
    export_policy(&loaded.network, &meta, out)?;
    Ok(meta)
}

/// Loads an exported policy (or, for convenience, the network of a training checkpoint) onto
/// burn's CPU device.
pub fn load_policy(path: &Path) -> Result<LoadedPolicy, ExportError> {
    load_policy_on(path, &Device::flex())
}

/// Loads an exported policy (or the network of a training checkpoint) onto `device`; denormal
/// weights are set to zero.
pub fn load_policy_on(path: &Path, device: &Device) -> Result<LoadedPolicy, ExportError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ExportError::Missing(path.to_path_buf()));
        }
        Err(source) => {
            return Err(ExportError::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    if bytes.starts_with(checkpoint::MAGIC) {
        // Already read: parse it here rather than reading the file again.
        let loaded = Checkpoint::from_bytes(path, &bytes, device)?;
        return Ok(LoadedPolicy {
            meta: PolicyMeta::of_checkpoint(&loaded.meta, path)?,
            net: loaded.network,
        });
    }
    let corrupt = |reason: String| ExportError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    SafeTensors::deserialize(&bytes)
        .map_err(|e| corrupt(format!("not a safetensors file: {e}")))?;
    let (_, header) = SafeTensors::read_metadata(&bytes)
        .map_err(|e| corrupt(format!("not a safetensors file: {e}")))?;
    let entries = header.metadata().clone().unwrap_or_default();
    let meta = PolicyMeta::from_entries(&entries, path)?;
    let expected_crc = entries
        .get("data_crc32")
        .and_then(|c| c.parse::<u32>().ok())
        .ok_or_else(|| ExportError::BadMetadata {
            path: path.to_path_buf(),
            key: "data_crc32",
            reason: "missing or not a number".into(),
        })?;
    let data = tensor_data(&bytes).ok_or_else(|| corrupt("header longer than the file".into()))?;
    if crc32fast::hash(data) != expected_crc {
        return Err(corrupt("checksum of the tensor data does not match".into()));
    }
    let mut net = meta
        .network
        .init(device)
        .map_err(|e| corrupt(e.to_string()))?;
    let mut store = SafetensorsStore::from_bytes(Some(bytes))
        .allow_partial(true)
        .validate(false);
    let applied = net
        .load_from(&mut store)
        .map_err(|e| corrupt(e.to_string()))?;
    if let Some(error) = applied.errors.first() {
        return Err(match error {
            ApplyError::ShapeMismatch {
                path: tensor,
                expected,
                found,
            } => ExportError::WrongShape {
                path: path.to_path_buf(),
                tensor: tensor.clone(),
                expected: expected.to_vec(),
                found: found.to_vec(),
            },
            other => corrupt(other.to_string()),
        });
    }
    if !applied.missing.is_empty() {
        return Err(ExportError::MissingTensors {
            path: path.to_path_buf(),
            tensors: applied.missing.iter().map(|(t, _)| t.clone()).collect(),
        });
    }
    if !applied.unused.is_empty() {
        return Err(ExportError::UnexpectedTensors {
            path: path.to_path_buf(),
            tensors: applied.unused.clone(),
        });
    }
    // Files of older builds may hold denormal weights (slow on Intel): flush them.
    Ok(LoadedPolicy {
        net: flush_denormals(net),
        meta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::{Learner, LearnerConfig, OptimizerConfig};
    use crate::network::Architecture;
    use crate::replay::Batch;
    use crate::rng::{RngState, TrainRng};
    use crate::schedule::LrSchedule;
    use crate::test_support::fixed_batch;
    use fanorona_env::Fanorona;
    use rand::SeedableRng;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fanorona-export-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A network trained a few steps (so batch-norm statistics are not the initial ones).
    fn trained(architecture: Architecture) -> Learner {
        let device = Device::flex();
        let config = NetworkConfig::for_game(&Fanorona::standard(), architecture);
        let learner_config = LearnerConfig {
            optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
            schedule: LrSchedule::Constant { lr: 1e-2 },
            value_weight: 1.0,
        };
        let mut learner = Learner::new(learner_config, config.init(&device).unwrap(), &device);
        let batch = fixed_batch();
        for _ in 0..2 {
            learner.train_step(&batch);
        }
        learner
    }

    fn meta(net: &PolicyValueNet) -> PolicyMeta {
        PolicyMeta {
            game: GameId::standard(),
            rules: Rules::default().to_string(),
            encoding_version: ENCODING_VERSION,
            network: net.config().clone(),
            step: 2,
        }
    }

    fn outputs(net: &PolicyValueNet, batch: &Batch) -> (Vec<f32>, Vec<f32>) {
        let mut policy = vec![0.0; batch.size * batch.num_actions];
        let mut values = vec![0.0; batch.size];
        net.valid()
            .infer(&batch.observations, &mut policy, &mut values);
        (policy, values)
    }

    fn round_trip(architecture: Architecture, name: &str) {
        let dir = temp_dir(name);
        let learner = trained(architecture);
        let net = learner.network();
        let path = dir.join("agent.safetensors");
        export_policy(net, &meta(net), &path).unwrap();
        let loaded = load_policy(&path).unwrap();
        assert_eq!(loaded.meta, meta(net));
        let batch = fixed_batch();
        assert!(batch.size > 1);
        assert_eq!(outputs(&loaded.net, &batch), outputs(net, &batch));
        // Any safetensors reader sees the metadata.
        let bytes = fs::read(&path).unwrap();
        let (_, header) = SafeTensors::read_metadata(&bytes).unwrap();
        let entries = header.metadata().clone().unwrap();
        assert_eq!(entries["format"], FORMAT);
        assert_eq!(entries["observation_shape"], "18x5x9");
        assert_eq!(entries["num_actions"], "1081");
        assert_eq!(entries["training_step"], "2");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn mlp_export_then_load_reproduces_the_outputs_exactly() {
        round_trip(Architecture::mlp(&[32, 16]), "mlp");
    }

    #[test]
    fn resnet_export_then_load_reproduces_the_outputs_exactly() {
        round_trip(Architecture::resnet(1, 4), "resnet");
    }

    #[test]
    fn a_checkpoint_is_exported_and_also_loads_directly() {
        let dir = temp_dir("checkpoint");
        let learner = trained(Architecture::mlp(&[8]));
        let checkpoint_meta = CheckpointMeta {
            game: "fanorona 9x5".into(),
            network: learner.network().config().clone(),
            optimizer: learner.config().optimizer.clone(),
            step: 0,
            iteration: 1,
            replay_games_added: 4,
            rng: RngState::of(&TrainRng::seed_from_u64(1)),
        };
        let checkpoint = Checkpoint::save(&dir, &learner, checkpoint_meta).unwrap();
        let out = dir.join("agent.safetensors");
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
        fs::remove_dir_all(&dir).unwrap();
    }

    /// `bytes` rewritten with `edit` applied to its metadata and tensors, checksum renewed.
    fn rewrite(
        bytes: &[u8],
        edit: impl FnOnce(
            &mut HashMap<String, String>,
            &mut Vec<(String, safetensors::tensor::TensorView<'_>)>,
        ),
    ) -> Vec<u8> {
        let file = SafeTensors::deserialize(bytes).unwrap();
        let mut tensors = file.tensors();
        let (_, header) = SafeTensors::read_metadata(bytes).unwrap();
        let mut entries = header.metadata().clone().unwrap();
        edit(&mut entries, &mut tensors);
        let first = safetensors::serialize(tensors.clone(), Some(entries.clone())).unwrap();
        let crc = crc32fast::hash(tensor_data(&first).unwrap());
        entries.insert("data_crc32".into(), crc.to_string());
        safetensors::serialize(tensors, Some(entries)).unwrap()
    }

    #[test]
    fn damaged_and_mismatched_files_are_refused_with_clear_errors() {
        let dir = temp_dir("errors");
        let learner = trained(Architecture::mlp(&[8]));
        let net = learner.network();
        let good = dir.join("good.safetensors");
        export_policy(net, &meta(net), &good).unwrap();
        let bytes = fs::read(&good).unwrap();
        let load = |data: &[u8]| {
            let path = dir.join("bad.safetensors");
            fs::write(&path, data).unwrap();
            match load_policy(&path) {
                Ok(_) => panic!("a bad file loaded"),
                Err(e) => e,
            }
        };

        assert!(matches!(
            load_policy(&dir.join("none.safetensors")),
            Err(ExportError::Missing(_))
        ));
        let e = load(&bytes[..bytes.len() - 10]);
        assert!(matches!(e, ExportError::Corrupt { .. }), "{e}");
        let e = load(b"hello, world");
        assert!(matches!(e, ExportError::Corrupt { .. }), "{e}");
        let mut flipped = bytes.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 0x10;
        let e = load(&flipped);
        assert!(e.to_string().contains("checksum"), "{e}");

        let e = load(&rewrite(&bytes, |m, _| {
            m.insert("encoding_version".into(), "99".into());
        }));
        assert!(
            matches!(e, ExportError::EncodingMismatch { found: 99, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("encoding version 99"), "{e}");
        let e = load(&rewrite(&bytes, |m, _| {
            m.insert("format_version".into(), "7".into());
        }));
        assert!(
            matches!(e, ExportError::UnsupportedFormat { found: 7, .. }),
            "{e}"
        );
        let e = load(&rewrite(&bytes, |m, _| {
            m.remove("format");
        }));
        assert!(
            matches!(e, ExportError::BadMetadata { key: "format", .. }),
            "{e}"
        );
        let e = load(&rewrite(&bytes, |m, _| {
            m.insert("board".into(), "5x3".into());
        }));
        assert!(
            matches!(e, ExportError::BadMetadata { key: "board", .. }),
            "{e}"
        );

        let e = load(&rewrite(&bytes, |_, tensors| {
            tensors.retain(|(name, _)| !name.contains("value_out.weight"));
        }));
        match &e {
            ExportError::MissingTensors { tensors, .. } => {
                assert_eq!(tensors.len(), 1);
                assert!(tensors[0].contains("value_out.weight"), "{e}");
            }
            other => panic!("expected missing tensors, got {other}"),
        }
        let wider = NetworkConfig {
            architecture: Architecture::mlp(&[16]),
            ..net.config().clone()
        };
        let e = load(&rewrite(&bytes, |m, _| {
            m.insert("network".into(), serde_json::to_string(&wider).unwrap());
        }));
        assert!(
            matches!(&e, ExportError::WrongShape { expected, found, .. }
                if expected.contains(&16) && found.contains(&8)),
            "{e}"
        );

        let loaded = load_policy(&good).unwrap();
        loaded.meta.check_game(&good, GameId::standard()).unwrap();
        let e = loaded
            .meta
            .check_game(&good, "fanorona 5x3".parse().unwrap())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "policy file {} is for fanorona 9x5, not fanorona 5x3",
                good.display()
            )
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
