//! Proving the value of a position: the questions it takes, the status of each of its turns,
//! certificates checked before anything is reported, and the proof file continued and
//! updated. Nothing of the file is trusted: every record is checked against the rules and the
//! tables before the run uses or reports it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fanorona_env::{Color, Position, Rules, Turn};

use super::certificate::{Certificate, Settled, settle};
use super::error::ProverError;
use super::file::{ProofFile, Record};
use super::node::{Key, turns_and_children};
use super::search::{Limits, Outcome, Question, Search};
use super::session::PROVER_STACK;
use super::table::{Entry, ProofTable};
use super::tables_id::TablesId;
use crate::solver::Value;
use crate::tables::EndgameTables;

/// Nodes searched before the first look for a trap among the positions met (at least: a
/// search continued from a proof file waits for as many nodes as the file held positions).
const FIRST_PAUSE: u64 = 10_000;

/// The exact value of a position for its side to move (the tables' convention: no draw
/// limits), as the prover establishes it, without the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The other side can force a win.
    Loss,
}

impl Verdict {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }

    /// As a result for the side to move: +1 a win, 0 a draw, -1 a loss.
    pub fn result(self) -> f32 {
        match self {
            Verdict::Win => 1.0,
            Verdict::Draw => 0.0,
            Verdict::Loss => -1.0,
        }
    }

    /// The value for the other side of the same position: a win is its loss, a draw a draw.
    pub fn for_other_side(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

impl From<Value> for Verdict {
    /// A value without its distance.
    fn from(value: Value) -> Verdict {
        match value {
            Value::Win(_) => Verdict::Win,
            Value::Draw => Verdict::Draw,
            Value::Loss(_) => Verdict::Loss,
        }
    }
}

/// Whether a turn of the root keeps its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStatus {
    /// It keeps the root's value (proven and certified).
    Keeps,
    /// It gives some of it away (proven and certified).
    Spoils,
    /// Not settled within the budget.
    Unknown,
}

impl TurnStatus {
    /// `keeps`, `spoils` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            TurnStatus::Keeps => "keeps",
            TurnStatus::Spoils => "spoils",
            TurnStatus::Unknown => "unknown",
        }
    }
}

/// A progress report, every few seconds of a search.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The question being searched.
    pub question: Question,
    /// Nodes expanded so far in this run (every search).
    pub nodes: u64,
    /// Entries of the question's table.
    pub entries: usize,
    /// Seconds since the run began.
    pub seconds: f64,
}

/// The budget of a run and what it reports.
pub struct ProveOptions<'a> {
    /// Stop after this many expanded nodes, over every search of the run.
    pub max_nodes: u64,
    /// Stop after this many seconds (from 0 up; infinite or beyond the clock's range: no
    /// limit).
    pub max_seconds: Option<f64>,
    /// Entries a table may hold before its open entries are dropped (about 40 bytes each).
    pub max_entries: usize,
    /// Also settle whether each turn of the root keeps its value.
    pub turns: bool,
    /// Called with each progress report (on the proving thread: [`super::prove_file`] runs
    /// the search on a thread of its own).
    pub progress: &'a mut (dyn FnMut(&Progress) + Send),
    /// Set (by a signal handler, say) to stop the run early: its searches stop within about
    /// a thousand nodes, and what they reached is kept as when the budget runs out.
    pub stop: Option<&'a AtomicBool>,
    /// Search the root's two questions (can the side to move win? can the other?) at once,
    /// on two threads: a draw takes both anyway, and a proven win or loss halts the other.
    /// `max_nodes` then bounds each of the two searches.
    pub parallel: bool,
}

/// One question of a run: where it got.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionReport {
    /// The question.
    pub question: Question,
    /// Its answer.
    pub outcome: Outcome,
    /// Nodes expanded for it, over every run of the proof file.
    pub nodes: u64,
    /// Seconds spent on it, over every run.
    pub seconds: f64,
    /// Positions in its certificate (settled questions) or its table (unsettled).
    pub size: usize,
    /// What its certificate or table says of each turn of the root.
    pub root_turns: RootTurns,
}

