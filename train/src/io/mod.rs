//! Every file format of training, each checked by one shared envelope:
//! - [`envelope`]: the file-level errors ([`FileError`], naming the [`FileKind`]: missing,
//!   unreadable, damaged, another kind of file, an unsupported format version), reading a
//!   file's bytes, atomic writing, format-version and CRC-32 checks;
//! - `safetensors_seal`: the seal of safetensors-based files (metadata entries `format`,
//!   `format_version`, `data_crc32`);
//! - [`checkpoint`]: training checkpoints (binary: magic bytes, version, sections, CRC-32);
//! - [`policy`]: exported policies (sealed safetensors): what a policy is for in
//!   [`policy::meta`], writing in [`mod@policy::write`], reading in [`mod@policy::read`];
//! - [`replay_file`]: the saved replay window (sealed safetensors with a JSON header);
//! - [`shard_file`]: shards of self-play games (the replay encoding, sealed as shards);
//! - `shipped`: the shipped policies, built in and read from memory ([`ShippedModel`]).

mod checkpoint;
mod envelope;
mod policy;
mod replay_file;
mod safetensors_seal;
mod shard_file;
mod shipped;

pub use checkpoint::{Checkpoint, CheckpointError, CheckpointMeta, LearnerProgress};
pub use envelope::{FileError, FileKind};
pub(crate) use envelope::{FileRef, number_in_name, numbered_files};
pub use policy::{
    LoadedPolicy, POLICY_FORMAT, POLICY_FORMAT_VERSION, PolicyFileError, PolicyMeta,
    export_checkpoint, export_policy, load_policy, load_policy_on, policy_bytes, policy_from_bytes,
};
pub use replay_file::ReplayFileError;
pub use shard_file::{Shard, ShardError, ShardHeader, check_worker};
pub use shipped::ShippedModel;
