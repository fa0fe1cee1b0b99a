//! Building the tables by retrograde analysis, from the fewest pieces up.
//!
//! A paika turn of class `m`v`o` (mover, opponent) leads to class `o`v`m` (the other side to
//! move), so the two are built together as one *pair* (one class where `m = o`); a capture
//! lowers the opponent's count and leads to a pair with fewer pieces, built before. In a pair:
//! 1. every position that must capture takes the best value over its complete turns (whole
//!    chains, from the engine's turn generation), each looked up in the smaller classes; a
//!    position without a turn loses now; the others count their paika turns;
//! 2. backward induction over paika turns (the solver's [`induce`]): predecessors are found by
//!    un-making a paika step of the side that moved last.
//!
//! Positions are processed in parallel (rayon). Each class is written to its own sealed file
//! as soon as its pair is done; a pair whose files are all there is loaded (and checked)
//! instead of built again, so an interrupted build resumes where it stopped.

use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_env::{Board, Color, Position, Rules};
use fanorona_util::progress::ProgressBar;
use rayon::prelude::*;

use super::error::TablesError;
use super::file::{ClassTable, MAX_FILE_DISTANCE, class_file_name, encode, read_class};
use super::index::{ClassIndex, MAX_TABLE_PIECES};
use super::probe::EndgameTables;
use crate::solver::Value;
use crate::solver::retrograde::{for_each_paika_predecessor, induce};

/// Positions labelled per parallel task in the first pass.
const CHUNK: usize = 1 << 14;

/// How a build reports: the caller chooses what is shown (by default nothing).
pub struct BuildOptions {
    /// The bar counting positions labelled (its length is set to the positions to build).
    pub progress: ProgressBar,
    /// Called with each class's report as soon as it is built or read.
    pub on_class: Box<dyn Fn(&BuiltClass)>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            progress: ProgressBar::hidden(),
            on_class: Box::new(|_| {}),
        }
    }
}

/// What the build did with one class.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltClass {
    /// The side to move's pieces.
    pub mover: usize,
    /// The other side's pieces.
    pub opponent: usize,
    /// Positions of the class.
    pub positions: u64,
    /// Wins, losses and draws for the side to move.
    pub counts: crate::solver::OutcomeCounts,
    /// The longest distance to the end (`None`: every position is a draw).
    pub max_distance: Option<u16>,
    /// Whether the class was built now (false: its file was there and was loaded).
    pub built: bool,
    /// Seconds spent on the class's pair (0 when loaded).
    pub seconds: f64,
    /// The class's file.
    pub path: PathBuf,
}

impl BuiltClass {
    /// The class and its outcomes, e.g. `class 2v1: 42570 positions (40996 wins, 24 losses,
    /// 1550 draws)`.
    pub fn summary(&self) -> String {
        format!(
            "class {}v{}: {} positions ({} wins, {} losses, {} draws)",
            self.mover,
            self.opponent,
            self.positions,
            self.counts.wins,
            self.counts.losses,
            self.counts.draws
        )
    }

    /// What was done with it: `built in 0.3 s` or `file found and checked`.
    pub fn status(&self) -> String {
        if self.built {
            format!("built in {:.1} s", self.seconds)
        } else {
            "file found and checked".to_string()
        }
    }
}