/// Where a question stands after one turn of its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnState {
    /// The attacker wins after it (proven, or by the tables).
    Proven,
    /// The attacker cannot win after it (disproven, or by the tables).
    Disproven,
    /// Not settled: the proof and disproof numbers its table holds (1 and 1 where none).
    Open {
        /// Proof number: how many more leaves at least must be proven to prove it.
        pn: u32,
        /// Disproof number.
        dn: u32,
    },
}

impl TurnState {
    /// `proven`, `disproven` or `open`.
    pub fn name(self) -> &'static str {
        match self {
            TurnState::Proven => "proven",
            TurnState::Disproven => "disproven",
            TurnState::Open { .. } => "open",
        }
    }
}

/// How far a question has got with the turns of its root, turn by turn (the progress of a
/// long proof, such as the 9x5 start's, that a reader can follow).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootTurns {
    /// Each turn of the root with its state, in the order of the legal turns.
    pub each: Vec<(Turn, TurnState)>,
}

impl RootTurns {
    /// Reads the turns of `root` from `table`, a question's table or certificate.
    fn of(
        root: &Position,
        question: Question,
        table: &ProofTable,
        tables: Option<&EndgameTables>,
    ) -> RootTurns {
        let each = turns_and_children(root)
            .into_iter()
            .map(|(turn, next)| {
                let state = match settle(&next, tables, question.attacker) {
                    Settled::Win => TurnState::Proven,
                    Settled::NoWin => TurnState::Disproven,
                    Settled::Open => match table.get(&Key::of(&next)) {
                        Some(Entry::Proven { .. }) => TurnState::Proven,
                        Some(Entry::Disproven) => TurnState::Disproven,
                        Some(Entry::Open { pn, dn }) => TurnState::Open { pn, dn },
                        Some(Entry::Tentative) | None => TurnState::Open { pn: 1, dn: 1 },
                    },
                };
                (turn, state)
            })
            .collect();
        RootTurns { each }
    }

    /// The turns after which the attacker is proven to win.
    pub fn proven(&self) -> usize {
        self.count(TurnState::Proven)
    }

    /// The turns after which the attacker is proven not to win.
    pub fn disproven(&self) -> usize {
        self.count(TurnState::Disproven)
    }

    fn count(&self, state: TurnState) -> usize {
        self.each.iter().filter(|(_, s)| *s == state).count()
    }
}

/// What a run proved.
#[derive(Clone, Debug)]
pub struct ProofReport {
    /// The value, if proven.
    pub value: Option<Verdict>,
    /// The questions asked at the root.
    pub questions: Vec<QuestionReport>,
    /// Each turn of the root with whether it keeps the value (when asked and the value is
    /// proven).
    pub turns: Vec<(Turn, TurnStatus)>,
    /// Nodes expanded in this run.
    pub nodes: u64,
    /// Seconds this run took.
    pub seconds: f64,
}

/// The position the prover works on: `pos` under the standard rules without draw limits.
fn prover_position(pos: &Position) -> Result<Position, ProverError> {
    if !pos.is_turn_start() {
        return Err(ProverError::BadPosition(
            "it is in mid-chain; give the position at the start of a turn".into(),
        ));
    }
    crate::solver::check_rules(pos.rules()).map_err(|e| ProverError::BadPosition(e.to_string()))?;
    let us = pos.side_to_move();
    if pos.pieces(us.other()) == 0 {
        return Err(ProverError::BadPosition(
            "the game is over: the side not to move has no piece".into(),
        ));
    }
    Position::from_pieces(
        pos.board(),
        [pos.pieces(Color::White), pos.pieces(Color::Black)],
        us,
        Rules::pure(),
    )
    .ok_or_else(|| ProverError::BadPosition("the pieces overlap".into()))
}

/// A run: the budget shared by its searches, the proof file they read and update, and one
/// working table per attacker, shared by every search of that attacker (seeded with what the
/// file knows).
struct Run<'a, 'b> {
    tables: Option<&'a EndgameTables>,
    file: ProofFile,
    work: [ProofTable; 2],
    options: ProveOptions<'b>,
    /// When the searches began (after the file's records were checked).
    started: Instant,
    /// The budget of seconds, counted from `started` (`None`: no limit).
    seconds: Option<Duration>,
    nodes: u64,
}

