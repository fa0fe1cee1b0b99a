//! `VecEnv`: the same seed gives the same trajectories whatever the number of threads,
//! episodes reset themselves, and a batch with an illegal action changes nothing.

use fanorona_env::{
    ActionError, Board, Env, EnvConfig, Fanorona, Game, Position, Telo, VecEnv, VecEnvError,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A digest of every batched buffer after each of `steps` steps, half of them random steps
/// and half with actions chosen from a seeded generator, run on a pool of `threads` threads.
fn trajectory<G: Game>(start: G, config: EnvConfig, threads: usize, steps: usize) -> Vec<Vec<u64>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut envs = VecEnv::new(start, 33, config, 1234);
        let mut rng = SmallRng::seed_from_u64(9);
        let mut digests = Vec::new();
        for step in 0..steps {
            if step % 2 == 0 {
                envs.step_random();
            } else {
                let actions: Vec<usize> = (0..envs.len())
                    .map(|i| {
                        let legal = envs.legal_actions(i);
                        legal[rng.random_range(0..legal.len())]
                    })
                    .collect();
                envs.step(&actions).unwrap();
            }
            let mut digest: Vec<u64> = envs
                .observations()
                .iter()
                .map(|x| x.to_bits() as u64)
                .collect();
            digest.extend(envs.masks().iter().map(|&m| m as u64));
            digest.extend(envs.rewards().iter().map(|x| x.to_bits() as u64));
            digest.extend(envs.terminated().iter().map(|&t| t as u64));
            digest.extend(envs.truncated().iter().map(|&t| t as u64));
            digest.extend(envs.players().iter().map(|&p| p as u64));
            digests.push(digest);
        }
        digests
    })
}

#[test]
fn same_seed_same_trajectories_whatever_the_thread_count() {
    let config = EnvConfig {
        turn_limit: Some(30),
        random_opening: 2,
        ..EnvConfig::default()
    };
    let start = Fanorona::new(Position::initial(Board::new(5, 5).unwrap()));
    let one = trajectory(start.clone(), config, 1, 120);
    let two = trajectory(start.clone(), config, 2, 120);
    assert_eq!(one, two);
    let three = trajectory(start, config, 3, 120);
    assert_eq!(one, three);
    let telo = trajectory(Telo::new(), config, 1, 60);
    assert_eq!(telo, trajectory(Telo::new(), config, 2, 60));
}

#[test]
fn episodes_reset_themselves_and_report_their_end() {
    let config = EnvConfig {
        turn_limit: Some(14),
        ..EnvConfig::default()
    };
    let start = Fanorona::new(Position::initial(Board::new(5, 5).unwrap()));
    let mut envs = VecEnv::new(start.clone(), 16, config, 5);
    let mut reference = Env::with_config(start.clone(), config);
    let (mut terminated, mut truncated) = (0, 0);
    for _ in 0..300 {
        envs.step_random();
        for i in 0..envs.len() {
            let rewards = &envs.rewards()[2 * i..2 * i + 2];
            if envs.terminated()[i] {
                terminated += 1;
                assert_eq!(rewards[0], -rewards[1]);
            } else {
                assert_eq!(rewards, [0.0, 0.0]);
            }
            truncated += usize::from(envs.truncated()[i]);
            if envs.terminated()[i] || envs.truncated()[i] {
                // Already the next episode's first state (no random opening here).
                assert_eq!(envs.state(i).to_text(), start.to_text());
                assert_eq!(envs.observation(i), reference.reset(0).obs);
            }
            // The batched buffers hold what a single environment would hand out.
            let mut obs = vec![0.0; envs.observation_len()];
            envs.state(i).write_observation(&mut obs);
            assert_eq!(envs.observation(i), obs.as_slice());
            let mut mask = vec![false; envs.num_actions()];
            envs.state(i).legal_mask(&mut mask);
            assert_eq!(envs.mask(i), mask.as_slice());
            assert_eq!(envs.players()[i], envs.state(i).current_player());
        }
    }
    assert!(
        terminated > 10 && truncated > 10,
        "{terminated} {truncated}"
    );
}

#[test]
fn a_batch_with_an_illegal_action_changes_nothing() {
    let mut envs = VecEnv::new(Fanorona::standard(), 4, EnvConfig::default(), 0);
    envs.step_random();
    let before: Vec<String> = (0..4).map(|i| envs.state(i).to_text()).collect();
    let obs = envs.observations().to_vec();
    let mut actions: Vec<usize> = (0..4).map(|i| envs.legal_actions(i)[0]).collect();
    actions[2] = envs.num_actions();
    match envs.step(&actions) {
        Err(VecEnvError::Action {
            env: 2,
            error: ActionError::OutOfRange { .. },
        }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(
        envs.step(&actions[..3]),
        Err(VecEnvError::WrongLength {
            got: 3,
            expected: 4
        })
    );
    let after: Vec<String> = (0..4).map(|i| envs.state(i).to_text()).collect();
    assert_eq!(before, after);
    assert_eq!(obs, envs.observations());
}
