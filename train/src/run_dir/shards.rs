//! The self-play workers' shards of a run: `games/WORKER-SEQUENCE.shard` (the sequence with 8
//! digits, so names sort in order), written atomically so that a reader never sees half of
//! one. A shard's name is its identity: the learner counts each name once.

use std::path::PathBuf;

use super::RunDir;
use crate::io::{FileKind, FileRef, Shard, ShardError, ShardHeader, check_worker};

/// The extension of shard files.
const EXTENSION: &str = "shard";

impl RunDir {
    /// The file of shard `sequence` of `worker`.
    pub fn shard(&self, worker: &str, sequence: u64) -> PathBuf {
        self.shards().join(name(worker, sequence))
    }

    /// Writes `shard` into the folder of shards (made if needed) under its name, atomically;
    /// returns its path. A worker name that is not a safe file name is refused first.
    pub fn write_shard(&self, shard: &Shard) -> Result<PathBuf, ShardError> {
        check_worker(&shard.header.worker)?;
        let folder = self.shards();
        std::fs::create_dir_all(&folder)
            .map_err(|error| FileRef::new(FileKind::Shard, &folder).io("create", error))?;
        let path = self.shard(&shard.header.worker, shard.header.sequence);
        shard.write(&path)?;
        Ok(path)
    }

    /// The shard files (names ending in `.shard`; temporary files of writes under way never
    /// do), sorted by name; none if the folder does not exist.
    pub fn list_shards(&self) -> Result<Vec<PathBuf>, ShardError> {
        let folder = self.shards();
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(FileRef::new(FileKind::Shard, &folder)
                    .io("list", error)
                    .into());
            }
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == EXTENSION))
            .collect();
        found.sort();
        Ok(found)
    }

    /// The next sequence number of `worker`: one past its highest shard (0 if it has none),
    /// so a restarted worker never overwrites a shard.
    pub fn next_sequence(&self, worker: &str) -> Result<u64, ShardError> {
        let prefix = format!("{worker}-");
        let last = self
            .list_shards()?
            .iter()
            .filter_map(|path| {
                let name = path.file_stem()?.to_str()?;
                let digits = name.strip_prefix(&prefix)?;
                (digits.len() == 8).then(|| digits.parse::<u64>().ok())?
            })
            .max();
        Ok(last.map_or(0, |n| n + 1))
    }
}

/// The file name of the shard `header` describes, `WORKER-SEQUENCE.shard`: its identity.
pub fn shard_name(header: &ShardHeader) -> String {
    name(&header.worker, header.sequence)
}

/// The file name of shard `sequence` of `worker`.
fn name(worker: &str, sequence: u64) -> String {
    format!("{worker}-{sequence:08}.{EXTENSION}")
}
