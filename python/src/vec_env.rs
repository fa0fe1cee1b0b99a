//! `fanorona.VecEnv`: N games stepped together in Rust on rayon's threads, the GIL released,
//! with observations, masks, rewards and flags in one Rust buffer each that numpy views
//! without copying.

use fanorona_env::{Fanorona, Game};
use numpy::{PyArray1, PyArray2, PyArray4};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

use crate::arrays;
use crate::env::{episode_config, start_game};
use crate::errors::value_error;
use crate::position::Position;

/// What reset returns: observations and masks.
type ObsMask<'py> = (Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>);

/// What a step returns: observations, masks, rewards, terminated, truncated.
type StepResult<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// N environments stepped together, resetting themselves when an episode ends.
///
/// VecEnv(num_envs, board=None, rules="", fen=None, seed=0, turn_limit=None,
/// random_opening=0, mover_frame=False). The arrays it returns (and its properties `obs`,
/// `mask`, `rewards`, `terminated`, `truncated`, `players`) are read-only views of its own
/// buffers: they show the new values after every step (copy them to keep old ones).
#[pyclass(module = "fanorona")]
pub struct VecEnv {
    envs: fanorona_env::VecEnv<Fanorona>,
    /// The player to act in each environment: 0 white, 1 black.
    players: Vec<i8>,
    shape: [usize; 3],
}

impl VecEnv {
    /// Copies the players to act into the int8 buffer.
    fn update_players(&mut self) {
        for (out, color) in self.players.iter_mut().zip(self.envs.players()) {
            *out = color.index() as i8;
        }
    }

    /// Checks an environment index.
    fn check_index(&self, i: usize) -> PyResult<()> {
        if i >= self.envs.len() {
            return Err(PyIndexError::new_err(format!(
                "environment {i} does not exist: there are {} (0..{})",
                self.envs.len(),
                self.envs.len()
            )));
        }
        Ok(())
    }
}

/// Views of the buffers of `this`.
fn obs_view<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray4<f32>> {
    let me = this.borrow();
    let [p, h, w] = me.shape;
    // SAFETY: the buffers belong to `this` and are never reallocated (only written in place).
    unsafe {
        arrays::view(
            this.as_any(),
            me.envs.observations(),
            (me.envs.len(), p, h, w),
        )
    }
}

fn mask_view<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray2<bool>> {
    let me = this.borrow();
    let shape = (me.envs.len(), me.envs.num_actions());
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), me.envs.masks(), shape) }
}

fn rewards_view<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray2<f32>> {
    let me = this.borrow();
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), me.envs.rewards(), (me.envs.len(), 2)) }
}

fn terminated_view<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray1<bool>> {
    let me = this.borrow();
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), me.envs.terminated(), me.envs.len()) }
}

fn truncated_view<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray1<bool>> {
    let me = this.borrow();
    // SAFETY: as in `obs_view`.
    unsafe { arrays::view(this.as_any(), me.envs.truncated(), me.envs.len()) }
}

/// The arrays a step returns.
fn step_result<'py>(this: &Bound<'py, VecEnv>) -> StepResult<'py> {
    (
        obs_view(this),
        mask_view(this),
        rewards_view(this),
        terminated_view(this),
        truncated_view(this),
    )
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (num_envs, board=None, rules="", fen=None, seed=0, turn_limit=None,
        random_opening=0, mover_frame=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        board: Option<&str>,
        rules: &str,
        fen: Option<&str>,
        seed: u64,
        turn_limit: Option<u32>,
        random_opening: u32,
        mover_frame: bool,
    ) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        let start = start_game(fen, board, rules)?;
        let shape = start.observation_shape();
        let config = episode_config(turn_limit, random_opening, mover_frame);
        let mut envs = VecEnv {
            envs: fanorona_env::VecEnv::new(start, num_envs, config, seed),
            players: vec![0; num_envs],
            shape,
        };
        envs.update_players();
        Ok(envs)
    }

    /// Restarts every environment with generators drawn from `seed`; returns (obs, mask).
    #[pyo3(signature = (seed=0))]
    fn reset<'py>(this: &Bound<'py, VecEnv>, py: Python<'py>, seed: u64) -> ObsMask<'py> {
        {
            let mut me = this.borrow_mut();
            let envs = &mut me.envs;
            py.detach(|| envs.reset(seed));
            me.update_players();
        }
        (obs_view(this), mask_view(this))
    }

    /// Plays one action id per environment (a 1-D integer numpy array of length N); returns
    /// (obs [N,18,H,W] float32, mask [N,A] bool, rewards [N,2] float32 (white, black),
    /// terminated [N] bool, truncated [N] bool). Finished episodes restart at once: their
    /// rewards and flags are reported, their obs and mask show the new episode. Nothing
    /// changes if any action is illegal (ValueError) or the array is wrong (TypeError,
    /// ValueError).
    fn step<'py>(
        this: &Bound<'py, VecEnv>,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        {
            let mut me = this.borrow_mut();
            let actions = arrays::actions(actions, me.envs.len())?;
            let envs = &mut me.envs;
            py.detach(|| envs.step(&actions)).map_err(value_error)?;
            me.update_players();
        }
        Ok(step_result(this))
    }

    /// Plays a uniformly random legal action in every environment, chosen in Rust from each
    /// environment's seeded generator; returns what `step` returns.
    fn step_random<'py>(this: &Bound<'py, VecEnv>, py: Python<'py>) -> StepResult<'py> {
        {
            let mut me = this.borrow_mut();
            let envs = &mut me.envs;
            py.detach(|| envs.step_random());
            me.update_players();
        }
        step_result(this)
    }

    /// Observations, float32 [N, 18, H, W], each from the view of its player to act.
    #[getter]
    fn obs<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray4<f32>> {
        obs_view(this)
    }

    /// Legal-action masks, bool [N, num_actions].
    #[getter]
    fn mask<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray2<bool>> {
        mask_view(this)
    }

    /// The last step's rewards, float32 [N, 2]: (white, black).
    #[getter]
    fn rewards<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray2<f32>> {
        rewards_view(this)
    }

    /// Whether the last step ended each game, bool [N].
    #[getter]
    fn terminated<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray1<bool>> {
        terminated_view(this)
    }

    /// Whether the last step hit each environment's turn limit, bool [N].
    #[getter]
    fn truncated<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray1<bool>> {
        truncated_view(this)
    }

    /// The player to act in each environment, int8 [N]: 0 white, 1 black.
    #[getter]
    fn players<'py>(this: &Bound<'py, VecEnv>) -> Bound<'py, PyArray1<i8>> {
        let me = this.borrow();
        // SAFETY: as in `obs_view`.
        unsafe { arrays::view(this.as_any(), &me.players, me.players.len()) }
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// The size of one environment's action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.envs.num_actions()
    }

    /// The shape of one observation: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.shape[0], self.shape[1], self.shape[2])
    }

    /// The legal action ids of environment `i`, increasing.
    fn legal_actions(&self, i: usize) -> PyResult<Vec<usize>> {
        self.check_index(i)?;
        Ok(self.envs.legal_actions(i).to_vec())
    }

    /// The position of environment `i` (a copy).
    fn position(&self, i: usize) -> PyResult<Position> {
        self.check_index(i)?;
        Ok(Position::from_game(self.envs.state(i).clone()))
    }

    fn __len__(&self) -> usize {
        self.envs.len()
    }
}
