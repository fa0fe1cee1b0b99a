//! burn-rl adapter: the single-agent environment of `fanorona-env`
//! ([`fanorona_env::SingleAgentEnv`]: the agent plays one colour, its side, an embedded opponent
//! [`Agent`] the other) as a [`burn::rl::Environment`], so burn's own RL tooling can train on
//! Fanorona (or any [`Game`]).
//!
//! States carry the observation of the player to act and its legal mask; actions and masks are
//! in the mover's frame (the network's frame). The reward is the agent's, summed over its
//! action and the opponent's replies: +1 win, -1 loss, 0 draw at the end, 0 before. Episode
//! ends: `done` when the game is over; `truncated` at the environment's turn limit or after
//! [`RlEnv::MAX_STEPS`] agent actions. Two cases the burn trait has no error for end the
//! episode too: an illegal agent action (reward -1, nothing played) and an opponent that
//! fails (reward 0; [`RlEnv::last_error`] says why).

use burn::rl::{Environment, StepResult, ToObservation};
use burn::tensor::{Device, Tensor, TensorData};
use fanorona_env::{Agent, Color, EnvConfig, Game, SingleAgentEnv, SingleAgentError};

/// What the agent sees: the observation planes and the legal actions (mover frame).
#[derive(Clone, Debug, PartialEq)]
pub struct RlState {
    /// Planes, height, width.
    pub shape: [usize; 3],
    /// The observation, `planes * height * width` floats.
    pub observation: Vec<f32>,
    /// Legal mover-frame actions (all false once the episode is over).
    pub legal_mask: Vec<bool>,
}

impl ToObservation<Tensor<4>> for RlState {
    fn to_observation(&self, device: &Device) -> Tensor<4> {
        let [p, h, w] = self.shape;
        Tensor::from_data(
            TensorData::new(self.observation.clone(), [1, p, h, w]),
            device,
        )
    }
}

/// [`SingleAgentEnv`] behind burn's [`Environment`] trait.
pub struct RlEnv<G: Game, A: Agent<G>> {
    env: SingleAgentEnv<G, A>,
    next_seed: u64,
    steps: usize,
    ended: bool,
    error: Option<SingleAgentError>,
}

impl<G: Game, A: Agent<G>> RlEnv<G, A> {
    /// An environment from `start` where the agent plays `side` against `opponent`;
    /// `config`'s turn limit and random openings apply, its actions are always in the mover's
    /// frame. Episode `k` (from 0) is reset with seed `seed + k`.
    pub fn new(start: G, config: EnvConfig, opponent: A, side: Color, seed: u64) -> Self {
        let config = EnvConfig {
            mover_frame: true,
            ..config
        };
        let mut env = RlEnv {
            env: SingleAgentEnv::new(start, config, opponent, side),
            next_seed: seed,
            steps: 0,
            ended: false,
            error: None,
        };
        env.reset();
        env
    }

    /// The wrapped single-agent environment.
    pub fn inner(&self) -> &SingleAgentEnv<G, A> {
        &self.env
    }

    /// Why the episode ended early, if the opponent failed (or a reset found no turn of the agent).
    pub fn last_error(&self) -> Option<&SingleAgentError> {
        self.error.as_ref()
    }

    /// Ends the episode: no more legal actions.
    fn end(&mut self, error: Option<SingleAgentError>) {
        self.ended = true;
        self.error = error;
    }
}

impl<G: Game, A: Agent<G>> Environment for RlEnv<G, A> {
    type State = RlState;
    type Action = usize;

    const MAX_STEPS: usize = 1000;

    fn state(&self) -> RlState {
        let observation = self.env.env().observation();
        let mut legal_mask = observation.mask.to_vec();
        if self.ended {
            legal_mask.fill(false);
        }
        RlState {
            shape: self.env.env().state().observation_shape(),
            observation: observation.obs.to_vec(),
            legal_mask,
        }
    }

    fn step(&mut self, action: usize) -> StepResult<RlState> {
        let (reward, done, truncated) = if self.ended {
            (0.0, true, false)
        } else {
            self.steps += 1;
            match self.env.step(action) {
                Ok(step) => {
                    let (reward, terminated) = (step.reward as f64, step.terminated);
                    let truncated =
                        step.truncated || (!terminated && self.steps >= Self::MAX_STEPS);
                    if terminated || truncated {
                        self.end(None);
                    }
                    (reward, terminated, truncated)
                }
                Err(SingleAgentError::Action(_)) => {
                    self.end(None);
                    (-1.0, true, false)
                }
                Err(error) => {
                    self.end(Some(error));
                    (0.0, true, false)
                }
            }
        };
        StepResult {
            next_state: self.state(),
            reward,
            done,
            truncated,
        }
    }

    fn reset(&mut self) {
        self.steps = 0;
        let seed = self.next_seed;
        self.next_seed = self.next_seed.wrapping_add(1);
        match self.env.reset(seed) {
            Ok(_) => {
                self.ended = false;
                self.error = None;
            }
            Err(error) => self.end(Some(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::{Board, Fanorona, Position, RandomAgent};
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;

    fn small_board() -> Fanorona {
        Fanorona::new(Position::initial(Board::new(5, 3).unwrap()))
    }

    #[test]
    fn episodes_against_a_random_opponent_end_with_the_agents_return() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut returns = Vec::new();
        for side in Color::BOTH {
            let mut env = RlEnv::new(
                small_board(),
                EnvConfig::default(),
                RandomAgent::new(1),
                side,
                10,
            );
            for _ in 0..6 {
                let mut total = 0.0;
                loop {
                    let state = env.state();
                    assert_eq!(env.inner().env().state().current_player(), side);
                    let legal: Vec<usize> = (0..state.legal_mask.len())
                        .filter(|&a| state.legal_mask[a])
                        .collect();
                    let result = env.step(*legal.choose(&mut rng).unwrap());
                    total += result.reward;
                    if result.done || result.truncated {
                        assert!(result.next_state.legal_mask.iter().all(|&l| !l));
                        let game = env.inner().env().state();
                        if result.done {
                            assert!(game.is_terminal());
                            assert_eq!(total, game.returns()[side.index()] as f64);
                        } else {
                            assert_eq!(total, 0.0);
                        }
                        returns.push(total);
                        break;
                    }
                    assert_eq!(result.reward, 0.0);
                }
                env.reset();
            }
        }
        assert!(returns.iter().all(|r| [-1.0, 0.0, 1.0].contains(r)));
        assert!(returns.iter().any(|&r| r != 0.0), "{returns:?}");
    }

    #[test]
    fn an_illegal_action_ends_the_episode_as_a_loss_without_playing() {
        let mut env = RlEnv::new(
            small_board(),
            EnvConfig::default(),
            RandomAgent::new(0),
            Color::White,
            0,
        );
        let state = env.state();
        let before = env.inner().env().state().to_text();
        let illegal = state.legal_mask.iter().position(|&l| !l).unwrap();
        let result = env.step(illegal);
        assert!(result.done && !result.truncated);
        assert_eq!(result.reward, -1.0);
        assert_eq!(env.inner().env().state().to_text(), before);
        assert!(env.state().legal_mask.iter().all(|&l| !l));
        // A step after the end changes nothing; a reset starts again.
        assert_eq!(env.step(0).reward, 0.0);
        env.reset();
        assert!(env.state().legal_mask.iter().any(|&l| l));
        let obs: Tensor<4> = env.state().to_observation(&Device::flex());
        assert_eq!(obs.dims(), [1, 18, 3, 5]);
    }
}
