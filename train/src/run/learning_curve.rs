//! A run's learning curve in rating: the ratings that `fanorona rate` fitted to the run's
//! checkpoints (agents whose `path=` names `RUN/checkpoint-STEP.ckpt`) and to its student
//! (`RUN/student.safetensors`, the run's agent: placed at the run's end, its teaching time
//! added), each placed at the training time and the self-play positions that produced it,
//! read from the run's `metrics.csv` (a run of `fanorona train`) or its `learner.csv` (a
//! distributed run: the CLI roles or Ray).

use std::path::{Path, PathBuf};

use fanorona_env::AgentSpec;
use fanorona_eval::rating::Ratings;
use serde::Serialize;

use crate::roles::LearnerRow;
use crate::run_dir::{MetricsError, MetricsRow, RunDir, checkpoint_step, read_metrics, read_rows};

/// A learning curve that cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum CurveError {
    /// The run's metrics cannot be read.
    #[error(transparent)]
    Metrics(#[from] MetricsError),
    /// The run directory does not exist.
    #[error("the run directory {0} cannot be opened: {1}")]
    Run(PathBuf, String),
    /// No rated agent is a checkpoint or the student of the run.
    #[error(
        "no rated agent is a checkpoint or the student of {0} (expected agents such as \
         net:path={0}/checkpoint-STEP.ckpt,ms=100 or abnet:path={0}/student.safetensors,ms=100 \
         in the games)"
    )]
    NoCheckpoints(PathBuf),
    /// The run's student is rated but its metrics have no iteration to place it after.
    #[error("the student of {0} is rated but its metrics have no iteration")]
    NoIterations(PathBuf),
    /// A rated checkpoint's step is not in the run's metrics.
    #[error("checkpoint step {step} of {run} has no row in its metrics.csv or learner.csv")]
    UnknownStep {
        /// The run directory.
        run: PathBuf,
        /// The checkpoint's learner step.
        step: u64,
    },
}

/// One rated checkpoint of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    /// The run directory, as given.
    pub run: String,
    /// The agent's options other than `path` (e.g. `sims=400`), after `student,` for the
    /// run's student: one curve per value.
    pub search: String,
    /// The checkpoint's learner step.
    pub step: u64,
    /// The iteration (a distributed run: the model version) that ended at that step.
    pub iteration: u64,
    /// Self-play positions played (ingested, in a distributed run) up to that step.
    pub positions: u64,
    /// Wall-clock hours of training up to the checkpoint, summed over resumptions.
    pub wall_hours: f64,
    /// `wall_hours` times the cores the run had.
    pub core_hours: f64,
    /// The checkpoint's rating (Elo, the rating's anchor 0).
    pub rating: f64,
    /// The bootstrap 95% interval's bounds, if any.
    pub low: Option<f64>,
    /// See `low`.
    pub high: Option<f64>,
    /// Games the checkpoint played.
    pub games: u32,
}

impl CurvePoint {
    /// The name of the point's curve: the run, and its search options if any.
    pub fn series(&self) -> String {
        if self.search.is_empty() {
            self.run.clone()
        } else {
            format!("{} {}", self.run, self.search)
        }
    }
}

/// One row of a run's progress: the learner step an iteration (or model version) ended at,
/// the seconds since the run (or its resumption) started, and the positions it added.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RunPoint {
    iteration: u64,
    step: u64,
    elapsed_s: f64,
    positions: u64,
}

impl From<&MetricsRow> for RunPoint {
    fn from(row: &MetricsRow) -> RunPoint {
        RunPoint {
            iteration: row.iteration,
            step: row.step,
            elapsed_s: row.elapsed_s,
            positions: row.positions,
        }
    }
}

impl From<&LearnerRow> for RunPoint {
    fn from(row: &LearnerRow) -> RunPoint {
        RunPoint {
            iteration: row.version,
            step: row.step,
            elapsed_s: row.elapsed_s,
            positions: row.positions,
        }
    }
}

