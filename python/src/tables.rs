//! `fanorona.EndgameTables`: the exact value of positions with few pieces, from a folder of
//! endgame tables (`fanorona tables build`).

use std::path::PathBuf;
use std::sync::Arc;

use fanorona_env::{Board, Game};
use fanorona_exact::prover::Verdict;
use fanorona_exact::solver::Value;
use fanorona_exact::tables::EndgameTables as Tables;
use fanorona_exact::tables::shared_tables;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::value_error;
use crate::position::Position;

/// The endgame tables of one board, loaded from a folder.
///
/// EndgameTables(dir, board="9x5") loads every class the folder holds for `board` (checked;
/// a damaged or foreign file is a ValueError). Values are for the side to move under the
/// standard rules without draw limits, with the distance in turns to the end of the game.
#[pyclass(module = "fanorona", name = "EndgameTables", frozen)]
pub struct EndgameTables {
    tables: Arc<Tables>,
}

#[pymethods]
impl EndgameTables {
    #[new]
    #[pyo3(signature = (dir, board="9x5"))]
    fn new(py: Python<'_>, dir: PathBuf, board: &str) -> PyResult<EndgameTables> {
        let board = Board::parse(board).map_err(value_error)?;
        let tables = py
            .detach(|| shared_tables(&dir, board))
            .map_err(value_error)?;
        Ok(EndgameTables { tables })
    }

    /// The most pieces of a position the tables hold.
    #[getter]
    fn pieces(&self) -> usize {
        self.tables.pieces()
    }

    /// The board size as (width, height).
    #[getter]
    fn board(&self) -> (usize, usize) {
        (self.tables.board().width(), self.tables.board().height())
    }

    /// The exact value of `position` for its side to move, or None where the tables do not
    /// hold it (more pieces, another rules variant, a finished game); a position of another
    /// board is a ValueError (as in `fanorona tables probe`). The value is a dict with
    /// `value` ("win", "draw" or "loss"), `distance` (turns to the end; None for a draw),
    /// `best_turns` (the fastest wins, else the draws, else the slowest losses) and `turns`
    /// (every legal turn with the value it keeps for the side playing it). A table file
    /// truncated while loaded (copied over in place) is an OSError.
    fn probe<'py>(
        &self,
        py: Python<'py>,
        position: &Position,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let game = position.game();
        let pos = *game.position();
        let (board, tables) = (pos.board(), self.tables.board());
        if !std::ptr::eq(board, tables) {
            return Err(value_error(format!(
                "the position is on board {}x{}, the tables are for {}x{}",
                board.width(),
                board.height(),
                tables.width(),
                tables.height()
            )));
        }
        if game.is_terminal() {
            return Ok(None);
        }
        let (best, values) = (self.tables.value(&pos), self.tables.turn_values(&pos));
        // A file truncated under the tables' map (copied over in place) answers nothing: an
        // OSError, not a None that would read as "not held".
        self.tables
            .check_whole()
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
        let (Some(best), Some(values)) = (best, values) else {
            return Ok(None);
        };
        let best_turns = Value::best_turns(values.clone()).map_or(Vec::new(), |(_, t)| t);
        let board = pos.board();
        let out = PyDict::new(py);
        out.set_item("value", Verdict::from(best).name())?;
        out.set_item("distance", best.distance())?;
        let names: Vec<String> = best_turns.iter().map(|t| t.notation(board)).collect();
        out.set_item("best_turns", names)?;
        let turns = PyDict::new(py);
        for (turn, value) in &values {
            turns.set_item(turn.notation(board), Verdict::from(*value).name())?;
        }
        out.set_item("turns", turns)?;
        Ok(Some(out))
    }

    fn __repr__(&self) -> String {
        let board = self.tables.board();
        format!(
            "EndgameTables(board={}x{}, pieces={})",
            board.width(),
            board.height(),
            self.tables.pieces()
        )
    }
}
