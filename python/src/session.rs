//! `fanorona.GameSession`: one game between people and agents, with undo and a record: the
//! game session `fanorona play` and `fanorona serve` hold (`fanorona_eval::GameSession`).

use std::sync::Mutex;

use fanorona_env::{Agent as _, Color, Excerpt, Fanorona, Game, start_position};
use fanorona_eval::{GameRecord, GameSession as Session, Player, SessionError, StepInput};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::agent::{create_agent, info_dict};
use crate::errors::value_error;
use crate::index::{Whole, action_id};
use crate::locks::lock;
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
///
/// Any thread may call any method: each takes the session's lock (waiting for it with the GIL
/// released), so a call made while another thread's `agent_move` thinks waits for its turn.
#[pyclass(module = "fanorona")]
pub struct GameSession {
    inner: Mutex<Inner>,
}

/// What a [`GameSession`] holds behind its lock.
struct Inner {
    session: Session<()>,
    /// The agent of each side (white, black); `None` where a person plays.
    agents: [Option<BoxedAgent>; 2],
}

/// What the lock's errors name the class by.
const WHAT: &str = "GameSession";

/// A session's refusal as a Python exception: the agent's failure is a RuntimeError (as in
/// `Agent.act`), any other refusal a ValueError.
fn session_error(error: SessionError) -> PyErr {
    match error {
        SessionError::Agent(reason) => PyRuntimeError::new_err(reason),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The player of a side: a person for "human", else the agent `spec` built with `seed`.
fn player(spec: &str, seed: u64) -> PyResult<(Player<()>, Option<BoxedAgent>)> {
    if spec == HUMAN {
        return Ok((Player::Human, None));
    }
    let agent = create_agent(spec, seed)?;
    let player = Player::Agent {
        name: agent.name(),
        choice: (),
        seed,
    };
    Ok((player, Some(agent)))
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
        let inner = Inner {
            session: Session::new(start, white, black),
            agents: [white_agent, black_agent],
        };
        Ok(GameSession {
            inner: Mutex::new(inner),
        })
    }

    /// The game now, as a new Position (its history starts here).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Position> {
        let inner = lock(py, &self.inner, WHAT)?;
        Ok(Position::from_game(inner.session.game().clone()))
    }

    /// The side to move: "white" or "black".
    #[getter]
    fn side_to_move(&self, py: Python<'_>) -> PyResult<&'static str> {
        let inner = lock(py, &self.inner, WHAT)?;
        Ok(color_name(inner.session.game().current_player()))
    }

    /// Who plays each side: ("human" or the agent's name, likewise for black).
    #[getter]
    fn players(&self, py: Python<'_>) -> PyResult<(String, String)> {
        let inner = lock(py, &self.inner, WHAT)?;
        Ok(inner.players())
    }

    /// Whether a person is to move (False once the game is over).
    #[getter]
    fn human_to_move(&self, py: Python<'_>) -> PyResult<bool> {
        let inner = lock(py, &self.inner, WHAT)?;
        let game = inner.session.game();
        Ok(!game.is_terminal() && inner.agents[game.current_player().index()].is_none())
    }

    /// The finished turns, in notation.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(lock(py, &self.inner, WHAT)?.session.moves().to_vec())
    }

    /// The steps of the turn in progress (a capture chain), in notation.
    #[getter]
    fn current_steps(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(lock(py, &self.inner, WHAT)?.session.current_steps())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(lock(py, &self.inner, WHAT)?.session.game().is_terminal())
    }

    /// "1-0", "0-1" or "1/2-1/2" once the game has ended, else None.
    #[getter]
    fn result(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        let inner = lock(py, &self.inner, WHAT)?;
        Ok(inner.session.game().outcome().map(|o| o.result_string()))
    }

    /// Whether `undo` has something to take back.
    #[getter]
    fn can_undo(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(lock(py, &self.inner, WHAT)?.session.can_undo())
    }

    /// Plays the person's whole turn written in notation (e.g. "c1d1Ad2A").
    fn play(&self, py: Python<'_>, turn: &str) -> PyResult<()> {
        let mut inner = lock(py, &self.inner, WHAT)?;
        inner.session.play_turn(turn).map_err(session_error)
    }

    /// Plays one step of the person's turn: notation ("d3e3W", "stop") or an action id.
    fn play_step(&self, py: Python<'_>, step: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut inner = lock(py, &self.inner, WHAT)?;
        let played = match step.cast::<PyString>() {
            Ok(text) => inner
                .session
                .play_step(StepInput::Notation(&text.to_cow()?)),
            Err(_) => {
                let action = action_id(step, inner.session.game().num_actions())?;
                inner.session.play_step(StepInput::Action(action))
            }
        };
        played.map_err(session_error)
    }

    /// The agent to move plays its whole turn (the GIL is released while it thinks); returns
    /// the turn in notation. Raises ValueError where a person is to move or the game is over,
    /// RuntimeError if the agent fails (nothing changes then).
    fn agent_move(&self, py: Python<'_>) -> PyResult<String> {
        let mut inner = lock(py, &self.inner, WHAT)?;
        let Inner { session, agents } = &mut *inner;
        let side = session.agent_to_move().map_err(session_error)?;
        let agent = agents[side.index()]
            .as_mut()
            .expect("an agent is built for every side an agent plays");
        py.detach(|| session.play_agent_turn(agent))
            .map_err(session_error)?;
        Ok(session.moves().last().cloned().unwrap_or_default())
    }

    /// Takes back the steps of the turn in progress, or else the last turn and every agent's
    /// turn back to a person's last one. Raises ValueError if there is nothing to take back.
    fn undo(&self, py: Python<'_>) -> PyResult<()> {
        let mut inner = lock(py, &self.inner, WHAT)?;
        inner.session.undo().map_err(session_error)
    }

    /// What the agent's search reported after its last turn (a dict: agent, side, value,
    /// depth, nodes, time, pv, centipieces, mate_in), or None.
    #[getter]
    fn last_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let inner = lock(py, &self.inner, WHAT)?;
        let Some(report) = inner.session.last_report() else {
            return Ok(None);
        };
        let dict = info_dict(py, &report.info)?;
        dict.set_item("agent", &report.agent)?;
        dict.set_item("side", color_name(report.side))?;
        Ok(Some(dict))
    }

    /// The game as a PGN-like record (the text `fanorona review` and `fanorona serve` read),
    /// with `event` and `date` ("YYYY.MM.DD"; unknown by default) in its header. Raises
    /// ValueError where `event` or `date` holds a line break or another control character
    /// (the record would not read back).
    #[pyo3(signature = (event="fanorona python", date=None))]
    fn record(&self, py: Python<'_>, event: &str, date: Option<&str>) -> PyResult<String> {
        let date = date.unwrap_or(UNKNOWN_DATE);
        for (name, value) in [("event", event), ("date", date)] {
            if value.chars().any(char::is_control) {
                return Err(value_error(format!(
                    "{name} {}: a record's header cannot hold a line break or another control \
                     character",
                    Excerpt(value)
                )));
            }
        }
        let inner = lock(py, &self.inner, WHAT)?;
        let text = inner.session.record(event, date.to_string()).to_text();
        // What is written must read back, as `fanorona review` reads it.
        GameRecord::parse(&text)
            .map_err(|e| value_error(format!("the record would not read back: {e}")))?;
        Ok(text)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let inner = lock(py, &self.inner, WHAT)?;
        let (white, black) = inner.players();
        Ok(format!(
            "GameSession(white={white:?}, black={black:?}, moves={}, fen={:?})",
            inner.session.moves().len(),
            inner.session.game().position().to_fen()
        ))
    }
}

impl Inner {
    /// Who plays each side: "human" or the agent's name.
    fn players(&self) -> (String, String) {
        let name = |side| self.session.player(side).name().to_string();
        (name(Color::White), name(Color::Black))
    }
}