/// The progress rows of the run in `run`: its `metrics.csv`, or where it has none (a
/// distributed run), its `learner.csv`.
fn read_progress(run: &Path) -> Result<Vec<RunPoint>, MetricsError> {
    let run = RunDir::new(run);
    let learner = run.learner_metrics();
    if !run.metrics().exists() && learner.exists() {
        let rows: Vec<LearnerRow> = read_rows(&learner)?;
        return Ok(rows.iter().map(RunPoint::from).collect());
    }
    Ok(read_metrics(&run.metrics())?
        .iter()
        .map(RunPoint::from)
        .collect())
}

/// Seconds of training up to each row: `elapsed_s` restarts at every resumption, so the
/// segments are added up.
fn training_seconds(rows: &[RunPoint]) -> Vec<f64> {
    let mut total = 0.0;
    let mut previous = 0.0;
    rows.iter()
        .map(|row| {
            total += if row.elapsed_s >= previous {
                row.elapsed_s - previous
            } else {
                row.elapsed_s
            };
            previous = row.elapsed_s;
            total
        })
        .collect()
}

/// Which of a run's networks an agent plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RunNetwork {
    /// The checkpoint of this learner step.
    Checkpoint(u64),
    /// The student the finished run taught (`RUN/student.safetensors`).
    Student,
}

/// The network of `run` that the agent `spec` plays with and the agent's other options, if
/// it plays with one of the run's (`run` canonicalized).
fn network_of(spec: &str, run: &Path) -> Option<(RunNetwork, String)> {
    let spec = AgentSpec::parse(spec).ok()?;
    let mut search: Vec<String> = spec
        .options
        .iter()
        .filter(|(key, _)| key != "path")
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    let path = Path::new(spec.option("path")?);
    let network = match checkpoint_step(path) {
        Some(step) => RunNetwork::Checkpoint(step),
        None if path.file_name() == RunDir::new(run).student().file_name() => RunNetwork::Student,
        None => return None,
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if network == RunNetwork::Student {
        search.insert(0, "student".to_string());
    }
    (parent.canonicalize().ok()? == run).then(|| (network, search.join(",")))
}

/// Seconds the run's student took to teach: the `elapsed_s` of the last line of its metrics
/// (0 where the file or the field is missing: runs before 2026-12-07 did not record it).
fn student_seconds(run: &Path) -> f64 {
    std::fs::read_to_string(RunDir::new(run).student_metrics())
        .ok()
        .and_then(|text| {
            let last = text.lines().last()?;
            serde_json::from_str::<serde_json::Value>(last).ok()?["elapsed_s"].as_f64()
        })
        .unwrap_or(0.0)
}

/// The learning curves of the run in `run`: its rated checkpoints by search options, then
/// in step order, with `cores` turning wall-clock hours into core hours.
pub fn learning_curve(
    run: &Path,
    ratings: &Ratings,
    cores: f64,
) -> Result<Vec<CurvePoint>, CurveError> {
    let canonical = run
        .canonicalize()
        .map_err(|e| CurveError::Run(run.to_path_buf(), e.to_string()))?;
    let rows = read_progress(run)?;
    let seconds = training_seconds(&rows);
    let teaching_seconds = student_seconds(run);
    let mut points = Vec::new();
    for player in &ratings.players {
        let Some((network, search)) = network_of(&player.agent, &canonical) else {
            continue;
        };
        let (index, extra_seconds) = match network {
            RunNetwork::Checkpoint(step) => {
                let index = rows.iter().position(|r| r.step == step).ok_or_else(|| {
                    CurveError::UnknownStep {
                        run: run.to_path_buf(),
                        step,
                    }
                })?;
                (index, 0.0)
            }
            RunNetwork::Student => {
                let last = rows
                    .len()
                    .checked_sub(1)
                    .ok_or_else(|| CurveError::NoIterations(run.to_path_buf()))?;
                (last, teaching_seconds)
            }
        };
        let step = rows[index].step;
        let wall_hours = (seconds[index] + extra_seconds) / 3600.0;
        points.push(CurvePoint {
            run: run.display().to_string(),
            search,
            step,
            iteration: rows[index].iteration,
            positions: rows[..=index].iter().map(|r| r.positions).sum(),
            wall_hours,
            core_hours: wall_hours * cores,
            rating: player.rating,
            low: player.interval.map(|i| i.0),
            high: player.interval.map(|i| i.1),
            games: player.games,
        });
    }
    if points.is_empty() {
        return Err(CurveError::NoCheckpoints(run.to_path_buf()));
    }
    points.sort_by(|a, b| (&a.search, a.step).cmp(&(&b.search, b.step)));
    Ok(points)
}

/// One exact exam of a run's network at an evaluation (`metrics.csv`'s `exact_keeps`), at
/// the training time it had taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExamPoint {
    /// The run directory, as given.
    pub run: String,
    /// The iteration the exam followed.
    pub iteration: u64,
    /// Core hours of training up to it (wall-clock hours, over resumptions, times the cores).
    pub core_hours: f64,
    /// The share of the exact set's proven values the raw policy kept.
    pub keeps: f64,
}

