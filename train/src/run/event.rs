//! What a run reports as it goes: the events [`train`](super::train) hands the observer its
//! caller gives in [`TrainOptions::events`](super::TrainOptions::events). The library draws
//! nothing; the command line turns the events into its bars and log lines.

use crate::config::DistillSettings;
use crate::distill::DistillEvent;
use crate::run_dir::MetricsRow;

/// Something a run reports: where it stands, a game played, an iteration's row, the student's
/// progress.
#[derive(Clone, Debug)]
pub enum RunEvent {
    /// The run is open: `done` of its `total` iterations are complete, and each plays `games`
    /// self-play games.
    Started {
        /// Iterations already complete (those of a resumed run's earlier sessions).
        done: u64,
        /// The run's iterations in all.
        total: u64,
        /// Self-play games an iteration.
        games: usize,
    },
    /// The run goes on from a checkpoint.
    Resumed {
        /// The iterations complete.
        iteration: u64,
        /// The learner steps taken.
        step: u64,
        /// The positions in the replay window.
        replay_positions: usize,
    },
    /// An iteration began (its self-play games to come).
    IterationStarted {
        /// The iteration (counting from 1).
        iteration: u64,
    },
    /// A self-play game of the iteration ended.
    GamePlayed,
    /// A match of the iteration began, after its games.
    PhaseStarted(Phase),
    /// The match of the last [`RunEvent::PhaseStarted`] ended.
    PhaseEnded,
    /// An iteration ended: its row, as written to the run's metrics.
    IterationDone(Box<MetricsRow>),
    /// The finished run's network begins to be taught to its student (`[distill]`).
    StudentStarted(DistillSettings),
    /// The student's teaching went on.
    Student(DistillEvent),
    /// The student's teaching ended (taught, or stopped).
    StudentEnded,
    /// The run ended: its summary follows.
    Finished,
}

/// A match an iteration plays after its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// An `abnet` run's gate: the learner's network against the best.
    Gate,
    /// The evaluation matches against fixed opponents.
    Evaluation,
}
