//! Network speed on the standard 9x5 board with burn's flex backend: inference positions/s at
//! self-play batch sizes for both architectures, the search's leaf evaluation of the MLP (8
//! positions a call, as the `net` agent sends them), and learner samples/s.
//!
//! `cargo bench -p fanorona-train --bench network -- --warm-up-time 1 --measurement-time 3`

use burn::module::Module;
use burn::tensor::Device;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use fanorona_env::{Fanorona, Game};
use fanorona_search::Evaluator;
use fanorona_train::TrainRng;
use fanorona_train::config::{
    Architecture, LrSchedule, NetworkConfig, OptimizerConfig, ReplayConfig, TrainerConfig,
};
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::players::NetworkEvaluator;
use fanorona_train::replay::{Batch, ReplayBuffer, TrajectoryMeta, TrajectoryRecorder};
use rand::{Rng, SeedableRng};

fn architectures() -> [(&'static str, Architecture); 3] {
    [
        ("mlp-256-256", Architecture::mlp(&[256, 256])),
        ("resnet-4x32", Architecture::resnet(4, 32)),
        ("resnet-5x64", Architecture::resnet(5, 64)),
    ]
}

/// `count` positions from seeded random games.
fn positions(count: usize) -> Vec<Fanorona> {
    let mut rng = TrainRng::seed_from_u64(1);
    let game = Fanorona::standard();
    let mut state = game.clone();
    let mut legal = Vec::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if state.is_terminal() {
            state = game.clone();
        }
        out.push(state.clone());
        state.legal_actions(&mut legal);
        state.apply_unchecked(legal[rng.random_range(0..legal.len())]);
    }
    out
}

/// The observations of `count` positions from seeded random games, one after another.
fn observations(count: usize) -> Vec<f32> {
    let states = positions(count);
    let len = states[0].observation_shape().iter().product::<usize>();
    let mut out = vec![0.0; count * len];
    for (state, obs) in states.iter().zip(out.chunks_exact_mut(len)) {
        state.write_observation(obs);
    }
    out
}

fn inference(c: &mut Criterion) {
    let mut group = c.benchmark_group("inference");
    let device = Device::flex();
    let game = Fanorona::standard();
    for (name, arch) in architectures() {
        let config = NetworkConfig::for_game(&game, arch);
        let net = PolicyValueNet::init(&config, &device).unwrap().valid();
        for batch in [64, 256] {
            let obs = observations(batch);
            let mut policy = vec![0.0; batch * config.num_actions];
            let mut values = vec![0.0; batch];
            group.throughput(Throughput::Elements(batch as u64));
            group.bench_function(BenchmarkId::new(name, batch), |b| {
                b.iter(|| net.infer(&obs, &mut policy, &mut values))
            });
        }
    }
    group.finish();
}

/// The MLP's leaf evaluation for search, 8 positions a call: `NetworkEvaluator` (one position
/// at a time, sparse inputs, only the legal actions' logits) against burn's dense pass over
/// the same 8 observations.
fn search_evaluation(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_evaluation");
    let game = Fanorona::standard();
    let config = NetworkConfig::for_game(&game, Architecture::mlp(&[256, 256]));
    let net = PolicyValueNet::init(&config, &Device::flex())
        .unwrap()
        .valid();
    let states = positions(8);
    let obs = observations(8);
    let mut policy = vec![0.0; 8 * config.num_actions];
    let mut values = vec![0.0; 8];
    let mut evaluator = NetworkEvaluator::<Fanorona>::new(&net);
    group.throughput(Throughput::Elements(8));
    group.bench_function("mlp-256-256/evaluator/8", |b| {
        b.iter(|| evaluator.evaluate(&states, &mut policy, &mut values))
    });
    group.bench_function("mlp-256-256/dense/8", |b| {
        b.iter(|| net.infer(&obs, &mut policy, &mut values))
    });
    group.finish();
}

/// A replay window of `games` seeded random games with uniform targets.
fn random_buffer(games: usize) -> ReplayBuffer<Fanorona> {
    let mut rng = TrainRng::seed_from_u64(2);
    let game = Fanorona::standard();
    let config = ReplayConfig {
        window_games: games,
        augment: true,
        root_value_weight: 0.0,
    };
    let mut buffer = ReplayBuffer::new(config, game.clone());
    let mut legal = Vec::new();
    for _ in 0..games {
        let mut state = game.clone();
        let mut recorder = TrajectoryRecorder::new(&state);
        while !state.is_terminal() {
            state.legal_actions(&mut legal);
            let mut target = vec![0.0; state.num_actions()];
            legal
                .iter()
                .for_each(|&a| target[a] = 1.0 / legal.len() as f32);
            recorder.record(&state, &target, 0.0, true);
            state.apply_unchecked(legal[rng.random_range(0..legal.len())]);
        }
        buffer.add_game(recorder.finish(TrajectoryMeta::default(), state.returns()));
    }
    buffer
}

fn training(c: &mut Criterion) {
    let mut group = c.benchmark_group("train_step");
    group.sample_size(10);
    let device = Device::flex();
    let game = Fanorona::standard();
    let mut batch = Batch::default();
    random_buffer(8).sample(256, &mut TrainRng::seed_from_u64(4), &mut batch);
    for (name, arch) in architectures() {
        let config = NetworkConfig::for_game(&game, arch);
        let learner_config = TrainerConfig {
            optimizer: OptimizerConfig::Adam { weight_decay: 1e-4 },
            schedule: LrSchedule::Constant { lr: 1e-3 },
            value_weight: 1.0,
            ema_decay: 0.0,
        };
        let mut learner = Trainer::new(
            learner_config,
            PolicyValueNet::init(&config, &device).unwrap(),
            &device,
        );
        group.throughput(Throughput::Elements(batch.size as u64));
        group.bench_function(BenchmarkId::new(name, batch.size), |b| {
            b.iter(|| learner.train_step(&batch))
        });
    }
    group.finish();
}

fn replay_sampling(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    let buffer = random_buffer(100);
    let mut rng = TrainRng::seed_from_u64(3);
    let mut out = Batch::default();
    group.throughput(Throughput::Elements(256));
    group.bench_function("sample-256-augmented", |b| {
        b.iter(|| buffer.sample(256, &mut rng, &mut out))
    });
    group.finish();
}

mod group {
    criterion::criterion_group!(
        benches,
        super::inference,
        super::search_evaluation,
        super::training,
        super::replay_sampling
    );
}
criterion_main!(group::benches);
