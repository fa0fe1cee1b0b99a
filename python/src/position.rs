//! `fanorona.Position`: a game in progress with its history, for analysis and scripting.

use fanorona_env::observation::write_observation_of;
use fanorona_env::{Fanorona, Game, perft, start_position};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrays;
use crate::errors::value_error;
use crate::index::{Whole, action_id};
use crate::names::{color_name, parse_color};

/// A Fanorona position with the game's history (repetitions, undo).
///
/// Position(fen=None, board=None, rules="") starts from a FEN, or from the initial position of
/// `board` ("9x5" by default; any odd sizes up to 64 points), under the rule settings `rules`
/// (e.g. "mandatory,no-capture=50,vela=white"; "" is the standard game).
#[pyclass(module = "fanorona", name = "Position", from_py_object)]
#[derive(Clone)]
pub struct Position {
    game: Fanorona,
    /// The game before each play call, with the move it played.
    history: Vec<(Fanorona, String)>,
}

impl Position {
    /// A position without history at `game`.
    pub fn from_game(game: Fanorona) -> Position {
        Position {
            game,
            history: Vec::new(),
        }
    }

    /// The game state.
    pub fn game(&self) -> &Fanorona {
        &self.game
    }

    /// Refuses a move once the game is over.
    fn check_going_on(&self) -> PyResult<()> {
        match self.game.outcome() {
            Some(o) => Err(PyValueError::new_err(format!(
                "the game is over ({}); no move can be played",
                o.result_string()
            ))),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (fen=None, board=None, rules=""))]
    fn new(fen: Option<&str>, board: Option<&str>, rules: &str) -> PyResult<Position> {
        let position = start_position(fen, board, rules).map_err(value_error)?;
        Ok(Position::from_game(Fanorona::new(position)))
    }

    /// The position in FEN.
    #[getter]
    fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The board size as (width, height).
    #[getter]
    fn board(&self) -> (usize, usize) {
        (self.game.board().width(), self.game.board().height())
    }

    /// The rule settings, as `rules=` reads them.
    #[getter]
    fn rules(&self) -> String {
        self.game.position().rules().to_string()
    }

