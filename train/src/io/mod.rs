//! Every file format of training, each checked by one shared envelope:
//! - [`envelope`]: the file-level errors ([`FileError`], naming the [`FileKind`]: missing,
//!   unreadable, damaged, another kind of file, an unsupported format version), reading a
//!   file's bytes, atomic writing, format-version and CRC-32 checks;
//! - `safetensors_seal`: the seal of safetensors-based files (metadata entries `format`,
//!   `format_version`, `data_crc32`);
//! - [`checkpoint`]: training checkpoints (binary: magic bytes, version, sections, CRC-32);
//! - [`policy`]: exported policies (sealed safetensors): what a policy is for in
//!   [`policy::meta`], writing in [`mod@policy::write`], reading in [`mod@policy::read`];
//! - [`replay_file`]: the saved replay window (sealed safetensors with a JSON header).

pub mod checkpoint;
pub mod envelope;
pub mod policy;
pub mod replay_file;
mod safetensors_seal;

pub use envelope::{FileError, FileKind};
