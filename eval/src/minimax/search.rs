//! Negamax alpha-beta search over complete turns.
//!
//! - **Iterative deepening** from depth 1 to the depth limit; each iteration starts with the
//!   previous best turn. A node or time limit stops the search; the result is then the last
//!   completed iteration's (depth 1 always completes).
//! - **Transposition table** ([`super::tt`]) keyed by the Zobrist key, cutting off where a
//!   stored result is deep enough and giving the first turn to try.
//! - **Move ordering** ([`super::ordering`]): table move, captures by size, quiet history.
//! - **Late-move reductions** (optional, [`Searcher::set_reductions`]): after the first turn a
//!   node's turns are searched with a null window around alpha (principal variation search),
//!   and its quiet turns from index [`REDUCE_FROM`] on (in search order), in a node at least
//!   [`REDUCTION_MIN_DEPTH`] deep, one turn shallower (two from index [`REDUCE_MORE_FROM`]);
//!   a turn whose shortened search beats alpha is searched again at full depth and, where it
//!   lands inside the window, with the full window.
//! - **Quiescence**: at depth 0 a position where the side to move must capture is not simply
//!   evaluated (the static value would be wrong by the pieces about to fall); the search goes
//!   on through the capture turns, up to [`QUIESCENCE_PLIES`] plies, until a quiet position
//!   is reached. As in chess, the static value serves as a "stand pat" lower bound there, with
//!   alpha-beta: strictly the side must capture, so this is a heuristic (a forced capture is
//!   rarely worse than the static value), but without it the capture trees of the opening,
//!   where every turn captures, grow beyond any budget.
//! - **Game end and draws**: no pieces or no legal turn loses (`-(MATE - ply)`, so shorter
//!   wins score higher); a position repeating one on the path since the last capture (the
//!   game's earlier turn starts included) scores as a draw when the rules have a repetition
//!   limit, and so does reaching the no-capture limit.
//! - **Endgame tables** (optional, [`Searcher::set_tables`]): a position the tables hold scores
//!   its exact value (a win or loss at its distance, as the mate scores count plies; a draw
//!   0), unless the no-capture limit could end the game before that distance; a root they
//!   hold is searched one turn deep, every child being exact.
//! - **Stopping**: besides its budget a search obeys a shared stop flag
//!   ([`Searcher::set_stop`]), set by another thread (an engine's `stop` command); it then
//!   returns the last completed iteration's result. Under a time limit no iteration starts
//!   after half the time, since it would rarely finish.
//! - **Unfinished iterations** (optional, [`Searcher::set_unfinished`]): the search starts
//!   iterations until its budget is spent, and where a stopped iteration had already found a
//!   turn better than the previous best (searched first, so its new score is known), it
//!   plays that turn: as chess engines do, no part of the time is thrown away.
//! - **Determinism**: the root turns are shuffled by a seeded generator before ordering, so
//!   among equal turns the seed decides; with a depth (or node) limit the result depends only
//!   on the position, the game's history, the seed and the earlier searches of the game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fanorona_env::{Budget, Fanorona, Position, Turn};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::evaluate::{Handcrafted, StaticEvaluation, mobility};
use super::ordering::{QuietHistory, pick_next};
use super::tt::{Bound, Entry, TranspositionTable, TtMove};
use fanorona_exact::solver::Value;
use fanorona_exact::tables::EndgameTables;

/// The deepest nominal depth a search may be given.
pub const MAX_DEPTH: u32 = 64;

/// Most plies the quiescence search adds below the nominal depth.
pub const QUIESCENCE_PLIES: i32 = 8;

/// Least depth of a node whose late quiet turns are searched less deep.
pub const REDUCTION_MIN_DEPTH: i32 = 3;

/// Index (in search order) of the first turn a node may search less deep.
pub const REDUCE_FROM: usize = 3;

/// Index (in search order) from which the reduction is two turns instead of one.
pub const REDUCE_MORE_FROM: usize = 8;

/// Score of a win at the root; a win found `ply` plies down scores `MATE - ply`.
pub const MATE: i32 = 1_000_000;

/// Scores beyond this are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Score of a draw.
pub const DRAW: i32 = 0;