    /// The side to act: "white" or "black".
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.game.current_player())
    }

    /// Whether a capture chain is in progress (the same piece may go on capturing).
    #[getter]
    fn in_chain(&self) -> bool {
        !self.game.position().is_turn_start()
    }

    /// The turn number (1 at the start).
    #[getter]
    fn turn_number(&self) -> u32 {
        self.game.position().turn_number()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }

    /// The observation's shape: (planes, height, width).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.game.observation_shape();
        (p, h, w)
    }

    /// The legal steps (single actions, including "stop" in a chain) in notation.
    fn legal_steps(&self) -> Vec<String> {
        let mut actions = Vec::new();
        self.game.legal_actions(&mut actions);
        actions.iter().map(|&a| self.game.action_name(a)).collect()
    }

    /// The legal steps as action ids, increasing.
    fn legal_actions(&self) -> Vec<usize> {
        let mut actions = Vec::new();
        self.game.legal_actions(&mut actions);
        actions
    }

    /// The legal complete turns in notation, sorted (each distinct result once); empty once
    /// the game is over.
    fn legal_turns(&self) -> Vec<String> {
        if self.game.is_terminal() {
            return Vec::new();
        }
        self.game.position().legal_turn_names()
    }

    /// The notation of an action id.
    fn action_name(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = action_id(action, self.game.num_actions())?;
        Ok(self.game.action_name(action))
    }

    /// The action id of a legal step written in notation.
    fn action_id(&self, step: &str) -> PyResult<usize> {
        self.game.parse_action(step).map_err(value_error)
    }

    /// Plays one step (an action id or notation such as "d3e3W" or "stop"). Raises
    /// ValueError, changing nothing, if it is not legal.
    fn play_step(&mut self, step: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_going_on()?;
        let action = match step.cast::<PyString>() {
            Ok(text) => self
                .game
                .parse_action(&text.to_cow()?)
                .map_err(value_error)?,
            Err(_) => action_id(step, self.game.num_actions())?,
        };
        let before = self.game.clone();
        self.game.apply(action).map_err(value_error)?;
        let name = before.action_name(action);
        self.history.push((before, name));
        Ok(())
    }

    /// Plays a complete turn in notation (e.g. "c1d1Ad2A"). Raises ValueError, changing
    /// nothing, if it is not legal.
    fn play_turn(&mut self, turn: &str) -> PyResult<()> {
        self.check_going_on()?;
        let parsed = self.game.position().parse_turn(turn).map_err(value_error)?;
        let before = self.game.clone();
        self.game.play_turn_unchecked(&parsed);
        self.history
            .push((before, parsed.notation(self.game.board())));
        Ok(())
    }

    /// Takes back the last step or turn played; returns it, or None at the start.
    fn undo(&mut self) -> Option<String> {
        let (before, played) = self.history.pop()?;
        self.game = before;
        Some(played)
    }

    /// The steps and turns played so far, in notation.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.history.iter().map(|(_, m)| m.clone()).collect()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_terminal()
    }

    /// The result once the game is over: "1-0", "0-1" or "1/2-1/2"; None before.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.result_string())
    }

    /// The winner once the game is over ("white" or "black"), None for a draw or before.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.game.outcome().and_then(|o| o.winner()).map(color_name)
    }

    /// Why the game ended, e.g. "NoPieces", "NoMoves", "Repetition", "NoCaptureLimit";
    /// None before.
    #[getter]
    fn termination(&self) -> Option<String> {
        self.game.outcome().map(|o| match o {
            fanorona_env::Outcome::Win { reason, .. } => format!("{reason:?}"),
            fanorona_env::Outcome::Draw(reason) => format!("{reason:?}"),
        })
    }

    /// The final scores (white, black): +1 win, -1 loss, 0 draw or game going on.
    #[getter]
    fn returns(&self) -> (f32, f32) {
        let [w, b] = self.game.returns();
        (w, b)
    }

    /// Counts the leaves of the tree of complete turns to `depth` (distinct results once),
    /// as docs/rules.md's reference counts do.
    /// The GIL is released while it counts, and the position stays free for other threads.
    #[pyo3(signature = (depth))]
    fn perft(this: &Bound<'_, Self>, depth: Whole<u32>) -> PyResult<u64> {
        let Whole(depth) = depth;
        let position = *this.try_borrow()?.game.position();
        Ok(this.py().detach(move || perft(&position, depth)))
    }

    /// The observation, float32 [18, height, width], from the view of the side to act, or of
    /// `player` ("white" or "black"; its pieces on plane 0, the board turned for black).
    #[pyo3(signature = (player=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<&str>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let [p, h, w] = self.game.observation_shape();
        let mut obs = vec![0.0; p * h * w];
        match player {
            None => self.game.write_observation(&mut obs),
            Some(player) => write_observation_of(
                self.game.position(),
                self.game.occurrences(),
                parse_color(player)?,
                &mut obs,
            ),
        }
        Ok(arrays::copy(py, &obs, (p, h, w)))
    }

    /// The legal-action mask, int8 [num_actions] (1 legal, 0 not).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i8>> {
        let mut mask = vec![false; self.game.num_actions()];
        self.game.legal_mask(&mut mask);
        let mask: Vec<i8> = mask.into_iter().map(i8::from).collect();
        arrays::copy(py, &mask, mask.len())
    }

    /// A copy (with its history).
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.game.position() == other.game.position()
    }

    fn __str__(&self) -> String {
        self.game.position().render(None)
    }

    fn __repr__(&self) -> String {
        format!("Position({:?}, rules={:?})", self.fen(), self.rules())
    }
}
