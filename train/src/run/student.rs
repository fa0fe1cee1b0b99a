//! The last step of an MCTS run with a `[distill]` section: the finished run's network taught
//! to the smaller MLP that `abnet` searches with ([`crate::distill`]), written as the run's
//! agent, so that the run's own output plays at its best with no further command.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use fanorona_env::Position;
use fanorona_util::atomic_write::write_atomic;
use serde_json::json;

use super::event::RunEvent;
use crate::config::{DistillSettings, FanoronaPart, RunConfig};
use crate::distill::{DistillError, DistillEvent, EpochReport, distill};
use crate::error::TrainError;
use crate::io::{PolicyMeta, export_policy};
use crate::model::PolicyValueNet;
use crate::run_dir::{RunDir, RunDirError};

/// Teaches `teacher` (the run's network after `step` learner steps) to the student of
/// `settings`, seeded by the run's seed, and writes it atomically as the run's student (its
/// step: `step`; `abnet:path=RUN/student.safetensors` plays it) and the epochs' reports (one
/// JSON line per epoch: its errors against the network on held-out positions and
/// `elapsed_s`, the seconds of teaching so far) beside it,
/// reporting its start, steps, epochs and end to `events`. Returns the student's path, or `None` if
/// `stop` was set before it was taught (then nothing is written).
pub(super) fn teach_student(
    config: &RunConfig,
    settings: &DistillSettings,
    teacher: &PolicyValueNet,
    step: u64,
    dir: &RunDir,
    events: &mut dyn FnMut(RunEvent),
    stop: Option<&AtomicBool>,
) -> Result<Option<PathBuf>, TrainError> {
    let board = config.fanorona_board(FanoronaPart::Distill)?;
    events(RunEvent::StudentStarted(settings.clone()));
    let started = Instant::now();
    let mut reports = Vec::new();
    let taught = distill(
        teacher,
        None,
        &Position::initial(board),
        settings,
        config.run.seed,
        &mut |event| {
            if let DistillEvent::Epoch(report) = &event {
                reports.push((*report, started.elapsed().as_secs_f64()));
            }
            events(RunEvent::Student(event));
        },
        stop,
    );
    events(RunEvent::StudentEnded);
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

/// Writes `reports` (each with the seconds of teaching up to its epoch's end) as JSON lines
/// to `path`, atomically.
fn write_reports(path: &Path, reports: &[(EpochReport, f64)]) -> Result<(), TrainError> {
    let lines: String = reports
        .iter()
        .map(|(report, elapsed_s)| {
            let line = json!({"kind": "epoch", "elapsed_s": elapsed_s, "report": report});
            format!("{line}\n")
        })
        .collect();
    write_atomic(path, lines.as_bytes()).map_err(|error| {
        RunDirError::Io {
            action: "write",
            path: path.to_path_buf(),
            error,
        }
        .into()
    })
}