const INFINITY: i32 = MATE + 1;

/// The deepest iteration of a search under `budget`: its depth (within 1..=[`MAX_DEPTH`]), or
/// [`MAX_DEPTH`] where it gives none.
pub fn depth_limit(budget: &Budget) -> u32 {
    budget.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH))
}

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct MinimaxResult {
    /// The best turn.
    pub turn: Turn,
    /// Its score for the side to move, in hundredths of a piece (beyond ±(`MATE` - 1000) a
    /// forced win or loss).
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (positions visited, quiescence included).
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
}

impl MinimaxResult {
    /// In how many turns the side to move wins (positive) or loses (negative), if the score
    /// says so.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some((MATE - self.score + 1) / 2)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score) / 2)
        } else {
            None
        }
    }
}

/// The searcher: its table, ordering statistics and buffers are allocated once and kept
/// between searches of a game. Its leaves are valued by `E` (by default the hand-made
/// evaluation).
#[derive(Debug)]
pub struct Searcher<E = Handcrafted> {
    evaluation: E,
    budget: Budget,
    seed: u64,
    rng: StdRng,
    tt: TranspositionTable,
    history: QuietHistory,
    /// One turn list per ply, reused.
    lists: Vec<Vec<(i32, Turn)>>,
    /// Keys of the turn starts before the current node since the game's last capture.
    path: Vec<u64>,
    nodes: u64,
    start: Instant,
    completed_depth: u32,
    /// Most nodes of a [`Searcher::probe`] (unbounded in a search).
    probe_nodes: u64,
    /// The root's turns in a probe, reused.
    probe_root: Vec<(i32, Turn)>,
    stopped: bool,
    /// Set by another thread to stop the search.
    stop: Option<Arc<AtomicBool>>,
    /// Exact values of positions with few pieces.
    tables: Option<Arc<EndgameTables>>,
    /// Whether late quiet turns are searched less deep (principal variation search).
    reductions: bool,
    /// Whether an unfinished iteration's better turn is played (and iterations start until
    /// the budget is spent).
    unfinished: bool,
}

/// What one iteration at the root found: the index of its best turn and that turn's score.
#[derive(Clone, Copy, Debug)]
struct Iteration {
    best: usize,
    score: i32,
    /// Whether every root turn was searched (else the search stopped after `best`, the turn
    /// searched first, was beaten).
    complete: bool,
}

impl Searcher {
    /// A searcher within `budget`, with a table of `hash_mb` MiB and a tie-break seed, valuing
    /// its leaves by the hand-made evaluation.
    pub fn new(budget: Budget, hash_mb: usize, seed: u64) -> Searcher {
        Searcher::with_evaluation(budget, hash_mb, seed, Handcrafted)
    }
}

impl<E: StaticEvaluation> Searcher<E> {
    /// A searcher within `budget`, with a table of `hash_mb` MiB and a tie-break seed, valuing
    /// its leaves by `evaluation`.
    pub fn with_evaluation(budget: Budget, hash_mb: usize, seed: u64, evaluation: E) -> Self {
        Searcher {
            evaluation,
            budget,
            seed,
            rng: StdRng::seed_from_u64(seed),
            tt: TranspositionTable::new(hash_mb),
            history: QuietHistory::default(),
            lists: Vec::new(),
            path: Vec::with_capacity(256),
            nodes: 0,
            start: Instant::now(),
            completed_depth: 0,
            probe_nodes: u64::MAX,
            probe_root: Vec::new(),
            stopped: false,
            stop: None,
            tables: None,
            reductions: false,
            unfinished: false,
        }
    }

    /// The evaluation of the leaves.
    pub fn evaluation(&self) -> &E {
        &self.evaluation
    }

    /// Sets the budget of the following searches.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Sets (or removes) the flag another thread sets to stop the following searches.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Sets (or removes) the endgame tables that give exact values with few pieces.
    pub fn set_tables(&mut self, tables: Option<Arc<EndgameTables>>) {
        self.tables = tables;
    }

    /// Turns late-move reductions with principal variation search on or off (off at first).
    pub fn set_reductions(&mut self, on: bool) {
        self.reductions = on;
    }

