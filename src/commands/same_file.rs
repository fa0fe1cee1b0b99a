//! Whether two paths name one file, so that a command never writes over its own input.

use std::path::Path;

/// Whether `a` and `b` name the same existing file (through links and relative paths).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
