//! Labelling an exact set's candidates: each proven by the prover (its value and every
//! turn's status) in fixed chunks, so that the set depends on the seed alone, not on the
//! threads; every label journaled as it comes ([`super::label_journal`]), so that a stopped
//! labelling resumes; where it stands reported after each; stoppable between positions.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use fanorona_env::Position;
use fanorona_exact::prover::{ProofFile, ProveOptions, TurnStatus, prove};
use fanorona_exact::tables::EndgameTables;
use rayon::prelude::*;

use super::error::ExamError;
use super::exact_set::ProvenPosition;
use super::label_journal::{LabelJournal, Labels};

/// Positions proven at once (the set does not depend on the threads).
const PROVE_CHUNK: usize = 32;

/// The prover's budget for one position of a set (its value and every turn's status).
#[derive(Clone, Copy, Debug)]
pub struct LabelBudget {
    /// Nodes expanded for the position, all its questions together.
    pub nodes: u64,
    /// Entries of each working table before its open entries are dropped.
    pub max_entries: usize,
}

/// Where a labelling stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelTally {
    /// Candidates proven so far, over every sitting.
    pub tried: usize,
    /// Of those, the ones the prover settled.
    pub settled: usize,
    /// Candidates tried in earlier sittings (read from the journal).
    pub resumed: usize,
    /// Positions the set should hold.
    pub wanted: usize,
    /// Candidates there are.
    pub candidates: usize,
}

/// How a labelling keeps its journal, reports and stops.
pub struct Labelling<'a> {
    /// The journal, continued where it exists (see [`super::journal_path`]); `None`: none.
    pub journal: Option<&'a std::path::Path>,
    /// Called once at the start and after each candidate proven.
    pub report: &'a (dyn Fn(&LabelTally) + Sync),
    /// Set to stop: the positions being proven stop within about a thousand nodes, are not
    /// journaled, and the labelling ends with [`ExamError::Stopped`].
    pub stop: Option<&'a AtomicBool>,
}

impl Labelling<'_> {
    /// A labelling with no journal that reports nowhere and never stops.
    pub fn silent() -> Labelling<'static> {
        Labelling {
            journal: None,
            report: &|_| {},
            stop: None,
        }
    }

    /// Whether a stop was asked for.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::SeqCst))
    }
}

/// Proves the value of `pos` and whether each of its turns keeps it, within `budget`, with
/// `tables` at the leaves. `None` when the budget does not settle all of it (or `stop` cut
/// it short).
pub fn prove_label(
    pos: &Position,
    tables: Option<&EndgameTables>,
    budget: LabelBudget,
    stop: Option<&AtomicBool>,
) -> Result<Option<ProvenPosition>, ExamError> {
    let options = ProveOptions {
        max_nodes: budget.nodes,
        max_seconds: None,
        max_entries: budget.max_entries,
        turns: true,
        progress: &mut |_| {},
        stop,
    };
    let (report, _) = prove(pos, tables, ProofFile::new(pos.board()), options)
        .map_err(|e| ExamError::Settings(format!("{}: {e}", pos.to_fen())))?;
    let Some(value) = report.value else {
        return Ok(None);
    };
    if report.turns.iter().any(|(_, s)| *s == TurnStatus::Unknown) {
        return Ok(None);
    }
    let keeps = report
        .turns
        .into_iter()
        .filter(|(_, s)| *s == TurnStatus::Keeps)
        .map(|(t, _)| t)
        .collect();
    Ok(Some(ProvenPosition {
        position: *pos,
        value,
        keeps,
    }))
}

/// What the labelling's threads share: the journal and the counts.
struct Shared {
    journal: Option<LabelJournal>,
    tally: LabelTally,
}

/// Proves the `candidates` in order, chunk by chunk, until `wanted` are settled: the first
/// `wanted` settled labels, and the candidates tried (whole chunks). `header` names the
/// labelling's settings in its journal.
pub(crate) fn label_candidates(
    candidates: &[Position],
    wanted: usize,
    tables: Option<&EndgameTables>,
    budget: LabelBudget,
    labelling: &Labelling<'_>,
    header: &serde_json::Map<String, serde_json::Value>,
) -> Result<(Vec<ProvenPosition>, usize), ExamError> {
    let (journal, mut labels) = match labelling.journal {
        Some(path) => {
            let (journal, labels) = LabelJournal::open(path, header, candidates)?;
            (Some(journal), labels)
        }
        None => (None, Labels::new()),
    };
    let settled = labels.values().filter(|l| l.is_some()).count();
    let tally = LabelTally {
        tried: labels.len(),
        settled,
        resumed: labels.len(),
        wanted,
        candidates: candidates.len(),
    };
    (labelling.report)(&tally);
    let shared = Mutex::new(Shared { journal, tally });
    let mut positions = Vec::with_capacity(wanted);
    let mut tried = 0;
    for (n, chunk) in candidates.chunks(PROVE_CHUNK).enumerate() {
        if positions.len() >= wanted {
            break;
        }
        let base = n * PROVE_CHUNK;
        let new: Vec<Option<(usize, Option<ProvenPosition>)>> = chunk
            .par_iter()
            .enumerate()
            .filter(|(i, _)| !labels.contains_key(&(base + i)))
            .map(|(i, pos)| {
                if labelling.stopped() {
                    return Ok(None);
                }
                let label = prove_label(pos, tables, budget, labelling.stop)?;
                // A label cut short by the stop is no label: proven again on resuming.
                if labelling.stopped() {
                    return Ok(None);
                }
                let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(journal) = &mut shared.journal {
                    journal.record(base + i, pos, label.as_ref())?;
                }
                shared.tally.tried += 1;
                shared.tally.settled += usize::from(label.is_some());
                (labelling.report)(&shared.tally);
                Ok(Some((base + i, label)))
            })
            .collect::<Result<_, ExamError>>()?;
        labels.extend(new.into_iter().flatten());
        if labelling.stopped() {
            let tally = shared.lock().unwrap_or_else(|e| e.into_inner()).tally;
            return Err(ExamError::Stopped {
                tried: tally.tried,
                settled: tally.settled,
            });
        }
        tried += chunk.len();
        for i in base..base + chunk.len() {
            if let Some(Some(label)) = labels.get(&i)
                && positions.len() < wanted
            {
                positions.push(label.clone());
            }
        }
    }
    Ok((positions, tried))
}
