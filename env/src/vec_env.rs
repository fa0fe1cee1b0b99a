//! `VecEnv`: N environments of one game stepped together on rayon's thread pool, in the
//! manner of EnvPool. Observations, masks, rewards and flags live in contiguous batched
//! buffers (env-major: env `i` owns `obs[i * obs_len..(i + 1) * obs_len]`, and so on).
//!
//! Episodes reset themselves: when an action ends an episode, its rewards and flags are
//! reported and the observation and mask already show the next episode's first state (the
//! final observation of a game is never needed to act). Every environment has its own
//! random generator, drawn from the master seed, which seeds its resets (random openings) and
//! [`VecEnv::step_random`]; so the same seed and actions give the same trajectories whatever
//! the number of threads.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::Color;
use crate::env::{EnvConfig, Episode, Transition};
use crate::game::{ActionError, Game};

/// An action of a [`VecEnv::step`] batch that cannot be played; no environment changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VecEnvError {
    /// The batch does not have one action per environment.
    #[error("got {got} actions for {expected} environments: pass one action per environment")]
    WrongLength {
        /// Actions given.
        got: usize,
        /// Environments.
        expected: usize,
    },
    /// One environment refused its action.
    #[error("environment {env}: {error}")]
    Action {
        /// The environment's index.
        env: usize,
        /// Why.
        error: ActionError,
    },
}

/// One environment of the batch: its episode and its own generator.
#[derive(Clone, Debug)]
struct Slot<G: Game> {
    episode: Episode<G>,
    rng: SmallRng,
}

impl<G: Game> Slot<G> {
    /// Starts a new episode seeded from this slot's generator.
    fn reset(&mut self) {
        let seed = self.rng.random();
        self.episode.reset(seed);
    }
}

/// N environments stepped together, auto-resetting, with batched buffers.
///
/// ```
/// use fanorona_env::{EnvConfig, Fanorona, VecEnv};
///
/// let mut envs = VecEnv::new(Fanorona::standard(), 8, EnvConfig::default(), 42);
/// let actions: Vec<usize> = (0..envs.len()).map(|i| envs.legal_actions(i)[0]).collect();
/// envs.step(&actions).unwrap();
/// assert_eq!(envs.observations().len(), 8 * envs.observation_len());
/// assert_eq!(envs.masks().len(), 8 * envs.num_actions());
/// envs.step_random();
/// ```
#[derive(Clone, Debug)]
pub struct VecEnv<G: Game> {
    slots: Vec<Slot<G>>,
    obs_len: usize,
    num_actions: usize,
    obs: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    players: Vec<Color>,
}

impl<G: Game> VecEnv<G> {
    /// `n` environments starting their episodes at `start`, seeded from `seed`.
    pub fn new(start: G, n: usize, config: EnvConfig, seed: u64) -> VecEnv<G> {
        let [planes, height, width] = start.observation_shape();
        let obs_len = planes * height * width;
        let num_actions = start.num_actions();
        let episode = Episode::new(start, config);
        let mut envs = VecEnv {
            slots: (0..n)
                .map(|_| Slot {
                    episode: episode.clone(),
                    rng: SmallRng::seed_from_u64(0),
                })
                .collect(),
            obs_len,
            num_actions,
            obs: vec![0.0; n * obs_len],
            masks: vec![false; n * num_actions],
            rewards: vec![0.0; 2 * n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            players: vec![Color::White; n],
        };
        envs.reset(seed);
        envs
    }

    /// Restarts every environment with generators drawn from `seed`.
    pub fn reset(&mut self, seed: u64) {
        let mut master = SmallRng::seed_from_u64(seed);
        for slot in &mut self.slots {
            slot.rng = SmallRng::from_rng(&mut master);
        }
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        self.run(|_, slot| {
            slot.reset();
            None
        });
    }

    /// Plays one action per environment (absolute, or in the mover's frame if the config
    /// says so). All actions are checked first: on error no environment changes.
    pub fn step(&mut self, actions: &[usize]) -> Result<(), VecEnvError> {
        if actions.len() != self.slots.len() {
            return Err(VecEnvError::WrongLength {
                got: actions.len(),
                expected: self.slots.len(),
            });
        }
        for (env, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            slot.episode
                .check(action)
                .map_err(|error| VecEnvError::Action { env, error })?;
        }
        self.run(|i, slot| Some(slot.episode.step(actions[i]).expect("checked above")));
        Ok(())
    }

    /// Plays a uniformly random legal action in every environment, drawn from each one's
    /// generator (for benchmarks, baselines and data generation). An environment whose
    /// start state is already over is left alone.
    pub fn step_random(&mut self) {
        self.run(|_, slot| {
            let legal = slot.episode.legal();
            if legal.is_empty() {
                return None;
            }
            let mut action = legal[slot.rng.random_range(0..legal.len())];
            if slot.episode.config().mover_frame {
                action = slot.episode.state().to_mover_action(action);
            }
            Some(slot.episode.step(action).expect("a legal action"))
        });
    }

    /// Runs `act` on every environment in parallel, then resets finished episodes and writes
    /// each environment's results into the batched buffers. `act` returns the transition of
    /// the action it played, or `None` if it played none.
    fn run(&mut self, act: impl Fn(usize, &mut Slot<G>) -> Option<Transition> + Sync) {
        let n = self.slots.len();
        let min_len = (n / (4 * rayon::current_num_threads())).max(1);
        (
            self.slots.par_iter_mut(),
            self.obs.par_chunks_mut(self.obs_len.max(1)),
            self.masks.par_chunks_mut(self.num_actions.max(1)),
            self.rewards.par_chunks_mut(2),
            self.terminated.par_iter_mut(),
            self.truncated.par_iter_mut(),
            self.players.par_iter_mut(),
        )
            .into_par_iter()
            .with_min_len(min_len)
            .enumerate()
            .for_each(
                |(i, (slot, obs, mask, rewards, terminated, truncated, player))| {
                    if let Some(t) = act(i, slot) {
                        rewards.copy_from_slice(&t.rewards);
                        *terminated = t.terminated;
                        *truncated = t.truncated;
                        if t.done() {
                            slot.reset();
                        }
                    }
                    slot.episode.write(obs, mask);
                    *player = slot.episode.state().current_player();
                },
            );
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no environments.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Length of one observation.
    pub fn observation_len(&self) -> usize {
        self.obs_len
    }

    /// Size of one environment's action space.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// All observations, env-major: `len() * observation_len()` values.
    pub fn observations(&self) -> &[f32] {
        &self.obs
    }

    /// All masks, env-major: `len() * num_actions()` values.
    pub fn masks(&self) -> &[bool] {
        &self.masks
    }

    /// The last step's rewards, `[env * 2 + Color::index]`.
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// Whether the last step ended each environment's game (it has been reset since).
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Whether the last step hit each environment's turn limit (it has been reset since).
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// The player to act in each environment.
    pub fn players(&self) -> &[Color] {
        &self.players
    }

    /// The observation of environment `i`.
    pub fn observation(&self, i: usize) -> &[f32] {
        &self.obs[i * self.obs_len..(i + 1) * self.obs_len]
    }

    /// The mask of environment `i`.
    pub fn mask(&self, i: usize) -> &[bool] {
        &self.masks[i * self.num_actions..(i + 1) * self.num_actions]
    }

    /// The legal actions of environment `i`, absolute and increasing.
    pub fn legal_actions(&self, i: usize) -> &[usize] {
        self.slots[i].episode.legal()
    }

    /// The game state of environment `i`.
    pub fn state(&self, i: usize) -> &G {
        self.slots[i].episode.state()
    }
}
