//! The part every training file format shares: one error for problems with the file itself
//! (missing, unreadable, damaged, of another kind or of a format version this build does not
//! read), naming the kind of file; reading a file's bytes and writing them atomically; the
//! checks of format versions and CRC-32 checksums.

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use fanorona_util::atomic_write::write_atomic;
use fanorona_util::input_file::read_regular_limited;

/// The most bytes of a training file read whole (a policy, checkpoint, replay window or shard):
/// far above any this toolkit writes, below what would exhaust a machine's memory.
pub const MAX_FILE_BYTES: u64 = 8 << 30;

/// The kind of a training file, as error messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A training checkpoint (`checkpoint-STEP.ckpt`).
    Checkpoint,
    /// An exported policy (`.safetensors`).
    Policy,
    /// A saved replay window.
    Replay,
    /// A shard of self-play games (`games/*.shard`).
    Shard,
    /// A run directory, where checkpoints are listed.
    RunDirectory,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Checkpoint => "checkpoint",
            FileKind::Policy => "policy file",
            FileKind::Replay => "replay file",
            FileKind::Shard => "shard",
            FileKind::RunDirectory => "run directory",
        })
    }
}

/// A problem with a training file as a file, whatever its format. The underlying OS error of
/// [`FileError::Io`] is part of the message (and not also given as the error's source, so a
/// chain of causes prints it once).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Nothing at the path (or, for a run directory, no checkpoint in it).
    #[error("no {kind} found at {path}")]
    Missing {
        /// The kind of file looked for.
        kind: FileKind,
        /// Where.
        path: PathBuf,
    },
    /// Reading, writing, listing or deleting failed.
    #[error("cannot {action} {kind} {path}: {error}")]
    Io {
        /// The kind of file.
        kind: FileKind,
        /// What was being done, e.g. `read`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        error: std::io::Error,
    },
    /// The contents could not be encoded for writing.
    #[error("cannot encode {kind} {path}: {reason}")]
    Encode {
        /// The kind of file.
        kind: FileKind,
        /// The file to be written.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
    /// A file of another kind (or no training file at all).
    #[error("{path} is not a {kind}: {reason}")]
    WrongKind {
        /// The kind of file expected.
        kind: FileKind,
        /// The file.
        path: PathBuf,
        /// What gives it away.
        reason: String,
    },
    /// A format version this build does not read.
    #[error(
        "{kind} {path} has format version {found}; this build reads {}",
        describe_versions(.supported)
    )]
    UnsupportedVersion {
        /// The kind of file.
        kind: FileKind,
        /// The file.
        path: PathBuf,
        /// The file's version.
        found: u32,
        /// The versions this build reads.
        supported: &'static [u32],
    },
    /// Cut short or damaged.
    #[error("{kind} {path} is corrupt or truncated: {reason}")]
    Corrupt {
        /// The kind of file.
        kind: FileKind,
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// `version 1`, `versions 1 and 2`, `versions 1, 2 and 3`.
fn describe_versions(versions: &[u32]) -> String {
    match versions {
        [] => "no version".into(),
        [one] => format!("version {one}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
            format!("versions {} and {last}", rest.join(", "))
        }
    }
}

/// The files of the run directory `dir` named `PREFIX` + a number + `.EXTENSION`, with their
/// numbers, lowest first; none if `dir` does not exist.
pub(crate) fn numbered_files(
    dir: &Path,
    prefix: &str,
    extension: &str,
) -> Result<Vec<(u64, PathBuf)>, FileError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(FileRef::new(FileKind::RunDirectory, dir).io("list", error)),
    };
    let mut found: Vec<(u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            Some((number_in_name(&name, prefix, extension)?, entry.path()))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// The number in a file name `PREFIX` + decimal digits + `.EXTENSION`, if it is one.
pub(crate) fn number_in_name(name: &str, prefix: &str, extension: &str) -> Option<u64> {
    let digits = name
        .strip_prefix(prefix)?
        .strip_suffix(extension)?
        .strip_suffix('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A file of a known kind at a path: builds its errors and reads, writes and checks it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileRef<'a> {
    kind: FileKind,
    path: &'a Path,
}

impl<'a> FileRef<'a> {
    /// The `kind` of file at `path`.
    pub(crate) fn new(kind: FileKind, path: &'a Path) -> FileRef<'a> {
        FileRef { kind, path }
    }

    /// The path.
    pub(crate) fn path(self) -> &'a Path {
        self.path
    }

    /// Nothing at the path.
    pub(crate) fn missing(self) -> FileError {
        FileError::Missing {
            kind: self.kind,
            path: self.path.to_path_buf(),
        }
    }

    /// `action` failed with `error`.
    pub(crate) fn io(self, action: &'static str, error: std::io::Error) -> FileError {
        FileError::Io {
            kind: self.kind,
            action,
            path: self.path.to_path_buf(),
            error,
        }
    }

    /// The contents could not be encoded.
    pub(crate) fn encode(self, reason: impl Into<String>) -> FileError {
        FileError::Encode {
            kind: self.kind,
            path: self.path.to_path_buf(),
            reason: reason.into(),
        }
    }

    /// The file is of another kind.
    pub(crate) fn wrong_kind(self, reason: impl Into<String>) -> FileError {
        FileError::WrongKind {
            kind: self.kind,
            path: self.path.to_path_buf(),
            reason: reason.into(),
        }
    }

    /// The file is damaged or cut short.
    pub(crate) fn corrupt(self, reason: impl Into<String>) -> FileError {
        FileError::Corrupt {
            kind: self.kind,
            path: self.path.to_path_buf(),
            reason: reason.into(),
        }
    }

    /// The file's bytes: a regular file of at most [`MAX_FILE_BYTES`] (a device or a pipe is
    /// refused before reading).
    pub(crate) fn read(self) -> Result<Vec<u8>, FileError> {
        read_regular_limited(self.path, MAX_FILE_BYTES, "a training file").map_err(|error| {
            match error.kind() {
                ErrorKind::NotFound => self.missing(),
                _ => self.io("read", error),
            }
        })
    }

    /// Writes `bytes` to the file atomically (temporary file and rename).
    pub(crate) fn write(self, bytes: &[u8]) -> Result<(), FileError> {
        write_atomic(self.path, bytes).map_err(|error| self.io("write", error))
    }

    /// An error unless `found` is one of the `supported` versions.
    pub(crate) fn check_version(
        self,
        found: u32,
        supported: &'static [u32],
    ) -> Result<(), FileError> {
        if supported.contains(&found) {
            return Ok(());
        }
        Err(FileError::UnsupportedVersion {
            kind: self.kind,
            path: self.path.to_path_buf(),
            found,
            supported,
        })
    }

    /// An error unless the CRC-32 of `data` is `recorded`; `what` names the data.
    pub(crate) fn check_crc(self, what: &str, data: &[u8], recorded: u32) -> Result<(), FileError> {
        self.check_crc_value(what, crc32fast::hash(data), recorded)
    }

    /// An error unless the CRC-32 `actual` of `what` equals the `recorded` one.
    pub(crate) fn check_crc_value(
        self,
        what: &str,
        actual: u32,
        recorded: u32,
    ) -> Result<(), FileError> {
        if actual == recorded {
            return Ok(());
        }
        Err(self.corrupt(format!(
            "checksum mismatch: {what} has CRC-32 {actual:08x}, the file records {recorded:08x}"
        )))
    }
}
