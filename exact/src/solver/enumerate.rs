//! Enumerating the positions reachable from the roots, material class by material class.
//! A capture lowers a piece count, so the classes are closed under paika turns and form a
//! chain under captures: the class with most pieces is explored first (a breadth-first
//! search over paika turns, in parallel batches), and its captures seed the smaller classes,
//! which are explored once no larger class can reach them any more.

use std::time::Instant;

use fanorona_env::{Board, Position};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::error::SolverError;
use super::index::{PositionIndex, material, pack, sort_keys, unpack};
use super::solution::SolveOptions;

/// Positions expanded per parallel task.
const BATCH: usize = 2048;

/// The successors of a batch of positions: those in the same class (after a paika turn) and
/// those in smaller classes (after a capture).
fn expand(board: &'static Board, keys: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let mut same = Vec::new();
    let mut lower = Vec::new();
    for &key in keys {
        let pos = unpack(board, key);
        pos.for_each_turn(|turn| {
            let mut next = pos;
            next.play_turn_unchecked(turn);
            if turn.is_capture() {
                lower.push(pack(&next));
            } else {
                same.push(pack(&next));
            }
        });
    }
    (same, lower)
}

/// Every position reachable from `roots` (turn starts of one board, under the solver's
/// rules), indexed with the smallest classes first.
pub(crate) fn enumerate(
    roots: &[Position],
    options: &SolveOptions,
) -> Result<PositionIndex, SolverError> {
    let board = roots.first().ok_or(SolverError::NoRoot)?.board();
    let started = Instant::now();
    let mut pending: FxHashMap<(u8, u8), Vec<u64>> = FxHashMap::default();
    for root in roots {
        let key = pack(root);
        pending.entry(material(board, key)).or_default().push(key);
    }
    let mut classes = Vec::new();
    let mut total = 0usize;
    while let Some(&class) = pending
        .keys()
        .max_by_key(|&&(white, black)| (white as u32 + black as u32, white))
    {
        let mut frontier = pending.remove(&class).expect("class is pending");
        frontier.par_sort_unstable();
        frontier.dedup();
        let mut seen: FxHashSet<u64> = frontier.iter().copied().collect();
        while !frontier.is_empty() {
            let batches: Vec<(Vec<u64>, Vec<u64>)> = frontier
                .par_chunks(BATCH)
                .map(|chunk| expand(board, chunk))
                .collect();
            frontier = Vec::new();
            for (same, lower) in batches {
                frontier.extend(same.into_iter().filter(|&k| seen.insert(k)));
                for key in lower {
                    pending.entry(material(board, key)).or_default().push(key);
                }
            }
            if (total + seen.len()) as u64 > options.max_positions {
                return Err(SolverError::TooManyPositions {
                    limit: options.max_positions,
                });
            }
        }
        for keys in pending.values_mut() {
            keys.par_sort_unstable();
            keys.dedup();
        }
        let mut keys: Vec<u64> = seen.into_iter().collect();
        sort_keys(&mut keys);
        total += keys.len();
        (options.log)(&format!(
            "enumerate: class {}v{}: {} positions; {} in all, {:.1} s",
            class.0,
            class.1,
            keys.len(),
            total,
            started.elapsed().as_secs_f64()
        ));
        classes.push((class.0, class.1, keys));
    }
    classes.reverse();
    Ok(PositionIndex::new(board, classes))
}
