//! A run directory's layout: the one place that names the files of a training run, with
//! their reading and atomic writing (the configuration, the rows of its metrics files, its
//! model versions, its lock). Every run keeps
//! - `config.toml`: the resolved configuration (a resumed run reads it back);
//! - `checkpoint-STEP.ckpt` with `replay-STEP.safetensors` (its replay window) and, of an
//!   `abnet` run, `best-STEP.safetensors` beside it: one resume point, written and pruned as
//!   a unit (`checkpoints.rs`);
//! - `metrics.csv` (one row per iteration of `fanorona train`), `curves.png` (its plot);
//! - `best.safetensors` (an `abnet` run's best network) and `student.safetensors` with
//!   `student.jsonl` (the student a finished run teaches and its metrics): the run's agent;
//! - `train.lock`: the lock of the one process that trains in it;
//! - of a distributed run, `games/` (the self-play workers' shards), `models/` (the model
//!   versions the learner publishes), `learner.csv` (the learner's rows), `gauntlet.csv` (the
//!   evaluator's) and `learner.done` (the learner's end, which stops the others).

mod checkpoints;
mod lock;
mod metrics;
mod models;
mod resolve;
mod shards;

use std::path::{Path, PathBuf};

use fanorona_util::atomic_write::write_atomic;

use crate::config::{RunConfig, RunConfigError};

pub use checkpoints::{checkpoint_step, find_checkpoint};
pub(crate) use lock::RunLock;
pub use metrics::{MetricsError, MetricsRow, MetricsWriter, Row, read_metrics, read_rows};
pub use models::KEEP_MODELS;
pub use resolve::ResolveConfigError;
pub use shards::shard_name;

/// The resolved configuration.
const CONFIG: &str = "config.toml";
/// The rows of `fanorona train`'s iterations.
const METRICS: &str = "metrics.csv";
/// The learner's rows, one per model version.
const LEARNER_METRICS: &str = "learner.csv";
/// The evaluator's rows, one per model version evaluated.
const GAUNTLET: &str = "gauntlet.csv";
/// The learning curves' plot.
const CURVES: &str = "curves.png";
/// An `abnet` run's best network so far.
const BEST: &str = "best.safetensors";
/// The student of a finished run.
const STUDENT: &str = "student.safetensors";
/// The student's teaching metrics.
const STUDENT_METRICS: &str = "student.jsonl";
/// The lock file.
const LOCK: &str = "train.lock";
/// The learner's end marker.
const LEARNER_DONE: &str = "learner.done";
/// The folder of shards.
const SHARDS: &str = "games";
/// The folder of model versions.
const MODELS: &str = "models";

/// Files a run directory keeps under fixed names.
const FIXED: [&str; 10] = [
    CONFIG,
    BEST,
    STUDENT,
    STUDENT_METRICS,
    METRICS,
    LEARNER_METRICS,
    LEARNER_DONE,
    GAUNTLET,
    CURVES,
    LOCK,
];

/// A file of a run directory that cannot be created, written, read or removed, or a run
/// directory another process trains in.
#[derive(Debug, thiserror::Error)]
pub enum RunDirError {
    /// A file or folder of the run cannot be used.
    #[error("cannot {action} {path}: {error}")]
    Io {
        /// What was being done, e.g. `create run directory`.
        action: &'static str,
        /// The directory or file.
        path: PathBuf,
        /// The OS error (part of the message, not a separate source).
        error: std::io::Error,
    },
    /// Another process is training in the run directory.
    #[error(
        "run directory {dir} is in use by another `fanorona train` or `fanorona learn`{holder}; \
         wait for it to end, or choose another run directory"
    )]
    Locked {
        /// The run directory.
        dir: PathBuf,
        /// ` (process ID)` when the lock file names its holder, else empty.
        holder: String,
    },
}

