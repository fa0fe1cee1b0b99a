//! Environment throughput: `Env::step` with observation and mask on random legal actions
//! (single thread), and `VecEnv::step_random` on rayon pools of 1 and 2 threads. Throughput is
//! in environment steps (actions).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
use fanorona_env::{Board, Env, EnvConfig, Fanorona, Game, Position, Telo, VecEnv};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Steps per measured iteration of the single-environment benchmark.
const STEPS: u64 = 10_000;

/// Environments in the batched benchmark.
const ENVS: usize = 256;

fn fanorona(width: usize, height: usize) -> Fanorona {
    Fanorona::new(Position::initial(Board::new(width, height).unwrap()))
}

/// Plays `STEPS` random legal actions, resetting finished episodes; reads the observation
/// and mask of every step so that they are really produced.
fn run_steps<G: Game>(env: &mut Env<G>, rng: &mut SmallRng) -> f32 {
    let mut checksum = 0.0;
    for _ in 0..STEPS {
        let legal = env.legal_actions();
        let action = legal[rng.random_range(0..legal.len())];
        let step = env.step(action).expect("a legal action");
        checksum += step.obs[0] + f32::from(u8::from(step.mask[0]));
        if step.transition.done() {
            env.reset(rng.random());
        }
    }
    checksum
}

fn bench_env_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("env_step");
    group.throughput(Throughput::Elements(STEPS));
    for (name, game) in [("9x5", fanorona(9, 5)), ("5x5", fanorona(5, 5))] {
        let mut env = Env::new(game);
        let mut rng = SmallRng::seed_from_u64(1);
        group.bench_function(format!("fanorona_{name}_obs_mask"), |b| {
            b.iter(|| black_box(run_steps(&mut env, &mut rng)))
        });
    }
    let mut env = Env::new(Telo::new());
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("telo_obs_mask", |b| {
        b.iter(|| black_box(run_steps(&mut env, &mut rng)))
    });
    group.finish();
}

fn bench_vec_env(c: &mut Criterion) {
    let mut group = c.benchmark_group("vec_env_step");
    group.throughput(Throughput::Elements(ENVS as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut envs = VecEnv::new(fanorona(9, 5), ENVS, EnvConfig::default(), 1);
        group.bench_function(format!("fanorona_9x5_{ENVS}_envs_{threads}_threads"), |b| {
            pool.install(|| {
                b.iter(|| {
                    envs.step_random();
                    black_box(envs.observations()[0])
                })
            })
        });
    }
    group.finish();
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench_env_step, super::bench_vec_env);
}
criterion_main!(group::benches);
