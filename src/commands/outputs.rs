//! The one check of a command's output files, made before any work: each may be written
//! (`check_output_file`: new or a regular file, never a device, pipe, socket, folder or
//! symbolic link, in a folder that takes files), is none of the command's inputs, and no two
//! outputs name the same file. And the one writer of JSON-lines files (`--metrics`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use fanorona_train::run_dir::is_run_file;
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

/// The metrics file of a command that writes a network to `out` and its metrics to
/// `metrics` (default: OUT with the extension `.metrics.jsonl`), after checking that neither
/// overwrites one of `inputs`, the other or a training run's file.
pub fn network_outputs(out: &Path, metrics: Option<&Path>, inputs: &[&Path]) -> Result<PathBuf> {
    let metrics = metrics.map_or_else(|| out.with_extension("metrics.jsonl"), Path::to_path_buf);
    check_outputs(
        &[("--out", Some(out)), ("--metrics", Some(&metrics))],
        inputs,
    )?;
    for (flag, path) in [("--out", out), ("--metrics", &metrics)] {
        if is_run_file(path) {
            bail!(
                "{flag} {} is a file of a training run: write it elsewhere",
                path.display()
            );
        }
    }
    Ok(metrics)
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
