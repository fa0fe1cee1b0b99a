//! `fanorona.VecEnv`: N games stepped together in Rust on rayon's threads, the GIL released,
//! with observations, masks, rewards and flags in one Rust buffer each that numpy views
//! without copying.

use std::sync::{Mutex, MutexGuard};

use fanorona_env::{Fanorona, Game};
use numpy::{PyArray1, PyArray2, PyArray4};
use pyo3::prelude::*;

use crate::arrays;
use crate::env::{DEFAULT_TURN_LIMIT, episode_config, start_game};
use crate::errors::value_error;
use crate::index::{Whole, env_index};
use crate::locks::lock;
use crate::position::Position;

/// The most environments one VecEnv holds (about 0.4 GB of buffers on the largest boards).
pub const MAX_ENVS: usize = 1 << 16;

/// What reset returns: observations and masks.
type ObsMask<'py> = (Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<i8>>);

/// What a step returns: observations, masks, rewards, terminated, truncated.
type StepResult<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// The environments with the buffers Python reads.
struct Batch {
    envs: fanorona_env::VecEnv<Fanorona>,
    /// The player to act in each environment: 0 white, 1 black.
    players: Vec<i8>,
    /// The actions of the step being played (reused from step to step).
    actions: Vec<usize>,
}

impl Batch {
    /// Copies the players to act into the int8 buffer.
    fn update_players(&mut self) {
        for (out, color) in self.players.iter_mut().zip(self.envs.players()) {
            *out = color.index() as i8;
        }
    }
}

/// N environments stepped together, resetting themselves when an episode ends.
///
/// VecEnv(num_envs, board=None, rules="", fen=None, seed=Whole(0), turn_limit=300,
/// random_opening=Whole(0), mover_frame=False), with 1 <= num_envs <= 65536. The arrays it returns
/// (and its properties `obs`, `mask`, `rewards`, `terminated`, `truncated`, `players`) are
/// read-only views of its own buffers: they show the new values after every step (copy them to
/// keep old ones). Any thread may call it; calls run one at a time, waiting without the GIL
/// (while one thread steps, the views another thread holds change under it).
#[pyclass(module = "fanorona", frozen)]
pub struct VecEnv {
    batch: Mutex<Batch>,
    shape: [usize; 3],
    num_envs: usize,
    num_actions: usize,
}

impl VecEnv {
    /// Locks the batch.
    fn batch(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Batch>> {
        lock(py, &self.batch, "VecEnv")
    }
}

/// Views of the buffers of `this` (whose batch is `batch`, locked).
fn obs_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray4<f32>> {
    let [p, h, w] = this.get().shape;
    // SAFETY: the buffers belong to `this` and are never reallocated (only written in place).
    unsafe {
        arrays::view(
            this.as_any(),
            batch.envs.observations(),
            (batch.envs.len(), p, h, w),
        )
    }
}

fn mask_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray2<i8>> {
    let masks = batch.envs.masks();
    // SAFETY: a bool is one byte holding 0 or 1, a valid i8, and the slice is the masks'.
    let masks = unsafe { std::slice::from_raw_parts(masks.as_ptr().cast::<i8>(), masks.len()) };
    let shape = (batch.envs.len(), batch.envs.num_actions());
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), masks, shape) }
}

fn rewards_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray2<f32>> {
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), batch.envs.rewards(), (batch.envs.len(), 2)) }
}

fn terminated_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray1<bool>> {
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), batch.envs.terminated(), batch.envs.len()) }
}

fn truncated_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray1<bool>> {
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), batch.envs.truncated(), batch.envs.len()) }
}

fn players_view<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> Bound<'py, PyArray1<i8>> {
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), &batch.players, batch.players.len()) }
}

/// The arrays a step returns.
fn step_result<'py>(this: &Bound<'py, VecEnv>, batch: &Batch) -> StepResult<'py> {
    (
        obs_view(this, batch),
        mask_view(this, batch),
        rewards_view(this, batch),
        terminated_view(this, batch),
        truncated_view(this, batch),
    )
}

#[pymethods]
impl VecEnv {
    /// The most environments one VecEnv holds.
    #[classattr]
    const MAX_ENVS: usize = MAX_ENVS;