    /// Turns the use of unfinished iterations on or off (off at first): with it on, a search
    /// under a time limit starts iterations until the time is spent, and plays the turn of a
    /// stopped iteration that beat the previous iteration's best.
    pub fn set_unfinished(&mut self, on: bool) {
        self.unfinished = on;
    }

    /// The endgame tables in use.
    pub fn tables(&self) -> Option<&Arc<EndgameTables>> {
        self.tables.as_ref()
    }

    /// The exact score of the turn start `pos`, `ply` plies below the root, where the tables
    /// hold it and the no-capture limit cannot end the game before its distance.
    #[inline]
    fn table_score(&self, pos: &Position, ply: usize) -> Option<i32> {
        let mate_in = |n: u16| MATE - ply as i32 - i32::from(n);
        Some(match self.tables.as_ref()?.value_under_limits(pos)? {
            Value::Draw => DRAW,
            Value::Win(n) => mate_in(n),
            Value::Loss(n) => -mate_in(n),
        })
    }

    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The expected continuation after `best` in `pos`, as the table remembers it: `best`
    /// first, then each position's stored best turn, at most `len` turns, ending before a
    /// position repeats.
    pub fn principal_variation(&self, pos: &Position, best: &Turn, len: usize) -> Vec<Turn> {
        let mut pv = vec![*best];
        let mut at = *pos;
        at.play_turn_unchecked(best);
        let mut seen = vec![pos.key()];
        while pv.len() < len && !seen.contains(&at.key()) {
            let Some(entry) = self.tt.probe(at.key()) else {
                break;
            };
            let mut next = None;
            at.for_each_turn(|t| {
                if next.is_none() && entry.best.matches(t) {
                    next = Some(*t);
                }
            });
            let Some(turn) = next else {
                break;
            };
            seen.push(at.key());
            pv.push(turn);
            at.play_turn_unchecked(&turn);
        }
        pv
    }

