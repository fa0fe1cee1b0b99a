//! Certificates: what makes a prover's answer checkable from the rules and the tables alone.
//!
//! - A **proof** that the attacker wins is a set of positions, each with a height: at each
//!   position where the attacker moves, some turn leads to a win the tables or the rules
//!   settle, or to a certified position of smaller height; where the defender moves, every
//!   turn does. Heights fall strictly, so the proof never leans on itself: it is a winning
//!   strategy.
//! - A **disproof** is a *trap*: a set of positions where, when the attacker moves, every
//!   turn stays in the set or reaches a position the tables or the rules settle as no win for
//!   the attacker, and when the defender moves, some turn does. The defender keeps the game
//!   there for ever (a draw without draw limits) or hands it to a position the attacker does
//!   not win: the attacker cannot force a win.
//!
//! [`Certificate::extract`] takes a certificate out of a search's transposition table
//! (following proven, disproven and tentative entries from the root); [`Certificate::check`]
//! checks every position of it, in parallel, against the rules and the tables, knowing
//! nothing of the search.

use std::time::Instant;

use fanorona_env::{Board, Color, Position};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::error::ProverError;
use super::node::{Key, children, exact_value, wins_for};
use super::search::{Outcome, Question};
use super::table::{Entry, ProofTable};
use crate::tables::EndgameTables;

/// A checkable answer to one question at one root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The question answered.
    pub question: Question,
    /// Proven (a proof) or disproven (a trap).
    pub outcome: Outcome,
    /// The root position.
    pub root: Key,
    /// The certified positions, sorted by key, each once: with their heights for a proof (0
    /// for a trap).
    pub nodes: Vec<(Key, u32)>,
}

/// What a check looked at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckReport {
    /// Positions checked.
    pub nodes: usize,
    /// Seconds the check took.
    pub seconds: f64,
}

/// How a position stands for the question: settled by the rules or the tables, or not.
pub(crate) enum Settled {
    Win,
    NoWin,
    Open,
}

/// How `pos` stands for `attacker`'s question, by the rules and the tables alone.
pub(crate) fn settle(pos: &Position, tables: Option<&EndgameTables>, attacker: Color) -> Settled {
    match exact_value(pos, tables) {
        Some(v) if wins_for(v, pos.side_to_move(), attacker) => Settled::Win,
        Some(_) => Settled::NoWin,
        None => Settled::Open,
    }
}

impl Certificate {
    /// The certificate of the answer `outcome` (proven or disproven) to `question` at `root`,
    /// taken from the search's table; an error where the table does not hold one.
    pub(crate) fn extract(
        question: Question,
        outcome: Outcome,
        root: &Position,
        tables: Option<&EndgameTables>,
        table: &ProofTable,
    ) -> Result<Certificate, ProverError> {
        Certificate::extract_with(question, outcome, root, tables, table, Failures::Unnamed)
            .map_err(|(e, _)| e)
    }

    /// [`Certificate::extract`], giving where a trap fails also the positions whose
    /// disproofs fell out of it (to be searched again more strictly).
    pub(crate) fn extract_or_failures(
        question: Question,
        outcome: Outcome,
        root: &Position,
        tables: Option<&EndgameTables>,
        table: &ProofTable,
    ) -> Result<Certificate, (ProverError, Vec<Key>)> {
        Certificate::extract_with(question, outcome, root, tables, table, Failures::Named)
    }

    /// The certificate, or the error and the positions named as `failures` says.
    fn extract_with(
        question: Question,
        outcome: Outcome,
        root: &Position,
        tables: Option<&EndgameTables>,
        table: &ProofTable,
        failures: Failures,
    ) -> Result<Certificate, (ProverError, Vec<Key>)> {
        let nodes = match outcome {
            Outcome::Proven => extract_proof(question.attacker, root, tables, table)
                .map_err(|e| (e, Vec::new()))?,
            Outcome::Disproven => extract_trap(question.attacker, root, tables, table, failures)?,
            Outcome::Unproven => {
                return Err((
                    ProverError::Refuted("an unproven question has no certificate".into()),
                    Vec::new(),
                ));
            }
        };
        let mut nodes: Vec<(Key, u32)> = nodes.into_iter().collect();
        nodes.sort_unstable();
        Ok(Certificate {
            question,
            outcome,
            root: Key::of(root),
            nodes,
        })
    }

