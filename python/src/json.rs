//! JSON values as Python objects (dicts, lists, numbers, strings, None) and back: results
//! handed over typed, never as text to parse again, and settings taken as dicts.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// The Python object of a JSON value.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// The JSON value of a Python object made of dicts (string keys), lists, tuples, strings,
/// whole numbers, finite floats, booleans and None; anything else is a TypeError naming it.
pub fn from_py(object: &Bound<'_, PyAny>) -> PyResult<Value> {
    if object.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = object.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if object.is_instance_of::<PyInt>() {
        return match object.extract::<i64>() {
            Ok(i) => Ok(Value::from(i)),
            Err(_) => Ok(Value::from(object.extract::<u64>()?)),
        };
    }
    if let Ok(f) = object.cast::<PyFloat>() {
        let value = f.value();
        return Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| PyTypeError::new_err(format!("{value} is not a finite number")));
    }
    if let Ok(s) = object.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "a key must be a string, not {}",
                    key.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })?;
            map.insert(key.to_cow()?.into_owned(), from_py(&item)?);
        }
        return Ok(Value::Object(map));
    }
    if object.is_instance_of::<PyList>() || object.is_instance_of::<PyTuple>() {
        return object
            .try_iter()?
            .map(|item| from_py(&item?))
            .collect::<PyResult<Vec<Value>>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "cannot read a value of type {}: expected a dict, list, string, number, bool or None",
        object.get_type().name()?
    )))
}
