//! Self-play speed end to end on the standard 9x5 board with burn's flex backend: one round of
//! self-play games (search with the network, recording every position) per iteration, with the
//! default preset's search settings and network (MLP 256-256), as positions/s.
//!
//! `cargo bench -p fanorona-train --bench selfplay -- --warm-up-time 1 --measurement-time 5`

use burn::tensor::Device;
use criterion::{Criterion, Throughput, criterion_main};
use fanorona_env::Fanorona;
use fanorona_train::TrainRng;
use fanorona_train::config::RunConfig;
use fanorona_train::model::PolicyValueNet;
use fanorona_train::players::NetworkEvaluator;
use fanorona_train::replay::TrajectoryMeta;
use fanorona_train::selfplay::SelfPlay;
use rand::SeedableRng;

fn selfplay(c: &mut Criterion) {
    let mut config = RunConfig::preset("default").unwrap();
    // Short games keep one iteration of the benchmark short; every position is searched as in
    // a full game.
    config.selfplay.games_per_iteration = 32;
    config.selfplay.parallel_games = 32;
    config.selfplay.max_actions = 40;
    let start = Fanorona::standard();
    let network = config.network.config_for(&start);
    let net = PolicyValueNet::init(&network, &Device::flex()).unwrap();
    let mut evaluator = NetworkEvaluator::<Fanorona>::new(&net);
    let play = SelfPlay::new(start, config.mcts.clone(), config.selfplay.clone());
    let mut rng = TrainRng::seed_from_u64(1);
    let positions = config.selfplay.games_per_iteration * config.selfplay.max_actions;
    let mut group = c.benchmark_group("selfplay");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions as u64));
    group.bench_function("9x5-mlp-256-256-32-games-40-actions", |b| {
        b.iter(|| play.play(&mut evaluator, &mut rng, &TrajectoryMeta::default(), |_| {}))
    });
    group.finish();
}

mod group {
    criterion::criterion_group!(benches, super::selfplay);
}
criterion_main!(group::benches);
