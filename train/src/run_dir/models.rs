//! The model versions of a run directory: `DIR/models/model-VERSION.safetensors`, policy files
//! (`fanorona export`'s format, playable wherever an agent is asked for), written atomically by
//! the learner and read by self-play workers and the evaluator. Version 0 is the first network;
//! the latest [`KEEP_MODELS`] versions are kept.

use std::path::{Path, PathBuf};

use super::RunDir;
use crate::io::{FileError, FileKind, numbered_files};

/// Model versions kept (older ones are deleted when a new one is published).
pub const KEEP_MODELS: usize = 16;
const PREFIX: &str = "model-";
const EXTENSION: &str = "safetensors";

impl RunDir {
    /// The path of model `version`.
    pub fn model(&self, version: u64) -> PathBuf {
        self.models()
            .join(format!("{PREFIX}{version:010}.{EXTENSION}"))
    }

    /// The model versions with their paths, oldest first.
    pub fn list_models(&self) -> Result<Vec<(u64, PathBuf)>, FileError> {
        numbered_files(&self.models(), PREFIX, EXTENSION)
    }

    /// The latest model version, if any.
    pub fn latest_model(&self) -> Result<Option<(u64, PathBuf)>, FileError> {
        Ok(self.list_models()?.pop())
    }

    /// Writes `bytes` (a policy file) as model `version` atomically and deletes versions older
    /// than the latest [`KEEP_MODELS`]; returns its path.
    pub fn publish_model(&self, version: u64, bytes: &[u8]) -> Result<PathBuf, FileError> {
        let path = self.model(version);
        let folder = self.models();
        std::fs::create_dir_all(&folder).map_err(|error| io_error(&folder, "create", error))?;
        fanorona_util::atomic_write::write_atomic(&path, bytes)
            .map_err(|error| io_error(&path, "write", error))?;
        let models = self.list_models()?;
        let excess = models.len().saturating_sub(KEEP_MODELS);
        for (_, old) in &models[..excess] {
            std::fs::remove_file(old).map_err(|error| io_error(old, "delete", error))?;
        }
        Ok(path)
    }

    /// Deletes the model versions after `version`: those a learner published after the
    /// checkpoint it resumes from, which it will publish again from there.
    pub fn remove_models_after(&self, version: u64) -> Result<(), FileError> {
        for (_, path) in self.list_models()?.iter().filter(|(v, _)| *v > version) {
            std::fs::remove_file(path).map_err(|error| io_error(path, "delete", error))?;
        }
        Ok(())
    }
}

/// `action` on the model file or folder `path` failed with `error`.
fn io_error(path: &Path, action: &'static str, error: std::io::Error) -> FileError {
    FileError::Io {
        kind: FileKind::Policy,
        action,
        path: path.to_path_buf(),
        error,
    }
}