/// What one question's search takes from its run: the budget, the flags that stop it, and
/// where its progress reports start from.
struct QuestionBudget<'a> {
    tables: Option<&'a EndgameTables>,
    max_nodes: u64,
    deadline: Option<Instant>,
    max_entries: usize,
    /// The run's stop (Ctrl-C, say).
    stop: Option<&'a AtomicBool>,
    /// Set when the other question, asked at once, settled the value.
    halt: Option<&'a AtomicBool>,
    /// When the run began, and its nodes before this search (for the progress reports).
    run_started: Instant,
    nodes_before: u64,
}

/// The last look for a trap: the table's entries then and the seconds it took (a look reads
/// the whole table: its time grows with it).
#[derive(Clone, Copy, Debug, Default)]
struct TrapLook {
    entries: usize,
    seconds: f64,
}

impl TrapLook {
    /// Whether a look now, with `entries` in the table, would end by the `deadline` at the
    /// last look's pace: a budget of seconds is not overrun by a look (a later run of the
    /// proof file looks at its first pause).
    fn fits(&self, entries: usize, deadline: Option<Instant>) -> bool {
        let Some(deadline) = deadline else {
            return true;
        };
        let pace = self.seconds / self.entries.max(1) as f64;
        let expected = Duration::try_from_secs_f64(pace * entries as f64).unwrap_or(Duration::MAX);
        Instant::now()
            .checked_add(expected)
            .is_some_and(|done| done < deadline)
    }
}

/// Searches `record`'s question at `root` over `table` within `budget`: searches, and
/// certifies; where a disproof leaned on path-bound disproofs that do not hold together,
/// forgets those, makes their positions strict and searches on. At pauses, with the searched
/// region doubling between them, a disproof is also looked for directly: the largest trap
/// among the positions met (df-pn's numbers find the disproofs of drawn regions with cycles
/// late), where it [fits](TrapLook::fits) the budget of seconds. Returns the record (its
/// outcome, nodes and seconds updated; settled, it keeps its checked certificate) and the
/// nodes this search expanded.
fn search_question(
    root: &Position,
    mut record: Record,
    table: &mut ProofTable,
    budget: QuestionBudget<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Record, u64), ProverError> {
    let question = record.question;
    let started = Instant::now();
    let mut report = |nodes: u64, entries: usize| {
        progress(&Progress {
            question,
            nodes: budget.nodes_before + nodes,
            entries,
            seconds: budget.run_started.elapsed().as_secs_f64(),
        })
    };
    let limits = Limits {
        max_nodes: budget.max_nodes,
        deadline: budget.deadline,
        max_entries: budget.max_entries,
        progress: &mut report,
        stop: budget.stop,
        halt: budget.halt,
    };
    let tables = budget.tables;
    let mut search = Search::new(question, tables, table, limits);
    // A search continued from the proof file looks first once it has searched as many nodes
    // as the file gave it positions (each look reads them all).
    let mut pause = search.nodes + FIRST_PAUSE.max(record.table.len() as u64);
    let mut last_look = TrapLook::default();
    let outcome = loop {
        let outcome = search.run(root, pause);
        if outcome == Outcome::Unproven {
            if !search.interrupted() && last_look.fits(search.table.len(), budget.deadline) {
                let started = Instant::now();
                let trap =
                    Certificate::extract(question, Outcome::Disproven, root, tables, search.table);
                last_look = TrapLook {
                    entries: search.table.len(),
                    seconds: started.elapsed().as_secs_f64(),
                };
                if let Ok(certificate) = trap {
                    certificate.check(root.board(), tables)?;
                    record.table = certified_table(&certificate);
                    break Outcome::Disproven;
                }
            }
            if search.exhausted() {
                break outcome;
            }
            pause = search.nodes.saturating_mul(2);
            continue;
        }
        match Certificate::extract_or_failures(question, outcome, root, tables, search.table) {
            Ok(certificate) => {
                certificate.check(root.board(), tables)?;
                record.table = certified_table(&certificate);
                break outcome;
            }
            Err((error, failed)) if failed.is_empty() => return Err(error),
            Err((_, failed)) => search.table.demote(&failed),
        }
    };
    let nodes = search.nodes;
    record.nodes += nodes;
    record.seconds += started.elapsed().as_secs_f64();
    record.outcome = outcome;
    // Settled here, its certificate checked above; unsettled, it takes this run's table.
    record.checked = true;
    Ok((record, nodes))
}

