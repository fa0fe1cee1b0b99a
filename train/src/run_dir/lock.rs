//! The lock of a run directory: `train.lock`, an exclusive lock
//! ([`fanorona_util::file_lock`]) held by the one process that trains in the directory, for as
//! long as it runs; the system releases it when the process ends, however it ends.

use std::path::Path;

use fanorona_util::file_lock::{FileLock, LockError};

use super::RunDirError;

/// The held lock of a run directory; released when dropped.
pub(crate) struct RunLock {
    _lock: FileLock,
}

impl RunLock {
    /// Takes the lock of the run directory `dir` (which exists) through its lock file `path`,
    /// or fails at once if another process holds it.
    pub fn acquire(dir: &Path, path: &Path) -> Result<RunLock, RunDirError> {
        match FileLock::try_acquire(path) {
            Ok(lock) => Ok(RunLock { _lock: lock }),
            Err(LockError::Held { holder }) => Err(RunDirError::Locked {
                dir: dir.to_path_buf(),
                holder,
            }),
            Err(LockError::Io(error)) => Err(RunDirError::Io {
                action: "lock",
                path: path.to_path_buf(),
                error,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_second_opener_is_told_the_real_holder_not_what_the_file_says() {
        let dir = tempfile::tempdir().unwrap();
        let run = crate::run_dir::RunDir::new(dir.path());
        let _held = run.lock().unwrap();
        // A stale id in the file must not be named as the holder.
        std::fs::write(dir.path().join("train.lock"), "999999\n").unwrap();
        let Err(RunDirError::Locked { holder, .. }) = run.lock() else {
            panic!("the second lock must fail");
        };
        assert_eq!(holder, format!(" (process {})", std::process::id()));
    }
}
