//! `fanorona._fanorona.SingleAgentVecEnv`: N agent-against-opponent games (each what
//! `SingleAgentEnv` is) stepped together on rayon's threads with the GIL released, behind the
//! Gymnasium vector env of `fanorona/Fanorona-v0`. Autoreset is Gymnasium's next-step mode:
//! the step after an episode ends starts that game's next episode (its action is ignored, its
//! reward 0). Observations, int8 masks, rewards and flags live in Rust buffers that numpy
//! views without copying.

use std::sync::{Mutex, MutexGuard};

use fanorona_env::{
    Agent, AgentSpec, Color, EnvConfig, Fanorona, Game, Registry, SingleAgentError,
};
use numpy::{PyArray1, PyArray2, PyArray4};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::arrays;
use crate::env::{DEFAULT_TURN_LIMIT, episode_config, start_game};
use crate::errors::value_error;
use crate::index::Whole;
use crate::locks::lock;
use crate::names::parse_color;
use crate::vec_env::MAX_ENVS;

type Inner = fanorona_env::SingleAgentEnv<Fanorona, Box<dyn Agent<Fanorona>>>;

/// What a step returns: observations, masks, rewards, terminated, truncated.
type StepResult<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// Spreads seeds apart (SplitMix64's increment).
const SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// What every game is made of: a fresh opponent for each episode, seeded by it (agents such
/// as `random` replay their choices after a plain reset).
struct Template {
    registry: Registry,
    opponent: AgentSpec,
    start: Fanorona,
    config: EnvConfig,
    side: Color,
}

impl Template {
    /// A game against an opponent seeded with `seed`.
    fn game(&self, seed: u64) -> PyResult<Inner> {
        let opponent = self
            .registry
            .create(&self.opponent, seed)
            .map_err(value_error)?;
        Ok(Inner::new(
            self.start.clone(),
            self.config,
            opponent,
            self.side,
        ))
    }
}

/// One game of the batch.
struct Slot {
    game: Inner,
    /// The seed of this game's episodes; episode k starts from `seed + k * SEED_STEP`.
    seed: u64,
    episodes: u64,
    /// The last step ended the episode: the next one starts it again.
    needs_reset: bool,
    /// This step's action was illegal and `illegal_loses`: the episode ends as a loss.
    lost: bool,
}

impl Slot {
    /// Starts the next episode, against a fresh opponent seeded by it.
    fn reset(&mut self, template: &Template) -> PyResult<()> {
        let seed = self
            .seed
            .wrapping_add(self.episodes.wrapping_mul(SEED_STEP));
        self.game = template.game(seed)?;
        self.game.reset(seed).map_err(game_error)?;
        self.episodes += 1;
        self.needs_reset = false;
        Ok(())
    }
}

/// The games with the buffers Python reads.
struct Batch {
    slots: Vec<Slot>,
    obs: Vec<f32>,
    masks: Vec<i8>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    /// The actions of the step being played (reused from step to step).
    actions: Vec<usize>,
}

impl Batch {
    /// Runs `act` on every game in parallel (it returns reward, terminated, truncated), then
    /// writes each game's observation, mask, reward and flags into the buffers.
    fn run(
        &mut self,
        act: impl Fn(usize, &mut Slot) -> PyResult<(f32, bool, bool)> + Sync,
    ) -> PyResult<()> {
        let obs_len = self.obs.len() / self.slots.len();
        let num_actions = self.masks.len() / self.slots.len();
        (
            self.slots.par_iter_mut(),
            self.obs.par_chunks_mut(obs_len),
            self.masks.par_chunks_mut(num_actions),
            self.rewards.par_iter_mut(),
            self.terminated.par_iter_mut(),
            self.truncated.par_iter_mut(),
        )
            .into_par_iter()
            .enumerate()
            .try_for_each(|(i, (slot, obs, mask, reward, terminated, truncated))| {
                (*reward, *terminated, *truncated) = act(i, slot)?;
                slot.needs_reset = *terminated || *truncated;
                let observation = slot.game.env().observation();
                obs.copy_from_slice(observation.obs);
                if slot.lost {
                    mask.fill(0);
                } else {
                    for (out, &legal) in mask.iter_mut().zip(observation.mask) {
                        *out = i8::from(legal);
                    }
                }
                Ok(())
            })
    }
}

