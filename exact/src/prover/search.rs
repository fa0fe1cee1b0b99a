//! Depth-first proof-number search (df-pn, Nagai 2002) for one question: can the attacker
//! force a win? Nodes where the attacker moves are OR nodes, the others AND nodes; each node
//! has a proof number (how many leaves at least must still be proven to prove it) and a
//! disproof number; the search descends, within thresholds, into the most proving child and
//! returns when a number reaches its threshold, storing what it learnt in the transposition
//! table. Thresholds of a child use the second-best child's number grown by a quarter (the
//! 1 + epsilon trick), which keeps the search from switching back and forth between two
//! children.
//!
//! Repetitions are handled as the module [`super`] explains: a child repeating a position of
//! the current path is a disproof that leans on that position (its depth on the path); a
//! disproof leaning on a position above the node is tentative.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use fanorona_env::{Color, Position};
use rustc_hash::FxHashMap;

use super::node::{Key, children, exact_value, wins_for};
use super::table::{Entry, INFINITE, ProofTable};
use crate::tables::EndgameTables;

/// "Can `attacker` force a win?": one proof search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// The side trying to win.
    pub attacker: Color,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker wins.
    Proven,
    /// The attacker cannot force a win.
    Disproven,
    /// The budget ran out first.
    Unproven,
}

impl Outcome {
    /// `proven`, `disproven` or `unproven`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Proven => "proven",
            Outcome::Disproven => "disproven",
            Outcome::Unproven => "unproven",
        }
    }
}

/// No repetition leaned on.
const NO_REPETITION: u32 = u32::MAX;

/// A child of the node being searched, with what the search knows of it.
struct Child {
    pos: Position,
    key: Key,
    pn: u32,
    dn: u32,
    /// Height of its proof, when proven.
    height: u32,
    /// The shallowest path depth its disproof leans on ([`NO_REPETITION`]: none).
    repetition: u32,
    /// Exact, a repetition or a tentative disproof: not read again from the table.
    pinned: bool,
}

/// The numbers of a node from its children, with the child to search next.
struct Summary {
    pn: u32,
    dn: u32,
    best: usize,
    second: u32,
    height: u32,
    repetition: u32,
}

/// The budget and reporting of a search.
pub(crate) struct Limits<'a> {
    /// Stop after this many expanded nodes (over every search sharing the counter).
    pub(crate) max_nodes: u64,
    /// Stop at this instant.
    pub(crate) deadline: Option<Instant>,
    /// Drop the open entries of the table beyond this many entries.
    pub(crate) max_entries: usize,
    /// Called every few seconds with the nodes expanded and the table's size.
    pub(crate) progress: &'a mut dyn FnMut(u64, usize),
    /// Stop once this is set (checked every 1,024 nodes).
    pub(crate) stop: Option<&'a AtomicBool>,
    /// Stop once this is set too (another search settled what this one was for).
    pub(crate) halt: Option<&'a AtomicBool>,
}

/// One df-pn search: its question, table, path and budget.
pub(crate) struct Search<'a, 'b> {
    tables: Option<&'a EndgameTables>,
    attacker: Color,
    pub(crate) table: &'a mut ProofTable,
    /// The positions on the current path, with their depth.
    path: FxHashMap<Key, u32>,
    /// Nodes expanded.
    pub(crate) nodes: u64,
    limits: Limits<'b>,
    stopped: bool,
    /// Stop at this many nodes expanded (a pause, below the budget).
    pause: u64,
    last_report: Instant,
}

impl<'a, 'b> Search<'a, 'b> {
    /// A search of `question` over `table` (fresh or loaded), with the tables at its leaves.
    pub(crate) fn new(
        question: Question,
        tables: Option<&'a EndgameTables>,
        table: &'a mut ProofTable,
        limits: Limits<'b>,
    ) -> Search<'a, 'b> {
        Search {
            tables,
            attacker: question.attacker,
            table,
            path: FxHashMap::default(),
            nodes: 0,
            limits,
            stopped: false,
            pause: u64::MAX,
            last_report: Instant::now(),
        }
    }

    /// Whether the budget (nodes or time) is spent, or the run told to stop.
    pub(crate) fn exhausted(&self) -> bool {
        self.nodes >= self.limits.max_nodes
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self.interrupted()
    }

    /// Whether the run was told to stop, or this search to halt.
    pub(crate) fn interrupted(&self) -> bool {
        [self.limits.stop, self.limits.halt]
            .iter()
            .flatten()
            .any(|s| s.load(Ordering::Relaxed))
    }

    /// Searches `root` (a turn start) until it is settled, the budget is spent or `pause`
    /// nodes have been expanded in all (the search can then go on from its table).
    pub(crate) fn run(&mut self, root: &Position, pause: u64) -> Outcome {
        self.stopped = false;
        self.pause = pause;
        if let Some(value) = exact_value(root, self.tables) {
            return if wins_for(value, root.side_to_move(), self.attacker) {
                Outcome::Proven
            } else {
                Outcome::Disproven
            };
        }
        let (pn, dn, _) = self.mid(root, Key::of(root), INFINITE, INFINITE, 0);
        match (pn, dn) {
            (0, _) => Outcome::Proven,
            (_, 0) => Outcome::Disproven,
            _ => Outcome::Unproven,
        }
    }