impl Run<'_, '_> {
    /// When the budget of seconds ends: `seconds` after the searches began, not after the
    /// loaded file was checked (`None`: no limit, or beyond the clock's range).
    fn deadline(&self) -> Option<Instant> {
        self.seconds.and_then(|span| self.started.checked_add(span))
    }

    /// The answer the proof file holds to `question` at `root`, where settled there (its
    /// record checked).
    fn settled(
        &mut self,
        root: &Position,
        question: Question,
    ) -> Result<Option<Outcome>, ProverError> {
        let board = self.file.board;
        match self.file.record_mut(Key::of(root), question) {
            Some(r) if r.outcome != Outcome::Unproven => {
                verify(r, board, self.tables)?;
                Ok(Some(r.outcome))
            }
            _ => Ok(None),
        }
    }

    /// Whether the run was told to stop.
    fn stopped(&self) -> bool {
        self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The record of `question` at `root` to search on: the file's (taken out of it), or a
    /// new one.
    fn take_record(&mut self, root: &Position, question: Question) -> Record {
        let key = Key::of(root);
        self.file.take(key, question).unwrap_or(Record {
            root: key,
            question,
            outcome: Outcome::Unproven,
            nodes: 0,
            seconds: 0.0,
            table: ProofTable::default(),
            checked: true,
        })
    }

    /// The budget of a search starting now; `halt` stops it besides the run's stop.
    fn budget<'h>(&self, halt: Option<&'h AtomicBool>) -> QuestionBudget<'h>
    where
        Self: 'h,
    {
        QuestionBudget {
            tables: self.tables,
            max_nodes: self.options.max_nodes.saturating_sub(self.nodes),
            deadline: self.deadline(),
            max_entries: self.options.max_entries,
            stop: self.options.stop,
            halt,
            run_started: self.started,
            nodes_before: self.nodes,
        }
    }

    /// Files a searched record and counts its nodes.
    fn file_record(&mut self, record: Record, nodes: u64) -> Outcome {
        self.nodes += nodes;
        let outcome = record.outcome;
        self.file.records.push(record);
        outcome
    }

    /// Answers `question` at `root`: from the file where it is settled there, else by
    /// searching on within what is left of the budget. A settled answer is certified and
    /// checked, and its record keeps the certificate.
    fn ask(&mut self, root: &Position, question: Question) -> Result<Outcome, ProverError> {
        if let Some(outcome) = self.settled(root, question)? {
            return Ok(outcome);
        }
        if self.stopped() {
            return Ok(Outcome::Unproven);
        }
        let record = self.take_record(root, question);
        let budget = self.budget(None);
        let table = &mut self.work[question.attacker.index()];
        let (record, nodes) = search_question(root, record, table, budget, self.options.progress)?;
        Ok(self.file_record(record, nodes))
    }

    /// The value of `root` for its side to move: the question of its win, then (disproven)
    /// that of its loss; with [`ProveOptions::parallel`], both at once.
    fn value(&mut self, root: &Position) -> Result<Option<Verdict>, ProverError> {
        let us = root.side_to_move();
        let win = Question { attacker: us };
        let loss = Question {
            attacker: us.other(),
        };
        let known = (self.settled(root, win)?, self.settled(root, loss)?);
        let (win_outcome, loss_outcome) = match known {
            // A loss the file proves (found with both questions at once) needs no more.
            (None, Some(Outcome::Proven)) => (Outcome::Unproven, Outcome::Proven),
            (None, None) if self.options.parallel && !self.stopped() => {
                self.ask_both(root, win, loss)?
            }
            _ => match self.ask(root, win)? {
                Outcome::Disproven => (Outcome::Disproven, self.ask(root, loss)?),
                other => (other, Outcome::Unproven),
            },
        };
        Ok(match (win_outcome, loss_outcome) {
            (Outcome::Proven, _) => Some(Verdict::Win),
            (_, Outcome::Proven) => Some(Verdict::Loss),
            (Outcome::Disproven, Outcome::Disproven) => Some(Verdict::Draw),
            _ => None,
        })
    }

