//! Exclusive locks held through a lock file (the operating system's file lock): one process
//! at a time holds it, for as long as it keeps the [`FileLock`]. The system releases it when
//! the process ends, however it ends, so a lock never outlives its holder; the file stays,
//! holding the last holder's process id (for the message of whoever finds it held).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::Path;

/// A held lock; released when dropped.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Why a lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error("another process holds the lock{holder}")]
    Held {
        /// ` (process N)` naming the holder where the system or the file says, else empty.
        holder: String,
    },
    /// The lock file could not be opened, locked or written.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl FileLock {
    /// Takes the exclusive lock of the lock file `path` (created if needed), or fails at once
    /// if another process holds it; the file then holds this process's id.
    pub fn try_acquire(path: &Path) -> Result<FileLock, LockError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    holder: describe_holder(&mut file),
                });
            }
            Err(TryLockError::Error(error)) => return Err(LockError::Io(error)),
        }
        file.set_len(0)?;
        writeln!(file, "{}", std::process::id())?;
        Ok(FileLock { _file: file })
    }
}

/// ` (process N)` naming the process that holds the lock on `file`, as the system reports it
/// (Linux: `/proc/locks`); elsewhere the id the last holder wrote into the file, said as such;
/// empty when neither is known. Only for the message: failures leave the id out.
fn describe_holder(file: &mut File) -> String {
    if let Some(pid) = system_holder(file) {
        return format!(" (process {pid})");
    }
    let mut written = String::new();
    let _ = file.read_to_string(&mut written);
    match written.trim() {
        pid if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            format!(" (last taken by process {pid})")
        }
        _ => String::new(),
    }
}

/// The process holding an exclusive lock on `file`, from the system's table of locks.
#[cfg(target_os = "linux")]
fn system_holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let id = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let table = std::fs::read_to_string("/proc/locks").ok()?;
    holder_in_table(&table, &id)
}

/// Elsewhere the system is not asked.
#[cfg(not(target_os = "linux"))]
fn system_holder(_file: &File) -> Option<u32> {
    None
}

/// The process of the granted lock on the file `id` (`MAJOR:MINOR:INODE`) in a `/proc/locks`
/// table (lines such as `1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF`; waiting requests,
/// marked `->`, are not holders).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn holder_in_table(table: &str, id: &str) -> Option<u32> {
    table.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) == Some(&"->") || fields.get(5) != Some(&id) {
            return None;
        }
        fields.get(4)?.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_is_read_from_the_system_s_table_of_locks() {
        let table = "1: POSIX  ADVISORY  WRITE 77 fd:01:99 0 EOF\n\
                     2: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF\n\
                     2: -> FLOCK  ADVISORY  WRITE 5151 fd:01:1234 0 EOF\n";
        assert_eq!(holder_in_table(table, "fd:01:1234"), Some(4242));
        assert_eq!(holder_in_table(table, "fd:01:123"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_second_taker_is_refused_and_told_the_real_holder_until_the_lock_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let held = FileLock::try_acquire(&path).unwrap();
        // A stale id in the file must not be named as the holder.
        std::fs::write(&path, "999999\n").unwrap();
        let Err(LockError::Held { holder }) = FileLock::try_acquire(&path) else {
            panic!("the second lock must fail");
        };
        assert_eq!(holder, format!(" (process {})", std::process::id()));
        drop(held);
        FileLock::try_acquire(&path).unwrap();
    }
}