/// A training run's directory: the paths of its files, and their reading and writing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// The run directory at `path` (which need not exist yet).
    pub fn new(path: impl Into<PathBuf>) -> RunDir {
        RunDir { path: path.into() }
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The resolved configuration, `config.toml`.
    pub fn config(&self) -> PathBuf {
        self.path.join(CONFIG)
    }

    /// Whether the run has its configuration (it was started).
    pub fn has_config(&self) -> bool {
        self.config().exists()
    }

    /// Reads the run's configuration.
    pub fn load_config(&self) -> Result<RunConfig, RunConfigError> {
        RunConfig::load(&self.config())
    }

    /// Writes `config` as the run's configuration, atomically.
    pub fn write_config(&self, config: &RunConfig) -> Result<(), RunConfigError> {
        let path = self.config();
        write_atomic(&path, config.to_toml().as_bytes()).map_err(|source| RunConfigError::Io {
            action: "write",
            path: path.display().to_string(),
            source,
        })
    }

    /// The rows of `fanorona train`'s iterations, `metrics.csv`.
    pub fn metrics(&self) -> PathBuf {
        self.path.join(METRICS)
    }

    /// The learner's rows, `learner.csv`.
    pub fn learner_metrics(&self) -> PathBuf {
        self.path.join(LEARNER_METRICS)
    }

    /// The evaluator's rows, `gauntlet.csv`.
    pub fn gauntlet(&self) -> PathBuf {
        self.path.join(GAUNTLET)
    }

    /// The plot of the learning curves, `curves.png`.
    pub fn curves(&self) -> PathBuf {
        self.path.join(CURVES)
    }

    /// An `abnet` run's best network so far (a policy file: the run's agent).
    pub fn best(&self) -> PathBuf {
        self.path.join(BEST)
    }

    /// The student of a finished run (a policy file: the run's agent).
    pub fn student(&self) -> PathBuf {
        self.path.join(STUDENT)
    }

    /// The student's teaching metrics, one JSON line per epoch.
    pub fn student_metrics(&self) -> PathBuf {
        self.path.join(STUDENT_METRICS)
    }

    /// The lock file.
    fn lock_file(&self) -> PathBuf {
        self.path.join(LOCK)
    }

    /// The folder of the self-play workers' shards.
    pub fn shards(&self) -> PathBuf {
        self.path.join(SHARDS)
    }

    /// The folder of model versions.
    pub fn models(&self) -> PathBuf {
        self.path.join(MODELS)
    }

    /// The marker the learner writes when it has reached its limit: self-play workers and the
    /// evaluator stop when they see it.
    pub fn learner_done(&self) -> PathBuf {
        self.path.join(LEARNER_DONE)
    }

    /// Whether the learner has marked the run done.
    pub fn is_learner_done(&self) -> bool {
        self.learner_done().exists()
    }

    /// Marks the run done after learner step `step`, atomically.
    pub fn mark_learner_done(&self, step: u64) -> Result<(), RunDirError> {
        let path = self.learner_done();
        write_atomic(&path, format!("{step}\n").as_bytes()).map_err(|error| RunDirError::Io {
            action: "write",
            path,
            error,
        })
    }

    /// Removes the done marker of an earlier session, if any.
    pub fn clear_learner_done(&self) -> Result<(), RunDirError> {
        let path = self.learner_done();
        match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(RunDirError::Io {
                action: "remove",
                path,
                error,
            }),
            _ => Ok(()),
        }
    }

    /// Creates the directory if needed and takes its lock, held until the value is dropped;
    /// fails at once if another process holds it.
    pub(crate) fn lock(&self) -> Result<RunLock, RunDirError> {
        create_dir(&self.path, "create run directory")?;
        RunLock::acquire(&self.path, &self.lock_file())
    }

    /// Whether this is a run directory: a folder holding `config.toml` or `train.lock`.
    fn is_run(&self) -> bool {
        self.config().is_file() || self.lock_file().is_file()
    }
}

