//! Per-iteration metrics of a training run, appended as rows to `metrics.csv` in the run
//! directory (a header first), and read back for plots.

use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};

use fanorona_util::atomic_write::write_atomic_with;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Metrics that cannot be written or read.
#[derive(Debug, thiserror::Error)]
#[error("metrics file {path}: {message}")]
pub struct MetricsError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

/// One iteration's metrics. Evaluation scores are empty in iterations without evaluation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MetricsRow {
    /// The iteration (from 1).
    pub iteration: u64,
    /// Learner steps after the iteration.
    pub step: u64,
    /// Seconds since the run (or its resumption) started.
    pub elapsed_s: f64,
    /// Self-play games played this iteration.
    pub games: u64,
    /// Positions (actions) played this iteration.
    pub positions: u64,
    /// Self-play games per second.
    pub games_per_s: f64,
    /// Self-play positions per second.
    pub positions_per_s: f64,
    /// Mean game length in actions.
    pub mean_game_length: f64,
    /// Positions of this iteration's games whose value target is the endgame tables' exact
    /// value (runs with `selfplay.tables`).
    #[serde(default)]
    pub exact_positions: u64,
    /// Positions of this iteration's games whose policy target is the turns the prover shows
    /// to keep the value (runs with `selfplay.prover`).
    #[serde(default)]
    pub exact_policy_positions: u64,
    /// Positions in the replay window.
    pub replay_positions: u64,
    /// Learning rate at the last step.
    pub lr: f64,
    /// Mean total loss over the iteration's steps.
    pub loss_total: f64,
    /// Mean policy cross-entropy.
    pub loss_policy: f64,
    /// Mean value MSE.
    pub loss_value: f64,
    /// Mean entropy of the network's policy.
    pub policy_entropy: f64,
    /// Of runs before 2026-12-06 (kept so that their files keep it): the network's score
    /// (win 1, draw 1/2) against `minimax:depth=1`.
    pub score_vs_minimax1: Option<f64>,
    /// Of runs before 2026-12-06: its score against `minimax:depth=2`.
    pub score_vs_minimax2: Option<f64>,
    /// Of an `abnet` run, the new generation's score in its gate match against the best.
    #[serde(default)]
    pub gate_score: Option<f64>,
    /// Of an `abnet` run, the iteration whose network is the best after this one (0: the
    /// network the run started from).
    #[serde(default)]
    pub best_iteration: Option<u64>,
    /// Of 9x5 runs before 2026-12-06: the value head's mean error against the minimax-labelled
    /// 9x5 test set (`data/exam-9x5.txt`).
    #[serde(default)]
    pub exam_value_error: Option<f64>,
    /// Of 9x5 runs before 2026-12-06: the raw policy's agreement with that set's best turns.
    #[serde(default)]
    pub exam_agreement: Option<f64>,
    /// At an evaluation: the score of the agent the run names against its strength opponent
    /// (`fanorona_train::roles::strength_opponent`).
    #[serde(default)]
    pub strength_score: Option<f64>,
    /// The low end of that score's 95% interval.
    #[serde(default)]
    pub strength_low: Option<f64>,
    /// The high end of that score's 95% interval.
    #[serde(default)]
    pub strength_high: Option<f64>,
    /// At an evaluation of a 9x5 or 5x5 run: of the built-in exact set's won and drawn
    /// positions, the share where the raw policy keeps the proven value
    /// (`data/exam-9x5-exact.txt`, `data/exam-5x5-exact.txt`).
    #[serde(default)]
    pub exact_keeps: Option<f64>,
    /// The same over its positions of the fewest pieces (8 to 10 on 9x5, 9 to 12 on 5x5;
    /// the column was `exact_keeps_8_10` before 2026-12-07).
    #[serde(default, alias = "exact_keeps_8_10")]
    pub exact_keeps_few: Option<f64>,
    /// Of the middle band (11 to 13 pieces on 9x5, 13 to 16 on 5x5).
    #[serde(default, alias = "exact_keeps_11_13")]
    pub exact_keeps_middle: Option<f64>,
    /// Of the most pieces (14 to 16 on 9x5, 17 to 22 on 5x5).
    #[serde(default, alias = "exact_keeps_14_16")]
    pub exact_keeps_many: Option<f64>,
    /// Over the set's critical positions only, where some legal turn spoils the value.
    #[serde(default)]
    pub exact_keeps_critical: Option<f64>,
    /// The value head's accuracy against the exact set's proven values (the nearest of +1,
    /// 0, -1).
    #[serde(default)]
    pub exact_value_accuracy: Option<f64>,
    /// The value head's mean Brier score against them (0 is perfect, 2/3 a uniform guess).
    #[serde(default)]
    pub exact_value_brier: Option<f64>,
}

/// A row of a metrics file, numbered by the iteration (or model version) it follows.
pub trait Row: Serialize + DeserializeOwned + Default {
    /// The iteration or model version of the row.
    fn iteration(&self) -> u64;
}

impl Row for MetricsRow {
    fn iteration(&self) -> u64 {
        self.iteration
    }
}

/// The CSV header of rows of type `R`.
fn header_of<R: Row>() -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .serialize(R::default())
        .expect("a row serializes into memory");
    let bytes = writer.into_inner().expect("memory takes the row");
    String::from_utf8_lossy(&bytes)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Appends rows ([`MetricsRow`]s by default) to a CSV file, flushing each row.
