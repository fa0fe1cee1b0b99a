//! The shipped agents (`models/`, see `models/README.md`), embedded in the binary so that an
//! installed `fanorona` plays them wherever it runs: the student MLP 64-32 that `abnet`
//! searches with (the agent of `fanorona play` and `fanorona engine` when none is given) and
//! its teacher, the policy `fanorona serve` offers as `net`.
//!
//! Agent specifications name files (`abnet:path=FILE`), so each model is written once into a
//! cache folder, under a name that carries a hash of its bytes, and named by that path:
//! `$FANORONA_CACHE_DIR`, else `$XDG_CACHE_HOME/fanorona`, else `$HOME/.cache/fanorona`,
//! else `fanorona` in the system's temporary folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use fanorona_util::atomic_write::write_atomic;
use fanorona_util::input_file::read_limited;

use crate::output::logln;

/// One of the models the binary carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShippedModel {
    /// `models/fanorona-9x5-64x32.safetensors`: the student MLP 64-32 (`fanorona distill`),
    /// the network `abnet` searches with by default.
    Student,
    /// `models/fanorona-9x5.safetensors`: the MLP 256-256 trained by the `long` preset.
    Teacher,
}

impl ShippedModel {
    /// The model's file name in `models/`, without its extension.
    fn stem(self) -> &'static str {
        match self {
            ShippedModel::Student => "fanorona-9x5-64x32",
            ShippedModel::Teacher => "fanorona-9x5",
        }
    }

    /// The model's bytes, as built into the binary.
    fn bytes(self) -> &'static [u8] {
        match self {
            ShippedModel::Student => fanorona_train::run::SHIPPED_STUDENT,
            ShippedModel::Teacher => include_bytes!("../../models/fanorona-9x5.safetensors"),
        }
    }

    /// The name of the model's file in the cache: its stem and a hash of its bytes, so that
    /// two builds with different models never share a file.
    fn file_name(self) -> String {
        format!("{}-{:016x}.safetensors", self.stem(), fnv1a(self.bytes()))
    }

    /// The path of the model's file in `dir`, written there (atomically: a temporary file
    /// renamed into place) unless a file with exactly these bytes is already there.
    pub fn materialize_in(self, dir: &Path) -> Result<PathBuf> {
        let path = dir.join(self.file_name());
        // Read no more than the model's size: whatever is there is compared, never trusted.
        let size = self.bytes().len() as u64;
        if read_limited(&path, size, "the shipped model").is_ok_and(|bytes| bytes == self.bytes()) {
            return Ok(path);
        }
        write_atomic(&path, self.bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(path)
    }

    /// The path of the model's file in the cache folder (see the module's documentation).
    pub fn path(self) -> Result<PathBuf> {
        self.materialize_in(&cache_dir())
    }

    /// The path of the model's file as agent specifications take it, or `None` (with the
    /// reason on stderr) where it cannot be written.
    pub fn spec_path(self) -> Option<String> {
        match self.path() {
            Ok(path) => Some(path.to_string_lossy().into_owned()),
            Err(e) => {
                logln!(
                    "warning: the shipped model {} is unavailable: {e:#}",
                    self.stem()
                );
                None
            }
        }
    }
}

/// The folder the models are written to (see the module's documentation).
fn cache_dir() -> PathBuf {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("FANORONA_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("fanorona")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("fanorona")))
        .unwrap_or_else(|| std::env::temp_dir().join("fanorona"))
}

/// The 64-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The agent used when none is given: an alpha-beta search over the shipped student's value,
/// one second a turn (`abnet`, the strongest agent at equal time, see `models/README.md`; an
/// engine's `go` limits replace the second), or `minimax:depth=4` where the student's file
/// cannot be written.
pub fn default_agent() -> String {
    match ShippedModel::Student.spec_path() {
        Some(path) => format!("abnet:path={path},ms=1000"),
        None => "minimax:depth=4".to_string(),
    }
}

/// The help line of an `--agent` option that defaults to [`default_agent`].
pub const DEFAULT_AGENT_HELP: &str = "default: abnet over the shipped student, which the \
    binary carries (abnet:path=CACHE/fanorona-9x5-64x32-HASH.safetensors,ms=1000, the file \
    written once into $FANORONA_CACHE_DIR, $XDG_CACHE_HOME/fanorona or ~/.cache/fanorona)";

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_model_is_written_once_and_rewritten_when_damaged() {
        let dir = std::env::temp_dir().join(format!("fanorona-shipped-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = ShippedModel::Student.materialize_in(&dir).unwrap();
        assert_eq!(fs::read(&path).unwrap(), ShippedModel::Student.bytes());
        assert!(
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("fanorona-9x5-64x32-")
        );
        // A damaged file under the same name is replaced, never used.
        fs::write(&path, b"damaged").unwrap();
        assert_eq!(ShippedModel::Student.materialize_in(&dir).unwrap(), path);
        assert_eq!(fs::read(&path).unwrap(), ShippedModel::Student.bytes());
        // The two models get different names; no temporary file is left behind.
        let teacher = ShippedModel::Teacher.materialize_in(&dir).unwrap();
        assert_ne!(teacher, path);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fnv1a_matches_its_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