/// Creates the folder `path` and those above it.
fn create_dir(path: &Path, action: &'static str) -> Result<(), RunDirError> {
    std::fs::create_dir_all(path).map_err(|error| RunDirError::Io {
        action,
        path: path.to_path_buf(),
        error,
    })
}

/// Whether `path` names a file a training run keeps (existing or not), so that commands
/// writing files a user names (`export`, `distill`) never write over one of them: its
/// configuration, metrics, lock, plot, agent files, checkpoints and replay windows in a run
/// directory (a folder holding `config.toml` or `train.lock`), and anything in such a
/// directory's `models/` or `games/`.
pub fn is_run_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let dir = folder_of(path);
    if RunDir::new(&dir).is_run() {
        return FIXED.contains(&name) || checkpoints::is_checkpoint_name(name);
    }
    let inner = dir.file_name().and_then(|n| n.to_str());
    inner.is_some_and(|inner| inner == SHARDS || inner == MODELS)
        && dir.parent().is_some_and(|run| RunDir::new(run).is_run())
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_directory_s_own_files_are_recognised_and_others_are_not() {
        let run = tempfile::tempdir().unwrap();
        let dir = run.path();
        assert!(
            !is_run_file(&dir.join("checkpoint-0000000010.ckpt")),
            "not a run yet"
        );
        std::fs::write(dir.join("config.toml"), "").unwrap();
        for name in [
            "checkpoint-0000000010.ckpt",
            "replay-0000000010.safetensors",
            "metrics.csv",
            "learner.csv",
            "config.toml",
            "train.lock",
            "models/model-0000000003.safetensors",
            "games/w1-0000000002.shard",
            "best.safetensors",
            "student.safetensors",
            "student.jsonl",
        ] {
            assert!(is_run_file(&dir.join(name)), "{name}");
        }
        for name in [
            "agent.safetensors",
            "student.metrics.jsonl",
            "eval/games.jsonl",
        ] {
            assert!(!is_run_file(&dir.join(name)), "{name}");
        }
        assert!(!is_run_file(Path::new("models/fanorona-9x5.safetensors")));
    }

    #[test]
    fn the_layout_keeps_the_file_names_of_earlier_runs() {
        let run = RunDir::new("r");
        let names = [
            (run.config(), "r/config.toml"),
            (run.metrics(), "r/metrics.csv"),
            (run.learner_metrics(), "r/learner.csv"),
            (run.gauntlet(), "r/gauntlet.csv"),
            (run.curves(), "r/curves.png"),
            (run.best(), "r/best.safetensors"),
            (run.student(), "r/student.safetensors"),
            (run.student_metrics(), "r/student.jsonl"),
            (run.learner_done(), "r/learner.done"),
            (run.checkpoint(7), "r/checkpoint-0000000007.ckpt"),
            (run.replay(7), "r/replay-0000000007.safetensors"),
            (run.best_at(7), "r/best-0000000007.safetensors"),
            (run.model(3), "r/models/model-0000000003.safetensors"),
            (run.shards(), "r/games"),
        ];
        for (path, name) in names {
            assert_eq!(path, Path::new(name));
        }
    }

    #[test]
    fn the_resolved_config_is_written_into_the_run_directory() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path().join("run"));
        let config = RunConfig::preset("tiny").unwrap();
        assert!(!run.has_config());
        run.write_config(&config).unwrap();
        assert!(run.has_config());
        assert_eq!(run.load_config().unwrap(), config);
    }

    #[test]
    fn the_done_marker_is_written_and_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.clear_learner_done().unwrap();
        assert!(!run.is_learner_done());
        run.mark_learner_done(42).unwrap();
        assert!(run.is_learner_done());
        assert_eq!(std::fs::read_to_string(run.learner_done()).unwrap(), "42\n");
        run.clear_learner_done().unwrap();
        assert!(!run.is_learner_done());
    }
}