    /// Searches the root's two questions at once, each on a thread of its own with the
    /// prover's stack and its attacker's table. A proven win (or loss) settles the value: the
    /// other search is halted then, and its record left out of the file (the sequential
    /// order would not have asked it).
    fn ask_both(
        &mut self,
        root: &Position,
        win: Question,
        loss: Question,
    ) -> Result<(Outcome, Outcome), ProverError> {
        let halt = AtomicBool::new(false);
        let records = [self.take_record(root, win), self.take_record(root, loss)];
        let budgets = [self.budget(Some(&halt)), self.budget(Some(&halt))];
        let progress = Mutex::new(&mut *self.options.progress);
        let [white, black] = &mut self.work;
        let tables = match win.attacker {
            Color::White => [white, black],
            Color::Black => [black, white],
        };
        let results = std::thread::scope(|scope| {
            let mut threads = Vec::new();
            for ((record, table), budget) in records.into_iter().zip(tables).zip(budgets) {
                let (halt, progress) = (&halt, &progress);
                let thread = std::thread::Builder::new()
                    .stack_size(PROVER_STACK)
                    .spawn_scoped(scope, move || {
                        let mut report = |p: &Progress| {
                            (progress.lock().unwrap_or_else(|e| e.into_inner()))(p);
                        };
                        let result = search_question(root, record, table, budget, &mut report);
                        // A proof settles the value; an error ends the run.
                        if result
                            .as_ref()
                            .map_or(true, |(r, _)| r.outcome == Outcome::Proven)
                        {
                            halt.store(true, Ordering::Relaxed);
                        }
                        result
                    });
                match thread {
                    Ok(thread) => threads.push(thread),
                    Err(e) => {
                        halt.store(true, Ordering::Relaxed);
                        return Err(ProverError::Thread(e));
                    }
                }
            }
            Ok(threads
                .into_iter()
                .map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect::<Vec<_>>())
        })?;
        let mut outcomes = [Outcome::Unproven; 2];
        let settled_by_one = results
            .iter()
            .any(|r| r.as_ref().is_ok_and(|(r, _)| r.outcome == Outcome::Proven));
        for (slot, result) in outcomes.iter_mut().zip(results) {
            let (record, nodes) = result?;
            if settled_by_one && record.outcome == Outcome::Unproven {
                self.nodes += nodes;
            } else {
                *slot = self.file_record(record, nodes);
            }
        }
        Ok((outcomes[0], outcomes[1]))
    }

    /// The proof file to save: settled records keep their certificates; the first unsettled
    /// record of each attacker takes that attacker's working table, to be continued.
    fn into_file(mut self) -> ProofFile {
        self.file.made_with = Some(TablesId::of(self.tables));
        for record in &mut self.file.records {
            if record.outcome == Outcome::Unproven {
                record.table = std::mem::take(&mut self.work[record.question.attacker.index()]);
            }
        }
        self.file
    }
}

/// The table a settled record keeps: its certificate's positions.
fn certified_table(certificate: &Certificate) -> ProofTable {
    let mut table = ProofTable::default();
    for &(key, height) in &certificate.nodes {
        let entry = match certificate.outcome {
            Outcome::Proven => Entry::Proven { height },
            _ => Entry::Disproven,
        };
        table.entries.insert(key, entry);
    }
    table
}

/// The budget of `max_seconds` as a duration: `None` for no limit (none given, or beyond what
/// a duration holds); an error for a negative number or NaN.
fn seconds_budget(max_seconds: Option<f64>) -> Result<Option<Duration>, ProverError> {
    match max_seconds {
        Some(seconds) if seconds.is_nan() || seconds < 0.0 => Err(ProverError::BadOptions(
            format!("{seconds} seconds: expected a number of seconds from 0 up"),
        )),
        Some(seconds) => Ok(Duration::try_from_secs_f64(seconds).ok()),
        None => Ok(None),
    }
}

