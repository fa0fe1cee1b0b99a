//! Complete-turn perft from the initial 9x5 position (single thread).

use criterion::{Criterion, Throughput, criterion_main};
use fanorona_env::{Position, perft};

fn bench_perft(c: &mut Criterion) {
    let start = Position::standard();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [4u32, 5, 6] {
        let leaves = perft(&start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("initial_9x5_depth_{depth}"), |b| {
            b.iter(|| perft(std::hint::black_box(&start), depth))
        });
    }
    group.finish();
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench_perft);
}
criterion_main!(group::benches);
