//! Indices from Python integers (action ids, environment numbers): any Python or numpy
//! integer; a negative or too large value is reported with the value given and the range
//! expected (never as an `OverflowError`).

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// The integer a value stands for (`__index__`); a value that is not an integer raises
/// TypeError naming `what`.
fn integer<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyInt>> {
    let Ok(index) = value.call_method0("__index__") else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected an integer, got {}",
            value.get_type().name()?
        )));
    };
    Ok(index.cast_into::<PyInt>()?)
}

/// Reads an integer in `0..len`: `Ok(Ok(i))`, or `Ok(Err(value))` when it is out of range
/// (for the caller to word).
fn read<'py>(
    value: &Bound<'py, PyAny>,
    len: usize,
    what: &str,
) -> PyResult<Result<usize, Bound<'py, PyInt>>> {
    let index = integer(value, what)?;
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

/// A whole-number argument (a seed, a count, a limit): any Python or numpy integer from 0 to
/// the largest `T`; a negative or too large one is a ValueError showing it, never an
/// OverflowError.
pub struct Whole<T>(pub T);

impl<'a, 'py, T: TryFrom<u64>> FromPyObject<'a, 'py> for Whole<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let value = integer(&obj.to_owned(), "a whole number")?;
        value
            .extract::<u64>()
            .ok()
            .and_then(|i| T::try_from(i).ok())
            .map(Whole)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{value} is out of range: expected a whole number from 0 to 2**{} - 1",
                    8 * std::mem::size_of::<T>()
                ))
            })
    }
}