    #[new]
    #[pyo3(signature = (num_envs, board=None, rules="", fen=None, seed=Whole(0),
        turn_limit=Some(Whole(DEFAULT_TURN_LIMIT)), random_opening=Whole(0), mover_frame=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        board: Option<&str>,
        rules: &str,
        fen: Option<&str>,
        seed: Whole<u64>,
        turn_limit: Option<Whole<u32>>,
        random_opening: Whole<u32>,
        mover_frame: bool,
    ) -> PyResult<VecEnv> {
        let num_envs = match num_envs.extract::<usize>() {
            Ok(n) if (1..=MAX_ENVS).contains(&n) => n,
            _ => {
                return Err(value_error(format!(
                    "num_envs {num_envs}: expected an integer from 1 to {MAX_ENVS}"
                )));
            }
        };
        let start = start_game(fen, board, rules)?;
        let shape = start.observation_shape();
        let num_actions = start.num_actions();
        let config = episode_config(turn_limit, random_opening, mover_frame);
        let envs = py.detach(|| fanorona_env::VecEnv::new(start, num_envs, config, seed.0));
        let mut batch = Batch {
            envs,
            players: vec![0; num_envs],
            actions: vec![0; num_envs],
        };
        batch.update_players();
        Ok(VecEnv {
            batch: Mutex::new(batch),
            shape,
            num_envs,
            num_actions,
        })
    }

    /// Restarts every environment with generators drawn from `seed`; returns (obs, mask).
    #[pyo3(signature = (seed=Whole(0)))]
    fn reset<'py>(this: &Bound<'py, VecEnv>, seed: Whole<u64>) -> PyResult<ObsMask<'py>> {
        let Whole(seed) = seed;
        let py = this.py();
        let mut batch = this.get().batch(py)?;
        let envs = &mut batch.envs;
        py.detach(|| envs.reset(seed));
        batch.update_players();
        Ok((obs_view(this, &batch), mask_view(this, &batch)))
    }

    /// Plays one action id per environment (a 1-D integer numpy array of length N); returns
    /// (obs [N,18,H,W] float32, mask [N,A] int8, rewards [N,2] float32 (white, black),
    /// terminated [N] bool, truncated [N] bool). Finished episodes restart at once: their
    /// rewards and flags are reported, their obs and mask show the new episode. Nothing
    /// changes if any action is illegal (ValueError) or the array is wrong (TypeError,
    /// ValueError).
    fn step<'py>(
        this: &Bound<'py, VecEnv>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let py = this.py();
        let mut batch = this.get().batch(py)?;
        let Batch {
            envs,
            actions: buffer,
            ..
        } = &mut *batch;
        arrays::actions(actions, buffer)?;
        py.detach(|| envs.step(buffer)).map_err(value_error)?;
        batch.update_players();
        Ok(step_result(this, &batch))
    }

    /// Plays a uniformly random legal action in every environment, chosen in Rust from each
    /// environment's seeded generator; returns what `step` returns.
    fn step_random<'py>(this: &Bound<'py, VecEnv>) -> PyResult<StepResult<'py>> {
        let py = this.py();
        let mut batch = this.get().batch(py)?;
        let envs = &mut batch.envs;
        py.detach(|| envs.step_random());
        batch.update_players();
        Ok(step_result(this, &batch))
    }

    /// Observations, float32 [N, 18, H, W], each from the view of its player to act.
    #[getter]
    fn obs<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        let batch = this.get().batch(this.py())?;
        Ok(obs_view(this, &batch))
    }

    /// Legal-action masks, int8 [N, num_actions] (1 legal, 0 not).
    #[getter]
    fn mask<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let batch = this.get().batch(this.py())?;
        Ok(mask_view(this, &batch))
    }

    /// The last step's rewards, float32 [N, 2]: (white, black).
    #[getter]
    fn rewards<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let batch = this.get().batch(this.py())?;
        Ok(rewards_view(this, &batch))
    }

    /// Whether the last step ended each game, bool [N].
    #[getter]
    fn terminated<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let batch = this.get().batch(this.py())?;
        Ok(terminated_view(this, &batch))
    }

    /// Whether the last step hit each environment's turn limit, bool [N].
    #[getter]
    fn truncated<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let batch = this.get().batch(this.py())?;
        Ok(truncated_view(this, &batch))
    }

    /// The player to act in each environment, int8 [N]: 0 white, 1 black.
    #[getter]
    fn players<'py>(this: &Bound<'py, VecEnv>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let batch = this.get().batch(this.py())?;
        Ok(players_view(this, &batch))
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The size of one environment's action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The shape of one observation: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.shape[0], self.shape[1], self.shape[2])
    }

    /// The legal action ids of environment `i`, increasing.
    fn legal_actions(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let i = env_index(i, self.num_envs)?;
        Ok(self.batch(py)?.envs.legal_actions(i).to_vec())
    }

    /// The position of environment `i` (a copy).
    fn position(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<Position> {
        let i = env_index(i, self.num_envs)?;
        Ok(Position::from_game(self.batch(py)?.envs.state(i).clone()))
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }
}
