//! Solver speed: a whole solve of the 3x5 board (enumeration and labelling), and lookups.

use criterion::{Criterion, criterion_main};
use fanorona_env::{Board, Position};
use fanorona_exact::solver::Solution;

fn bench(c: &mut Criterion) {
    let board = Board::new(3, 5).unwrap();
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.bench_function("solve 3x5", |b| b.iter(|| Solution::solve(board).unwrap()));
    let solution = Solution::solve(board).unwrap();
    let positions: Vec<Position> = solution.positions().map(|(p, _)| p).step_by(37).collect();
    group.bench_function("value lookup 3x5 (per 1000)", |b| {
        b.iter(|| {
            positions
                .iter()
                .take(1000)
                .filter(|p| solution.value(p).is_some())
                .count()
        })
    });
    group.finish();
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
