//! Search speed without network cost (uniform evaluator) on the standard 9x5 board, and the
//! batch sizes the driver achieves with 64 games searched together (it records every
//! evaluator call, as a network evaluator would receive it).

use criterion::{Criterion, Throughput, criterion_main};
use fanorona_env::Fanorona;
use fanorona_search::{SearchConfig, SearchDriver, UniformEvaluator};

const SIMULATIONS: u32 = 800;

fn single_search(c: &mut Criterion) {
    let root = Fanorona::standard();
    let mut group = c.benchmark_group("mcts_uniform_9x5");
    group.throughput(Throughput::Elements(SIMULATIONS as u64));
    for (name, gumbel, batch) in [
        ("puct_800_batch1", false, 1),
        ("puct_800_batch16", false, 16),
        ("gumbel_800_batch1", true, 1),
    ] {
        let config = SearchConfig {
            simulations: SIMULATIONS,
            gumbel,
            ..SearchConfig::default()
        };
        let mut driver = SearchDriver::new(config, batch, std::slice::from_ref(&root));
        group.bench_function(name, |b| {
            b.iter(|| {
                driver.reset(0, &root);
                driver.search(&mut UniformEvaluator);
                driver.result(0).unwrap().action
            })
        });
    }
    group.finish();
}

fn batched_games(c: &mut Criterion) {
    let games = 64;
    let roots = vec![Fanorona::standard(); games];
    let mut group = c.benchmark_group("mcts_64_games_9x5");
    for (name, gumbel, sims, batch) in [
        ("gumbel_32_batch256", true, 32, 256),
        ("puct_800_batch256", false, 800, 256),
    ] {
        let config = SearchConfig {
            simulations: sims,
            gumbel,
            ..SearchConfig::default()
        };
        group.throughput(Throughput::Elements(sims as u64 * games as u64));
        let mut driver = SearchDriver::new(config, batch, &roots);
        group.bench_function(name, |b| {
            b.iter(|| {
                for (g, root) in roots.iter().enumerate() {
                    driver.reset(g, root);
                }
                driver.search(&mut UniformEvaluator);
            })
        });
        let stats = driver.stats();
        println!(
            "{name}: mean batch {:.1} over {} evaluator calls (largest {})",
            stats.mean(),
            stats.calls,
            stats.largest
        );
    }
    group.finish();
}

mod group {
    criterion::criterion_group!(benches, super::single_search, super::batched_games);
}
criterion_main!(group::benches);
