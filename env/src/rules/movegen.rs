//! Move generation: legal steps, and complete turns (whole capture chains) deduplicated by
//! their result. Bitboard set operations find the pieces that can move or capture; a depth-first
//! search follows capture chains on a scratch copy of the board, without allocating.

use arrayvec::ArrayVec;

use super::board::{Board, Direction, Point, Points};
use super::capture_probe::{Bmi2, CaptureProbe, Portable};
use super::position::{Chain, Position};
use super::step::{Step, StepKind};
use super::turn::Turn;

/// Most steps one position can offer: two captures or one paika per piece and direction, or
/// a chain's continuations plus stop.
pub const MAX_STEPS: usize = 512;

/// A fixed-capacity list of steps (no allocation).
pub type StepList = ArrayVec<Step, MAX_STEPS>;

/// The pieces of `us` that can capture by approach in direction `d`.
#[inline]
fn approachers(board: &Board, us: u64, them: u64, empty: u64, d: usize) -> u64 {
    us & board.pre(empty & board.pre(them, d), d)
}

/// The pieces of `us` that can capture by withdrawal moving in direction `d`.
#[inline]
fn withdrawers(board: &Board, us: u64, them: u64, empty: u64, d: usize) -> u64 {
    us & board.pre(empty, d) & board.shift(them, d)
}

/// Most results of one starting piece kept without allocating (the start of the standard
/// game reaches 175 within six turns); more spill over into a vector.
const SEEN_CAPACITY: usize = 256;

/// Results (captured set, end point) of turns of two or more steps already emitted for one
/// starting piece, behind a 64-bit filter of their hashes so that most new results need no
/// scan at all.
///
/// One-step turns need no check: two of them differ in their end point or in the line they
/// capture, and a longer turn from the same start never matches one. (Its first step leaves
/// the start along another line than the one-step turn's, or away from it along the same
/// line, so the pieces that first step takes are not on the one-step turn's captured line.)
struct SeenResults {
    results: ArrayVec<(u64, Point), SEEN_CAPACITY>,
    /// Bit `hash(result) % 64` is set for every result recorded.
    filter: u64,
    spill: Vec<(u64, Point)>,
}

impl SeenResults {
    fn new() -> SeenResults {
        SeenResults {
            results: ArrayVec::new(),
            filter: 0,
            spill: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.results.clear();
        self.filter = 0;
        self.spill.clear();
    }

    /// The filter bit of a result: the top six bits of a multiplicative hash.
    #[inline]
    fn filter_bit(result: (u64, Point)) -> u64 {
        let hash = (result.0 ^ u64::from(result.1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        1 << (hash >> 58)
    }

    /// Records a result; false if it was already there. Before the search has branched,
    /// every earlier result lies on the path to this one and captured less, so there is
    /// nothing to compare (`check` false).
    #[inline(always)]
    fn insert(&mut self, to: Point, captured: u64, check: bool) -> bool {
        let result = (captured, to);
        let bit = SeenResults::filter_bit(result);
        if check && self.filter & bit != 0 && self.contains(result) {
            return false;
        }
        self.filter |= bit;
        if let Err(full) = self.results.try_push(result) {
            self.spill.push(full.element());
        }
        true
    }

    /// Whether a result was recorded (the slow path, behind the filter).
    #[inline(never)]
    fn contains(&self, result: (u64, Point)) -> bool {
        self.results.contains(&result) || self.spill.contains(&result)
    }
}

/// How the side to move may begin its turn.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TurnStart {
    /// A capture chain is under way: the chain piece goes on, or stops where that is allowed.
    Chain(Chain),
    /// Capturing is compulsory; these pieces can capture (none: there is no legal move).
    Capture(u64),
    /// No capture is possible (or, in the Vela phase, allowed): any paika step.
    Paika,
}

/// The depth-first search over capture chains, on a scratch copy of the pieces.
struct ChainSearch<'a, F, P> {
    board: &'static Board,
    probe: P,
    us: usize,
    pieces: [u64; 2],
    /// Whether a capture may be followed by another this turn.
    chains: bool,
    /// Vela: a capture takes only the nearest enemy.
    single_capture: bool,
    /// A chain must go on while it can.
    mandatory: bool,
    dedup: bool,
    seen: &'a mut SeenResults,
    /// Whether the search from the current starting piece has taken a second branch.
    branched: bool,
    f: &'a mut F,
}

impl<F: FnMut(&Turn), P: CaptureProbe> ChainSearch<'_, F, P> {
    /// Explores the captures of the piece on `turn.to`. Unless `first` (the start of the
    /// search), the piece has just captured: the turn is emitted if it may end here, and the
    /// chain goes on only where chains are allowed.
    fn explore(&mut self, turn: &mut Turn, visited: u64, last: usize, first: bool) {
        let at = turn.to;
        let them_index = 1 - self.us;
        let them = self.pieces[them_index];
        // Bit d of `approach`/`withdraw`: a capture of that kind moving in direction d.
        let (mut approach, mut withdraw) = (0u8, 0u8);
        let blocked = self.pieces[0] | self.pieces[1] | visited;
        let lines = self.board.capture_lines(at);
        // Quick exit: no free neighbour, or no enemy where a capture could strike.
        if (first || self.chains) && lines.neighbours & !blocked != 0 && lines.targets & them != 0 {
            (approach, withdraw) = self.probe.captures_except(lines, blocked, them, last);
        }
        if !first
            && (approach | withdraw == 0 || !self.mandatory)
            && (!self.dedup
                || turn.len() == 1
                || self.seen.insert(at, turn.captured, self.branched))
        {
            (self.f)(turn);
        }
        let mut tried = 0;
        for kind in [StepKind::Approach, StepKind::Withdrawal] {
            let mut options = if kind == StepKind::Approach {
                approach
            } else {
                withdraw
            };
            while options != 0 {
                tried += 1;
                self.branched |= tried > 1;
                let d = options.trailing_zeros() as usize;
                options &= options - 1;
                let q = self.board.neighbour_raw(at, d);
                let (target, line_dir) = if kind == StepKind::Approach {
                    (self.board.neighbour_raw(q, d), d)
                } else {
                    (self.board.neighbour_raw(at, (d + 4) & 7), (d + 4) & 7)
                };
                let run = if self.single_capture {
                    1 << target
                } else {
                    self.board.run(target, line_dir, them)
                };
                self.pieces[self.us] ^= (1 << at) | (1 << q);
                self.pieces[them_index] = them & !run;
                let captured_before = turn.captured;
                turn.captured |= run;
                turn.to = q;
                turn.push(Direction::from_index(d), kind);
                self.explore(turn, visited | (1 << q), d, false);
                turn.pop();
                turn.to = at;
                turn.captured = captured_before;
                self.pieces[self.us] ^= (1 << at) | (1 << q);
                self.pieces[them_index] = them;
            }
        }
    }
}

