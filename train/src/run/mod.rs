//! The training run in one process: the loop composing the roles ([`crate::roles`]) with
//! checkpoints and resume, the events it reports as it goes, the learning curve in rating, an
//! `abnet` run's gate, and the student a finished MCTS run teaches its network to.

mod event;
mod gate;
mod learning_curve;
mod student;
mod train;

pub use event::{Phase, RunEvent};
pub use learning_curve::{
    CurveError, CurvePoint, ExamPoint, curve_csv, curve_table, exam_curve, learning_curve,
};
pub use train::{RunSummary, TrainOptions, train};
