//! `Env`: illegal actions are refused with the state, observation and mask unchanged; legal
//! ones play like the game's `apply`; the mover-frame option plays the same games.

use fanorona_env::{
    ActionError, Agent, Board, Env, EnvConfig, Fanorona, Game, Position, RandomAgent, Telo,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// An environment after `steps` random actions from `seed` on a `w x h` board.
fn env_after(w: usize, h: usize, seed: u64, steps: usize) -> Env<Fanorona> {
    let start = Fanorona::new(Position::initial(Board::new(w, h).unwrap()));
    let mut env = Env::new(start);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..steps {
        if env.is_done() {
            break;
        }
        let legal = env.legal_actions();
        let action = legal[rng.random_range(0..legal.len())];
        env.step(action).unwrap();
    }
    env
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_action_is_played_or_refused_without_change(
        size in 0usize..3,
        seed in any::<u64>(),
        steps in 0usize..80,
        action in 0usize..1200,
    ) {
        let (w, h) = [(9, 5), (5, 5), (7, 3)][size];
        let mut env = env_after(w, h, seed, steps);
        let fen = env.state().to_text();
        let obs = env.observation().obs.to_vec();
        let mask = env.observation().mask.to_vec();
        let info = env.info();
        let done = env.is_done();
        let legal = env.legal_actions().contains(&action);
        prop_assert_eq!(legal, action < mask.len() && mask[action]);
        let mut expected = env.state().clone();
        let expected_result = expected.apply(action);
        match env.step(action) {
            Ok(step) => {
                prop_assert!(legal);
                prop_assert!(expected_result.is_ok());
                prop_assert_eq!(step.transition.info.steps, info.steps + 1);
                prop_assert_eq!(env.state().to_text(), expected.to_text());
            }
            Err(error) => {
                prop_assert!(!legal);
                prop_assert_eq!(Err(error.clone()), expected_result);
                let kind = match error {
                    ActionError::GameOver => 0,
                    ActionError::OutOfRange { .. } => 1,
                    _ => 2,
                };
                let expected_kind = if done { 0 } else if action >= mask.len() { 1 } else { 2 };
                prop_assert_eq!(kind, expected_kind);
                prop_assert_eq!(env.state().to_text(), fen);
                prop_assert_eq!(env.observation().obs, obs.as_slice());
                prop_assert_eq!(env.observation().mask, mask.as_slice());
                prop_assert_eq!(env.info(), info);
            }
        }
    }
}

#[test]
fn illegal_actions_name_the_legal_ones() {
    let mut env = Env::new(Fanorona::standard());
    let error = env.step(0).unwrap_err();
    let ActionError::Illegal { name, legal, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(name, "a1a2", "action 0: from a1, north, paika");
    assert_eq!(legal.split(' ').count(), 5, "{legal}");
    assert!(error.to_string().contains("d2e3A"), "{error}");
    assert_eq!(env.state().to_text(), Fanorona::standard().to_text());
    // Action 12: from a1 southwards, off the board.
    let error = env.step(12).unwrap_err();
    assert!(
        error.to_string().contains("a1->S(off the board)"),
        "{error}"
    );
}

#[test]
fn mover_frame_environments_play_the_same_games() {
    let config = EnvConfig {
        mover_frame: true,
        turn_limit: Some(100),
        ..EnvConfig::default()
    };
    for seed in 0..20 {
        let mut absolute = Env::new(Fanorona::standard());
        let mut mover = Env::with_config(Fanorona::standard(), config);
        let mut agent = RandomAgent::new(seed);
        while !absolute.is_done() && absolute.info().turns < 100 {
            let action = agent.act(absolute.state()).unwrap();
            let frame = absolute.state().to_mover_action(action);
            assert!(mover.observation().mask[frame]);
            assert_eq!(
                mover.observation().mask.iter().filter(|&&m| m).count(),
                absolute.legal_actions().len()
            );
            absolute.step(action).unwrap();
            mover.step(frame).unwrap();
            assert_eq!(absolute.state().to_text(), mover.state().to_text());
            assert_eq!(absolute.observation().obs, mover.observation().obs);
        }
    }
}

#[test]
fn telo_plays_in_the_environment_until_it_ends() {
    let mut env = Env::new(Telo::new());
    let mut agent = RandomAgent::new(4);
    for seed in 0..50 {
        env.reset(seed);
        let mut steps = 0;
        loop {
            let player = env.observation().player;
            let t = env
                .step(agent.act(env.state()).unwrap())
                .unwrap()
                .transition;
            steps += 1;
            assert!(t.info.turn_ended, "every Telo action is a whole turn");
            if t.done() {
                assert!(t.terminated, "Telo ends by itself at its ply limit");
                if let Some(w) = env.state().winner() {
                    assert_eq!(w, player, "only the side that acted can make a line");
                    assert_eq!(t.rewards[w.index()], 1.0);
                }
                break;
            }
            assert_eq!(t.next_player, Some(player.other()));
        }
        assert!(steps <= 100);
    }
}
