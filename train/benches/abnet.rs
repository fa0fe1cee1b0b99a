//! The `abnet` agent's alpha-beta against the minimax baseline's: nodes per second, single
//! thread, of the same search (depth 5) over middle-game positions with the shipped model's
//! value at the leaves and with the hand-made evaluation; and the leaf evaluation alone,
//! positions per second, in `f32` from the observation ([`MlpInference`]) and quantized from
//! the compact planes ([`MlpValue`], what `abnet` uses); the same for the shipped student
//! distilled from it (MLP 64-32, `fanorona distill`). The positions: seeded random games
//! 10 to 30 turns in, where the side to move has at least four turns.

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_main};
use fanorona_env::observation::{NUM_PLANES, observation_planes, write_observation};
use fanorona_env::{Budget, History, Position};
use fanorona_eval::minimax::Searcher;
use fanorona_eval::minimax::{Handcrafted, StaticEvaluation};
use fanorona_train::io::load_policy;
use fanorona_train::model::{MlpInference, MlpScratch, MlpValue, MlpValueScratch};
use fanorona_train::players::{NetValue, sample_planes};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Search depth in complete turns.
const DEPTH: u32 = 5;

/// Positions with a choice, from seeded random games.
fn positions() -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut out = Vec::new();
    while out.len() < 8 {
        let mut history = History::new(Position::standard());
        for _ in 0..rng.random_range(10..=30) {
            if history.outcome().is_some() {
                break;
            }
            let turns = history.position().legal_turns();
            history.play_unchecked(&turns[rng.random_range(0..turns.len())]);
        }
        if history.outcome().is_none() && history.position().legal_turns().len() >= 4 {
            out.push(*history.position());
        }
    }
    out
}

/// Fresh searchers valuing leaves by `evaluation`, one per position (their tables are
/// allocated outside the timing).
fn searchers<E: StaticEvaluation + Clone>(n: usize, evaluation: &E) -> Vec<Searcher<E>> {
    (0..n)
        .map(|_| Searcher::with_evaluation(Budget::fixed_depth(DEPTH), 16, 0, evaluation.clone()))
        .collect()
}

/// Searches every position with its own searcher; the total node count.
fn search_all<E: StaticEvaluation>(positions: &[Position], searchers: &mut [Searcher<E>]) -> u64 {
    positions
        .iter()
        .zip(searchers)
        .map(|(pos, searcher)| searcher.search_position(pos, &[]).map_or(0, |r| r.nodes))
        .sum()
}

/// Benchmarks the search of every position with leaves valued by `evaluation`.
fn bench_evaluation<E: StaticEvaluation + Clone>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    positions: &[Position],
    evaluation: &E,
) {
    let nodes = search_all(positions, &mut searchers(positions.len(), evaluation));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{name}_depth{DEPTH}_nodes"), |b| {
        b.iter_batched(
            || searchers(positions.len(), evaluation),
            |mut s| {
                // Hand the searchers back so that freeing them is not timed.
                let nodes = search_all(positions, &mut s);
                (nodes, s)
            },
            BatchSize::PerIteration,
        )
    });
}

/// Benchmarks one leaf evaluation of every position by `mlp`, in `f32` and quantized, in the
/// group `name`.
fn bench_leaves(c: &mut Criterion, name: &str, positions: &[Position], mlp: &MlpInference) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut observation = vec![0.0; NUM_PLANES * positions[0].board().points()];
    let mut scratch = MlpScratch::default();
    group.bench_function("float_observation", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|pos| {
                    write_observation(pos, 1, &mut observation);
                    mlp.evaluate(&mut scratch, &observation, &[], &mut [])
                })
                .sum::<f32>()
        })
    });
    let quantized = MlpValue::new(mlp, &sample_planes(&Position::standard()));
    let mut scratch = MlpValueScratch::default();
    group.bench_function("quantized_planes", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|pos| quantized.logit(&mut scratch, &observation_planes(pos, 1)))
                .sum::<f32>()
        })
    });
    group.finish();
}

/// The MLP of the model file `name` in `models/`.
fn model(name: &str) -> MlpInference {
    let file = format!("{}/../models/{name}", env!("CARGO_MANIFEST_DIR"));
    load_policy(std::path::Path::new(&file))
        .expect("a shipped model")
        .net
        .mlp_inference()
        .expect("an MLP")
}

fn bench(c: &mut Criterion) {
    let mlp = model("fanorona-9x5.safetensors");
    let student = model("fanorona-9x5-64x32.safetensors");
    let start = Position::standard();
    let positions = positions();
    let mut group = c.benchmark_group("abnet");
    group.sample_size(10);
    bench_evaluation(&mut group, "handcrafted", &positions, &Handcrafted);
    bench_evaluation(
        &mut group,
        "net_value",
        &positions,
        &NetValue::new(&mlp, &start, 0.0),
    );
    let student_value = NetValue::new(&student, &start, 0.0);
    bench_evaluation(&mut group, "student_value", &positions, &student_value);
    group.finish();
    bench_leaves(c, "abnet_leaf", &positions, &mlp);
    bench_leaves(c, "abnet_student_leaf", &positions, &student);
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