/// Proves the value of `pos` (a turn start; the standard rules, draw limits ignored) with the
/// `tables` at the leaves, continuing the searches of `file` (a new [`ProofFile`] to start
/// afresh). Returns what was proven and the updated file. Every settled answer has been
/// certified and its certificate checked.
pub fn prove(
    pos: &Position,
    tables: Option<&EndgameTables>,
    file: ProofFile,
    options: ProveOptions<'_>,
) -> Result<(ProofReport, ProofFile), ProverError> {
    let root = prover_position(pos)?;
    if !std::ptr::eq(file.board(), root.board()) {
        return Err(ProverError::BadPosition(format!(
            "the position is of {}, the proof file of {}",
            root.board(),
            file.board()
        )));
    }
    if let Some(t) = tables
        && !std::ptr::eq(t.board(), root.board())
    {
        return Err(ProverError::BadPosition(format!(
            "the position is of {}, the tables of {}",
            root.board(),
            t.board()
        )));
    }
    let seconds = seconds_budget(options.max_seconds)?;
    let mut file = file;
    check_tables(&file, tables)?;
    for record in &mut file.records {
        verify(record, root.board(), tables)?;
    }
    let mut work = [ProofTable::default(), ProofTable::default()];
    for record in &file.records {
        let table = &mut work[record.question.attacker.index()];
        for (&key, &entry) in &record.table.entries {
            table.put(key, entry);
        }
    }
    let mut run = Run {
        tables,
        file,
        work,
        options,
        started: Instant::now(),
        seconds,
        nodes: 0,
    };
    let value = run.value(&root)?;
    let us = root.side_to_move();
    let win = Question { attacker: us };
    let loss = Question {
        attacker: us.other(),
    };
    let mut turns = Vec::new();
    if run.options.turns
        && let Some(value) = value
    {
        for (turn, next) in turns_and_children(&root) {
            let status = match value {
                // Every turn of a lost position loses: the proof covers them all.
                Verdict::Loss => TurnStatus::Keeps,
                // A turn keeps a win where the side to move still wins after it.
                Verdict::Win => match run.ask(&next, win)? {
                    Outcome::Proven => TurnStatus::Keeps,
                    Outcome::Disproven => TurnStatus::Spoils,
                    Outcome::Unproven => TurnStatus::Unknown,
                },
                // A turn keeps a draw where the other side cannot win after it.
                Verdict::Draw => match run.ask(&next, loss)? {
                    Outcome::Disproven => TurnStatus::Keeps,
                    Outcome::Proven => TurnStatus::Spoils,
                    Outcome::Unproven => TurnStatus::Unknown,
                },
            };
            turns.push((turn, status));
        }
        // Checked certificates cannot contradict each other; should they, nothing is printed.
        if value != Verdict::Loss
            && !turns.is_empty()
            && turns.iter().all(|&(_, s)| s == TurnStatus::Spoils)
        {
            return Err(ProverError::Refuted(format!(
                "the value {} of {} and its turns contradict each other: every turn spoils it",
                value.name(),
                root.to_fen()
            )));
        }
    }
    let questions = [win, loss]
        .into_iter()
        .filter_map(|q| {
            let r = run.file.record(Key::of(&root), q)?;
            let table = match r.outcome {
                Outcome::Unproven => &run.work[q.attacker.index()],
                _ => &r.table,
            };
            Some(QuestionReport {
                question: q,
                outcome: r.outcome,
                nodes: r.nodes,
                seconds: r.seconds,
                size: table.len(),
                root_turns: RootTurns::of(&root, q, table, tables),
            })
        })
        .collect();
    let report = ProofReport {
        value,
        questions,
        turns,
        nodes: run.nodes,
        seconds: run.started.elapsed().as_secs_f64(),
    };
    Ok((report, run.into_file()))
}

/// Checks every record of `file` again, against the rules and `tables` (those the file was
/// made with, or tables of more pieces that agree with them): each settled record's
/// certificate, and the proven positions of each unsettled one. Returns the positions checked.
pub fn check_file(file: &ProofFile, tables: Option<&EndgameTables>) -> Result<usize, ProverError> {
    check_tables(file, tables)?;
    let mut checked = 0;
    for record in &file.records {
        checked += check_record(record, file.board, tables)?;
    }
    Ok(checked)
}

