//! `fanorona._fanorona.Env`: the two-player environment behind `fanorona.pettingzoo`: one
//! action at a time, the same player acting through a whole capture chain.

use fanorona_env::observation::write_observation_of;
use fanorona_env::{EnvConfig, Fanorona, Game, start_position};
use pyo3::prelude::*;

use crate::arrays;
use crate::errors::value_error;
use crate::index::{Whole, action_id};
use crate::names::{color_name, parse_color};
use crate::position::Position;

/// What a step reports: rewards (white, black), terminated, truncated, and whether the
/// action ended the turn.
type StepResult = ((f32, f32), bool, bool, bool);

/// The game for one episode at a time, with absolute action ids and observations from the
/// view of the player to act.
#[pyclass(module = "fanorona")]
pub struct Env {
    env: fanorona_env::Env<Fanorona>,
}

/// The turn limit of every environment unless told otherwise: complete turns after which an
/// episode is truncated (the arena's default game length too).
pub const DEFAULT_TURN_LIMIT: u32 = 300;

/// The start state of an environment from the arguments every environment takes. A finished
/// game is refused: an episode needs a first move to play.
pub fn start_game(fen: Option<&str>, board: Option<&str>, rules: &str) -> PyResult<Fanorona> {
    let game = Fanorona::new(start_position(fen, board, rules).map_err(value_error)?);
    match game.outcome() {
        Some(outcome) => Err(value_error(format!(
            "the start position {:?} is a finished game ({}): an environment needs a \
             position where the side to move has a move",
            game.position().to_fen(),
            outcome.result_string()
        ))),
        None => Ok(game),
    }
}

/// The episode settings from the arguments every environment takes.
pub fn episode_config(
    turn_limit: Option<Whole<u32>>,
    random_opening: Whole<u32>,
    mover_frame: bool,
) -> EnvConfig {
    EnvConfig {
        turn_limit: turn_limit.map(|limit| limit.0),
        random_opening: random_opening.0,
        mover_frame,
    }
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(signature = (board=None, rules="", fen=None, turn_limit=Some(Whole(DEFAULT_TURN_LIMIT)),
        random_opening=Whole(0)))]
    fn new(
        board: Option<&str>,
        rules: &str,
        fen: Option<&str>,
        turn_limit: Option<Whole<u32>>,
        random_opening: Whole<u32>,
    ) -> PyResult<Env> {
        let start = start_game(fen, board, rules)?;
        let config = episode_config(turn_limit, random_opening, false);
        Ok(Env {
            env: fanorona_env::Env::with_config(start, config),
        })
    }

    /// Starts an episode; `seed` draws the random opening, if any.
    #[pyo3(signature = (seed=Whole(0)))]
    fn reset(&mut self, seed: Whole<u64>) {
        self.env.reset(seed.0);
    }

    /// Plays an action id; returns ((reward_white, reward_black), terminated, truncated,
    /// turn_ended). An illegal action raises ValueError and changes nothing.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<StepResult> {
        let action = action_id(action, self.env.num_actions())?;
        let step = self.env.step(action).map_err(value_error)?;
        let t = step.transition;
        Ok((
            (t.rewards[0], t.rewards[1]),
            t.terminated,
            t.truncated,
            t.info.turn_ended,
        ))
    }

    /// The observation, float32 [18, height, width], from the side of `agent` ("white" or
    /// "black"; its pieces on plane 0, the board turned for black), by default of the player
    /// to act.
    #[pyo3(signature = (agent=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        agent: Option<&str>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let [p, h, w] = self.env.state().observation_shape();
        let Some(agent) = agent else {
            return Ok(arrays::copy(py, self.env.observation().obs, (p, h, w)));
        };
        let game = self.env.state();
        let mut obs = vec![0.0; p * h * w];
        write_observation_of(
            game.position(),
            game.occurrences(),
            parse_color(agent)?,
            &mut obs,
        );
        Ok(arrays::copy(py, &obs, (p, h, w)))
    }

    /// The legal-action mask, int8 [num_actions] (all zero once the episode is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i8>> {
        let mask: Vec<i8> = self
            .env
            .observation()
            .mask
            .iter()
            .map(|&m| m as i8)
            .collect();
        arrays::copy(py, &mask, mask.len())
    }

    /// The legal action ids, increasing.
    fn legal_actions(&self) -> Vec<usize> {
        self.env.legal_actions().to_vec()
    }

    /// The player to act ("white" or "black"), None once the episode is over.
    #[getter]
    fn current_player(&self) -> Option<&'static str> {
        (!self.env.is_done()).then(|| color_name(self.env.state().current_player()))
    }

    /// Whether the episode is over (terminated or truncated).
    #[getter]
    fn is_done(&self) -> bool {
        self.env.is_done()
    }

    /// Complete turns played in this episode.
    #[getter]
    fn turns(&self) -> u32 {
        self.env.info().turns
    }

    /// The current position (a copy, without history).
    #[getter]
    fn position(&self) -> Position {
        Position::from_game(self.env.state().clone())
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }

    /// The observation's shape: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.env.state().observation_shape();
        (p, h, w)
    }

    /// The notation of an action id.
    fn action_name(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = action_id(action, self.env.num_actions())?;
        Ok(self.env.state().action_name(action))
    }
}
