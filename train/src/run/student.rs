//! The last step of an MCTS run with a `[distill]` section: the finished run's network taught
//! to the smaller MLP that `abnet` searches with ([`crate::distill`]), written as the run's
//! agent, so that the run's own output plays at its best with no further command.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use fanorona_env::{GameId, Position};
use fanorona_util::atomic_write::write_atomic;
use serde_json::json;

use super::progress::Progress;
use super::{RunConfig, TrainError};
use crate::distill::Progress as DistillProgress;
use crate::distill::{DistillError, DistillSettings, EpochReport, distill};
use crate::io::{PolicyMeta, export_policy};
use crate::model::PolicyValueNet;

/// The run's student, a policy file: its agent (`abnet:path=RUN/student.safetensors`).
pub const STUDENT_FILE: &str = "student.safetensors";

/// The student's distillation metrics: one JSON line per epoch, its errors against the
/// network on held-out positions.
pub const STUDENT_METRICS_FILE: &str = "student.jsonl";

/// Teaches `teacher` (the run's network after `step` learner steps) to the student of
/// `settings`, seeded by the run's seed, and writes it atomically to `dir/`[`STUDENT_FILE`]
/// (its step: `step`) and the epochs' reports to `dir/`[`STUDENT_METRICS_FILE`], showing a bar
/// of its steps and a line per epoch in `progress`. Returns the student's path, or `None` if
/// `stop` was set before it was taught (then nothing is written).
pub(super) fn teach_student(
    config: &RunConfig,
    settings: &DistillSettings,
    teacher: &PolicyValueNet,
    step: u64,
    dir: &Path,
    progress: &Progress,
    stop: Option<&AtomicBool>,
) -> Result<Option<PathBuf>, TrainError> {
    let game = config.game.id()?;
    let GameId::Fanorona(board) = game else {
        unreachable!("the configuration's validation admits [distill] for fanorona only")
    };
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
            DistillProgress::Sampled { .. } => {}
            DistillProgress::Step { total, .. } => {
                bar.set_length(total);
                bar.inc(1);
            }
            DistillProgress::Epoch(report) => {
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
    write_reports(&dir.join(STUDENT_METRICS_FILE), &reports)?;
    let path = dir.join(STUDENT_FILE);
    let meta = PolicyMeta::trained(game, student.config().clone(), step);
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