    /// Forgets the game: empties the table and statistics and restarts the seeded generator.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.rng = StdRng::seed_from_u64(self.seed);
    }

    /// Searches the current state of a game (its earlier positions count for repetitions).
    /// `None` when the side to move has no legal turn.
    pub fn search(&mut self, game: &Fanorona) -> Option<MinimaxResult> {
        self.search_position(game.position(), ancestors(game))
    }

    /// The value of the current state of `game` for the side to move, in hundredths of a
    /// piece, by an alpha-beta search `depth` complete turns deep, or for `depth` 0 by the
    /// quiescence search alone (the static value where the side need not capture, else the
    /// best its capture turns reach; in mid-chain, the best completion of the chain so
    /// valued). `None` if the search takes more than `max_nodes` nodes (the capture trees of
    /// the opening can be huge). Probes of a game share the table.
    pub fn probe(&mut self, game: &Fanorona, depth: u32, max_nodes: u64) -> Option<i32> {
        self.begin(ancestors(game));
        self.probe_nodes = max_nodes;
        let pos = game.position();
        // In mid-chain the table's key would name another position: the root's turns (the
        // chain's completions) are searched as in `search_position`.
        let score = if depth == 0 && pos.is_turn_start() {
            Some(self.negamax(pos, 0, -INFINITY, INFINITY, 0))
        } else {
            let mut root = std::mem::take(&mut self.probe_root);
            root.clear();
            pos.for_each_turn(|t| root.push((0, *t)));
            sort_by_captures(&mut root);
            let found = if root.is_empty() {
                Some(-MATE)
            } else {
                let depth = depth.min(MAX_DEPTH) as i32;
                self.search_root(pos, &mut root, depth)
                    .filter(|iteration| iteration.complete)
                    .map(|iteration| iteration.score)
            };
            self.probe_root = root;
            found
        };
        self.probe_nodes = u64::MAX;
        score.filter(|_| !std::mem::take(&mut self.stopped))
    }

    /// Searches `pos`, given the keys of the turn-start positions before it since the last
    /// capture (oldest first). `None` when the side to move has no legal turn.
    pub fn search_position(&mut self, pos: &Position, ancestors: &[u64]) -> Option<MinimaxResult> {
        self.begin(ancestors);
        self.history.age();

        let mut root: Vec<(i32, Turn)> = Vec::new();
        pos.for_each_turn(|t| root.push((0, *t)));
        root.shuffle(&mut self.rng);
        // Stable: equal captures keep the seeded order.
        sort_by_captures(&mut root);
        let mut best = MinimaxResult {
            turn: root.first()?.1,
            score: self.evaluation.evaluate(pos),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        // Where the tables hold the root, they hold every child: one turn deep is exact.
        let exact_root = pos.is_turn_start() && self.table_score(pos, 0).is_some();
        let last_depth = if exact_root {
            1
        } else {
            depth_limit(&self.budget)
        };
        for depth in 1..=last_depth {
            let Some(iteration) = self.search_root(pos, &mut root, depth as i32) else {
                break;
            };
            if !iteration.complete && !self.unfinished {
                break;
            }
            if iteration.complete {
                self.completed_depth = depth;
            }
            let turn = root.remove(iteration.best).1;
            root.insert(0, (0, turn));
            best = MinimaxResult {
                turn,
                score: iteration.score,
                depth: self.completed_depth,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
            };
            let half_time_used = self
                .budget
                .time
                .is_some_and(|t| self.start.elapsed() * 2 > t);
            if !iteration.complete
                || iteration.score > MATE_BOUND
                || (half_time_used && !self.unfinished)
                || self.stop_requested()
            {
                break;
            }
        }
        best.nodes = self.nodes;
        best.elapsed = self.start.elapsed();
        Some(best)
    }

    /// Resets the counters and the stop state of a new search or probe, whose root follows
    /// the turn starts `ancestors`.
    fn begin(&mut self, ancestors: &[u64]) {
        self.start = Instant::now();
        self.nodes = 0;
        self.completed_depth = 0;
        self.stopped = false;
        self.path.clear();
        self.path.extend_from_slice(ancestors);
    }

    /// One iteration at the root: what it found, or `None` if it was stopped before a turn
    /// beat the one searched first.
    fn search_root(
        &mut self,
        pos: &Position,
        root: &mut [(i32, Turn)],
        depth: i32,
    ) -> Option<Iteration> {
        let mut alpha = -INFINITY;
        let mut best = 0;
        self.nodes += 1;
        for (i, (_, turn)) in root.iter().enumerate() {
            let mut child = *pos;
            child.play_turn_unchecked(turn);
            self.path.push(pos.key());
            let score = if self.reductions && i > 0 {
                self.search_late(&child, (turn, i), depth, (alpha, INFINITY), 0)
            } else {
                -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1)
            };
            self.path.pop();
            if self.stopped {
                return (best > 0).then_some(Iteration {
                    best,
                    score: alpha,
                    complete: false,
                });
            }
            if score > alpha {
                alpha = score;
                best = i;
            }
        }
        // In mid-chain the key (which leaves out the chain) would name another position.
        if pos.is_turn_start() {
            self.tt.store(Entry {
                key: pos.key(),
                best: TtMove::of(&root[best].1),
                score: alpha,
                depth: depth as i8,
                bound: Bound::Exact,
            });
        }
        Some(Iteration {
            best,
            score: alpha,
            complete: true,
        })
    }

    /// Stops the search once a node or time limit is passed or the stop flag is set (never
    /// before depth 1 is done).
    fn check_limits(&mut self) {
        if self.completed_depth == 0 {
            return;
        }
        let over_nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
        let over_time = self.budget.time.is_some_and(|t| self.start.elapsed() >= t);
        self.stopped = over_nodes || over_time || self.stop_requested();
    }

    /// Whether `pos` repeats a turn start on the path since the last capture.
    #[inline]
    fn repeats(&self, pos: &Position) -> bool {
        if pos.rules().repetition_limit.is_none() {
            return false;
        }
        let window = (pos.no_capture_turns() as usize).min(self.path.len());
        let key = pos.key();
        self.path[self.path.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    /// Whether the no-capture limit is reached (a draw unless the side to move has lost).
    #[inline]
    fn no_capture_draw(pos: &Position) -> bool {
        pos.rules()
            .no_capture_limit
            .is_some_and(|limit| pos.no_capture_turns() >= limit)
    }

    fn negamax(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.nodes > self.probe_nodes {
            self.stopped = true;
        }
        if self.stopped {
            return DRAW;
        }
        let us = pos.side_to_move();
        let loss = -(MATE - ply as i32);
        if pos.pieces(us) == 0 {
            return loss;
        }
        if self.repeats(pos) {
            return DRAW;
        }
        if let Some(score) = self.table_score(pos, ply) {
            return score;
        }
        let mut alpha = alpha;
        let mut stand_pat = -INFINITY;
        if depth <= 0 {
            let must_capture = pos.must_capture();
            // Without a capture to make, the legal turns are the paika steps.
            if !must_capture && mobility(pos.board(), pos.pieces(us), pos.empty()) == 0 {
                return loss;
            }
            if Self::no_capture_draw(pos) {
                return DRAW;
            }
            stand_pat = self.evaluation.evaluate(pos);
            if !must_capture || depth <= -QUIESCENCE_PLIES || stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }

        let key = pos.key();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = Some(entry.best);
            if entry.depth as i32 >= depth {
                let score = score_from_tt(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let history = &self.history;
        pos.for_each_turn(|t| list.push((history.score(t, tt_move), *t)));
        let result = if list.is_empty() {
            loss
        } else if Self::no_capture_draw(pos) {
            DRAW
        } else {
            // In quiescence the stand-pat value is a floor.
            self.search_turns(pos, &mut list, depth, alpha, beta, ply)
                .max(stand_pat)
        };
        self.lists[ply] = list;
        result
    }

    /// Searches the turns of `list` (scored for ordering) and stores the result.
    fn search_turns(
        &mut self,
        pos: &Position,
        list: &mut [(i32, Turn)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let alpha_start = alpha;
        let mut best_score = -INFINITY;
        let mut best = 0;
        self.path.push(pos.key());
        for i in 0..list.len() {
            pick_next(list, i);
            let turn = list[i].1;
            let mut child = *pos;
            child.play_turn_unchecked(&turn);
            let score = if self.reductions && i > 0 {
                self.search_late(&child, (&turn, i), depth, (alpha, beta), ply)
            } else {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best = i;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !turn.is_capture() {
                            self.history.reward(&turn, depth.max(1));
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if !self.stopped && depth > 0 {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > alpha_start {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(Entry {
                key: pos.key(),
                best: TtMove::of(&list[best].1),
                score: score_to_tt(best_score, ply),
                depth: depth as i8,
                bound,
            });
        }
        best_score
    }

    /// The score of `child`, reached by `turn`, the `index`th turn searched of a node `depth`
    /// deep, `ply` plies below the root, whose window is `(alpha, beta)`: a null-window search,
    /// reduced for a late quiet turn, confirmed at full depth and then with the full window
    /// where it beats alpha.
    fn search_late(
        &mut self,
        child: &Position,
        (turn, index): (&Turn, usize),
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> i32 {
        let reduction = if depth < REDUCTION_MIN_DEPTH || index < REDUCE_FROM || turn.is_capture() {
            0
        } else if index < REDUCE_MORE_FROM {
            1
        } else {
            2
        };
        let null_window = |s: &mut Self, d: i32| -s.negamax(child, d, -alpha - 1, -alpha, ply + 1);
        let mut score = null_window(self, depth - 1 - reduction);
        if score > alpha && reduction > 0 {
            score = null_window(self, depth - 1);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
        }
        score
    }
}

/// The keys of the turn starts before the current state of `game` since its last capture:
/// the current position, if at a turn start, is the last key, and not its own ancestor.
fn ancestors(game: &Fanorona) -> &[u64] {
    let keys = game.turn_start_keys();
    if game.position().is_turn_start() {
        &keys[..keys.len().saturating_sub(1)]
    } else {
        keys
    }
}

/// Orders root turns by the pieces they capture, most first (stable).
fn sort_by_captures(root: &mut [(i32, Turn)]) {
    root.sort_by_key(|(_, t)| std::cmp::Reverse(t.captured().count_ones()));
}

/// A score as stored: wins and losses counted from the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
