//! Labelling an exact set's candidates: each proven by the prover (its value and every
//! turn's status) on one of several threads, the labels taken in candidate order and whole
//! chunks of candidates tried, so that the set depends on the seed alone, not on the
//! threads; every label journaled in candidate order as it is taken
//! ([`super::label_journal`]), so that a stopped labelling resumes; where it stands reported
//! after each; stoppable between positions.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use fanorona_env::Position;
use fanorona_exact::prover::{PROVER_STACK, ProofFile, ProveOptions, TurnStatus, prove};
use fanorona_exact::tables::EndgameTables;

use super::error::ExamError;
use super::exact_set::ProvenPosition;
use super::label_journal::{LabelJournal, Labels};

/// Candidates tried together: a labelling tries whole chunks (the set does not depend on
/// the threads).
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

/// The threads a labelling proves on when not told: one per available core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How a labelling keeps its journal, reports, stops, and on how many threads it proves.
pub struct Labelling<'a> {
    /// The journal, continued where it exists (see [`super::journal_path`]); `None`: none.
    pub journal: Option<&'a std::path::Path>,
    /// Called once at the start and after each candidate proven, in candidate order.
    pub report: &'a (dyn Fn(&LabelTally) + Sync),
    /// Set to stop: the positions being proven stop within about a thousand nodes, are not
    /// journaled (nor those proven ahead of them), and the labelling ends with
    /// [`ExamError::Stopped`].
    pub stop: Option<&'a AtomicBool>,
    /// Candidates proven at once, each on a thread of its own with the prover's stack.
    pub threads: usize,
}

impl Labelling<'_> {
    /// A labelling with no journal that reports nowhere, never stops and proves on
    /// [`default_threads`].
    pub fn silent() -> Labelling<'static> {
        Labelling {
            journal: None,
            report: &|_| {},
            stop: None,
            threads: default_threads(),
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
        parallel: false,
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

/// What the labelling's threads share: the journal, the counts and the labels taken so far.
struct Shared {
    journal: Option<LabelJournal>,
    tally: LabelTally,
    /// The first candidate whose label is not taken yet: every label before it is journaled
    /// and counted, in candidate order.
    next: usize,
    /// Labels proven beyond `next`, waiting for the ones before them.
    ahead: BTreeMap<usize, Result<Option<ProvenPosition>, ExamError>>,
    /// The first `wanted` settled labels taken.
    positions: Vec<ProvenPosition>,
    /// Why the labelling ended before its end: a stop or the first error in candidate order.
    failed: Option<ExamError>,
}

/// The state of a labelling under way: the candidates, the labels read from the journal, and
/// what the threads share.
struct Run<'a> {
    candidates: &'a [Position],
    wanted: usize,
    labelling: &'a Labelling<'a>,
    /// The labels of earlier sittings, by candidate index.
    journaled: Labels,
    /// The next candidate a thread takes to prove.
    taken: AtomicUsize,
    /// Set when no more candidates are needed (the set is full or the labelling failed).
    done: AtomicBool,
    shared: Mutex<Shared>,
}

