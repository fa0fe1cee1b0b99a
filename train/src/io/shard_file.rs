//! Shards: the finished games of one batch of self-play, as a self-play worker hands them to
//! the learner (a file of the run directory's `games/`, named there, or bytes through Ray's
//! object store), with who played them and with which model version.
//!
//! Layout: the encoding of replay files (safetensors, one array per field, lossless compact
//! observations) sealed as `format` = `fanorona-shard`, `format_version` 2, `data_crc32` and
//! `metadata_crc32` (the header is checksummed too), with a JSON [`ShardHeader`] and the games'
//! metadata in the metadata entry `fanorona_shard`. A shard is written atomically (temporary
//! file + rename), so a reader never sees half of one; a damaged one fails its checksum. Shards
//! may come from other machines: a read shard's worker name, which names its file in the run's
//! `games/`, is checked like a new worker's ([`check_worker`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::envelope::{FileError, FileKind, FileRef};
use super::replay_file::{Sizes, decode_games, encode_games};
use super::safetensors_seal::{SafetensorsFormat, read_metadata};
use crate::replay::{Trajectory, TrajectoryMeta};

/// The version written and read (version 1 did not checksum its header).
const FORMAT_VERSION: u32 = 2;
/// The seal of shards.
const SEAL: SafetensorsFormat = SafetensorsFormat {
    name: "fanorona-shard",
    version: FORMAT_VERSION,
    reads: &[FORMAT_VERSION],
    covers_metadata: true,
};
/// The metadata entry holding the JSON header.
const HEADER_KEY: &str = "fanorona_shard";

/// A shard that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// A problem with the file or bytes themselves (missing, damaged, another version, not a
    /// shard).
    #[error(transparent)]
    File(#[from] FileError),
    /// Games of another observation shape or action space than the run's.
    #[error("shard {path} is for another game: it has {found}, this run needs {expected}")]
    Mismatch {
        /// The file (or a label for bytes).
        path: PathBuf,
        /// The run's sizes.
        expected: String,
        /// The shard's sizes.
        found: String,
    },
    /// A worker name that cannot be part of a file name.
    #[error(
        "bad worker name {0:?}: expected 1 to 64 letters, digits, `-` or `_` (it names the \
         worker's shard files)"
    )]
    BadWorker(String),
    /// A read shard whose header is sealed but makes no sense.
    #[error("shard {path} has a bad header: {reason}")]
    BadHeader {
        /// The file (or a label for bytes).
        path: PathBuf,
        /// What is wrong, and what was expected.
        reason: String,
    },
}

/// Who played a shard's games and with what, besides the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// The shard format version.
    pub format_version: u32,
    /// The worker that played the games.
    pub worker: String,
    /// The worker's shard number (from 0): with the worker, it names the shard.
    pub sequence: u64,
    /// The model version that played the games.
    pub model_version: u64,
    /// The learner step of that model.
    pub model_step: u64,
    /// Wall-clock seconds the worker took to play the games.
    pub seconds: f64,
    /// The observation shape of the game.
    pub observation_shape: [usize; 3],
    /// The size of its action space.
    pub num_actions: usize,
    /// The games' metadata, in order.
    pub games: Vec<TrajectoryMeta>,
}

/// A batch of finished self-play games with the model version that played them.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    /// Who played the games and with which model.
    pub header: ShardHeader,
    /// The games, in the order they ended.
    pub games: Vec<Trajectory>,
}

