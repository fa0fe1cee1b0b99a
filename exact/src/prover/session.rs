//! A run of the prover as the tools make it (`fanorona prove`, Python's `fanorona.prove`,
//! the browser's analysis): the search on a thread of its own with a deep stack, continuing a
//! proof file that a lock keeps to one run at a time, saved when the run ends.

use std::path::{Path, PathBuf};

use fanorona_env::Position;
use fanorona_util::file_lock::{FileLock, LockError};

use super::error::ProverError;
use super::file::ProofFile;
use super::prove::{ProofReport, ProveOptions, prove};
use crate::tables::EndgameTables;

/// The node budget of a run when none is given (`fanorona prove`, `fanorona.prove`).
pub const DEFAULT_MAX_NODES: u64 = 1_000_000_000;

/// The entries a working table holds before its open entries are dropped, when not given.
pub const DEFAULT_MAX_ENTRIES: usize = 50_000_000;

/// Stack of the proving thread: df-pn recurses once per turn of the line it follows.
pub const PROVER_STACK: usize = 1 << 30;

/// The lock file of the proof file `path`: `path.lock` beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the lock of the proof file `path`, or says that another run holds it.
fn lock_proof(path: &Path) -> Result<FileLock, ProverError> {
    let lock = lock_path(path);
    FileLock::try_acquire(&lock).map_err(|e| match e {
        LockError::Held { holder } => ProverError::Locked {
            path: path.to_path_buf(),
            lock: lock.clone(),
            holder,
        },
        LockError::Io(source) => ProverError::Io { path: lock, source },
    })
}

/// Proves `pos` as [`prove`] does, on a thread with a stack deep enough for df-pn. With
/// `proof`, the run continues that proof file where it exists and saves it when done (or
/// stopped by `options.stop`), holding its lock ([`lock_path`]) throughout, so that a second
/// run on the same file is refused; without, it starts afresh and keeps nothing.
pub fn prove_file(
    pos: &Position,
    tables: Option<&EndgameTables>,
    proof: Option<&Path>,
    options: ProveOptions<'_>,
) -> Result<ProofReport, ProverError> {
    // Held until the file is written back.
    let _lock = proof.map(lock_proof).transpose()?;
    let file = match proof {
        Some(path) if path.exists() => ProofFile::load(path)?,
        _ => ProofFile::new(pos.board()),
    };
    let (report, file) = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .stack_size(PROVER_STACK)
            .spawn_scoped(scope, move || prove(pos, tables, file, options))
            .map_err(ProverError::Thread)?;
        thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })?;
    if let Some(path) = proof {
        file.save(path)?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::Progress;
    use fanorona_env::Board;

    fn options(turns: bool, progress: &mut (dyn FnMut(&Progress) + Send)) -> ProveOptions<'_> {
        ProveOptions {
            max_nodes: 1_000_000,
            max_seconds: None,
            max_entries: 1 << 20,
            turns,
            progress,
            stop: None,
            parallel: false,
        }
    }

    #[test]
    fn a_proof_file_is_saved_continued_and_locked() {
        let pos = Position::initial(Board::new(3, 3).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("3x3.proof");
        let mut quiet = |_: &Progress| {};
        let first = prove_file(&pos, None, Some(&path), options(false, &mut quiet)).unwrap();
        assert!(path.exists() && first.value.is_some());
        // Continued: the settled questions come from the file, with no new search.
        let again = prove_file(&pos, None, Some(&path), options(true, &mut quiet)).unwrap();
        assert_eq!(again.value, first.value);
        assert!(!again.turns.is_empty());
        // Held by another: refused, naming the file and its lock.
        let held = FileLock::try_acquire(&lock_path(&path)).unwrap();
        let e = prove_file(&pos, None, Some(&path), options(false, &mut quiet)).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("3x3.proof.lock") && text.contains("in use"),
            "{text}"
        );
        // Without a file nothing is kept.
        drop(held);
        let fresh = prove_file(&pos, None, None, options(false, &mut quiet)).unwrap();
        assert_eq!(fresh.value, first.value);
    }
}