/// N games of an agent against an opponent, stepped together; `reset(seed)` determines every
/// episode that follows (with the agent's actions). Any thread may call it; calls run one
/// at a time, waiting without the GIL.
#[pyclass(module = "fanorona", frozen)]
pub struct SingleAgentVecEnv {
    batch: Mutex<Batch>,
    template: Template,
    illegal_loses: bool,
    shape: [usize; 3],
    num_actions: usize,
}

/// Views of the buffers of `this` (whose batch is `batch`, locked).
fn step_result<'py>(this: &Bound<'py, SingleAgentVecEnv>, batch: &Batch) -> StepResult<'py> {
    let me = this.get();
    let n = batch.slots.len();
    let [p, h, w] = me.shape;
    let owner = this.as_any();
    // SAFETY: the buffers belong to `this` and are never reallocated (only written in place).
    unsafe {
        (
            arrays::view(owner, &batch.obs, (n, p, h, w)),
            arrays::view(owner, &batch.masks, (n, me.num_actions)),
            arrays::view(owner, &batch.rewards, n),
            arrays::view(owner, &batch.terminated, n),
            arrays::view(owner, &batch.truncated, n),
        )
    }
}

impl SingleAgentVecEnv {
    /// Locks the batch.
    fn batch(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Batch>> {
        lock(py, &self.batch, "SingleAgentVecEnv")
    }

    /// The games of a batch whose opponents and episodes are seeded from `seed`.
    fn slots(&self, n: usize, seed: u64) -> PyResult<Vec<Slot>> {
        (0..n as u64)
            .map(|i| {
                let seed = seed.wrapping_add(i.wrapping_mul(SEED_STEP).rotate_left(17));
                Ok(Slot {
                    game: self.template.game(seed)?,
                    seed,
                    episodes: 0,
                    needs_reset: true,
                    lost: false,
                })
            })
            .collect()
    }
}

/// An error of a game as Python sees it.
fn game_error(error: SingleAgentError) -> PyErr {
    match error {
        SingleAgentError::Action(_) => value_error(error),
        error => PyRuntimeError::new_err(error.to_string()),
    }
}

#[pymethods]
impl SingleAgentVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, opponent="random", side="white", board=None, rules="",
        fen=None, turn_limit=Some(Whole(DEFAULT_TURN_LIMIT)), random_opening=Whole(0), illegal_action="lose",
        seed=Whole(0), learner=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        opponent: &str,
        side: &str,
        board: Option<&str>,
        rules: &str,
        fen: Option<&str>,
        turn_limit: Option<Whole<u32>>,
        random_opening: Whole<u32>,
        illegal_action: &str,
        seed: Whole<u64>,
        learner: Option<&str>,
    ) -> PyResult<SingleAgentVecEnv> {
        let n = match num_envs.extract::<usize>() {
            Ok(n) if (1..=MAX_ENVS).contains(&n) => n,
            _ => {
                return Err(value_error(format!(
                    "num_envs {num_envs}: expected an integer from 1 to {MAX_ENVS}"
                )));
            }
        };
        let illegal_loses = match illegal_action {
            "lose" => true,
            "raise" => false,
            other => {
                return Err(value_error(format!(
                    "illegal_action {other:?}: expected \"lose\" or \"raise\""
                )));
            }
        };
        let start = start_game(fen, board, rules)?;
        let shape = start.observation_shape();
        let num_actions = start.num_actions();
        let registry = fanorona_train::players::registry();
        let opponent = registry.parse(opponent).map_err(value_error)?;
        let mut env = SingleAgentVecEnv {
            batch: Mutex::new(Batch {
                slots: Vec::new(),
                obs: vec![0.0; n * shape.iter().product::<usize>()],
                masks: vec![0; n * num_actions],
                rewards: vec![0.0; n],
                terminated: vec![false; n],
                truncated: vec![false; n],
                actions: vec![0; n],
            }),
            template: Template {
                registry,
                opponent,
                start,
                config: episode_config(turn_limit, random_opening, false),
                // `learner` is the former name of `side`, still accepted.
                side: parse_color(learner.unwrap_or(side))?,
            },
            illegal_loses,
            shape,
            num_actions,
        };
        let slots = env.slots(n, seed.0)?;
        let batch = env.batch.get_mut().map_err(|_| value_error("poisoned"))?;
        batch.slots = slots;
        let template = &env.template;
        py.detach(|| batch.run(|_, slot| slot.reset(template).map(|()| (0.0, false, false))))?;
        Ok(env)
    }

    /// Starts every game again, its opponent and episodes seeded from `seed`; returns what
    /// `step` returns (rewards 0, flags false).
    #[pyo3(signature = (seed=Whole(0)))]
    fn reset<'py>(
        this: &Bound<'py, SingleAgentVecEnv>,
        seed: Whole<u64>,
    ) -> PyResult<StepResult<'py>> {
        let Whole(seed) = seed;
        let py = this.py();
        let me = this.get();
        let mut batch = me.batch(py)?;
        batch.slots = me.slots(batch.slots.len(), seed)?;
        let run = &mut *batch;
        let template = &me.template;
        py.detach(|| run.run(|_, slot| slot.reset(template).map(|()| (0.0, false, false))))?;
        Ok(step_result(this, &batch))
    }

    /// Plays one agent action per game (a 1-D integer numpy array of length N), each
    /// followed by its opponent's replies; returns (obs [N,18,H,W] float32, mask [N,A] int8,
    /// rewards [N] float32, terminated [N] bool, truncated [N] bool). A game whose episode
    /// ended at the last step starts its next episode instead (action ignored, reward 0). An
    /// illegal action ends its episode as a loss (reward -1, terminated, mask all zero) with
    /// illegal_action="lose", or raises ValueError and changes nothing with "raise".
    fn step<'py>(
        this: &Bound<'py, SingleAgentVecEnv>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let py = this.py();
        let me = this.get();
        let mut batch = me.batch(py)?;
        let Batch {
            slots,
            actions: buffer,
            ..
        } = &mut *batch;
        arrays::actions(actions, buffer)?;
        for (i, (slot, &action)) in slots.iter_mut().zip(buffer.iter()).enumerate() {
            let env = slot.game.env();
            let legal = env.legal_actions().binary_search(&action).is_ok();
            slot.lost = !slot.needs_reset && !legal && me.illegal_loses;
            if !slot.needs_reset && !legal && !me.illegal_loses {
                let error = env.state().clone().apply(action).err();
                for slot in slots.iter_mut() {
                    slot.lost = false;
                }
                return Err(value_error(format!(
                    "environment {i}: {}",
                    error.map_or_else(
                        || format!("action {action} is not legal"),
                        |e| e.to_string()
                    )
                )));
            }
        }
        let run = &mut *batch;
        let actions = std::mem::take(&mut run.actions);
        let template = &me.template;
        let result = py.detach(|| {
            run.run(|i, slot| {
                if slot.needs_reset {
                    slot.lost = false;
                    slot.reset(template).map(|()| (0.0, false, false))
                } else if slot.lost {
                    Ok((-1.0, true, false))
                } else {
                    let step = slot.game.step(actions[i]).map_err(game_error)?;
                    Ok((step.reward, step.terminated, step.truncated))
                }
            })
        });
        run.actions = actions;
        result?;
        Ok(step_result(this, &batch))
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.batch(py)?.slots.len())
    }

    /// The size of one game's action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The shape of one observation: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.shape[0], self.shape[1], self.shape[2])
    }
}
