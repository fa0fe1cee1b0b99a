//! Seeded random Fanorona games in a replay buffer, and a fixed batch drawn from them.

use fanorona_env::{Fanorona, Game};
use fanorona_train::TrainRng;
use fanorona_train::config::ReplayConfig;
use fanorona_train::replay::{Batch, ReplayBuffer, TrajectoryMeta, TrajectoryRecorder};
use rand::{Rng, SeedableRng};

/// Plays seeded random games, recording every position with a random target; returns the
/// buffer and, per game, each position's FEN.
pub fn random_games(games: usize, window: usize) -> (ReplayBuffer<Fanorona>, Vec<Vec<String>>) {
    let mut rng = TrainRng::seed_from_u64(11);
    let proto = Fanorona::standard();
    let config = ReplayConfig {
        window_games: window,
        augment: true,
        root_value_weight: 0.0,
    };
    let mut buffer = ReplayBuffer::new(config, proto.clone());
    let mut fens = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..games {
        let mut state = proto.clone();
        let mut recorder = TrajectoryRecorder::new(&state);
        let mut game_fens = Vec::new();
        let mut plies = 0;
        while !state.is_terminal() && plies < 60 {
            state.legal_actions(&mut legal);
            let mut target = vec![0.0; state.num_actions()];
            let weights: Vec<f32> = legal.iter().map(|_| rng.random::<f32>() + 0.01).collect();
            let total: f32 = weights.iter().sum();
            for (&a, w) in legal.iter().zip(&weights) {
                target[a] = w / total;
            }
            // A root value unlike the result, so that tests see which one a target used.
            let root_value = (plies % 7) as f32 / 3.0 - 1.0;
            recorder.record(&state, &target, root_value, plies % 3 != 0);
            game_fens.push(state.to_text());
            state
                .apply(legal[rng.random_range(0..legal.len())])
                .unwrap();
            plies += 1;
        }
        let meta = TrajectoryMeta {
            final_state: state.to_text(),
            ..TrajectoryMeta::default()
        };
        buffer.add_game(recorder.finish(meta, state.returns()));
        fens.push(game_fens);
    }
    (buffer, fens)
}

/// 32 fixed positions with random policy targets and random ±1 results.
pub fn fixed_batch() -> Batch {
    let (buffer, _) = random_games(2, 10);
    let mut rng = TrainRng::seed_from_u64(1);
    let mut batch = Batch::default();
    buffer.sample(32, &mut rng, &mut batch);
    for v in &mut batch.values {
        *v = if rng.random::<bool>() { 1.0 } else { -1.0 };
    }
    batch
}
