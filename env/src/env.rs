//! `Env`: the gym-like environment around any [`Game`], with PettingZoo AEC semantics: one
//! agent acts at a time, and every step says who acts next (in a Fanorona capture chain the
//! same player acts again). `reset(seed)` starts an episode and `step(action)` plays one
//! action; both hand out the observation (from the point of view of the player to act) and the
//! legal-action mask as slices borrowed from buffers the environment reuses, so stepping
//! allocates nothing. An optional turn limit truncates long episodes; an illegal action is
//! refused with an [`ActionError`] and changes nothing.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::Color;
use crate::game::{ActionError, Game};

/// How an environment runs its episodes. The default plays every episode from the start
/// state to its end, with absolute action indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnvConfig {
    /// Truncate an episode once this many complete turns have been played (`None`: never).
    pub turn_limit: Option<u32>,
    /// Uniformly random actions that `reset` plays, drawn from its seed, to vary the openings
    /// (0: every episode starts at the start state). An opening that ends the game is
    /// replaced by another.
    pub random_opening: u32,
    /// Masks and actions in the frame of the player to act (the board turned for black, see
    /// [`Game::to_mover_action`]) instead of absolute indices: what a network sees.
    pub mover_frame: bool,
}

/// Bookkeeping of the episode after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// Whether the action ended a turn: the player to act changed or the game ended.
    pub turn_ended: bool,
    /// Complete turns played in this episode so far.
    pub turns: u32,
    /// Actions played in this episode so far.
    pub steps: u32,
}

/// What one action did, besides the new observation and mask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// The reward of each player for this action, indexed by [`Color::index`]: the game's
    /// returns when it ends, zero otherwise.
    pub rewards: [f32; 2],
    /// The game is over (win, loss or draw by the rules).
    pub terminated: bool,
    /// The episode was cut by the turn limit; the game itself goes on.
    pub truncated: bool,
    /// The player to act next, `None` once the episode is over.
    pub next_player: Option<Color>,
    /// Episode counters.
    pub info: StepInfo,
}

impl Transition {
    /// Whether the episode is over (terminated or truncated).
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }
}

/// The observation of the current state, with the legal-action mask and the player to act.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation<'a> {
    /// The observation tensor, planes x height x width, from the view of the player to act.
    pub obs: &'a [f32],
    /// The legal actions (all false once the episode is over).
    pub mask: &'a [bool],
    /// The player to act.
    pub player: Color,
}

/// The result of [`Env::step`]: the new observation and mask, and what the action did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnvStep<'a> {
    /// The observation after the action, from the view of the player to act next.
    pub obs: &'a [f32],
    /// The legal actions now (all false once the episode is over).
    pub mask: &'a [bool],
    /// Rewards, termination, truncation, next player and counters.
    pub transition: Transition,
}

/// Times a random opening is drawn again when it ends the game before giving up on it.
const OPENING_ATTEMPTS: u32 = 64;

/// One episode of a game without observation buffers: the state, counters and legal actions.
/// [`Env`] adds its own buffers; [`crate::VecEnv`] writes into slices of batched ones.
#[derive(Clone, Debug)]
pub(crate) struct Episode<G: Game> {
    start: G,
    state: G,
    config: EnvConfig,
    turns: u32,
    steps: u32,
    truncated: bool,
    /// The legal actions of `state`, increasing, absolute; empty once the episode is over.
    legal: Vec<usize>,
}

impl<G: Game> Episode<G> {
    /// An episode at `start` (no random opening until the first reset).
    pub(crate) fn new(start: G, config: EnvConfig) -> Episode<G> {
        let mut episode = Episode {
            state: start.clone(),
            start,
            config,
            turns: 0,
            steps: 0,
            truncated: false,
            legal: Vec::new(),
        };
        episode.refresh_legal();
        episode
    }