    /// The children of `pos` with what is known of them.
    fn expand(&self, pos: &Position) -> Vec<Child> {
        children(pos)
            .into_iter()
            .map(|next| {
                let key = Key::of(&next);
                let mut child = Child {
                    pos: next,
                    key,
                    pn: 1,
                    dn: 1,
                    height: 0,
                    repetition: NO_REPETITION,
                    pinned: false,
                };
                if let Some(value) = exact_value(&next, self.tables) {
                    (child.pn, child.dn) = if wins_for(value, next.side_to_move(), self.attacker) {
                        (0, INFINITE)
                    } else {
                        (INFINITE, 0)
                    };
                    child.pinned = true;
                } else if let Some(&depth) = self.path.get(&key) {
                    (child.pn, child.dn) = (INFINITE, 0);
                    child.repetition = depth;
                    child.pinned = true;
                } else {
                    self.read(&mut child);
                }
                child
            })
            .collect()
    }

    /// Updates an unpinned child from the table.
    #[inline]
    fn read(&self, child: &mut Child) {
        if let Some((pn, dn)) = self.table.numbers(&child.key) {
            (child.pn, child.dn) = (pn, dn);
            if let Some(Entry::Proven { height }) = self.table.get(&child.key) {
                child.height = height;
            }
        }
    }

    /// The multiple-iterative-deepening step of df-pn at `pos`, at `depth` on the path:
    /// searches below it until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`. Returns its numbers and the repetition its disproof leans on.
    fn mid(
        &mut self,
        pos: &Position,
        key: Key,
        th_pn: u32,
        th_dn: u32,
        depth: u32,
    ) -> (u32, u32, u32) {
        self.count_node();
        let or = pos.side_to_move() == self.attacker;
        let mut children = self.expand(pos);
        self.path.insert(key, depth);
        let summary = loop {
            for child in children.iter_mut().filter(|c| !c.pinned) {
                self.read(child);
            }
            let s = summarise(or, &children);
            if s.pn >= th_pn || s.dn >= th_dn || s.pn == 0 || s.dn == 0 || self.stopped {
                break s;
            }
            let best = &children[s.best];
            let (child_pn, child_dn) = if or {
                (
                    th_pn.min(grown(s.second)),
                    (th_dn - s.dn).saturating_add(best.dn).min(INFINITE),
                )
            } else {
                (
                    (th_pn - s.pn).saturating_add(best.pn).min(INFINITE),
                    th_dn.min(grown(s.second)),
                )
            };
            let (next, next_key) = (best.pos, best.key);
            let (pn, dn, repetition) = self.mid(&next, next_key, child_pn, child_dn, depth + 1);
            let child = &mut children[s.best];
            (child.pn, child.dn, child.repetition) = (pn, dn, repetition);
            child.pinned = dn == 0 && repetition != NO_REPETITION;
            if pn == 0 {
                self.read(child);
            }
        };
        self.path.remove(&key);
        let repetition = if summary.repetition >= depth {
            NO_REPETITION
        } else {
            summary.repetition
        };
        let entry = match (summary.pn, summary.dn) {
            (0, _) => Entry::Proven {
                height: summary.height,
            },
            (_, 0) if repetition == NO_REPETITION => Entry::Disproven,
            (_, 0) => Entry::Tentative,
            (pn, dn) => Entry::Open { pn, dn },
        };
        self.table.put(key, entry);
        (summary.pn, summary.dn, repetition)
    }

    /// Counts an expanded node; checks the budget and reports progress now and then.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.pause {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) {
            if self.exhausted() {
                self.stopped = true;
            }
            if self.table.len() > self.limits.max_entries {
                self.table.shrink();
            }
            if self.last_report.elapsed().as_secs_f64() >= 2.0 {
                self.last_report = Instant::now();
                (self.limits.progress)(self.nodes, self.table.len());
            }
        } else if self.nodes >= self.limits.max_nodes {
            self.stopped = true;
        }
    }
}

/// `x` grown by a quarter and one (the 1 + epsilon trick), at most [`INFINITE`].
#[inline]
fn grown(x: u32) -> u32 {
    x.saturating_add(x / 4).saturating_add(1).min(INFINITE)
}

/// The numbers of an OR node (`or`: the attacker moves) or an AND node from its children.
fn summarise(or: bool, children: &[Child]) -> Summary {
    // The number the node minimises over (pn at OR nodes, dn at AND nodes) and the one it
    // sums.
    let numbers = |c: &Child| if or { (c.pn, c.dn) } else { (c.dn, c.pn) };
    let mut best = 0;
    let mut least = INFINITE;
    let mut second = INFINITE;
    let mut sum = 0u32;
    for (i, c) in children.iter().enumerate() {
        let (m, s) = numbers(c);
        sum = sum.saturating_add(s).min(INFINITE);
        if m < least {
            second = least;
            least = m;
            best = i;
        } else if m < second {
            second = m;
        }
    }
    // An unsettled node's sum stays below infinity (in a graph with cycles and
    // transpositions, sums count leaves more than once and can overflow any bound).
    let sum = if least == 0 || sum == 0 {
        sum
    } else {
        sum.min(INFINITE - 1)
    };
    let (pn, dn) = if or { (least, sum) } else { (sum, least) };
    let (pn, dn) = match (pn, dn) {
        (0, _) => (0, INFINITE),
        (_, 0) => (INFINITE, 0),
        numbers => numbers,
    };
    // Proof height: the best proven child at an OR node, the highest at an AND node.
    let proven = children.iter().filter(|c| c.pn == 0).map(|c| c.height);
    let height = 1 + if or { proven.min() } else { proven.max() }.unwrap_or(0);
    // Repetition leaned on: every child's at an OR node, the least leaning disproven
    // child's at an AND node.
    let disproven = children.iter().filter(|c| c.dn == 0).map(|c| c.repetition);
    let repetition = if or { disproven.min() } else { disproven.max() }.unwrap_or(NO_REPETITION);
    Summary {
        pn,
        dn,
        best,
        second,
        height,
        repetition,
    }
}
