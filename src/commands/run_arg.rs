//! `--run DIR`, the one name of a run directory on every command, and the older names it
//! replaces (`train --out`, `eval --checkpoint`, `export --checkpoint`), which keep working
//! for one release with a note on stderr.

use std::path::PathBuf;

use crate::output::logln;

/// The path given by `--run`, or else by the deprecated option `old` of `command` (saying so
/// on stderr); `None` when neither was given. Clap refuses both at once.
pub fn run_or_deprecated(
    run: Option<PathBuf>,
    deprecated: Option<PathBuf>,
    command: &str,
    old: &str,
) -> Option<PathBuf> {
    if run.is_none() && deprecated.is_some() {
        logln!(
            "note: `fanorona {command} {old}` is deprecated and will be removed; use --run \
             (the same path)"
        );
    }
    run.or(deprecated)
}