    /// Starts a new episode; `seed` draws the random opening, if the config asks for one.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.state.clone_from(&self.start);
        self.turns = 0;
        self.steps = 0;
        self.truncated = false;
        if self.config.random_opening > 0 {
            self.play_random_opening(seed);
        }
        self.refresh_legal();
    }

    fn play_random_opening(&mut self, seed: u64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..OPENING_ATTEMPTS {
            for _ in 0..self.config.random_opening {
                self.state.legal_actions(&mut self.legal);
                if self.legal.is_empty() {
                    break;
                }
                let action = self.legal[rng.random_range(0..self.legal.len())];
                self.state.apply_unchecked(action);
            }
            if !self.state.is_terminal() {
                return;
            }
            self.state.clone_from(&self.start);
        }
    }

    fn refresh_legal(&mut self) {
        if self.is_done() {
            self.legal.clear();
        } else {
            self.state.legal_actions(&mut self.legal);
        }
    }

    /// The current state.
    pub(crate) fn state(&self) -> &G {
        &self.state
    }

    /// The settings.
    pub(crate) fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The legal actions now, increasing, absolute.
    pub(crate) fn legal(&self) -> &[usize] {
        &self.legal
    }

    /// Whether the episode is over.
    pub(crate) fn is_done(&self) -> bool {
        self.truncated || self.state.is_terminal()
    }

    /// The counters now.
    pub(crate) fn info(&self, turn_ended: bool) -> StepInfo {
        StepInfo {
            turn_ended,
            turns: self.turns,
            steps: self.steps,
        }
    }

    /// The absolute action of an action as the caller writes it (mover frame or absolute).
    fn absolute(&self, action: usize) -> usize {
        if self.config.mover_frame && action < self.state.num_actions() {
            self.state.mover_action_to_absolute(action)
        } else {
            action
        }
    }

    /// Checks an action without playing it; the error says why it cannot be played.
    pub(crate) fn check(&self, action: usize) -> Result<(), ActionError> {
        if self.is_done() {
            return Err(ActionError::GameOver);
        }
        if self.legal.binary_search(&self.absolute(action)).is_ok() {
            return Ok(());
        }
        // The game's own checked `apply` words the error; on a copy, so nothing changes.
        Err(self
            .state
            .clone()
            .apply(self.absolute(action))
            .expect_err("the game's legal_actions and is_legal disagree"))
    }

    /// Plays an action after checking it; on error nothing changes.
    pub(crate) fn step(&mut self, action: usize) -> Result<Transition, ActionError> {
        self.check(action)?;
        let mover = self.state.current_player();
        self.state.apply_unchecked(self.absolute(action));
        self.steps += 1;
        let terminated = self.state.is_terminal();
        let turn_ended = terminated || self.state.current_player() != mover;
        if turn_ended {
            self.turns += 1;
        }
        self.truncated = !terminated && self.config.turn_limit.is_some_and(|l| self.turns >= l);
        self.refresh_legal();
        Ok(Transition {
            rewards: if terminated {
                self.state.returns()
            } else {
                [0.0; 2]
            },
            terminated,
            truncated: self.truncated,
            next_player: (!self.is_done()).then(|| self.state.current_player()),
            info: self.info(turn_ended),
        })
    }

    /// Writes the observation and the mask of the current state.
    pub(crate) fn write(&self, obs: &mut [f32], mask: &mut [bool]) {
        self.state.write_observation(obs);
        mask.fill(false);
        if self.config.mover_frame {
            for &a in &self.legal {
                mask[self.state.to_mover_action(a)] = true;
            }
        } else {
            for &a in &self.legal {
                mask[a] = true;
            }
        }
    }
}

/// A gym-like environment for one game: reset, step, observation and mask.
///
/// ```
/// use fanorona_env::{Env, EnvConfig, Fanorona};
///
/// let config = EnvConfig { turn_limit: Some(200), ..EnvConfig::default() };
/// let mut env = Env::with_config(Fanorona::standard(), config);
/// let first = env.reset(7);
/// assert_eq!(first.obs.len(), 18 * 5 * 9);
/// loop {
///     let action = env.legal_actions()[0];
///     let step = env.step(action).unwrap();
///     if step.transition.done() {
///         break;
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Env<G: Game> {
    episode: Episode<G>,
    obs: Vec<f32>,
    mask: Vec<bool>,
}

impl<G: Game> Env<G> {
    /// An environment that starts every episode at `start`, with the default settings.
    pub fn new(start: G) -> Env<G> {
        Env::with_config(start, EnvConfig::default())
    }

    /// An environment that starts every episode at `start` (then plays the random opening
    /// the config asks for). It is ready to step at `start` before any reset.
    pub fn with_config(start: G, config: EnvConfig) -> Env<G> {
        let [planes, height, width] = start.observation_shape();
        let mut env = Env {
            obs: vec![0.0; planes * height * width],
            mask: vec![false; start.num_actions()],
            episode: Episode::new(start, config),
        };
        env.write();
        env
    }

