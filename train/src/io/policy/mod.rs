//! Exported policies: a network's weights in the safetensors format with string metadata that
//! says what the network is for, so any tool can load it and a file made for another game,
//! board or encoding is refused before it plays. What a policy is for is in [`meta`]; writing
//! is in [`mod@write`], reading in [`mod@read`].
//!
//! Metadata keys (all strings): `format` (`fanorona-policy`), `format_version`, `game`
//! (`fanorona` or `telo`), `board` (`WxH`), `rules` (as `--rules` reads them),
//! `encoding_version` (of the action encoding and observation planes, see
//! [`fanorona_env::action::ENCODING_VERSION`]), `observation_shape`
//! (`PLANESxHEIGHTxWIDTH`), `num_actions`, `architecture` (a short description), `network`
//! (the [`NetworkConfig`](crate::NetworkConfig) as JSON, from which the network is rebuilt),
//! `training_step` and `data_crc32` (a CRC-32 of the tensor data, so a damaged file is
//! refused). Tensors are named by their path in the network (e.g. `body.Mlp.hidden.0.weight`),
//! f32.

mod meta;
mod read;
mod write;

pub use meta::PolicyMeta;
pub use read::{LoadedPolicy, load_policy, load_policy_on, policy_from_bytes};
pub use write::{export_checkpoint, export_policy, policy_bytes};

use std::path::PathBuf;

use fanorona_env::action::ENCODING_VERSION;

use super::checkpoint::CheckpointError;
use super::envelope::FileError;
use super::safetensors_seal::SafetensorsFormat;

/// The value of the `format` metadata key.
pub const POLICY_FORMAT: &str = "fanorona-policy";
/// The version of the file layout this build writes and reads.
pub const POLICY_FORMAT_VERSION: u32 = 1;

/// The seal of policy files.
const SEAL: SafetensorsFormat = SafetensorsFormat {
    name: POLICY_FORMAT,
    version: POLICY_FORMAT_VERSION,
    reads: &[POLICY_FORMAT_VERSION],
    covers_metadata: false,
};

/// A policy file that cannot be written or loaded.
#[derive(Debug, thiserror::Error)]
pub enum PolicyFileError {
    /// A problem with the file itself (missing, unreadable, damaged, another version, not a
    /// policy file).
    #[error(transparent)]
    File(#[from] FileError),
    /// A metadata entry that is missing or has a bad value.
    #[error("policy file {path} has unusable metadata: entry `{key}`: {reason}")]
    BadMetadata {
        /// The file.
        path: PathBuf,
        /// The metadata key.
        key: &'static str,
        /// What is wrong.
        reason: String,
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
    /// A training checkpoint (exported, or loaded as a policy) that cannot be read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}
