//! Locks taken without the GIL. A method that releases the GIL while it holds an object's
//! lock must never meet a thread that waits for that lock while holding the GIL: both would
//! wait forever. So every lock of this package is taken with the GIL released while waiting.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;

/// Locks `mutex`, waiting (if another thread holds it) with the GIL released. A lock left
/// poisoned by a panic inside an earlier call raises RuntimeError naming `what`.
pub fn lock<'a, T>(py: Python<'_>, mutex: &'a Mutex<T>, what: &str) -> PyResult<MutexGuard<'a, T>> {
    mutex.lock_py_attached(py).map_err(|_| {
        PyRuntimeError::new_err(format!(
            "this {what} is unusable: an earlier call failed inside it; make a new one"
        ))
    })
}
