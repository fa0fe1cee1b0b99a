//! `fanorona._fanorona.SingleAgentEnv`: the agent's side of a game against an agent of the
//! registry, behind the Gymnasium environment `fanorona/Fanorona-v0`.

use std::sync::Mutex;

use fanorona_env::{Agent, Color, EnvConfig, Fanorona, Game, SingleAgentStep};
use numpy::{PyArray1, PyArray3};
use pyo3::prelude::*;

use crate::agent::create_agent;
use crate::arrays;
use crate::env::{DEFAULT_TURN_LIMIT, episode_config, start_game};
use crate::errors::value_error;
use crate::index::{Whole, action_id};
use crate::locks::lock;
use crate::names::parse_color;
use crate::position::Position;

type Inner = fanorona_env::SingleAgentEnv<Fanorona, Box<dyn Agent<Fanorona>>>;

/// An observation and its int8 mask.
type ObsMask<'py> = (Bound<'py, PyArray3<f32>>, Bound<'py, PyArray1<i8>>);

/// What a step returns: observation, mask, reward, terminated, truncated.
type StepResult<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray1<i8>>,
    f32,
    bool,
    bool,
);

/// One colour's view of a game whose other colour an agent plays; the opponent's actions
/// happen inside `reset` and `step`. Any thread may call it; calls run one at a time, waiting
/// without the GIL.
#[pyclass(module = "fanorona", frozen)]
pub struct SingleAgentEnv {
    inner: Mutex<Inner>,
    shape: [usize; 3],
    num_actions: usize,
    /// The opponent's name (the same for every episode).
    opponent_name: String,
    /// What a reset needs to start over with a freshly seeded opponent.
    start: Fanorona,
    config: EnvConfig,
    side: Color,
    opponent: String,
}

/// Copies an observation and mask out.
fn obs_mask<'py>(py: Python<'py>, shape: [usize; 3], obs: &[f32], mask: &[bool]) -> ObsMask<'py> {
    let mask: Vec<i8> = mask.iter().map(|&m| m as i8).collect();
    (
        arrays::copy(py, obs, (shape[0], shape[1], shape[2])),
        arrays::copy(py, &mask, mask.len()),
    )
}

#[pymethods]
impl SingleAgentEnv {
    #[new]
    #[pyo3(signature = (opponent="random", side="white", board=None, rules="", fen=None,
        turn_limit=Some(Whole(DEFAULT_TURN_LIMIT)), random_opening=Whole(0), seed=Whole(0), learner=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        opponent: &str,
        side: &str,
        board: Option<&str>,
        rules: &str,
        fen: Option<&str>,
        turn_limit: Option<Whole<u32>>,
        random_opening: Whole<u32>,
        seed: Whole<u64>,
        learner: Option<&str>,
    ) -> PyResult<SingleAgentEnv> {
        // `learner` is the former name of `side`, still accepted.
        let side = parse_color(learner.unwrap_or(side))?;
        let start = start_game(fen, board, rules)?;
        let shape = start.observation_shape();
        let config = episode_config(turn_limit, random_opening, false);
        let agent = create_agent(opponent, seed.0)?;
        let opponent_name = agent.name();
        let num_actions = start.num_actions();
        let inner = Inner::new(start.clone(), config, agent, side);
        Ok(SingleAgentEnv {
            inner: Mutex::new(inner),
            shape,
            num_actions,
            opponent_name,
            start,
            config,
            side,
            opponent: opponent.to_string(),
        })
    }

    /// Starts an episode (the opponent moves first if it has the first turn) with the
    /// opponent's random choices seeded from `seed` too, so that an episode is determined by
    /// its seed and the agent's actions; returns the agent's observation and int8 mask.
    #[pyo3(signature = (seed=Whole(0)))]
    fn reset<'py>(&self, py: Python<'py>, seed: Whole<u64>) -> PyResult<ObsMask<'py>> {
        let Whole(seed) = seed;
        let opponent = create_agent(&self.opponent, seed)?;
        let mut inner = lock(py, &self.inner, "SingleAgentEnv")?;
        *inner = Inner::new(self.start.clone(), self.config, opponent, self.side);
        let inner = &mut *inner;
        let observation = py.detach(|| inner.reset(seed)).map_err(value_error)?;
        Ok(obs_mask(py, self.shape, observation.obs, observation.mask))
    }

    /// Plays the agent's action id, then the opponent's replies; returns (observation, mask,
    /// reward, terminated, truncated). An illegal action raises ValueError and changes nothing.
    fn step<'py>(&self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
        let action = action_id(action, self.num_actions)?;
        let mut inner = lock(py, &self.inner, "SingleAgentEnv")?;
        let inner = &mut *inner;
        let step: SingleAgentStep = py.detach(|| inner.step(action)).map_err(value_error)?;
        let (obs, mask) = obs_mask(py, self.shape, step.obs, step.mask);
        Ok((obs, mask, step.reward, step.terminated, step.truncated))
    }

    /// The current position (a copy, without history).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Position> {
        let inner = lock(py, &self.inner, "SingleAgentEnv")?;
        Ok(Position::from_game(inner.env().state().clone()))
    }

    /// The opponent's name.
    #[getter]
    fn opponent(&self) -> String {
        self.opponent_name.clone()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The observation's shape: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.shape[0], self.shape[1], self.shape[2])
    }
}
