//! Indices from Python integers (action ids, environment numbers): any Python or numpy
//! integer; a negative or too large value is reported with the value given and the range
//! expected (never as an `OverflowError`).

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// Reads an integer in `0..len`: `Ok(Ok(i))`, or `Ok(Err(value))` when it is out of range
/// (for the caller to word); a value that is not an integer raises TypeError naming `what`.
fn read<'py>(
    value: &Bound<'py, PyAny>,
    len: usize,
    what: &str,
) -> PyResult<Result<usize, Bound<'py, PyInt>>> {
    let Ok(index) = value.call_method0("__index__") else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected an integer, got {}",
            value.get_type().name()?
        )));
    };
    let index = index.cast_into::<PyInt>()?;
    Ok(match index.extract::<usize>() {
        Ok(i) if i < len => Ok(i),
        _ => Err(index),
    })
}

/// Reads an action id in `0..num_actions`; out of range is a ValueError.
pub fn action_id(value: &Bound<'_, PyAny>, num_actions: usize) -> PyResult<usize> {
    read(value, num_actions, "action")?.map_err(|value| {
        PyValueError::new_err(format!(
            "action {value} is out of range: expected an action id in 0..{num_actions}"
        ))
    })
}

/// Reads the number of an environment among `len`; out of range is an IndexError.
pub fn env_index(value: &Bound<'_, PyAny>, len: usize) -> PyResult<usize> {
    read(value, len, "environment")?.map_err(|value| {
        PyIndexError::new_err(format!(
            "environment {value} does not exist: there are {len} (0..{len})"
        ))
    })
}
