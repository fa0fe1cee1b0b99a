//! Writing files atomically: the contents go to a temporary file beside the target
//! (`tempfile`), which is then renamed over it, so a reader never sees half a file. Also the
//! checks, made before long work, that such a write will be possible. The target must be new or
//! a regular file ([`check_target`]: never a device, pipe, socket, folder or symbolic link),
//! checked before writing and again just before the rename. Errors name the OS error only,
//! never the temporary file: the caller names the target.

use std::io::{self, BufWriter, ErrorKind, Write};
use std::path::Path;

use crate::output_file::{check_not_input, check_target};

/// Writes `path` through a temporary file and a rename: `write` fills a buffered writer. The
/// parent folder is created if needed; the file gets ordinary permissions (readable by all),
/// not the temporary file's private ones. A target that exists and is not a regular file is
/// refused ([`check_target`]) and left as it was.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    check_target(path)?;
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let temp = tempfile::NamedTempFile::new_in(dir).map_err(without_temp_path)?;
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
    // Whatever appeared at the target meanwhile is not replaced unless it is a regular file.
    check_target(path)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `error` without the temporary file's path that `tempfile` appends to it (`... at path
/// "/dir/.tmpAbC123"`; its source is not kept, so the message is cut).
fn without_temp_path(error: io::Error) -> io::Error {
    match error.to_string().rsplit_once(" at path ") {
        Some((os_error, _)) => io::Error::new(error.kind(), os_error),
        None => error,
    }
}

/// The folder `write_atomic` writes `path` into (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Checks, before long work, that [`write_atomic`] will be able to write the file `path`: it
/// is new or a regular file ([`check_target`]), and its folder accepts new files (see
/// [`check_writable_dir`]).
pub fn check_writable_file(path: &Path) -> io::Result<()> {
    check_target(path)?;
    check_writable_dir(folder_of(path))
}

/// The one check of a command's output file, made before any work: [`check_writable_file`],
/// and it is none of the command's `inputs` nor inside an input folder ([`check_not_input`]).
pub fn check_output_file(path: &Path, inputs: &[&Path]) -> io::Result<()> {
    check_writable_file(path)?;
    check_not_input(path, inputs)
}

/// Checks, before long work, that files can be written into the folder `dir`: it is a folder
/// that accepts new files, or it does not exist yet and the nearest existing path above it is
/// such a folder (where it would be created). Creates nothing that stays.
pub fn check_writable_dir(dir: &Path) -> io::Result<()> {
    let mut existing = dir;
    while !existing.exists() {
        existing = folder_of(existing);
    }
    if !existing.is_dir() {
        let message = if existing == dir {
            "it is not a folder".to_string()
        } else {
            format!("{} is not a folder", existing.display())
        };
        return Err(io::Error::new(ErrorKind::NotADirectory, message));
    }
    tempfile::NamedTempFile::new_in(existing)
        .map(drop)
        .map_err(without_temp_path)
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
    fn writable_places_are_checked_without_leaving_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        check_writable_file(&file).unwrap();
        check_writable_dir(&dir.path().join("new").join("deeper")).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        std::fs::write(&file, "x").unwrap();
        let e = check_writable_dir(&file).unwrap_err();
        assert_eq!(e.to_string(), "it is not a folder");
        let e = check_writable_dir(&file.join("sub")).unwrap_err();
        assert_eq!(e.to_string(), format!("{} is not a folder", file.display()));
        let e = check_writable_file(dir.path()).unwrap_err();
        assert!(e.to_string().starts_with("it is a folder"), "{e}");
        let e = check_output_file(&file, &[&file]).unwrap_err();
        assert!(e.to_string().contains("an input of the command"), "{e}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn errors_do_not_name_the_temporary_file() {
        // Nobody may create files in /proc, not even root.
        let target = Path::new("/proc/a.txt");
        for error in [
            write_atomic(target, b"x").unwrap_err(),
            check_writable_file(target).unwrap_err(),
        ] {
            let text = error.to_string();
            assert!(text.contains("(os error"), "{text}");
            assert!(!text.contains(".tmp"), "{text}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn special_targets_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "old").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let e = write_atomic(&link, b"new").unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        let e = write_atomic(dir.path(), b"new").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::IsADirectory);
        let e = write_atomic(Path::new("/dev/null"), b"new").unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary file"
        );
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
