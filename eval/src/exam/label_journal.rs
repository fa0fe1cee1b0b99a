//! The journal of an exact set's labelling under way (`FILE.partial` beside the set): every
//! candidate position proven so far, so that a labelling stopped by Ctrl-C, a kill or a crash
//! resumes where it stopped when the same command runs again.
//!
//! JSON lines: first a header naming the labelling (board, sources, positions wanted, pieces,
//! the prover's budget, the tables), which must match the command that resumes from it; then
//! one line a candidate proven, each appended and synced to disk before the next:
//!
//! ```text
//! {"journal":"fanorona exact set labelling","version":1,"board":"5x3",...}
//! {"index":0,"fen":"5/1W3/BBWB1 w 0 1","value":"win","keeps":["b2b3"]}
//! {"index":3,"fen":"B4/1WW2/B1B1W w 0 1","value":null}
//! ```
//!
//! A line cut short by a crash (the last, without its newline) is dropped on resuming.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use fanorona_env::{Excerpt, Position, Turn};
use fanorona_util::atomic_write::write_atomic;
use fanorona_util::input_file::read_regular_text_limited;
use serde_json::{Map, Value, json};

use super::error::ExamError;
use super::exact_set::{ProvenPosition, parse_verdict};
use super::set_file::MAX_SET_BYTES;

/// The journal's kind, its header's first field.
const KIND: &str = "fanorona exact set labelling";

/// The version of the journal's layout.
const VERSION: u64 = 1;

/// The journal file of the set `path`: `path.partial` beside it.
pub fn journal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// An open journal: where its records are appended.
pub(crate) struct LabelJournal {
    path: PathBuf,
    file: File,
}

/// The labels a journal holds, by candidate index (`None`: the prover did not settle it).
pub(crate) type Labels = BTreeMap<usize, Option<ProvenPosition>>;

impl LabelJournal {
    /// Opens the journal `path` of the labelling `header` (a JSON object of its settings) over
    /// the `candidates`: a new one, or the one a stopped run left, whose labels it returns.
    /// A journal of other settings or candidates is refused, naming what differs.
    pub fn open(
        path: &Path,
        header: &Map<String, Value>,
        candidates: &[Position],
    ) -> Result<(LabelJournal, Labels), ExamError> {
        let error = |reason: String| ExamError::SetFile {
            path: path.display().to_string(),
            reason,
        };
        let mut head = json!({ "journal": KIND, "version": VERSION });
        head.as_object_mut()
            .expect("an object")
            .extend(header.clone());
        let mut text = serde_json::to_string(&head).expect("JSON of plain values") + "\n";
        let mut labels = Labels::new();
        if path.exists() {
            let old = read_regular_text_limited(path, MAX_SET_BYTES, "a labelling journal")
                .map_err(|e| error(format!("cannot read it: {e}")))?;
            // A last line without its newline was cut short by a crash: dropped.
            let whole = &old[..old.rfind('\n').map_or(0, |i| i + 1)];
            let mut lines = whole.lines();
            check_header(lines.next().unwrap_or(""), &head).map_err(error)?;
            for (n, line) in lines.enumerate() {
                let (index, label) = parse_record(line, candidates)
                    .map_err(|reason| error(format!("line {}: {reason}", n + 2)))?;
                labels.insert(index, label);
                text.push_str(line);
                text.push('\n');
            }
        }
        // Written whole (the torn line gone), then appended to.
        write_atomic(path, text.as_bytes()).map_err(|e| error(e.to_string()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| error(format!("cannot open it to append: {e}")))?;
        let journal = LabelJournal {
            path: path.to_path_buf(),
            file,
        };
        Ok((journal, labels))
    }

    /// Appends the label of candidate `index` (`pos`), synced to disk.
    pub fn record(
        &mut self,
        index: usize,
        pos: &Position,
        label: Option<&ProvenPosition>,
    ) -> Result<(), ExamError> {
        let board = pos.board();
        let line = json!({
            "index": index,
            "fen": pos.to_fen(),
            "value": label.map(|l| l.value.name()),
            "keeps": label.map(|l| l.keeps.iter().map(|t| t.notation(board)).collect::<Vec<_>>()),
        });
        let mut bytes = serde_json::to_vec(&line).expect("JSON of plain values");
        bytes.push(b'\n');
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| ExamError::SetFile {
                path: self.path.display().to_string(),
                reason: format!("cannot append to it: {e}"),
            })
    }
}

/// Refuses a journal whose header `line` is not `expected`, naming the first setting that
/// differs.
fn check_header(line: &str, expected: &Value) -> Result<(), String> {
    let refuse = |what: String| {
        Err(format!(
            "the labelling journal of another command ({what}): run that command again to \
             finish it, or delete the file to start this one afresh"
        ))
    };
    let Ok(Value::Object(found)) = serde_json::from_str::<Value>(line) else {
        return refuse("its first line is not a journal header".into());
    };
    let expected = expected.as_object().expect("an object");
    for (key, value) in expected {
        let theirs = found.get(key).unwrap_or(&Value::Null);
        if theirs != value {
            return refuse(format!("its {key} is {theirs}, this command's {value}"));
        }
    }
    if let Some(key) = found.keys().find(|k| !expected.contains_key(*k)) {
        return refuse(format!("it has a setting {key} this command has not"));
    }
    Ok(())
}

/// Reads a record line: the candidate's index and its label, checked against `candidates`.
fn parse_record(
    line: &str,
    candidates: &[Position],
) -> Result<(usize, Option<ProvenPosition>), String> {
    let record: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let index = record["index"]
        .as_u64()
        .and_then(|i| usize::try_from(i).ok())
        .ok_or("no candidate index")?;
    let fen = record["fen"].as_str().ok_or("no FEN")?;
    let position = candidates
        .get(index)
        .filter(|p| p.to_fen() == fen)
        .ok_or_else(|| {
            format!(
                "position {} is not candidate {index} of this labelling; delete the file to \
                 start afresh",
                Excerpt(fen)
            )
        })?;
    let value = match &record["value"] {
        Value::Null => return Ok((index, None)),
        Value::String(name) => parse_verdict(name)?,
        other => return Err(format!("value {other}: expected a name or null")),
    };
    let keeps = record["keeps"]
        .as_array()
        .ok_or("no turns that keep the value")?
        .iter()
        .map(|t| {
            let text = t.as_str().ok_or("a turn that is not a string")?;
            position
                .parse_turn(text)
                .map_err(|e| format!("turn {}: {e}", Excerpt(text)))
        })
        .collect::<Result<Vec<Turn>, String>>()?;
    let label = ProvenPosition {
        position: *position,
        value,
        keeps,
    };
    Ok((index, Some(label)))
}
