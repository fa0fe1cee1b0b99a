//! Reading an input file whole, with a size limit that fits its kind, so that a wrong path
//! (`/dev/zero`, a huge file) is refused with the reason instead of filling the memory.

use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// Reads the file `path` whole, refusing one of more than `limit` bytes ("it is over N bytes,
/// the most `kind` may have"): a regular file by its size before reading, any other (a pipe, a
/// device that never ends such as `/dev/zero`) once `limit` bytes are read.
pub fn read_limited(path: &Path, limit: u64, kind: &str) -> io::Result<Vec<u8>> {
    let too_large = || {
        io::Error::new(
            ErrorKind::FileTooLarge,
            format!("it is over {limit} bytes, the most {kind} may have"),
        )
    };
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_limited`] for a file that must be a regular one (a model, a checkpoint): anything
/// else is refused before reading.
pub fn read_regular_limited(path: &Path, limit: u64, kind: &str) -> io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            format!("it is not a regular file, as {kind} is"),
        ));
    }
    read_limited(path, limit, kind)
}

/// [`read_limited`] for a UTF-8 text file.
pub fn read_text_limited(path: &Path, limit: u64, kind: &str) -> io::Result<String> {
    text(read_limited(path, limit, kind)?)
}

/// [`read_regular_limited`] for a UTF-8 text file (a named pipe with no writer, which would
/// block for ever, is refused before it is opened).
pub fn read_regular_text_limited(path: &Path, limit: u64, kind: &str) -> io::Result<String> {
    text(read_regular_limited(path, limit, kind)?)
}

/// The bytes as UTF-8 text, or the error saying they are not.
fn text(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(ErrorKind::InvalidData, "it is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_within_the_limit_are_read_and_others_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.toml");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_text_limited(&path, 5, "a test").unwrap(), "12345");
        let e = read_limited(&path, 4, "a test file").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "it is over 4 bytes, the most a test file may have"
        );
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        let e = read_text_limited(&path, 5, "a test").unwrap_err();
        assert_eq!(e.to_string(), "it is not UTF-8 text");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_device_is_refused() {
        let e = read_limited(Path::new("/dev/zero"), 1 << 20, "a configuration").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::FileTooLarge);
        let e = read_regular_limited(Path::new("/dev/zero"), 1 << 30, "a model").unwrap_err();
        assert_eq!(e.to_string(), "it is not a regular file, as a model is");
    }
}
