//! A run's resume points: `checkpoint-STEP.ckpt` with the replay window of the same step
//! (`replay-STEP.safetensors`) and, of an `abnet` run, its best network
//! (`best-STEP.safetensors`) beside it, written first and pruned with it as a unit. The step
//! has 10 digits, so names sort in order.

use std::path::{Path, PathBuf};

use super::RunDir;
use crate::io::{
    Checkpoint, CheckpointError, CheckpointMeta, FileKind, FileRef, number_in_name, numbered_files,
};
use crate::model::Trainer;

const PREFIX: &str = "checkpoint-";
const EXTENSION: &str = "ckpt";
const REPLAY_PREFIX: &str = "replay-";
const BEST_PREFIX: &str = "best-";
/// The extension of the replay windows and best networks beside checkpoints.
const BESIDE_EXTENSION: &str = "safetensors";

impl RunDir {
    /// The checkpoint at learner step `step`.
    pub fn checkpoint(&self, step: u64) -> PathBuf {
        self.path.join(format!("{PREFIX}{step:010}.{EXTENSION}"))
    }

    /// The replay window saved with the checkpoint at `step`.
    pub fn replay(&self, step: u64) -> PathBuf {
        self.path
            .join(format!("{REPLAY_PREFIX}{step:010}.{BESIDE_EXTENSION}"))
    }

    /// The best network saved with the checkpoint at `step` (an `abnet` run's).
    pub fn best_at(&self, step: u64) -> PathBuf {
        self.path
            .join(format!("{BEST_PREFIX}{step:010}.{BESIDE_EXTENSION}"))
    }

    /// The run's checkpoints, oldest (lowest step) first.
    pub fn checkpoints(&self) -> Result<Vec<PathBuf>, CheckpointError> {
        let found = numbered_files(&self.path, PREFIX, EXTENSION)?;
        Ok(found.into_iter().map(|(_, path)| path).collect())
    }

    /// The latest checkpoint, if any.
    pub fn latest_checkpoint(&self) -> Result<Option<PathBuf>, CheckpointError> {
        Ok(self.checkpoints()?.pop())
    }

    /// Writes the trainer's checkpoint with `meta` (see [`Checkpoint::save`]) under its step,
    /// atomically; returns its path.
    pub fn save_checkpoint(
        &self,
        trainer: &Trainer,
        meta: CheckpointMeta,
    ) -> Result<PathBuf, CheckpointError> {
        let path = self.checkpoint(trainer.step());
        Checkpoint::save(&path, trainer, meta)?;
        Ok(path)
    }

    /// Deletes all but the `keep` latest checkpoints, and every replay window and best
    /// network without its checkpoint: those of the deleted ones, and any written just before
    /// a checkpoint that never was.
    pub fn prune_checkpoints(&self, keep: usize) -> Result<(), CheckpointError> {
        let files = numbered_files(&self.path, PREFIX, EXTENSION)?;
        let excess = files.len().saturating_sub(keep.max(1));
        let delete = |kind, path: &Path| {
            std::fs::remove_file(path).map_err(|error| FileRef::new(kind, path).io("delete", error))
        };
        for (_, path) in &files[..excess] {
            delete(FileKind::Checkpoint, path)?;
        }
        let kept: Vec<u64> = files[excess..].iter().map(|&(step, _)| step).collect();
        for (prefix, kind) in [
            (REPLAY_PREFIX, FileKind::Replay),
            (BEST_PREFIX, FileKind::Policy),
        ] {
            for (step, path) in numbered_files(&self.path, prefix, BESIDE_EXTENSION)? {
                if !kept.contains(&step) {
                    delete(kind, &path)?;
                }
            }
        }
        Ok(())
    }
}

/// The checkpoint `path` names: the file `path`, or the latest checkpoint of the run
/// directory `path` (an error if it has none).
pub fn find_checkpoint(path: &Path) -> Result<PathBuf, CheckpointError> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    RunDir::new(path)
        .latest_checkpoint()?
        .ok_or_else(|| FileRef::new(FileKind::Checkpoint, path).missing().into())
}

/// The step of the checkpoint at `path` (`checkpoint-STEP.ckpt`), if its name is one.
pub fn checkpoint_step(path: &Path) -> Option<u64> {
    number_in_name(path.file_name()?.to_str()?, PREFIX, EXTENSION)
}

/// Whether `file_name` begins as the checkpoints and their replay windows do (`checkpoint-`,
/// `replay-`): a name a run directory keeps for them.
pub(super) fn is_checkpoint_name(file_name: &str) -> bool {
    [PREFIX, REPLAY_PREFIX]
        .iter()
        .any(|prefix| file_name.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_is_read_back_from_a_checkpoint_file_name() {
        let step = |name: &str| checkpoint_step(Path::new(name));
        assert_eq!(
            checkpoint_step(&RunDir::new("r").checkpoint(31_440)),
            Some(31_440)
        );
        assert_eq!(step("checkpoint-7.ckpt"), Some(7));
        for other in [
            "checkpoint-.ckpt",
            "checkpoint-12.bpk",
            "checkpoint-1x2.ckpt",
            "replay-0000000012.safetensors",
            "checkpoint-12ckpt",
        ] {
            assert_eq!(step(other), None, "{other}");
        }
    }
}
