//! numpy arrays in and out: copies of small results, read-only views of the buffers a Rust
//! object owns (no copy), and the checks that give a wrong shape or dtype a clear exception.

use numpy::ndarray::{ArrayView, Dimension, IntoDimension};
use numpy::{
    Element, PyArray, PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods, ToPyArray,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A new numpy array holding a copy of `data` in `shape`.
pub fn copy<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    data: &[T],
    shape: impl IntoDimension<Dim = D>,
) -> Bound<'py, PyArray<T, D>> {
    ArrayView::from_shape(shape, data)
        .expect("the shape matches the data")
        .to_pyarray(py)
}

/// A read-only numpy array over `data` in `shape`, without a copy. It keeps `owner` alive.
///
/// # Safety
/// `data` must belong to `owner` and must be neither freed nor reallocated while `owner`
/// lives; it may change in place (the view shows the new values).
pub unsafe fn view<'py, T: Element, D: Dimension>(
    owner: &Bound<'py, PyAny>,
    data: &[T],
    shape: impl IntoDimension<Dim = D>,
) -> Bound<'py, PyArray<T, D>> {
    let view = ArrayView::from_shape(shape, data).expect("the shape matches the data");
    // SAFETY: the caller promises that `data` lives, unmoved, as long as `owner`.
    let array = unsafe { PyArray::borrow_from_array(&view, owner.clone()) };
    array.readwrite().make_nonwriteable();
    array
}

/// Describes an array's dtype and shape for error messages.
fn describe(array: &Bound<'_, PyUntypedArray>) -> String {
    format!("dtype {} and shape {:?}", array.dtype(), array.shape())
}

/// Reads one action per element of `out` from a 1-D numpy array of integers (any integer
/// dtype; int64 and uint64 arrays are read without a copy).
pub fn actions(value: &Bound<'_, PyAny>, out: &mut [usize]) -> PyResult<()> {
    let expected = format!("a 1-D numpy array of {} integer actions", out.len());
    let Ok(array) = value.cast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "actions: expected {expected}, got {}",
            value.get_type().name()?
        )));
    };
    if array.ndim() != 1 || array.len() != out.len() {
        return Err(PyValueError::new_err(format!(
            "actions: expected {expected}, got {}",
            describe(array)
        )));
    }
    match array.dtype().kind() {
        b'u' => match value.cast::<PyArray1<u64>>() {
            Ok(array) => copy_actions(array, out),
            Err(_) => copy_actions(
                &value
                    .call_method1("astype", ("uint64",))?
                    .cast_into::<PyArray1<u64>>()?,
                out,
            ),
        },
        b'i' => match value.cast::<PyArray1<i64>>() {
            Ok(array) => copy_actions(array, out),
            Err(_) => copy_actions(
                &value
                    .call_method1("astype", ("int64",))?
                    .cast_into::<PyArray1<i64>>()?,
                out,
            ),
        },
        _ => Err(PyTypeError::new_err(format!(
            "actions: expected {expected}, got {}",
            describe(array)
        ))),
    }
}

/// Copies integer actions into `out`; a value that is no action id (negative, or beyond
/// `usize`) raises ValueError naming its environment and value.
fn copy_actions<T>(array: &Bound<'_, PyArray1<T>>, out: &mut [usize]) -> PyResult<()>
where
    T: Element + Copy + std::fmt::Display + TryInto<usize>,
{
    let readonly = array.readonly();
    for (env, (slot, &a)) in out.iter_mut().zip(readonly.as_array().iter()).enumerate() {
        *slot = a.try_into().map_err(|_| {
            PyValueError::new_err(format!(
                "actions: environment {env} got {a}: expected an action id (not negative)"
            ))
        })?;
    }
    Ok(())
}

/// Reads a float32 array of observations shaped `[N, *shape]` (or `shape` alone, one
/// observation), returning the values and N (`None` for a single observation).
pub fn observations(
    value: &Bound<'_, PyAny>,
    shape: [usize; 3],
) -> PyResult<(Vec<f32>, Option<usize>)> {
    let expected = format!(
        "a float32 numpy array shaped [N, {}, {}, {}]",
        shape[0], shape[1], shape[2]
    );
    let array =
        value
            .cast::<PyArrayDyn<f32>>()
            .map_err(|_| match value.cast::<PyUntypedArray>() {
                Ok(untyped) => PyTypeError::new_err(format!(
                    "observations: expected {expected}, got {}",
                    describe(untyped)
                )),
                Err(_) => PyTypeError::new_err(format!(
                    "observations: expected {expected}, got {}",
                    value
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                )),
            })?;
    let dims = array.shape().to_vec();
    let batch = match dims.as_slice() {
        [n, rest @ ..] if rest == shape => Some(*n),
        rest if rest == shape => None,
        _ => {
            return Err(PyValueError::new_err(format!(
                "observations: expected {expected}, got shape {dims:?}"
            )));
        }
    };
    let values = array.readonly().as_array().iter().copied().collect();
    Ok((values, batch))
}

/// Reads a mask shaped `[N, num_actions]` (`[num_actions]` when `batch` is `None`): int8 as
/// the environments give it (non-zero is legal), or bool.
pub fn mask(
    value: &Bound<'_, PyAny>,
    batch: Option<usize>,
    num_actions: usize,
) -> PyResult<Vec<bool>> {
    let shape: Vec<usize> = batch.into_iter().chain([num_actions]).collect();
    let expected = format!("an int8 (or bool) numpy array shaped {shape:?}");
    let wrong_type = || {
        PyTypeError::new_err(format!(
            "mask: expected {expected}, got {}",
            value
                .cast::<PyUntypedArray>()
                .map(describe)
                .unwrap_or_else(|_| "another type".into())
        ))
    };
    let untyped = value.cast::<PyUntypedArray>().map_err(|_| wrong_type())?;
    if untyped.shape() != shape.as_slice() {
        return Err(PyValueError::new_err(format!(
            "mask: expected {expected}, got shape {:?}",
            untyped.shape()
        )));
    }
    if let Ok(array) = value.cast::<PyArrayDyn<i8>>() {
        return Ok(array
            .readonly()
            .as_array()
            .iter()
            .map(|&m| m != 0)
            .collect());
    }
    let array = value.cast::<PyArrayDyn<bool>>().map_err(|_| wrong_type())?;
    Ok(array.readonly().as_array().iter().copied().collect())
}