impl Shard {
    /// A shard of `games` played by `worker` (its shard number `sequence`) with model
    /// `model_version` (at learner step `model_step`) in `seconds`, for a game of
    /// `observation_shape` with `num_actions` actions.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        worker: &str,
        sequence: u64,
        model_version: u64,
        model_step: u64,
        seconds: f64,
        observation_shape: [usize; 3],
        num_actions: usize,
        games: Vec<Trajectory>,
    ) -> Result<Shard, ShardError> {
        check_worker(worker)?;
        Ok(Shard {
            header: ShardHeader {
                format_version: FORMAT_VERSION,
                worker: worker.to_string(),
                sequence,
                model_version,
                model_step,
                seconds,
                observation_shape,
                num_actions,
                games: games.iter().map(|g| g.meta.clone()).collect(),
            },
            games,
        })
    }

    /// Positions in the shard's games.
    pub fn positions(&self) -> usize {
        self.games.iter().map(Trajectory::len).sum()
    }

    /// The shard as one log line: its games, positions, speed and model version.
    pub fn summary(&self) -> String {
        format!(
            "{} games, {} positions, {:.0} positions/s, model version {}",
            self.games.len(),
            self.positions(),
            self.positions() as f64 / self.header.seconds.max(1e-9),
            self.header.model_version
        )
    }

    /// The shard's bytes (sealed, checksummed); `label` names it in errors.
    pub fn to_bytes(&self, label: &Path) -> Result<Vec<u8>, ShardError> {
        let file = FileRef::new(FileKind::Shard, label);
        let header = serde_json::to_string(&self.header).map_err(|e| file.encode(e.to_string()))?;
        Ok(encode_games(
            file,
            &SEAL,
            (HEADER_KEY, header),
            self.games.iter(),
        )?)
    }

    /// Writes the shard to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), ShardError> {
        let bytes = self.to_bytes(path)?;
        Ok(FileRef::new(FileKind::Shard, path).write(&bytes)?)
    }

    /// Reads the shard file at `path`, checking its seal and that its games have
    /// `observation_shape` and `num_actions`.
    pub fn read(
        path: &Path,
        observation_shape: [usize; 3],
        num_actions: usize,
    ) -> Result<Shard, ShardError> {
        let bytes = FileRef::new(FileKind::Shard, path).read()?;
        Shard::from_bytes(path, &bytes, observation_shape, num_actions)
    }

    /// Reads a shard from `bytes` (`label` names it in errors), checking its seal and that its
    /// games have `observation_shape` and `num_actions`.
    pub fn from_bytes(
        label: &Path,
        bytes: &[u8],
        observation_shape: [usize; 3],
        num_actions: usize,
    ) -> Result<Shard, ShardError> {
        let file = FileRef::new(FileKind::Shard, label);
        let metadata = read_metadata(file, bytes)?;
        SEAL.check(file, bytes, &metadata)?;
        let json = metadata
            .get(HEADER_KEY)
            .ok_or_else(|| file.corrupt(format!("no `{HEADER_KEY}` metadata entry")))?;
        let header: ShardHeader =
            serde_json::from_str(json).map_err(|e| file.corrupt(format!("header: {e}")))?;
        check_worker(&header.worker)?;
        let bad = |reason: String| ShardError::BadHeader {
            path: label.to_path_buf(),
            reason,
        };
        if header.format_version != FORMAT_VERSION {
            return Err(bad(format!(
                "its format_version is {}, its seal's is {FORMAT_VERSION}",
                header.format_version
            )));
        }
        if !(header.seconds.is_finite() && header.seconds >= 0.0) {
            return Err(bad(format!(
                "seconds is {}, expected a finite number >= 0",
                header.seconds
            )));
        }
        if (header.observation_shape, header.num_actions) != (observation_shape, num_actions) {
            let describe = |s: [usize; 3], a: usize| format!("observation {s:?} and {a} actions");
            return Err(ShardError::Mismatch {
                path: label.to_path_buf(),
                expected: describe(observation_shape, num_actions),
                found: describe(header.observation_shape, header.num_actions),
            });
        }
        let [planes, height, width] = observation_shape;
        let sizes = Sizes {
            planes,
            cells: height * width,
            num_actions,
        };
        let games = decode_games(file, bytes, header.games.clone(), sizes)?;
        Ok(Shard { header, games })
    }
}

/// An error unless `worker` is 1 to 64 letters, digits, `-` or `_`.
pub fn check_worker(worker: &str) -> Result<(), ShardError> {
    let ok = (1..=64).contains(&worker.len())
        && worker
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ShardError::BadWorker(worker.to_string()))
    }
}