impl Position {
    /// The pieces of the side to move that have a capturing step (ignoring chains and Vela).
    #[inline]
    pub(crate) fn capture_movers(&self) -> u64 {
        let board = self.board;
        let us = self.pieces[self.side.index()];
        let them = self.pieces[self.side.other().index()];
        let empty = self.empty();
        let mut movers = 0;
        for d in 0..8 {
            movers |=
                approachers(board, us, them, empty, d) | withdrawers(board, us, them, empty, d);
        }
        movers
    }

    /// Whether a chain in this state has a legal capturing continuation.
    pub(crate) fn chain_can_continue(&self, chain: &Chain) -> bool {
        let (approach, withdraw) = self.chain_captures(chain);
        approach | withdraw != 0
    }

    /// The capturing steps that go on with `chain`, by direction: approaches and withdrawals.
    #[inline]
    fn chain_captures(&self, chain: &Chain) -> (u8, u8) {
        let them = self.pieces[self.side.other().index()];
        let blocked = self.pieces[0] | self.pieces[1] | chain.visited;
        let lines = self.board.capture_lines(chain.piece);
        Portable.captures_except(lines, blocked, them, chain.last_dir.index())
    }

    /// The legal steps, in a fixed order: by direction, then point, then kind.
    pub fn legal_steps(&self) -> StepList {
        let mut list = StepList::new();
        self.for_each_step(|s| list.push(s));
        list
    }

    /// Calls `f` for every legal step.
    pub fn for_each_step(&self, mut f: impl FnMut(Step)) {
        let us_color = self.side;
        let them = self.pieces[us_color.other().index()];
        if let Some(chain) = self.chain {
            let (approach, withdraw) = self.chain_captures(&chain);
            for d in 0..8 {
                let dir = Direction::from_index(d);
                for (mask, kind) in [
                    (approach, StepKind::Approach),
                    (withdraw, StepKind::Withdrawal),
                ] {
                    if mask & (1 << d) != 0 {
                        f(Step::Move {
                            from: chain.piece,
                            dir,
                            kind,
                        });
                    }
                }
            }
            if !self.rules.mandatory_continuation {
                f(Step::Stop);
            }
            return;
        }
        let board = self.board;
        let us = self.pieces[us_color.index()];
        let empty = self.empty();
        let captures = self.must_capture();
        for d in 0..8 {
            let dir = Direction::from_index(d);
            if captures {
                let a = approachers(board, us, them, empty, d);
                let w = withdrawers(board, us, them, empty, d);
                for from in Points(a | w) {
                    if a & (1 << from) != 0 {
                        f(Step::Move {
                            from,
                            dir,
                            kind: StepKind::Approach,
                        });
                    }
                    if w & (1 << from) != 0 {
                        f(Step::Move {
                            from,
                            dir,
                            kind: StepKind::Withdrawal,
                        });
                    }
                }
            } else {
                for from in Points(us & board.pre(empty, d)) {
                    f(Step::Move {
                        from,
                        dir,
                        kind: StepKind::Paika,
                    });
                }
            }
        }
    }

