//! The positions a student network is taught on: the leaves an alpha-beta search meets, since
//! that is where `abnet` asks for values. Games are played from the start by the minimax
//! baseline's search (a few random opening turns, then mostly its best turn, sometimes a
//! random one); every search's leaves (the turn starts it asked the static evaluation for,
//! quiescence stand-pats included) are kept with a small probability, once each.

use std::collections::HashSet;

use fanorona_env::{Budget, History, Position};
use fanorona_eval::minimax::Searcher;
use fanorona_eval::minimax::{StaticEvaluation, evaluate};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::rng::TrainRng;

/// Random turns at the start of each game: from 0 up to this many.
const MAX_RANDOM_OPENING: u32 = 8;

/// Chance that a game turn after the opening is random rather than the search's best.
const RANDOM_TURN: f64 = 0.1;

/// Transposition table of the searches, in MiB.
const HASH_MB: usize = 1;

/// How leaves are sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafSampling {
    /// Depth of the searches, in complete turns.
    pub depth: u32,
    /// Chance that a leaf is kept.
    pub keep: f64,
    /// Seed of the games and of the choice of leaves.
    pub seed: u64,
}

/// The hand-made evaluation, remembering every position it values.
struct Recording<'a> {
    leaves: &'a mut Vec<Position>,
}

impl StaticEvaluation for Recording<'_> {
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.leaves.push(*pos);
        evaluate(pos)
    }
}

/// Streams of games sampled at the same time (rayon), each from its own stream of the seeded
/// generator: enough to keep the cores busy, and fixed, so that the leaves do not depend on
/// the number of threads.
const STREAMS: u64 = 16;

/// `count` distinct turn-start positions (distinct by pieces, side to move and no-capture
/// counter) sampled from the leaves of searches in games from `start` (see the module
/// documentation). [`STREAMS`] streams of games give an equal share each, in stream order; a
/// leaf that an earlier stream gave is dropped, and the streams go on for the missing ones
/// until there are `count`. Deterministic for a seed. Empty if `start` has no legal turn.
pub fn sample_leaves(start: &Position, count: usize, sampling: LeafSampling) -> Vec<Position> {
    let mut streams: Vec<Stream> = (0..STREAMS)
        .map(|stream| Stream::new(start, sampling, stream))
        .collect();
    let mut kept = Vec::with_capacity(count);
    let mut seen = HashSet::with_capacity(count);
    while kept.len() < count {
        let share = (count - kept.len()).div_ceil(STREAMS as usize);
        let leaves: Vec<Vec<Position>> = streams
            .par_iter_mut()
            .map(|stream| stream.sample(share))
            .collect();
        if leaves.iter().all(Vec::is_empty) {
            break; // no game from this start
        }
        for leaf in leaves.into_iter().flatten() {
            if kept.len() < count && seen.insert(identity(&leaf)) {
                kept.push(leaf);
            }
        }
    }
    kept
}

/// One stream of games and the leaves it has given.
struct Stream {
    start: Position,
    sampling: LeafSampling,
    rng: TrainRng,
    history: History,
    /// Random turns at the start of the game being played.
    opening: u32,
    seen: HashSet<(u64, u32)>,
    leaves: Vec<Position>,
}

impl Stream {
    /// Stream `stream` of the sampling's seed, at the start of its first game.
    fn new(start: &Position, sampling: LeafSampling, stream: u64) -> Stream {
        let mut rng = TrainRng::seed_from_u64(sampling.seed);
        rng.set_stream(stream);
        let opening = rng.random_range(0..=MAX_RANDOM_OPENING);
        Stream {
            start: *start,
            sampling,
            rng,
            history: History::new(*start),
            opening,
            seen: HashSet::new(),
            leaves: Vec::new(),
        }
    }

    /// `count` more leaves, none it gave before, from the games it goes on playing (fewer only
    /// if the start has no legal turn).
    fn sample(&mut self, count: usize) -> Vec<Position> {
        let mut kept = Vec::with_capacity(count);
        while kept.len() < count {
            let turns = self.history.position().legal_turns();
            if self.history.outcome().is_some() || turns.is_empty() {
                if self.history.turns().is_empty() {
                    break; // no game from this start
                }
                self.history = History::new(self.start);
                self.opening = self.rng.random_range(0..=MAX_RANDOM_OPENING);
                continue;
            }
            self.leaves.clear();
            let searched = {
                let recording = Recording {
                    leaves: &mut self.leaves,
                };
                let mut searcher = Searcher::with_evaluation(
                    Budget::fixed_depth(self.sampling.depth),
                    HASH_MB,
                    self.rng.random(),
                    recording,
                );
                searcher.search_position(self.history.position(), &[])
            };
            for leaf in &self.leaves {
                if kept.len() < count
                    && self.rng.random_bool(self.sampling.keep)
                    && self.seen.insert(identity(leaf))
                {
                    kept.push(*leaf);
                }
            }
            let random = self.history.turns().len() < self.opening as usize
                || self.rng.random_bool(RANDOM_TURN);
            let turn = match searched {
                Some(result) if !random => result.turn,
                _ => *turns.choose(&mut self.rng).expect("a legal turn"),
            };
            self.history.play_unchecked(&turn);
        }
        kept
    }
}

/// What tells two leaves apart for the network: pieces, side to move and the no-capture
/// counter.
fn identity(pos: &Position) -> (u64, u32) {
    (pos.key(), u32::from(pos.no_capture_turns()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Color;

    fn sampling(seed: u64) -> LeafSampling {
        LeafSampling {
            depth: 2,
            keep: 0.05,
            seed,
        }
    }

    #[test]
    fn leaves_are_distinct_turn_starts_reachable_in_play_and_seeded() {
        let start = Position::standard();
        let leaves = sample_leaves(&start, 500, sampling(3));
        assert_eq!(leaves.len(), 500);
        let distinct: HashSet<_> = leaves.iter().map(identity).collect();
        assert_eq!(distinct.len(), 500);
        assert!(leaves.iter().all(Position::is_turn_start));
        // Captures happened on the way: most leaves have fewer than the 44 starting pieces,
        // and both sides are to move in some.
        let fewer = leaves.iter().filter(|p| p.piece_count() < 40);
        assert!(fewer.count() > 250);
        let white = leaves
            .iter()
            .filter(|p| p.side_to_move() == Color::White)
            .count();
        assert!(white > 50 && white < 450, "{white} white to move");
        assert_eq!(sample_leaves(&start, 500, sampling(3)), leaves);
        assert_ne!(sample_leaves(&start, 500, sampling(4)), leaves);
    }

    #[test]
    fn the_leaves_do_not_depend_on_the_number_of_threads() {
        let start = Position::standard();
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| sample_leaves(&start, 300, sampling(5)))
        };
        let one = on(1);
        assert_eq!(one.len(), 300);
        assert_eq!(on(3), one);
    }

    #[test]
    fn a_start_without_a_game_gives_no_leaves() {
        // White has no piece left: no legal turn.
        let start = Position::from_fen("B8/9/9/9/9 w").unwrap();
        assert!(sample_leaves(&start, 10, sampling(1)).is_empty());
    }
}
