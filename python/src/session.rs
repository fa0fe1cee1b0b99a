//! `fanorona.GameSession`: one game between people and agents, with undo and a record: the
//! game session `fanorona play` and `fanorona serve` hold (`fanorona_eval::GameSession`).

use std::sync::Mutex;

use fanorona_env::{Agent as _, Color, Fanorona, Game, start_position};
use fanorona_eval::{GameSession as Session, Player, SessionError, StepInput};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::agent::{create_agent, info_dict};
use crate::errors::value_error;
use crate::index::{Whole, action_id};
use crate::names::color_name;
use crate::position::Position;

/// What a side's `player` names a person by.
const HUMAN: &str = "human";

/// The date of a record when none is given (PGN's unknown date).
const UNKNOWN_DATE: &str = "????.??.??";

/// A boxed agent of the registry.
type BoxedAgent = Box<dyn fanorona_env::Agent<Fanorona>>;

/// One game between people and agents, as `fanorona play` and `fanorona serve` hold it.
///
/// GameSession(white="human", black="human", fen=None, board=None, rules="", seed=0): each
/// side is "human" or an agent specification (as for `Agent`, e.g. "minimax:depth=4"); the
/// game starts as `Position(fen, board, rules)` does. A person plays with `play` (a whole
/// turn) or `play_step` (one step of a capture chain); the agent to move plays with
/// `agent_move`. `undo` takes back the turn in progress, or the last turn and every agent's
/// turn after the person's last one. A refused request raises ValueError and changes nothing.
#[pyclass(module = "fanorona")]
pub struct GameSession {
    session: Session<()>,
    /// The agent of each side (white, black); `None` where a person plays. (The mutex makes
    /// the class shareable between threads; `&mut self` reaches the agent without locking.)
    agents: [Option<Mutex<BoxedAgent>>; 2],
}

/// A session's refusal as a Python exception: the agent's failure is a RuntimeError (as in
/// `Agent.act`), any other refusal a ValueError.
fn session_error(error: SessionError) -> PyErr {
    match error {
        SessionError::Agent(reason) => PyRuntimeError::new_err(reason),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The player of a side: a person for "human", else the agent `spec` built with `seed`.
fn player(spec: &str, seed: u64) -> PyResult<(Player<()>, Option<Mutex<BoxedAgent>>)> {
    if spec == HUMAN {
        return Ok((Player::Human, None));
    }
    let agent = create_agent(spec, seed)?;
    let player = Player::Agent {
        name: agent.name(),
        choice: (),
        seed,
    };
    Ok((player, Some(Mutex::new(agent))))
}

#[pymethods]
impl GameSession {
    #[new]
    #[pyo3(signature = (white="human", black="human", fen=None, board=None, rules="", seed=Whole(0)))]
    fn new(
        white: &str,
        black: &str,
        fen: Option<&str>,
        board: Option<&str>,
        rules: &str,
        seed: Whole<u64>,
    ) -> PyResult<GameSession> {
        let Whole(seed) = seed;
        let start = start_position(fen, board, rules).map_err(value_error)?;
        let (white, white_agent) = player(white, seed)?;
        let (black, black_agent) = player(black, seed.wrapping_add(1))?;
        Ok(GameSession {
            session: Session::new(start, white, black),
            agents: [white_agent, black_agent],
        })
    }

    /// The game now, as a new Position (its history starts here).
    #[getter]
    fn position(&self) -> Position {
        Position::from_game(self.session.game().clone())
    }

    /// The side to move: "white" or "black".
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.session.game().current_player())
    }

    /// Who plays each side: ("human" or the agent's name, likewise for black).
    #[getter]
    fn players(&self) -> (String, String) {
        let name = |side| self.session.player(side).name().to_string();
        (name(Color::White), name(Color::Black))
    }

    /// Whether a person is to move (False once the game is over).
    #[getter]
    fn human_to_move(&self) -> bool {
        let game = self.session.game();
        !game.is_terminal() && self.agents[game.current_player().index()].is_none()
    }

    /// The finished turns, in notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.session.moves().to_vec()
    }

    /// The steps of the turn in progress (a capture chain), in notation.
    #[getter]
    fn current_steps(&self) -> Vec<String> {
        self.session.current_steps()
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.session.game().is_terminal()
    }

    /// "1-0", "0-1" or "1/2-1/2" once the game has ended, else None.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.session.game().outcome().map(|o| o.result_string())
    }

    /// Whether `undo` has something to take back.
    #[getter]
    fn can_undo(&self) -> bool {
        self.session.can_undo()
    }

    /// Plays the person's whole turn written in notation (e.g. "c1d1Ad2A").
    fn play(&mut self, turn: &str) -> PyResult<()> {
        self.session.play_turn(turn).map_err(session_error)
    }

    /// Plays one step of the person's turn: notation ("d3e3W", "stop") or an action id.
    fn play_step(&mut self, step: &Bound<'_, PyAny>) -> PyResult<()> {
        let played = match step.cast::<PyString>() {
            Ok(text) => self.session.play_step(StepInput::Notation(&text.to_cow()?)),
            Err(_) => {
                let action = action_id(step, self.session.game().num_actions())?;
                self.session.play_step(StepInput::Action(action))
            }
        };
        played.map_err(session_error)
    }

    /// The agent to move plays its whole turn (the GIL is released while it thinks); returns
    /// the turn in notation. Raises ValueError where a person is to move or the game is over,
    /// RuntimeError if the agent fails (nothing changes then).
    fn agent_move(&mut self, py: Python<'_>) -> PyResult<String> {
        let side = self.session.agent_to_move().map_err(session_error)?;
        let agent = self.agents[side.index()]
            .as_mut()
            .expect("an agent is built for every side an agent plays")
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let session = &mut self.session;
        py.detach(|| session.play_agent_turn(agent))
            .map_err(session_error)?;
        Ok(self.session.moves().last().cloned().unwrap_or_default())
    }

    /// Takes back the steps of the turn in progress, or else the last turn and every agent's
    /// turn back to a person's last one. Raises ValueError if there is nothing to take back.
    fn undo(&mut self) -> PyResult<()> {
        self.session.undo().map_err(session_error)
    }

    /// What the agent's search reported after its last turn (a dict: agent, side, value,
    /// depth, nodes, time, pv, centipieces, mate_in), or None.
    #[getter]
    fn last_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(report) = self.session.last_report() else {
            return Ok(None);
        };
        let dict = info_dict(py, &report.info)?;
        dict.set_item("agent", &report.agent)?;
        dict.set_item("side", color_name(report.side))?;
        Ok(Some(dict))
    }

    /// The game as a PGN-like record (the text `fanorona review` and `fanorona serve` read),
    /// with `event` and `date` ("YYYY.MM.DD"; unknown by default) in its header.
    #[pyo3(signature = (event="fanorona python", date=None))]
    fn record(&self, event: &str, date: Option<&str>) -> String {
        let date = date.unwrap_or(UNKNOWN_DATE).to_string();
        self.session.record(event, date).to_text()
    }

    fn __repr__(&self) -> String {
        let (white, black) = self.players();
        format!(
            "GameSession(white={white:?}, black={black:?}, moves={}, fen={:?})",
            self.session.moves().len(),
            self.session.game().position().to_fen()
        )
    }
}
