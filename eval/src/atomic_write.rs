//! Writing files atomically: the contents go to a temporary file beside the target
//! (`tempfile`), which is then renamed over it, so a reader never sees half a file.

use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `path` through a temporary file and a rename: `write` fills a buffered writer. The
/// parent folder is created if needed; the file gets ordinary permissions (readable by all),
/// not the temporary file's private ones.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let temp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut out = BufWriter::new(temp.as_file());
        write(&mut out)?;
        out.flush()?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `contents` to `path` atomically.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(contents))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "only the target remains");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"old").unwrap();
        let err = write_atomic_with(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
