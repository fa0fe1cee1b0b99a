//! The error of training: whatever stops a run, a role or a file of it, each kind of problem
//! its own variant with the file or key it concerns.

use std::path::PathBuf;

use fanorona_eval::ArenaError;
use fanorona_exact::solver::SolverError;
use fanorona_exact::tables::TablesError;

use crate::config::{DeviceError, RunConfigError};
use crate::distill::DistillError;
use crate::io::{CheckpointError, ReplayFileError};
use crate::rng::RngStateError;
use crate::run_dir::{MetricsError, ResolveConfigError, RunDirError};

/// A run that cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The configuration is bad, or does not match the run directory's.
    #[error(transparent)]
    Config(#[from] RunConfigError),
    /// The configuration does not match the run directory's.
    #[error(transparent)]
    ResolveConfig(#[from] ResolveConfigError),
    /// The device is not compiled in.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A checkpoint cannot be written or read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The replay window cannot be written or read.
    #[error(transparent)]
    Replay(#[from] ReplayFileError),
    /// The replay window saved with the checkpoint to resume from cannot be read.
    #[error("cannot resume from checkpoint {checkpoint}: {error}")]
    CheckpointReplay {
        /// The checkpoint.
        checkpoint: PathBuf,
        /// Why its replay window cannot be read (part of the message, not a separate source).
        error: ReplayFileError,
    },
    /// The replay window beside a checkpoint is not the one saved with it.
    #[error(
        "cannot resume from checkpoint {checkpoint}: its replay window {replay} holds {found} \
         games added, the checkpoint {expected}"
    )]
    CheckpointReplayMismatch {
        /// The checkpoint.
        checkpoint: PathBuf,
        /// The replay file.
        replay: PathBuf,
        /// The games added according to the checkpoint.
        expected: u64,
        /// The games added according to the replay file.
        found: u64,
    },
    /// The run directory has metrics of earlier iterations but no checkpoint to go on from.
    #[error(
        "run directory {dir} has rows in {name} but no checkpoint to resume from (were the \
         checkpoints deleted?); choose another run directory, or remove {file} to start the \
         run afresh",
        name = file.file_name().unwrap_or_default().display()
    )]
    MetricsWithoutCheckpoint {
        /// The run directory.
        dir: PathBuf,
        /// The metrics file with rows (its `metrics.csv` or `learner.csv`).
        file: PathBuf,
    },
    /// A checkpoint's RNG state is unreadable.
    #[error(transparent)]
    Rng(#[from] RngStateError),
    /// Metrics cannot be written or read.
    #[error(transparent)]
    Metrics(#[from] MetricsError),
    /// An evaluation match failed.
    #[error("evaluation match: {0}")]
    Eval(#[from] ArenaError),
    /// The run's endgame tables (`selfplay.tables`) cannot be opened.
    #[error("the run's endgame tables (selfplay.tables) {dir}: {error}")]
    Tables {
        /// The tables' directory.
        dir: PathBuf,
        /// Why they cannot be opened.
        error: TablesError,
    },
    /// The run's solved board (`selfplay.tables` naming a file) cannot be opened.
    #[error("the run's solved board (selfplay.tables) {path}: {error}")]
    Solution {
        /// The table file.
        path: PathBuf,
        /// Why it cannot be opened.
        error: SolverError,
    },
    /// The run's solved board (`selfplay.tables`) is of another board than the run's game.
    #[error(
        "the run's solved board (selfplay.tables) {path} is of the {solved} board, the run plays {run}: solve the run's board (fanorona solve --board {run} --save FILE)"
    )]
    SolutionBoard {
        /// The table file.
        path: PathBuf,
        /// The board it solves.
        solved: String,
        /// The run's board.
        run: String,
    },
    /// The run's network cannot be taught to its student (`[distill]`).
    #[error("teaching the run's student ([distill]): {0}")]
    Distill(#[from] DistillError),
    /// The evaluation's exam on the built-in test set failed.
    #[error("the exam on the built-in 9x5 test set: {0}")]
    Exam(String),
    /// A learner step gave a loss that is not a finite number: the network diverged. The run
    /// stops there, writing no checkpoint of it.
    #[error(
        "iteration {iteration}, learner step {step}: the {loss} loss is {value}; the network \
         diverged (no checkpoint written of it: lower the learning rate?)"
    )]
    NonFiniteLoss {
        /// The iteration.
        iteration: u64,
        /// The learner step (counting from 0).
        step: u64,
        /// Which loss: `policy`, `value` or `total`.
        loss: &'static str,
        /// Its value.
        value: f32,
    },
    /// A self-play worker waited for the learner's first model in vain.
    #[error(
        "no model in {models} after {waited_s} s: start `fanorona learn --run {run} --preset \
         NAME` first (or the Ray driver)",
        run = run.display()
    )]
    NoModel {
        /// The run directory.
        run: PathBuf,
        /// The run's folder of model versions.
        models: PathBuf,
        /// Seconds waited.
        waited_s: u64,
    },
    /// The run's game has no evaluation opponents.
    #[error("{game} has no evaluation opponents (they play Fanorona only)")]
    NoEvaluation {
        /// The run's game.
        game: String,
    },
    /// A file of the run directory (a model version) cannot be read or written.
    #[error(transparent)]
    File(#[from] crate::io::FileError),
    /// A shard of self-play games cannot be read or written.
    #[error(transparent)]
    Shard(#[from] crate::io::ShardError),
    /// A model version cannot be written or read.
    #[error(transparent)]
    Policy(#[from] crate::io::PolicyFileError),
    /// The run directory cannot be used: a file of it, or its lock, held by another process.
    #[error(transparent)]
    RunDir(#[from] RunDirError),
}
