//! The last step of an MCTS run with a `[distill]` section: the finished run's network taught
//! to the smaller MLP that `abnet` searches with ([`crate::distill`]), written as the run's
//! agent, so that the run's own output plays at its best with no further command.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use fanorona_env::Position;
use fanorona_util::atomic_write::write_atomic;
use serde_json::json;

use super::progress::ProgressBars;
use crate::config::{FanoronaPart, RunConfig};
use crate::distill::DistillEvent;
use crate::distill::{DistillError, DistillSettings, EpochReport, distill};
use crate::error::TrainError;
use crate::io::{PolicyMeta, export_policy};
use crate::model::PolicyValueNet;
use crate::run_dir::RunDir;

/// Teaches `teacher` (the run's network after `step` learner steps) to the student of
/// `settings`, seeded by the run's seed, and writes it atomically as the run's student (its
/// step: `step`; `abnet:path=RUN/student.safetensors` plays it) and the epochs' reports (one
/// JSON line per epoch, its errors against the network on held-out positions) beside it, showing a bar
/// of its steps and a line per epoch in `progress`. Returns the student's path, or `None` if
/// `stop` was set before it was taught (then nothing is written).
pub(super) fn teach_student(
    config: &RunConfig,
    settings: &DistillSettings,
    teacher: &PolicyValueNet,
    step: u64,
    dir: &RunDir,
    progress: &ProgressBars,
    stop: Option<&AtomicBool>,
) -> Result<Option<PathBuf>, TrainError> {
    let board = config.fanorona_board(FanoronaPart::Distill)?;
    progress.log(format!(
        "teaching the network to the student MLP {:?} for abnet: {} positions, {} epochs",
        settings.hidden, settings.positions, settings.epochs
    ));
    let bar = progress.bar("distillation steps");
    let mut reports = Vec::new();
    let taught = distill(
        teacher,
        None,
        &Position::initial(board),
        settings,
        config.run.seed,
        &mut |event| match event {
            DistillEvent::Sampled { .. } => {}
            DistillEvent::Step { total, .. } => {
                bar.set_length(total);
                bar.inc(1);
            }
            DistillEvent::Epoch(report) => {
                progress.log(epoch_line(&report));
                reports.push(report);
            }
        },
        stop,
    );
    bar.finish_and_clear();
    let student = match taught {
        Ok(student) => student,
        Err(DistillError::Stopped) => return Ok(None),
        Err(error) => return Err(TrainError::Distill(error)),
    };
    write_reports(&dir.student_metrics(), &reports)?;
    let path = dir.student();
    let meta = PolicyMeta::trained(config.game, student.config().clone(), step);
    export_policy(&student, &meta, &path)?;
    Ok(Some(path))
}

/// The log line of an epoch: the student against the network on held-out positions.
fn epoch_line(report: &EpochReport) -> String {
    format!(
        "student epoch {}: value error against the network on held-out positions: mean {:.4}, \
         max {:.4}; policy cross-entropy {:.4}",
        report.epoch, report.value_mae, report.value_max, report.policy_loss
    )
}

/// Writes `reports` as JSON lines to `path`, atomically.
fn write_reports(path: &Path, reports: &[EpochReport]) -> Result<(), TrainError> {
    let lines: String = reports
        .iter()
        .map(|report| format!("{}\n", json!({"kind": "epoch", "report": report})))
        .collect();
    write_atomic(path, lines.as_bytes()).map_err(|error| TrainError::Io {
        action: "write",
        path: path.to_path_buf(),
        error,
    })
}
