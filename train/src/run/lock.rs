//! The lock of a run directory: `train.lock`, an exclusive lock (the operating system's file
//! lock) held by the one process that trains in the directory, for as long as it runs. The
//! system releases it when the process ends, however it ends, so a lock never outlives its
//! holder; the file stays, holding the last holder's process id (for the error message).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::Path;

use super::TrainError;

/// The lock file in a run directory.
pub const LOCK_FILE: &str = "train.lock";

/// The held lock of a run directory; released when dropped.
pub(crate) struct RunLock {
    _file: File,
}

impl RunLock {
    /// Takes the lock of the run directory `dir` (which exists), or fails at once if another
    /// process holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, TrainError> {
        let path = dir.join(LOCK_FILE);
        let io = |error| TrainError::Io {
            action: "lock",
            path: path.clone(),
            error,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // The holder's id is only for the message: a failed read leaves it out.
                let _ = file.read_to_string(&mut holder);
                return Err(TrainError::Locked {
                    dir: dir.to_path_buf(),
                    holder: match holder.trim() {
                        "" => String::new(),
                        pid => format!(" (process {pid})"),
                    },
                });
            }
            Err(TryLockError::Error(error)) => return Err(io(error)),
        }
        file.set_len(0).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(RunLock { _file: file })
    }
}