    fn write(&mut self) {
        self.episode.write(&mut self.obs, &mut self.mask);
    }

    /// Starts a new episode and returns its first observation. `seed` draws the random
    /// opening, if any; the same seed gives the same episode start.
    pub fn reset(&mut self, seed: u64) -> Observation<'_> {
        self.episode.reset(seed);
        self.write();
        self.observation()
    }

    /// Plays one action (absolute, or in the mover's frame if the config says so). On error
    /// (illegal, out of range, episode over) nothing changes.
    pub fn step(&mut self, action: usize) -> Result<EnvStep<'_>, ActionError> {
        let transition = self.episode.step(action)?;
        self.write();
        Ok(EnvStep {
            obs: &self.obs,
            mask: &self.mask,
            transition,
        })
    }

    /// The current observation, mask and player to act.
    pub fn observation(&self) -> Observation<'_> {
        Observation {
            obs: &self.obs,
            mask: &self.mask,
            player: self.episode.state().current_player(),
        }
    }

    /// The current game state.
    pub fn state(&self) -> &G {
        self.episode.state()
    }

    /// The settings.
    pub fn config(&self) -> &EnvConfig {
        self.episode.config()
    }

    /// The legal actions now, absolute and increasing (empty once the episode is over).
    pub fn legal_actions(&self) -> &[usize] {
        self.episode.legal()
    }

    /// Whether the episode is over (terminated or truncated).
    pub fn is_done(&self) -> bool {
        self.episode.is_done()
    }

    /// Episode counters.
    pub fn info(&self) -> StepInfo {
        self.episode.info(false)
    }

    /// Length of the observation (planes * height * width).
    pub fn observation_len(&self) -> usize {
        self.obs.len()
    }

    /// Size of the action space.
    pub fn num_actions(&self) -> usize {
        self.mask.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Fanorona, Position, Telo};

    #[test]
    fn rewards_arrive_with_the_final_action() {
        // White e1 takes black's last piece, c1, by approach.
        let pos = Position::from_fen("5/5/5/5/2B1W w 0 1").unwrap();
        let mut env = Env::new(Fanorona::new(pos));
        let action = env.state().parse_action("e1d1").unwrap();
        let step = env.step(action).unwrap();
        assert!(step.transition.terminated && !step.transition.truncated);
        assert_eq!(step.transition.rewards, [1.0, -1.0]);
        assert_eq!(step.transition.next_player, None);
        assert!(step.mask.iter().all(|&m| !m));
        assert_eq!(env.step(action).unwrap_err(), ActionError::GameOver);
    }

    #[test]
    fn turn_limit_truncates() {
        let config = EnvConfig {
            turn_limit: Some(3),
            ..EnvConfig::default()
        };
        let mut env = Env::with_config(Fanorona::standard(), config);
        env.reset(0);
        let mut turns_ended = 0;
        while !env.is_done() {
            let step = env.step(env.legal_actions()[0]).unwrap();
            turns_ended += u32::from(step.transition.info.turn_ended);
            assert_eq!(step.transition.rewards, [0.0, 0.0]);
        }
        assert_eq!(turns_ended, 3);
        assert_eq!(env.info().turns, 3);
        assert!(!env.state().is_terminal(), "the game itself goes on");
        let first = env.reset(0);
        assert!(first.mask.iter().any(|&m| m));
        assert_eq!(env.info().turns, 0);
    }

    #[test]
    fn random_openings_depend_on_the_seed_only() {
        let config = EnvConfig {
            random_opening: 4,
            ..EnvConfig::default()
        };
        let mut env = Env::with_config(Telo::new(), config);
        let texts: Vec<String> = (0..8)
            .map(|seed| {
                env.reset(seed);
                env.state().to_text()
            })
            .collect();
        for (seed, text) in texts.iter().enumerate() {
            env.reset(seed as u64);
            assert_eq!(&env.state().to_text(), text);
            assert_eq!(env.state().plies(), 4);
        }
        let distinct: std::collections::HashSet<&String> = texts.iter().collect();
        assert!(
            distinct.len() > 1,
            "different seeds give different openings"
        );
    }
}
