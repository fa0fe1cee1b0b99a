//! The one check of a command's output files, made before any work: each may be written
//! (`check_output_file`: new or a regular file, never a device, pipe, socket, folder or
//! symbolic link, in a folder that takes files), is none of the command's inputs, and no two
//! outputs name the same file. And the one writer of JSON-lines files (`--metrics`).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use fanorona_util::atomic_write::{check_output_file, write_atomic_with};
use fanorona_util::output_file::same_target;
use serde::Serialize;

/// Checks the command's `outputs` (each its flag, e.g. `--metrics`, and its path if given)
/// against its `inputs` and one another.
pub fn check_outputs(outputs: &[(&str, Option<&Path>)], inputs: &[&Path]) -> Result<()> {
    for (i, &(flag, path)) in outputs.iter().enumerate() {
        let Some(path) = path else {
            continue;
        };
        check_output_file(path, inputs)
            .with_context(|| format!("bad {flag}: cannot write {}", path.display()))?;
        for &(other_flag, other) in &outputs[..i] {
            if other.is_some_and(|other| same_target(path, other)) {
                bail!(
                    "bad {flag}: {} is also the {other_flag} file; give each output its own file",
                    path.display()
                );
            }
        }
    }
    Ok(())
}

/// Writes `rows` to `path` (atomically: all of them or nothing), one JSON line each.
pub fn write_json_lines<T: Serialize>(
    path: &Path,
    rows: impl IntoIterator<Item = T>,
) -> Result<()> {
    write_atomic_with(path, |out| {
        for row in rows {
            serde_json::to_writer(&mut *out, &row)?;
            writeln!(out)?;
        }
        Ok(())
    })
    .with_context(|| format!("cannot write {}", path.display()))
}