pub struct MetricsWriter<R: Row = MetricsRow> {
    path: PathBuf,
    writer: csv::Writer<fs::File>,
    _rows: std::marker::PhantomData<fn(&R)>,
}

impl<R: Row> MetricsWriter<R> {
    /// Opens the CSV file `path` (a run's `metrics.csv`, `learner.csv` or `gauntlet.csv`) for
    /// appending the rows after `iteration` (writing the header if the file is new or empty).
    /// Rows of later iterations, written after the checkpoint a run resumes from, are cut
    /// first (the file is rewritten atomically).
    pub fn open(path: &Path, iteration: u64) -> Result<MetricsWriter<R>, MetricsError> {
        let path = path.to_path_buf();
        let error = |message: String| MetricsError {
            path: path.clone(),
            message,
        };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| error(e.to_string()))?;
        }
        if path.exists() {
            let mut rows: Vec<R> = read_rows(&path)?;
            // A file of an older version (fewer columns) is written again with today's
            // header, its rows' new columns empty, so that appended rows match it.
            let header = fs::read_to_string(&path)
                .map_err(|e| error(e.to_string()))?
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            if header != header_of::<R>() || rows.iter().any(|row| row.iteration() > iteration) {
                rows.retain(|row| row.iteration() <= iteration);
                write_atomic_with(&path, |out| {
                    let mut writer = csv::Writer::from_writer(out);
                    for row in &rows {
                        writer.serialize(row)?;
                    }
                    writer.flush()
                })
                .map_err(|e| error(e.to_string()))?;
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| error(e.to_string()))?;
        let is_new = file.metadata().map_err(|e| error(e.to_string()))?.len() == 0;
        let writer = csv::WriterBuilder::new()
            .has_headers(is_new)
            .from_writer(file);
        Ok(MetricsWriter {
            path,
            writer,
            _rows: std::marker::PhantomData,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a row and flushes it to disk.
    pub fn append(&mut self, row: &R) -> Result<(), MetricsError> {
        let error = |message: String| MetricsError {
            path: self.path.clone(),
            message,
        };
        self.writer
            .serialize(row)
            .map_err(|e| error(e.to_string()))?;
        self.writer.flush().map_err(|e| error(e.to_string()))
    }
}

/// Reads every row of a metrics file.
pub fn read_metrics(path: &Path) -> Result<Vec<MetricsRow>, MetricsError> {
    read_rows(path)
}

/// Reads every row of a CSV file of rows `R`.
pub fn read_rows<R: Row>(path: &Path) -> Result<Vec<R>, MetricsError> {
    let error = |message: String| MetricsError {
        path: path.to_path_buf(),
        message,
    };
    let mut reader = csv::Reader::from_path(path).map_err(|e| error(e.to_string()))?;
    reader
        .deserialize()
        .map(|row| row.map_err(|e| error(e.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_append_across_reopenings_and_rows_after_the_resumed_iteration_are_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run").join("metrics.csv");
        let row = |i: u64, score: Option<f64>| MetricsRow {
            iteration: i,
            step: 10 * i,
            loss_total: 3.0 / i as f64,
            score_vs_minimax1: score,
            ..MetricsRow::default()
        };
        let mut writer = MetricsWriter::open(&path, 0).unwrap();
        writer.append(&row(1, None)).unwrap();
        drop(writer);
        let mut writer = MetricsWriter::open(&path, 1).unwrap();
        writer.append(&row(2, Some(0.75))).unwrap();
        writer.append(&row(3, None)).unwrap();
        let rows = read_metrics(writer.path()).unwrap();
        assert_eq!(rows, vec![row(1, None), row(2, Some(0.75)), row(3, None)]);
        drop(writer);
        // Reopened after iteration 2 (a resumed checkpoint's), the row of iteration 3 goes.
        let mut writer = MetricsWriter::open(&path, 2).unwrap();
        writer.append(&row(3, Some(0.5))).unwrap();
        let rows = read_metrics(writer.path()).unwrap();
        assert_eq!(
            rows,
            vec![row(1, None), row(2, Some(0.75)), row(3, Some(0.5))]
        );
        let text = fs::read_to_string(writer.path()).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("iteration")).count(),
            1
        );
    }

    #[test]
    fn a_file_of_an_older_version_gets_todays_columns_before_rows_are_appended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metrics.csv");
        let old = MetricsRow {
            iteration: 1,
            step: 10,
            ..MetricsRow::default()
        };
        // Written without the last two columns (empty in this row), as an older version did.
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(&old).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        let full = header_of::<MetricsRow>();
        let cut = |line: &str| line.rsplitn(3, ',').last().unwrap().to_string();
        let lines: Vec<String> = text.lines().map(cut).collect();
        assert_eq!(lines[0].split(',').count() + 2, full.split(',').count());
        fs::write(&path, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
        assert_eq!(read_metrics(&path).unwrap(), vec![old.clone()]);
        let mut writer = MetricsWriter::<MetricsRow>::open(&path, 1).unwrap();
        let new = MetricsRow {
            iteration: 2,
            exact_keeps: Some(0.5),
            ..MetricsRow::default()
        };
        writer.append(&new).unwrap();
        assert_eq!(read_metrics(&path).unwrap(), vec![old, new]);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next().unwrap(), full);
    }
}
