//! `fanorona.prove`: the exact value of a position by the prover, as `fanorona prove --json`
//! gives it, as a dict.

use std::path::PathBuf;

use fanorona_env::{Board, Position};
use fanorona_exact::prover::{
    DEFAULT_MAX_ENTRIES, DEFAULT_MAX_NODES, ProveOptions, ProverError, prove_file,
};
use fanorona_exact::tables::shared_tables;
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;

use crate::errors::value_error;
use crate::index::Whole;
use crate::json::to_py;

/// The board proven when neither a FEN nor a board is given (as `fanorona prove`).
const DEFAULT_BOARD: &str = "9x5";

/// The prover's error as a Python exception: a proof file that cannot be read or written an
/// OSError, one in use by another run a RuntimeError, anything else (a bad position, options,
/// a damaged file, other tables) a ValueError.
fn prover_error(error: ProverError) -> PyErr {
    match error {
        ProverError::Io { .. } => PyOSError::new_err(error.to_string()),
        ProverError::Locked { .. } | ProverError::Thread(_) => {
            PyRuntimeError::new_err(error.to_string())
        }
        _ => value_error(error),
    }
}

/// Proves the exact value of a position (win, draw or loss for the side to move, draw limits
/// ignored) within a budget, as `fanorona prove`: the position `fen` (at the start of a
/// turn) or the start of `board` (default 9x5), endgame `tables` (a folder of `fanorona
/// tables build`) at the leaves, at most `nodes` nodes and `seconds` seconds, whether each
/// turn keeps the value (`turns`), continuing and saving the `proof` file; `threads=2`
/// searches the two questions of the value at once. Returns the object `fanorona prove
/// --json` prints, as a dict.
#[pyfunction]
#[pyo3(signature = (fen=None, *, board=None, tables=None, nodes=Whole(DEFAULT_MAX_NODES),
    seconds=None, max_entries=Whole(DEFAULT_MAX_ENTRIES), turns=false, proof=None, threads=1))]
#[allow(clippy::too_many_arguments)]
pub fn prove<'py>(
    py: Python<'py>,
    fen: Option<&str>,
    board: Option<&str>,
    tables: Option<PathBuf>,
    nodes: Whole<u64>,
    seconds: Option<f64>,
    max_entries: Whole<usize>,
    turns: bool,
    proof: Option<PathBuf>,
    threads: i64,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=2).contains(&threads) {
        return Err(value_error(format!(
            "threads={threads}: expected 1 (the value's questions in turn) or 2 (at once)"
        )));
    }
    let pos = match (fen, board) {
        (Some(_), Some(_)) => {
            return Err(value_error(
                "give a FEN or a board, not both: a FEN names its board",
            ));
        }
        // The error names the FEN and what is wrong with it.
        (Some(fen), None) => Position::from_fen(fen).map_err(value_error)?,
        (None, board) => Position::initial(
            Board::parse(board.unwrap_or(DEFAULT_BOARD))
                .map_err(|e| value_error(format!("bad board: {e}")))?,
        ),
    };
    let tables = tables
        .map(|dir| shared_tables(&dir, pos.board()))
        .transpose()
        .map_err(|e| value_error(format!("bad tables: {e}")))?;
    let report = py
        .detach(|| {
            let options = ProveOptions {
                max_nodes: nodes.0,
                max_seconds: seconds,
                max_entries: max_entries.0,
                turns,
                progress: &mut |_| {},
                stop: None,
                parallel: threads == 2,
            };
            prove_file(&pos, tables.as_deref(), proof.as_deref(), options)
        })
        .map_err(prover_error)?;
    to_py(py, &report.to_json(&pos, proof.as_deref()))
}
