//! Minimax speed: nodes per second, single thread, over a set of middle-game positions (random
//! games from the initial 9x5 position, 12 to 26 turns in), and the time to search the initial
//! position to depth 8.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fanorona_env::{History, Position};
use fanorona_eval::{Limits, Searcher};
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

/// Searches every position to `depth` with a fresh searcher; the total node count.
fn search_all(positions: &[Position], depth: u32) -> u64 {
    positions
        .iter()
        .map(|pos| {
            let mut searcher = Searcher::new(Limits::depth(depth), 16, 0);
            searcher.search_position(pos, &[]).map_or(0, |r| r.nodes)
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let positions = middle_games();
    let depth = 5;
    let nodes = search_all(&positions, depth);
    let mut group = c.benchmark_group("minimax");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("middle_games_depth{depth}_nodes"), |b| {
        b.iter(|| search_all(&positions, depth))
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("initial_9x5_depth8", |b| {
        b.iter(|| {
            let mut searcher = Searcher::new(Limits::depth(8), 64, 0);
            searcher.search_position(&Position::standard(), &[])
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