/// Builds (or loads, where their files exist) every class of `board` with at most `pieces`
/// pieces into the folder `dir`, and returns the tables with a report per class.
pub fn build(
    board: &'static Board,
    pieces: usize,
    dir: &Path,
    options: &BuildOptions,
) -> Result<(EndgameTables, Vec<BuiltClass>), TablesError> {
    let max = MAX_TABLE_PIECES.min(board.points() - 1);
    if !(2..=max).contains(&pieces) {
        return Err(TablesError::BadPieces {
            pieces,
            board: board.to_string(),
            max,
        });
    }
    let pairs = pairs(board, pieces)?;
    let path = |c: &ClassIndex| dir.join(class_file_name(board, c.mover(), c.opponent()));
    let missing: Vec<bool> = pairs
        .iter()
        .map(|pair| !pair.iter().all(|c| path(c).is_file()))
        .collect();
    let to_build: u64 = pairs
        .iter()
        .zip(&missing)
        .filter(|&(_, &m)| m)
        .map(|(pair, _)| pair.iter().map(ClassIndex::len).sum::<u64>())
        .sum();
    let bar = &options.progress;
    bar.set_length(to_build);
    let mut tables = EndgameTables::empty(board);
    let mut reports = Vec::new();
    for (k, (pair, missing)) in pairs.iter().zip(missing).enumerate() {
        let started = Instant::now();
        let built: Vec<ClassTable> = if missing {
            bar.set_message(format!("class {}v{}", pair[0].mover(), pair[0].opponent()));
            let codes = label_pair(&tables, board, pair, bar)?;
            tables.check_whole()?;
            let built: Vec<ClassTable> = pair
                .iter()
                .zip(codes)
                .map(|(class, codes)| ClassTable::new(board, class, &codes))
                .collect();
            // Written, then opened from the file (checked, and mapped rather than held).
            built
                .iter()
                .map(|table| {
                    let path = path(table.index());
                    table.write(&path)?;
                    read_class(&path, board, table.index())
                })
                .collect::<Result<_, _>>()?
        } else {
            pair.iter()
                .map(|c| {
                    read_class(&path(c), board, c).map_err(|e| match e {
                        TablesError::BadFile { path, reason } => {
                            TablesError::DamagedInBuild { path, reason }
                        }
                        other => other,
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let seconds = if missing {
            started.elapsed().as_secs_f64()
        } else {
            0.0
        };
        for table in built {
            let report = report(&table, missing, seconds, path(table.index()));
            (options.on_class)(&report);
            reports.push(report);
            tables.insert(table);
        }
        let done = pair_pieces(pair);
        if pairs.get(k + 1).is_none_or(|next| pair_pieces(next) > done) {
            tables.set_pieces(done);
        }
    }
    bar.finish_and_clear();
    Ok((tables, reports))
}

/// The pieces of the positions of a pair.
fn pair_pieces(pair: &[ClassIndex]) -> usize {
    pair[0].mover() + pair[0].opponent()
}

/// The pairs of classes of at most `pieces` pieces, fewest pieces first: `[m v o, o v m]`
/// for `m < o`, `[m v m]` alone.
fn pairs(board: &'static Board, pieces: usize) -> Result<Vec<Vec<ClassIndex>>, TablesError> {
    let mut pairs = Vec::new();
    for n in 2..=pieces {
        for m in 1..=n / 2 {
            let o = n - m;
            let mut pair = vec![ClassIndex::new(board, m, o)?];
            if m != o {
                pair.push(ClassIndex::new(board, o, m)?);
            }
            pairs.push(pair);
        }
    }
    Ok(pairs)
}

/// The report of a class.
fn report(table: &ClassTable, built: bool, seconds: f64, path: PathBuf) -> BuiltClass {
    let codes = table.codes();
    BuiltClass {
        mover: table.index().mover(),
        opponent: table.index().opponent(),
        positions: table.index().len(),
        counts: table.counts(),
        max_distance: codes
            .iter()
            .filter_map(|&c| super::file::decode(c).distance())
            .max(),
        built,
        seconds,
        path,
    }
}

/// The table position of class member `(mover, opponent)`: the mover plays white.
#[inline]
fn position(board: &'static Board, mover: u64, opponent: u64) -> Position {
    Position::from_pieces(board, [mover, opponent], Color::White, Rules::pure())
        .expect("class members hold disjoint pieces on the board")
}

/// The starting label of a position (see [`induce`]): its value code and 0 if it must capture
/// or has no turn, otherwise 0 and its number of paika turns.
fn initial_label(
    tables: &EndgameTables,
    board: &'static Board,
    mover: u64,
    opponent: u64,
) -> (u16, u16) {
    let pos = position(board, mover, opponent);
    if !pos.must_capture() {
        return match pos.count_turns() {
            0 => (Value::Loss(0).encode(), 0),
            turns => (0, turns as u16),
        };
    }
    let mut best: Option<Value> = None;
    pos.for_each_turn(|turn| {
        let mut next = pos;
        next.play_turn_unchecked(turn);
        // A capture leads to a smaller class, built before; `None` only if its file was
        // truncated under its map, and then the pair is refused (`check_whole`).
        let value = tables
            .lookup(next.pieces(Color::Black), next.pieces(Color::White))
            .unwrap_or(Value::Draw)
            .before_turn();
        best = Some(best.map_or(value, |b| b.max(value)));
    });
    let best = best.expect("a position that must capture has a turn");
    (best.encode(), 0)
}

/// The value codes of the classes of `pair`, the smaller classes being in `tables`.
fn label_pair(
    tables: &EndgameTables,
    board: &'static Board,
    pair: &[ClassIndex],
    bar: &ProgressBar,
) -> Result<Vec<Vec<u8>>, TablesError> {
    let first_len = pair[0].len() as usize;
    let total: usize = pair.iter().map(|c| c.len() as usize).sum();
    // The pair's positions are numbered one after the other: the first class, then the second.
    let locate = |g: usize| {
        if g < first_len {
            (0, g as u64)
        } else {
            (pair.len() - 1, (g - first_len) as u64)
        }
    };
    let offset = |c: usize| if c == 0 { 0 } else { first_len };
    let mut codes = vec![0u16; total];
    let mut counts = vec![0u16; total];
    codes
        .par_chunks_mut(CHUNK)
        .zip(counts.par_chunks_mut(CHUNK))
        .enumerate()
        .for_each(|(chunk, (codes, counts))| {
            for (j, (code, count)) in codes.iter_mut().zip(counts.iter_mut()).enumerate() {
                let (c, i) = locate(chunk * CHUNK + j);
                // Twins of canonical positions stay out of the induction (code and count 0).
                if pair[c].is_canonical(i) {
                    let (mover, opponent) = pair[c].unrank(i);
                    (*code, *count) = initial_label(tables, board, mover, opponent);
                }
            }
            bar.inc(codes.len() as u64);
        });
    let mut codes = induce(codes, counts, |g, found| {
        let (c, i) = locate(g);
        let (mover, opponent) = pair[c].unrank(i);
        let fixed = pair[c].canonical(mover, opponent).1;
        // The class a paika turn leads to: the other of the pair (the same where m = o).
        let before_class = &pair[pair.len() - 1 - c];
        let before_offset = offset(pair.len() - 1 - c);
        // The opponent (black) made the last paika turn: there, it was to move. Predecessors
        // come as concrete positions; several may share a canonical number.
        let mut found_here: Vec<(u64, u32)> = Vec::new();
        for_each_paika_predecessor(board, [mover, opponent], Color::White, |before| {
            found_here.push(before_class.canonical(before[1], before[0]));
        });
        found_here.sort_unstable();
        for run in found_here.chunk_by(|a, b| a.0 == b.0) {
            let (q, q_fixed) = run[0];
            // `run.len()` un-made turns reach `q`'s images; `q` itself has
            // `run.len() * |fixed(q)| / |fixed(position)|` turns into this position's images.
            let turns = run.len() as u32 * q_fixed / fixed;
            debug_assert_eq!(turns * fixed, run.len() as u32 * q_fixed);
            found(before_offset + q as usize, turns as u16);
        }
    })?;
    // Twins take their canonical position's value.
    for (c, class) in pair.iter().enumerate() {
        for range in class.symmetric_ranges() {
            for i in range {
                let (mover, opponent) = class.unrank(i);
                let canonical = class.rank(mover, opponent);
                if canonical != i {
                    codes[offset(c) + i as usize] = codes[offset(c) + canonical as usize];
                }
            }
        }
    }
    let mut out = Vec::with_capacity(pair.len());
    let mut start = 0;
    for class in pair {
        let end = start + class.len() as usize;
        let bytes = codes[start..end]
            .par_iter()
            .map(|&code| {
                let value = Value::decode(code);
                encode(value).ok_or(TablesError::DistanceOverflow {
                    mover: class.mover(),
                    opponent: class.opponent(),
                    distance: value.distance().unwrap_or(0),
                    max: MAX_FILE_DISTANCE,
                })
            })
            .collect::<Result<Vec<u8>, _>>()?;
        out.push(bytes);
        start = end;
    }
    Ok(out)
}