impl Run<'_> {
    /// Proves candidates, the next not taken each time, until no more are needed.
    fn work(&self, tables: Option<&EndgameTables>, budget: LabelBudget, accept: Accept) {
        while !self.done.load(Ordering::SeqCst) && !self.labelling.stopped() {
            let index = self.taken.fetch_add(1, Ordering::SeqCst);
            let Some(pos) = self.candidates.get(index) else {
                return;
            };
            if self.journaled.contains_key(&index) {
                continue;
            }
            let label = prove_label(pos, tables, budget, self.labelling.stop)
                .map(|label| label.filter(accept));
            // A label cut short by the stop is no label: proven again on resuming.
            if self.labelling.stopped() {
                return;
            }
            let mut shared = self.lock();
            shared.ahead.insert(index, label);
            self.take(&mut shared);
        }
    }

    /// The shared state (a thread that panicked while holding it panics the labelling anyway).
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the labels ready in candidate order (journaling and reporting the new ones),
    /// until one is missing or the set is full at the end of a chunk.
    fn take(&self, shared: &mut Shared) {
        while shared.failed.is_none() && !self.is_full(shared) {
            if self.labelling.stopped() {
                shared.failed = Some(ExamError::Stopped {
                    tried: shared.tally.tried,
                    settled: shared.tally.settled,
                });
                break;
            }
            let index = shared.next;
            let label = if let Some(label) = self.journaled.get(&index) {
                label.clone()
            } else if let Some(proven) = shared.ahead.remove(&index) {
                let recorded = proven.and_then(|label| {
                    if let Some(journal) = &mut shared.journal {
                        journal.record(index, &self.candidates[index], label.as_ref())?;
                    }
                    Ok(label)
                });
                match recorded {
                    Ok(label) => {
                        shared.tally.tried += 1;
                        shared.tally.settled += usize::from(label.is_some());
                        (self.labelling.report)(&shared.tally);
                        label
                    }
                    Err(e) => {
                        shared.failed = Some(e);
                        break;
                    }
                }
            } else {
                return;
            };
            shared.next += 1;
            if let Some(label) = label
                && shared.positions.len() < self.wanted
            {
                shared.positions.push(label);
            }
        }
        self.done.store(true, Ordering::SeqCst);
    }

    /// Whether the labelling is over: every candidate taken, or the set full at the end of a
    /// chunk (so that the candidates tried do not depend on the threads).
    fn is_full(&self, shared: &Shared) -> bool {
        shared.next == self.candidates.len()
            || (shared.positions.len() >= self.wanted && shared.next.is_multiple_of(PROVE_CHUNK))
    }
}

/// Which settled labels a set takes; the others count, and are journaled, as unsettled.
pub(crate) type Accept = fn(&ProvenPosition) -> bool;

/// Proves the `candidates` on `labelling.threads` threads until `wanted` are settled (and
/// taken by `accept`) at the end of a chunk: the first `wanted` such labels, and the
/// candidates tried (whole chunks). The labels are taken, journaled and reported in candidate
/// order, so that the result and the journal do not depend on the threads. `header` names the
/// labelling's settings in its journal.
pub(crate) fn label_candidates(
    candidates: &[Position],
    wanted: usize,
    tables: Option<&EndgameTables>,
    budget: LabelBudget,
    accept: Accept,
    labelling: &Labelling<'_>,
    header: &serde_json::Map<String, serde_json::Value>,
) -> Result<(Vec<ProvenPosition>, usize), ExamError> {
    let (journal, journaled) = match labelling.journal {
        Some(path) => {
            let (journal, labels) = LabelJournal::open(path, header, candidates)?;
            (Some(journal), labels)
        }
        None => (None, Labels::new()),
    };
    let settled = journaled.values().filter(|l| l.is_some()).count();
    let tally = LabelTally {
        tried: journaled.len(),
        settled,
        resumed: journaled.len(),
        wanted,
        candidates: candidates.len(),
    };
    (labelling.report)(&tally);
    let run = Run {
        candidates,
        wanted,
        labelling,
        journaled,
        taken: AtomicUsize::new(0),
        done: AtomicBool::new(false),
        shared: Mutex::new(Shared {
            journal,
            tally,
            next: 0,
            ahead: BTreeMap::new(),
            positions: Vec::with_capacity(wanted),
            failed: None,
        }),
    };
    // The labels of earlier sittings first: the set may be whole without proving anything.
    run.take(&mut run.lock());
    if !run.done.load(Ordering::SeqCst) {
        std::thread::scope(|scope| {
            for _ in 0..labelling.threads.max(1) {
                let spawned = std::thread::Builder::new()
                    .stack_size(PROVER_STACK)
                    .spawn_scoped(scope, || run.work(tables, budget, accept));
                if let Err(e) = spawned {
                    // The threads started end with the positions they are proving.
                    run.done.store(true, Ordering::SeqCst);
                    return Err(ExamError::Thread(e));
                }
            }
            Ok(())
        })?;
    }
    let mut shared = run.lock();
    if let Some(e) = shared.failed.take() {
        return Err(e);
    }
    // Not full: the threads ended at a stop before taking every label needed.
    if !run.is_full(&shared) {
        return Err(ExamError::Stopped {
            tried: shared.tally.tried,
            settled: shared.tally.settled,
        });
    }
    Ok((std::mem::take(&mut shared.positions), shared.next))
}