    /// How the side to move may begin (or go on with) its turn.
    pub(crate) fn turn_start(&self) -> TurnStart {
        if let Some(chain) = self.chain {
            return TurnStart::Chain(chain);
        }
        if self.vela_active() {
            // In the Vela phase the other side may only make paika moves.
            return if self.rules.vela == Some(self.side) {
                TurnStart::Capture(self.capture_movers())
            } else {
                TurnStart::Paika
            };
        }
        match self.capture_movers() {
            0 => TurnStart::Paika,
            movers => TurnStart::Capture(movers),
        }
    }

    /// Whether the side to move must capture this turn.
    pub fn must_capture(&self) -> bool {
        !matches!(self.turn_start(), TurnStart::Paika)
    }

    /// Calls `f` for every legal complete turn, each distinct result (start, end and captured
    /// pieces) once. In mid-chain the turns are the ways to finish the chain. No allocation
    /// unless one piece has more than 256 distinct capture results.
    pub fn for_each_turn(&self, mut f: impl FnMut(&Turn)) {
        let mut seen = SeenResults::new();
        self.generate_turns(self.turn_start(), true, &mut seen, &mut f);
    }

    /// Every legal complete turn, including different paths to the same result.
    pub fn for_each_turn_path(&self, mut f: impl FnMut(&Turn)) {
        let mut seen = SeenResults::new();
        self.generate_turns(self.turn_start(), false, &mut seen, &mut f);
    }

    fn generate_turns(
        &self,
        start: TurnStart,
        dedup: bool,
        seen: &mut SeenResults,
        f: &mut impl FnMut(&Turn),
    ) {
        match Bmi2::detect() {
            Some(probe) => self.search_turns(start, dedup, seen, f, probe),
            None => self.search_turns(start, dedup, seen, f, Portable),
        }
    }

    fn search_turns(
        &self,
        start: TurnStart,
        dedup: bool,
        seen: &mut SeenResults,
        f: &mut impl FnMut(&Turn),
        probe: impl CaptureProbe,
    ) {
        let board = self.board;
        let mut search = ChainSearch {
            board,
            probe,
            us: self.side.index(),
            pieces: self.pieces,
            chains: self.chains_allowed(),
            single_capture: self.vela_active(),
            mandatory: self.rules.mandatory_continuation,
            dedup,
            seen,
            branched: false,
            f,
        };
        match start {
            TurnStart::Chain(chain) => {
                let mut turn = Turn::start(chain.piece);
                if !search.mandatory {
                    (search.f)(&turn);
                }
                search.explore(&mut turn, chain.visited, chain.last_dir.index(), true);
            }
            TurnStart::Capture(movers) => {
                for from in Points(movers) {
                    search.seen.clear();
                    search.branched = false;
                    let mut turn = Turn::start(from);
                    search.explore(&mut turn, 1 << from, 8, true);
                }
            }
            TurnStart::Paika => {
                let us = self.pieces[self.side.index()];
                let empty = self.empty();
                for d in 0..8 {
                    let dir = Direction::from_index(d);
                    for from in Points(us & board.pre(empty, d)) {
                        let mut turn = Turn::start(from);
                        turn.push(dir, StepKind::Paika);
                        turn.to = board.neighbour_raw(from, d);
                        (search.f)(&turn);
                    }
                }
            }
        }
    }

    /// The legal complete turns, each distinct result once, in generation order.
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut turns = Vec::new();
        self.for_each_turn(|t| turns.push(*t));
        turns
    }

    /// The legal complete turns in notation, sorted.
    pub fn legal_turn_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .legal_turns()
            .iter()
            .map(|t| t.notation(self.board))
            .collect();
        names.sort();
        names
    }

    /// Number of legal complete turns (distinct results), counted without building a list.
    pub fn count_turns(&self) -> u64 {
        let start = self.turn_start();
        if let TurnStart::Paika = start {
            // One turn per piece and free neighbour.
            return self.paika_count();
        }
        let mut n = 0;
        let mut seen = SeenResults::new();
        self.generate_turns(start, true, &mut seen, &mut |_| n += 1);
        n
    }

    /// Number of paika steps: pieces of the side to move times their free neighbours.
    pub(crate) fn paika_count(&self) -> u64 {
        let us = self.pieces[self.side.index()];
        let empty = self.empty();
        (0..8)
            .map(|d| (us & self.board.pre(empty, d)).count_ones() as u64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past its fixed capacity the record spills over and still finds every result once.
    #[test]
    fn seen_results_find_each_result_once_beyond_capacity() {
        let mut seen = SeenResults::new();
        let results: Vec<(u64, Point)> = (0..SEEN_CAPACITY as u64 + 40)
            .map(|i| (i.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1, (i % 45) as Point))
            .collect();
        for &(captured, to) in &results {
            assert!(seen.insert(to, captured, true));
        }
        assert!(!seen.spill.is_empty());
        for &(captured, to) in &results {
            assert!(!seen.insert(to, captured, true), "{captured:x} {to}");
        }
        assert!(seen.insert(3, 0, true));
        seen.clear();
        assert!(seen.insert(results[0].1, results[0].0, true));
    }
}