/// The exact exams of the run in `run`, in iteration order, with `cores` turning wall-clock
/// hours into core hours; none for a run without them (or without a `metrics.csv`: a
/// distributed run).
pub fn exam_curve(run: &Path, cores: f64) -> Result<Vec<ExamPoint>, CurveError> {
    let path = RunDir::new(run).metrics();
    if !path.exists() {
        return Ok(Vec::new());
    }
    let rows = read_metrics(&path)?;
    let progress: Vec<RunPoint> = rows.iter().map(RunPoint::from).collect();
    let seconds = training_seconds(&progress);
    Ok(rows
        .iter()
        .zip(seconds)
        .filter_map(|(row, seconds)| {
            Some(ExamPoint {
                run: run.display().to_string(),
                iteration: row.iteration,
                core_hours: seconds / 3600.0 * cores,
                keeps: row.exact_keeps?,
            })
        })
        .collect())
}

/// The points as CSV text, one row each, with a header.
pub fn curve_csv(points: &[CurvePoint]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for point in points {
        writer
            .serialize(point)
            .expect("a curve point is plain numbers and text");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory cannot fail"))
        .expect("csv writes UTF-8")
}

/// The points as a table for people.
pub fn curve_table(points: &[CurvePoint]) -> String {
    let mut table = format!(
        "{:<36} {:>9} {:>6} {:>10} {:>7} {:>7} {:>7} {:>17} {:>6}\n",
        "run and search",
        "iteration",
        "step",
        "positions",
        "hours",
        "core h",
        "Elo",
        "95% interval",
        "games"
    );
    for p in points {
        let interval = match (p.low, p.high) {
            (Some(low), Some(high)) => format!("{low:+.0} .. {high:+.0}"),
            _ => "-".to_string(),
        };
        table.push_str(&format!(
            "{:<36} {:>9} {:>6} {:>10} {:>7.2} {:>7.2} {:>+7.0} {:>17} {:>6}\n",
            p.series(),
            p.iteration,
            p.step,
            p.positions,
            p.wall_hours,
            p.core_hours,
            p.rating,
            interval,
            p.games
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use fanorona_eval::rating::PlayerRating;

    use super::*;

    fn row(iteration: u64, step: u64, elapsed_s: f64) -> MetricsRow {
        MetricsRow {
            iteration,
            step,
            elapsed_s,
            positions: 1000 * iteration,
            ..MetricsRow::default()
        }
    }

    #[test]
    fn training_time_adds_up_the_segments_of_a_resumed_run() {
        // 100 s, 250 s; resumed: 30 s, 90 s into the second segment.
        let rows = [
            row(1, 10, 100.0),
            row(2, 20, 250.0),
            row(3, 30, 30.0),
            row(4, 40, 90.0),
        ];
        let rows: Vec<RunPoint> = rows.iter().map(RunPoint::from).collect();
        assert_eq!(training_seconds(&rows), vec![100.0, 250.0, 280.0, 340.0]);
    }

    #[test]
    fn the_exact_exams_are_placed_at_their_training_time_and_a_run_without_has_none() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir_all(&run).unwrap();
        let examined = |mut row: MetricsRow, keeps: f64| {
            row.exact_keeps = Some(keeps);
            row
        };
        // Resumed after iteration 2: 1800 s into the second segment.
        let rows = [
            examined(row(1, 60, 1800.0), 0.5),
            row(2, 120, 3600.0),
            examined(row(3, 180, 1800.0), 0.625),
        ];
        std::fs::write(RunDir::new(&run).metrics(), csv_of(&rows)).unwrap();
        let curve = exam_curve(&run, 2.0).unwrap();
        let got: Vec<(u64, f64, f64)> = curve
            .iter()
            .map(|p| (p.iteration, p.core_hours, p.keeps))
            .collect();
        assert_eq!(got, vec![(1, 1.0, 0.5), (3, 3.0, 0.625)]);
        assert_eq!(curve[0].run, run.display().to_string());
        assert!(
            exam_curve(&dir.path().join("none"), 2.0)
                .unwrap()
                .is_empty()
        );
    }

    fn rated(agent: String, rating: f64) -> PlayerRating {
        PlayerRating {
            agent,
            rating,
            interval: Some((rating - 50.0, rating + 50.0)),
            games: 40,
            score: 0.5,
        }
    }

    #[test]
    fn the_run_checkpoints_are_placed_at_their_training_time_in_step_order() {
        let dir = std::env::temp_dir().join(format!("fanorona-curve-{}", std::process::id()));
        let run = dir.join("run");
        std::fs::create_dir_all(&run).unwrap();
        // Resumed after iteration 2: 900 s into the second segment.
        let metrics = csv_of(&[row(1, 60, 1800.0), row(2, 120, 3600.0), row(3, 180, 900.0)]);
        std::fs::write(RunDir::new(&run).metrics(), &metrics).unwrap();
        let ckpt = |step: u64| RunDir::new(&run).checkpoint(step).display().to_string();
        let other_run = RunDir::new(dir.join("other")).checkpoint(60);
        std::fs::create_dir_all(other_run.parent().unwrap()).unwrap();
        let ratings = Ratings {
            anchor: "minimax:depth=1".into(),
            games: 120,
            draw_parameter: 0.5,
            prior: 2.0,
            bootstrap_samples: 10,
            bootstrap_used: 10,
            seed: 1,
            players: vec![
                rated(format!("net:path={},sims=64", ckpt(180)), 300.0),
                rated("minimax:depth=1".into(), 0.0),
                rated(format!("net:path={}", other_run.display()), 250.0),
                rated(format!("net:path={},ms=100", ckpt(60)), 150.0),
                rated(format!("net:path={},sims=64", ckpt(60)), 100.0),
            ],
        };
        let curve = learning_curve(&run, &ratings, 2.0).unwrap();
        assert_eq!(curve.len(), 3, "{curve:?}");
        // The ms=100 curve (one point), then the sims=64 curve in step order.
        assert_eq!((curve[0].search.as_str(), curve[0].step), ("ms=100", 60));
        assert_eq!(curve[0].rating, 150.0);
        let points = &curve[1..];
        assert!(points.iter().all(|p| p.series().ends_with("run sims=64")));
        assert_eq!((points[0].step, points[0].iteration), (60, 1));
        assert_eq!(points[0].positions, 1000);
        assert_eq!(points[0].wall_hours, 0.5);
        assert_eq!(points[0].core_hours, 1.0);
        assert_eq!(points[0].rating, 100.0);
        assert_eq!((points[1].step, points[1].iteration), (180, 3));
        assert_eq!(points[1].positions, 1000 + 2000 + 3000);
        assert_eq!(points[1].wall_hours, 1.25);
        assert_eq!((points[1].low, points[1].high), (Some(250.0), Some(350.0)));
        let csv = curve_csv(&curve);
        let header =
            "run,search,step,iteration,positions,wall_hours,core_hours,rating,low,high,games\n";
        assert!(csv.starts_with(header), "{csv}");
        assert_eq!(csv.lines().count(), 4);
        assert!(curve_table(&curve).contains("+300"));

        // A checkpoint the metrics do not know, and a run none of whose checkpoints played.
        let mut unknown = ratings.clone();
        unknown.players[0].agent = format!("net:path={}", ckpt(999));
        let err = learning_curve(&run, &unknown, 2.0).unwrap_err();
        assert!(
            matches!(err, CurveError::UnknownStep { step: 999, .. }),
            "{err}"
        );
        let err = learning_curve(&dir.join("other"), &ratings, 2.0).unwrap_err();
        assert!(matches!(err, CurveError::Metrics(_)), "{err}");
        std::fs::write(RunDir::new(dir.join("other")).metrics(), &metrics).unwrap();
        let mut none = ratings.clone();
        none.players.retain(|p| p.agent.starts_with("minimax"));
        let err = learning_curve(&run, &none, 2.0).unwrap_err();
        assert!(matches!(err, CurveError::NoCheckpoints(_)), "{err}");
        assert!(err.to_string().contains("checkpoint-STEP.ckpt"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_student_is_placed_at_the_run_end_with_its_teaching_time() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        let rows = [row(1, 60, 1800.0), row(2, 120, 3600.0)];
        std::fs::write(RunDir::new(run).metrics(), csv_of(&rows)).unwrap();
        let student = RunDir::new(run).student().display().to_string();
        let ratings = Ratings {
            anchor: "minimax:ms=100".into(),
            games: 200,
            draw_parameter: 0.5,
            prior: 2.0,
            bootstrap_samples: 0,
            bootstrap_used: 0,
            seed: 1,
            players: vec![
                rated(format!("abnet:path={student},ms=100"), 90.0),
                rated(
                    format!("abnet:path={}/other.safetensors", run.display()),
                    10.0,
                ),
            ],
        };
        // No teaching time recorded (a run before 2026-12-07): the run's end.
        let point = &learning_curve(run, &ratings, 2.0).unwrap()[0];
        assert_eq!(
            (point.step, point.iteration, point.wall_hours),
            (120, 2, 1.0)
        );
        assert_eq!(point.search, "student,ms=100");
        assert_eq!(point.positions, 3000);
        let lines = "{\"kind\":\"epoch\",\"elapsed_s\":900.0}\n\
                     {\"kind\":\"epoch\",\"elapsed_s\":1800.0}\n";
        std::fs::write(RunDir::new(run).student_metrics(), lines).unwrap();
        let curve = learning_curve(run, &ratings, 2.0).unwrap();
        assert_eq!(curve.len(), 1, "only the student is the run's: {curve:?}");
        assert_eq!((curve[0].wall_hours, curve[0].core_hours), (1.5, 3.0));
        // A rated student of a run with no iterations.
        std::fs::write(RunDir::new(run).metrics(), csv_of::<MetricsRow>(&[])).unwrap();
        let err = learning_curve(run, &ratings, 2.0).unwrap_err();
        assert!(matches!(err, CurveError::NoIterations(_)), "{err}");
    }

    #[test]
    fn a_distributed_run_is_placed_by_its_learner_metrics() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        let version = |version: u64, step: u64, elapsed_s: f64, positions: u64| LearnerRow {
            version,
            step,
            elapsed_s,
            positions,
            ..LearnerRow::default()
        };
        let rows = [version(1, 50, 60.0, 4000), version(2, 120, 180.0, 5000)];
        std::fs::write(RunDir::new(run).learner_metrics(), csv_of(&rows)).unwrap();
        let ckpt = RunDir::new(run).checkpoint(120).display().to_string();
        let ratings = Ratings {
            anchor: "minimax:depth=1".into(),
            games: 40,
            draw_parameter: 0.5,
            prior: 2.0,
            bootstrap_samples: 0,
            bootstrap_used: 0,
            seed: 1,
            players: vec![rated(format!("net:path={ckpt}"), 200.0)],
        };
        let curve = learning_curve(run, &ratings, 3.0).unwrap();
        assert_eq!(curve.len(), 1);
        let point = &curve[0];
        assert_eq!(
            (point.iteration, point.step, point.positions),
            (2, 120, 9000)
        );
        assert_eq!(
            (point.wall_hours, point.core_hours),
            (0.05, 0.15000000000000002)
        );
        // A run's own metrics come first where both files exist.
        std::fs::write(RunDir::new(run).metrics(), csv_of(&[row(1, 120, 36.0)])).unwrap();
        let point = &learning_curve(run, &ratings, 1.0).unwrap()[0];
        assert_eq!(
            (point.iteration, point.positions, point.wall_hours),
            (1, 1000, 0.01)
        );
    }

    /// CSV text of `rows`, with a header.
    fn csv_of<R: Serialize>(rows: &[R]) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for r in rows {
            writer.serialize(r).unwrap();
        }
        String::from_utf8(writer.into_inner().unwrap()).unwrap()
    }
}
