//! What a command may write over: nothing yet, or a regular file that is none of its inputs.
//! A device (`/dev/full`), a named pipe, a socket or a folder is refused, and so is a
//! symbolic link: it is not followed (the file it names may be anywhere, an input included)
//! nor replaced by the rename of an atomic write; name the file itself. A target that is one
//! of the command's inputs (the same file by its canonical path or, through hard links, by its
//! device and inode) or lies inside an input folder is refused too, so a command never
//! overwrites what it reads.

use std::fs::FileType;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

/// Checks that `path` may be written over: it does not exist, or it is a regular file (not a
/// symbolic link, even to one). The error says what it is.
pub fn check_target(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => Ok(()),
        Ok(meta) => Err(io::Error::new(
            refusal_kind(meta.file_type()),
            format!(
                "it is {}, not a regular file (files are written only as regular files)",
                describe(meta.file_type())
            ),
        )),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks that the output `path` is none of `inputs`: not the same file (by canonical path,
/// or by device and inode through a hard link) and, where an input is a folder, not inside it.
/// Inputs that do not exist are skipped.
pub fn check_not_input(path: &Path, inputs: &[&Path]) -> io::Result<()> {
    let target = canonical_target(path);
    for input in inputs {
        let Ok(input_canonical) = input.canonicalize() else {
            continue;
        };
        let same = target.as_ref().is_some_and(|t| *t == input_canonical)
            || same_file::is_same_file(path, input).unwrap_or(false);
        let inside = input_canonical.is_dir()
            && target
                .as_ref()
                .is_some_and(|t| t.starts_with(&input_canonical));
        if same || inside {
            return Err(io::Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "it is {} {}, an input of the command: write elsewhere",
                    if same { "the same file as" } else { "inside" },
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Whether the outputs `a` and `b` name one file: the same canonical path (whether or not it
/// exists yet), or the same existing file through a hard link.
pub fn same_target(a: &Path, b: &Path) -> bool {
    let (ca, cb) = (canonical_target(a), canonical_target(b));
    ca.is_some() && ca == cb || same_file::is_same_file(a, b).unwrap_or(false)
}

/// Whether `path` lies inside the folder `folder` (or is it), whether or not either exists
/// yet: each is resolved through its nearest existing folder (canonical), the rest of it
/// joined on, so a folder a command is about to create is told apart as the existing one.
pub fn inside_folder(path: &Path, folder: &Path) -> bool {
    match (resolved(path), resolved(folder)) {
        (Some(path), Some(folder)) => path.starts_with(folder),
        _ => false,
    }
}

/// The canonical path of `path`'s nearest existing ancestor (itself if it exists) with the
/// rest of `path` joined on (`.` dropped, `..` taking a part off).
fn resolved(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut base = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = base.canonicalize() {
            let mut out = canonical;
            for part in rest.iter().rev() {
                match part {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(name) => out.push(name),
                    _ => {}
                }
            }
            return Some(out);
        }
        rest.push(base.components().next_back()?);
        base = match base.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            Some(_) => Path::new("."),
            None => return None,
        };
    }
}

/// The canonical path `path` names: its own where it exists, else its folder's (where that
/// exists) joined with its file name.
fn canonical_target(path: &Path) -> Option<PathBuf> {
    if let Ok(canonical) = path.canonicalize() {
        return Some(canonical);
    }
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    folder.canonicalize().ok().map(|f| f.join(name))
}

/// What a file that is not a regular one is, in words ("a named pipe").
fn describe(file_type: FileType) -> &'static str {
    if file_type.is_symlink() {
        return "a symbolic link (links are not followed: name the file itself)";
    }
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_fifo() {
            return "a named pipe";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// The error kind of a refused target of type `file_type`.
fn refusal_kind(file_type: FileType) -> ErrorKind {
    if file_type.is_dir() {
        ErrorKind::IsADirectory
    } else {
        ErrorKind::InvalidInput
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_inside_a_folder_whether_or_not_they_exist_yet() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new");
        assert!(inside_folder(&new.join("m.jsonl"), &new));
        assert!(inside_folder(&new.join("a/../m.jsonl"), &new));
        assert!(inside_folder(&dir.path().join("./new/x/y"), &new));
        assert!(!inside_folder(&dir.path().join("m.jsonl"), &new));
        assert!(!inside_folder(&new.join("../m.jsonl"), &new));
        assert!(!inside_folder(&dir.path().join("newer/m.jsonl"), &new));
        std::fs::create_dir(&new).unwrap();
        assert!(inside_folder(&new.join("m.jsonl"), &new));
        assert!(!inside_folder(&dir.path().join("m.jsonl"), &new));
    }

    #[test]
    fn new_and_regular_files_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        check_target(&file).unwrap();
        std::fs::write(&file, "x").unwrap();
        check_target(&file).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn special_files_folders_and_links_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let pipe = dir.path().join("pipe");
        let name = std::ffi::CString::new(pipe.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let socket = dir.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        for (path, what) in [
            (Path::new("/dev/null"), "a character device"),
            (dir.path(), "a folder"),
            (&link, "a symbolic link"),
            (&pipe, "a named pipe"),
            (&socket, "a socket"),
        ] {
            let e = check_target(path).unwrap_err().to_string();
            assert!(e.starts_with(&format!("it is {what}")), "{e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn inputs_are_refused_by_path_link_and_folder() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("model.bin");
        std::fs::write(&input, "x").unwrap();
        let hard = dir.path().join("hard.bin");
        std::fs::hard_link(&input, &hard).unwrap();
        let folder = dir.path().join("tables");
        std::fs::create_dir(&folder).unwrap();
        let other = dir.path().join("other.bin");
        std::fs::write(&other, "y").unwrap();
        let inputs = [input.as_path(), folder.as_path()];
        let roundabout = folder.join("..").join("model.bin");
        for target in [&input, &hard, &roundabout, &folder.join("new.txt")] {
            let e = check_not_input(target, &inputs).unwrap_err().to_string();
            assert!(e.contains("an input of the command"), "{e}");
        }
        check_not_input(&other, &inputs).unwrap();
        check_not_input(&dir.path().join("new.bin"), &inputs).unwrap();
        check_not_input(&other, &[Path::new("/no/such/input")]).unwrap();
        let new = dir.path().join("new.txt");
        assert!(same_target(&new, &folder.join("..").join("new.txt")));
        assert!(same_target(&input, &hard));
        assert!(!same_target(&new, &other));
    }
}
