//! A solved board: the index of its reachable positions with their values, and how it was
//! computed.

use std::time::Instant;

use fanorona_env::{Board, Position, Rules};

use super::enumerate::enumerate;
use super::error::SolverError;
use super::index::{PositionIndex, check_board, pack, unpack};
use super::retrograde::label;
use super::value::Value;

/// Limits and logging of a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Give up (with [`SolverError::TooManyPositions`]) beyond this many positions.
    pub max_positions: u64,
    /// Called with a line per material class enumerated and labelled (the caller chooses
    /// where it goes; by default nowhere).
    pub log: fn(&str),
}

impl Default for SolveOptions {
    /// At most 400 million positions (about 4 GB of table), quiet.
    fn default() -> SolveOptions {
        SolveOptions {
            max_positions: 400_000_000,
            log: |_| {},
        }
    }
}

/// How many positions are wins, losses and draws for their side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutcomeCounts {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
}

impl OutcomeCounts {
    /// Counts the values of value codes.
    pub(crate) fn of_codes(codes: impl IntoIterator<Item = u16>) -> OutcomeCounts {
        let mut counts = OutcomeCounts::default();
        for code in codes {
            match Value::decode(code) {
                Value::Win(_) => counts.wins += 1,
                Value::Loss(_) => counts.losses += 1,
                Value::Draw => counts.draws += 1,
            }
        }
        counts
    }

    /// Counts one-byte value codes from their histogram (`histogram[c]`: how many codes
    /// `c`): 0 a draw, odd codes losses, even codes wins.
    pub(crate) fn of_histogram(histogram: &[u64; 256]) -> OutcomeCounts {
        let mut counts = OutcomeCounts {
            draws: histogram[0],
            ..OutcomeCounts::default()
        };
        for (code, &n) in histogram.iter().enumerate().skip(1) {
            if code % 2 == 1 {
                counts.losses += n;
            } else {
                counts.wins += n;
            }
        }
        counts
    }

    /// All positions counted.
    pub fn total(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
}

/// What one material class of a solve holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassReport {
    /// White's piece count.
    pub white: u8,
    /// Black's piece count.
    pub black: u8,
    /// Positions in the class.
    pub positions: u64,
    /// Their outcomes for the side to move.
    pub counts: OutcomeCounts,
    /// The longest distance to the end in the class.
    pub max_distance: u16,
}

impl ClassReport {
    /// The report of a class with the given value codes.
    pub(crate) fn new(white: u8, black: u8, codes: &[u16]) -> ClassReport {
        ClassReport {
            white,
            black,
            positions: codes.len() as u64,
            counts: OutcomeCounts::of_codes(codes.iter().copied()),
            max_distance: codes
                .iter()
                .filter_map(|&c| Value::decode(c).distance())
                .max()
                .unwrap_or(0),
        }
    }
}

/// Timings and per-class figures of a solve.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Seconds spent enumerating the reachable positions.
    pub enumerate_secs: f64,
    /// Seconds spent labelling them.
    pub label_secs: f64,
    /// One entry per material class, fewest pieces first.
    pub classes: Vec<ClassReport>,
}

/// A solved board: every position reachable from the roots, with its value.
#[derive(Debug)]
pub struct Solution {
    pub(crate) index: PositionIndex,
    /// Value codes, in index order.
    pub(crate) values: Vec<u16>,
    /// Keys of the positions the solve started from.
    pub(crate) roots: Vec<u64>,
}

impl Solution {
    /// Solves `board` from its initial position, with the default limits.
    pub fn solve(board: &'static Board) -> Result<Solution, SolverError> {
        Solution::solve_from(&[Position::initial(board)], &SolveOptions::default())
            .map(|(solution, _)| solution)
    }

    /// Solves every position reachable from `roots` (positions of one board under the
    /// standard rules; draw limits are ignored, a capture chain in progress stands for the
    /// positions its completions reach).
    pub fn solve_from(
        roots: &[Position],
        options: &SolveOptions,
    ) -> Result<(Solution, SolveReport), SolverError> {
        let first = roots.first().ok_or(SolverError::NoRoot)?;
        let board = first.board();
        check_board(board)?;
        let mut starts = Vec::new();
        for root in roots {
            if !std::ptr::eq(root.board(), board) {
                return Err(SolverError::MixedBoards(format!(
                    "{}x{} and {}x{}",
                    board.width(),
                    board.height(),
                    root.board().width(),
                    root.board().height()
                )));
            }
            check_rules(root.rules())?;
            let root = root.with_rules(Rules::pure());
            if root.is_turn_start() {
                starts.push(unpack(board, pack(&root)));
            } else {
                root.for_each_turn(|turn| {
                    let mut next = root;
                    next.play_turn_unchecked(turn);
                    starts.push(unpack(board, pack(&next)));
                });
            }
        }
        let started = Instant::now();
        let index = enumerate(&starts, options)?;
        let enumerate_secs = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let (values, classes) = label(&index, options)?;
        let label_secs = started.elapsed().as_secs_f64();
        let roots = starts.iter().map(pack).collect();
        let solution = Solution {
            index,
            values,
            roots,
        };
        let report = SolveReport {
            enumerate_secs,
            label_secs,
            classes,
        };
        Ok((solution, report))
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.index.board()
    }

    /// Number of positions solved.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no position was solved (never the case for a solve that succeeded).
    pub fn is_empty(&self) -> bool {
        self.index.len() == 0
    }

    /// The positions the solve started from (turn starts, under [`Rules::pure`]); for
    /// [`Solution::solve`] the initial position alone.
    pub fn roots(&self) -> Vec<Position> {
        self.roots
            .iter()
            .map(|&k| unpack(self.board(), k))
            .collect()
    }

    /// How many positions are wins, losses and draws for the side to move.
    pub fn counts(&self) -> OutcomeCounts {
        OutcomeCounts::of_codes(self.values.iter().copied())
    }

    /// Every solved position (under [`Rules::pure`]) with its value, in index order.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Value)> + '_ {
        let board = self.board();
        self.index.classes().iter().flat_map(move |class| {
            class.keys.iter().enumerate().map(move |(i, &key)| {
                (
                    unpack(board, key),
                    Value::decode(self.values[class.offset + i]),
                )
            })
        })
    }
}

/// Checks that positions under `rules` can be looked up in a solver table: the standard
/// rules, with or without draw limits.
pub fn check_rules(rules: &Rules) -> Result<(), SolverError> {
    let mut unsupported = Vec::new();
    if rules.mandatory_continuation {
        unsupported.push("mandatory continuation");
    }
    if rules.first_turn_single_capture {
        unsupported.push("first-turn single capture");
    }
    if rules.vela.is_some() {
        unsupported.push("vela");
    }
    if unsupported.is_empty() {
        Ok(())
    } else {
        Err(SolverError::UnsupportedRules(unsupported.join(", ")))
    }
}
