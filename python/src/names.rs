//! Colours as Python sees them: the strings `"white"` and `"black"`.

use fanorona_env::Color;
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;

/// The Python name of a colour.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Reads `"white"` or `"black"` (any case).
pub fn parse_color(text: &str) -> PyResult<Color> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(PyValueError::new_err(format!(
            "colour {text:?}: expected \"white\" or \"black\""
        ))),
    }
}