    /// Checks the certificate against the rules and `tables` (those the search used, or any
    /// agreeing with them): every position of it, and the root.
    pub fn check(
        &self,
        board: &'static Board,
        tables: Option<&EndgameTables>,
    ) -> Result<CheckReport, ProverError> {
        let started = Instant::now();
        let proof = self.is_proof()?;
        let root = position(board, &self.root)?;
        let root_ok = match settle(&root, tables, self.question.attacker) {
            Settled::Win => proof,
            Settled::NoWin => !proof,
            Settled::Open => self.nodes.binary_search_by_key(&self.root, |n| n.0).is_ok(),
        };
        if !root_ok {
            return Err(ProverError::Refuted(format!(
                "the root {} is not certified",
                describe(&root)
            )));
        }
        self.check_positions(board, tables)?;
        Ok(CheckReport {
            nodes: self.nodes.len(),
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Whether this is a proof (or a trap); an error for an unproven outcome.
    fn is_proof(&self) -> Result<bool, ProverError> {
        match self.outcome {
            Outcome::Proven => Ok(true),
            Outcome::Disproven => Ok(false),
            Outcome::Unproven => Err(ProverError::Refuted(
                "an unproven question has no certificate".into(),
            )),
        }
    }

    /// Checks every position of the certificate (its nodes, sorted by key, each once), not
    /// whether it holds the root: for a proof, that the proven positions a search table
    /// holds are proven indeed, whatever they are used for.
    pub(crate) fn check_positions(
        &self,
        board: &'static Board,
        tables: Option<&EndgameTables>,
    ) -> Result<(), ProverError> {
        let attacker = self.question.attacker;
        let proof = self.is_proof()?;
        if self.nodes.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(ProverError::Refuted(
                "its positions are not sorted, or one is repeated".into(),
            ));
        }
        let heights: FxHashMap<Key, u32> = self.nodes.iter().copied().collect();
        self.nodes.par_iter().try_for_each(|(key, height)| {
            let pos = position(board, key)?;
            let good = |next: &Position| match settle(next, tables, attacker) {
                Settled::Win => proof,
                Settled::NoWin => !proof,
                Settled::Open => heights
                    .get(&Key::of(next))
                    .is_some_and(|&h| !proof || h < *height),
            };
            let next = children(&pos);
            let or = pos.side_to_move() == attacker;
            let all = or != proof;
            let holds = if all {
                !next.is_empty() && next.iter().all(good)
            } else {
                next.iter().any(good)
            };
            if holds {
                Ok(())
            } else {
                Err(ProverError::Refuted(format!(
                    "{} does not hold: {} {}",
                    describe(&pos),
                    if all {
                        "not every turn leads to"
                    } else {
                        "no turn leads to"
                    },
                    if proof {
                        "a certified win of smaller height"
                    } else {
                        "the trap or a settled non-win"
                    }
                )))
            }
        })
    }

    /// The distinct positions certified.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the root alone settles the question (the rules or the tables).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The proof below `root` in `table`: from each attacker node its proven child of least
/// height, from each defender node every child. Proofs in the table are permanent and their
/// heights fall along them, so this never fails for a root the search proved.
fn extract_proof(
    attacker: Color,
    root: &Position,
    tables: Option<&EndgameTables>,
    table: &ProofTable,
) -> Result<FxHashMap<Key, u32>, ProverError> {
    let mut nodes: FxHashMap<Key, u32> = FxHashMap::default();
    let mut stack = Vec::new();
    if matches!(settle(root, tables, attacker), Settled::Open) {
        stack.push(*root);
    }
    while let Some(pos) = stack.pop() {
        let key = Key::of(&pos);
        if nodes.contains_key(&key) {
            continue;
        }
        let Some(Entry::Proven { height }) = table.get(&key) else {
            return Err(ProverError::Refuted(format!(
                "the search left {} unproven",
                describe(&pos)
            )));
        };
        nodes.insert(key, height);
        let mut open = Vec::new();
        let mut settled_win = false;
        for next in children(&pos) {
            match settle(&next, tables, attacker) {
                Settled::Win => settled_win = true,
                Settled::NoWin => {}
                Settled::Open => open.push(next),
            }
        }
        if pos.side_to_move() != attacker {
            stack.extend(open);
        } else if !settled_win {
            let best = open
                .into_iter()
                .filter_map(|p| match table.get(&Key::of(&p)) {
                    Some(Entry::Proven { height: h }) if h < height => Some((h, p)),
                    _ => None,
                })
                .min_by_key(|&(h, _)| h);
            match best {
                Some((_, p)) => stack.push(p),
                None => {
                    return Err(ProverError::Refuted(format!(
                        "no proven turn of smaller height from {}",
                        describe(&pos)
                    )));
                }
            }
        }
    }
    Ok(nodes)
}

/// Whether a failed trap's extraction names the positions that fell out of it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Failures {
    /// Every position reachable through the candidates is judged, and those that fell out
    /// are given (to be searched again more strictly).
    Named,
    /// Only whether a trap holds: an attacker position with a turn out of the set is not
    /// explored further (it falls out whatever lies below it), and nothing is named.
    Unnamed,
}

/// The largest trap below `root` among the positions of `table` not proven: the positions
/// reachable from the root through them, less, until none is left to remove, every attacker
/// position with a turn out of the set to a position not settled as a non-win and every
/// defender position with no turn into the set or to a settled non-win. Tentative disproofs
/// whose repetition did not hold, and open positions with unexplored turns, fall out this
/// way. With [`Failures::Unnamed`] the positions below an attacker position that falls out at
/// once are not explored: the trap found is the part of the largest one reached through
/// positions that stay, which holds the root exactly when the largest one does.
fn extract_trap(
    attacker: Color,
    root: &Position,
    tables: Option<&EndgameTables>,
    table: &ProofTable,
    failures: Failures,
) -> Result<FxHashMap<Key, u32>, (ProverError, Vec<Key>)> {
    // Every position the search met and did not prove is a candidate: the search's
    // disproofs lean on path-bound repetitions, but the largest trap among all the explored
    // positions is exact for them (what was not explored counts against the trap).
    let candidate = |key: &Key| {
        table
            .get(key)
            .is_some_and(|e| !matches!(e, Entry::Proven { .. }))
    };
    if !matches!(settle(root, tables, attacker), Settled::Open) {
        return Ok(FxHashMap::default());
    }
    let root_key = Key::of(root);
    if !candidate(&root_key) {
        return Err((
            ProverError::Refuted(format!("the search left {} not disproven", describe(root))),
            Vec::new(),
        ));
    }
    // The reachable candidates, numbered; the edges between them (child, parent); for
    // defender positions, how many good turns they have.
    let mut number: FxHashMap<Key, u32> = FxHashMap::default();
    let mut keys: Vec<Key> = vec![root_key];
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut good: Vec<u32> = vec![0];
    let mut doomed: Vec<u32> = Vec::new();
    let mut stack = vec![(*root, 0u32)];
    let mut open: Vec<(Position, Key)> = Vec::new();
    number.insert(root_key, 0);
    while let Some((pos, n)) = stack.pop() {
        let or = pos.side_to_move() == attacker;
        let mut bad = false;
        open.clear();
        pos.for_each_turn(|turn| {
            let mut next = pos;
            next.play_turn_unchecked(turn);
            match settle(&next, tables, attacker) {
                Settled::Win => bad = true,
                Settled::NoWin => good[n as usize] += 1,
                Settled::Open => {
                    let key = Key::of(&next);
                    if candidate(&key) {
                        open.push((next, key));
                    } else {
                        bad = true;
                    }
                }
            }
        });
        if or && bad && failures == Failures::Unnamed {
            doomed.push(n);
            continue;
        }
        for &(next, key) in &open {
            let m = *number.entry(key).or_insert_with(|| {
                let m = u32::try_from(keys.len()).expect("fewer than 2^32 positions");
                keys.push(key);
                good.push(0);
                stack.push((next, m));
                m
            });
            edges.push((m, n));
            good[n as usize] += 1;
        }
        if if or { bad } else { good[n as usize] == 0 } {
            doomed.push(n);
        }
    }
    // The predecessors of each position, grouped by position (counting sort of the edges).
    let mut first = vec![0u32; keys.len() + 1];
    for &(child, _) in &edges {
        first[child as usize + 1] += 1;
    }
    for i in 1..first.len() {
        first[i] += first[i - 1];
    }
    let mut fill = first.clone();
    let mut predecessors = vec![0u32; edges.len()];
    for &(child, parent) in &edges {
        predecessors[fill[child as usize] as usize] = parent;
        fill[child as usize] += 1;
    }
    // Remove what fails, and what fails because of it.
    let mut removed = vec![false; keys.len()];
    while let Some(n) = doomed.pop() {
        let n = n as usize;
        if removed[n] {
            continue;
        }
        removed[n] = true;
        for &p in &predecessors[first[n] as usize..first[n + 1] as usize] {
            let p = p as usize;
            if removed[p] {
                continue;
            }
            good[p] -= 1;
            if keys[p].side() == attacker || good[p] == 0 {
                doomed.push(p as u32);
            }
        }
    }
    if removed[0] {
        let failed = match failures {
            Failures::Named => keys
                .into_iter()
                .zip(removed)
                .filter(|&(_, r)| r)
                .map(|(k, _)| k)
                .collect(),
            Failures::Unnamed => Vec::new(),
        };
        return Err((
            ProverError::Refuted(format!(
                "the disproven positions below {} do not hold together",
                describe(root)
            )),
            failed,
        ));
    }
    Ok(keys
        .into_iter()
        .zip(removed)
        .filter(|&(_, r)| !r)
        .map(|(k, _)| (k, 0))
        .collect())
}

/// The position of `key` on `board`, or why it is none.
fn position(board: &'static Board, key: &Key) -> Result<Position, ProverError> {
    key.position(board)
        .ok_or_else(|| ProverError::Refuted(format!("{key:?} is not a position of {board}")))
}

/// A position in messages: its FEN.
fn describe(pos: &Position) -> String {
    pos.to_fen()
}
