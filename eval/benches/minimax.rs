//! Minimax speed: nodes per second, single thread, over a set of middle-game positions (random
//! games from the initial 9x5 position, 12 to 26 turns in, searched to depth 6), and the time to search the initial
//! position to depth 8.

use criterion::{BatchSize, Criterion, Throughput, criterion_main};
use fanorona_env::{Budget, History, Position};
use fanorona_eval::minimax::Searcher;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Middle-game positions from seeded random games, with the keys of their earlier turn starts.
fn middle_games() -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut positions = Vec::new();
    while positions.len() < 8 {
        let mut history = History::new(Position::standard());
        let plies = rng.random_range(12..=26);
        for _ in 0..plies {
            if history.outcome().is_some() {
                break;
            }
            let turns = history.position().legal_turns();
            let turn = turns[rng.random_range(0..turns.len())];
            history.play_unchecked(&turn);
        }
        if history.outcome().is_none() {
            positions.push(*history.position());
        }
    }
    positions
}

/// Fresh searchers, one per position (their tables are allocated outside the timing).
fn searchers(n: usize, depth: u32) -> Vec<Searcher> {
    (0..n)
        .map(|_| Searcher::new(Budget::fixed_depth(depth), 16, 0))
        .collect()
}

/// Searches every position with its own searcher; the total node count.
fn search_all(positions: &[Position], searchers: &mut [Searcher]) -> u64 {
    positions
        .iter()
        .zip(searchers)
        .map(|(pos, searcher)| searcher.search_position(pos, &[]).map_or(0, |r| r.nodes))
        .sum()
}

fn bench(c: &mut Criterion) {
    let positions = middle_games();
    let depth = 6;
    let nodes = search_all(&positions, &mut searchers(positions.len(), depth));
    let mut group = c.benchmark_group("minimax");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("middle_games_depth{depth}_nodes"), |b| {
        b.iter_batched(
            || searchers(positions.len(), depth),
            |mut s| {
                // Hand the searchers back so that freeing them is not timed.
                let nodes = search_all(&positions, &mut s);
                (nodes, s)
            },
            BatchSize::PerIteration,
        )
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("initial_9x5_depth8", |b| {
        b.iter_batched(
            || Searcher::new(Budget::fixed_depth(8), 64, 0),
            |mut s| (s.search_position(&Position::standard(), &[]), s),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
