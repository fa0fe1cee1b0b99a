//! Rust errors as Python exceptions: bad input is a `ValueError` carrying the Rust message
//! (which says what is wrong and what is expected).

use pyo3::PyErr;
use pyo3::exceptions::PyValueError;

/// A `ValueError` with the error's message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}