/// Refuses `tables` that are not those `file` was made with (where it says).
fn check_tables(file: &ProofFile, tables: Option<&EndgameTables>) -> Result<(), ProverError> {
    let Some(needed) = file.made_with else {
        return Ok(());
    };
    if needed.held_by(tables) {
        return Ok(());
    }
    let given = match tables {
        None => "no tables were given".to_string(),
        Some(t) if t.pieces() < needed.pieces => {
            format!("the tables given stop at {} pieces", t.pieces())
        }
        Some(_) => format!(
            "the tables given differ from them up to {} pieces",
            needed.pieces
        ),
    };
    Err(ProverError::WrongTables {
        needed: needed.describe(file.board),
        given,
    })
}

/// Checks `record` against the rules and `tables` once in this process: the check is kept
/// in the record (in memory only; a file read again is checked again).
fn verify(
    record: &mut Record,
    board: &'static fanorona_env::Board,
    tables: Option<&EndgameTables>,
) -> Result<(), ProverError> {
    if !record.checked {
        check_record(record, board, tables)?;
        record.checked = true;
    }
    Ok(())
}

/// Checks `record`: a settled record's certificate (every position of its table, and its
/// root), or the proven positions of an unsettled record's table (the search would reuse
/// them as proofs). Returns the positions checked; the error says which record failed.
fn check_record(
    record: &Record,
    board: &'static fanorona_env::Board,
    tables: Option<&EndgameTables>,
) -> Result<usize, ProverError> {
    let untrusted = |e: ProverError| {
        let reason = match e {
            ProverError::Refuted(reason) => reason,
            other => other.to_string(),
        };
        ProverError::Untrusted(format!(
            "the record of {} does not check: {reason}",
            record.describe(board)
        ))
    };
    if record.outcome != Outcome::Unproven {
        return Ok(record
            .certificate()
            .check(board, tables)
            .map_err(untrusted)?
            .nodes);
    }
    let mut proven: Vec<(Key, u32)> = record
        .table
        .entries
        .iter()
        .filter_map(|(&key, entry)| match *entry {
            Entry::Proven { height } => Some((key, height)),
            _ => None,
        })
        .collect();
    proven.sort_unstable();
    let count = proven.len();
    let claims = Certificate {
        question: record.question,
        outcome: Outcome::Proven,
        root: record.root,
        nodes: proven,
    };
    claims.check_positions(board, tables).map_err(untrusted)?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_for_a_trap_is_begun_only_where_it_ends_within_the_budget_of_seconds() {
        // The last look read 1,000 positions in 2 s; 10 s are left.
        let look = TrapLook {
            entries: 1000,
            seconds: 2.0,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        assert!(look.fits(4000, Some(deadline)), "8 s expected");
        assert!(!look.fits(6000, Some(deadline)), "12 s expected");
        assert!(look.fits(1_000_000, None), "no budget of seconds");
        // Before any look the pace is unknown: the first look is begun while time is left.
        assert!(TrapLook::default().fits(1_000_000, Some(deadline)));
        assert!(!TrapLook::default().fits(10, Some(Instant::now())));
    }

    #[test]
    fn the_budget_of_seconds_is_checked_and_counts_from_when_the_searches_begin() {
        for bad in [f64::NAN, -1.0] {
            let err = seconds_budget(Some(bad)).unwrap_err();
            assert!(
                err.to_string()
                    .contains("expected a number of seconds from 0 up")
            );
        }
        assert_eq!(seconds_budget(None).unwrap(), None);
        assert_eq!(seconds_budget(Some(f64::INFINITY)).unwrap(), None);
        assert_eq!(seconds_budget(Some(1e300)).unwrap(), None);
        let span = seconds_budget(Some(1.5)).unwrap();
        assert_eq!(span, Some(Duration::from_millis(1500)));
        // A run whose searches began 10 s ago (checking a long file, say) has 1.5 s from then.
        let started = Instant::now() - Duration::from_secs(10);
        let run = Run {
            tables: None,
            file: ProofFile::new(fanorona_env::Board::new(5, 5).unwrap()),
            work: Default::default(),
            options: ProveOptions {
                max_nodes: 1,
                max_seconds: Some(1.5),
                max_entries: 1,
                turns: false,
                progress: &mut |_| {},
                stop: None,
                parallel: false,
            },
            started,
            seconds: span,
            nodes: 0,
        };
        assert_eq!(run.deadline(), Some(started + Duration::from_millis(1500)));
    }
}
