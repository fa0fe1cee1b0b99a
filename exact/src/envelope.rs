//! The one file envelope of exact knowledge (endgame tables, proofs): eight magic bytes
//! naming the kind of file, a format version (`u32`, little-endian), the body, and the CRC-32
//! of everything before it. Written atomically (a temporary file renamed into place); read
//! back with every part checked, so that a damaged, truncated or foreign file is refused with
//! the reason.

use std::path::Path;

use fanorona_util::atomic_write::write_atomic_with;

/// Bytes before the body: magic and version.
pub(crate) const HEAD: usize = 12;
/// Bytes after the body: the checksum.
pub(crate) const TAIL: usize = 4;

/// Writes `body` to `path` in the envelope of `magic` and `version`, atomically.
pub(crate) fn write_sealed(
    path: &Path,
    magic: &[u8; 8],
    version: u32,
    body: &[u8],
) -> std::io::Result<()> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(magic);
    crc.update(&version.to_le_bytes());
    crc.update(body);
    let crc = crc.finalize();
    write_atomic_with(path, |out| {
        use std::io::Write;
        out.write_all(magic)?;
        out.write_all(&version.to_le_bytes())?;
        out.write_all(body)?;
        out.write_all(&crc.to_le_bytes())
    })
}

/// The body of the sealed `bytes` (a whole file), or why they are not a sealed file of
/// `magic` at `version`; `what` names the kind of file and the command that writes it (e.g.
/// "written by `fanorona tables build`").
pub(crate) fn open_sealed<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
    what: &str,
) -> Result<&'a [u8], String> {
    open_sealed_versions(bytes, magic, version..=version, what).map(|(_, body)| body)
}

/// [`open_sealed`] for a kind of file read at any of the format `versions` (older formats
/// still read): the version found and the body.
pub(crate) fn open_sealed_versions<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    versions: std::ops::RangeInclusive<u32>,
    what: &str,
) -> Result<(u32, &'a [u8]), String> {
    if bytes.len() < HEAD + TAIL {
        return Err(format!(
            "{} bytes, too short for the {}-byte envelope",
            bytes.len(),
            HEAD + TAIL
        ));
    }
    if &bytes[..8] != magic {
        return Err(format!("wrong magic bytes: not {what}"));
    }
    let (sealed, stored) = bytes.split_at(bytes.len() - TAIL);
    let stored = u32::from_le_bytes(stored.try_into().expect("4 bytes"));
    let computed = crc32fast::hash(sealed);
    if stored != computed {
        return Err(format!(
            "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is damaged"
        ));
    }
    let found = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if !versions.contains(&found) {
        let (low, high) = (versions.start(), versions.end());
        return Err(if low == high {
            format!("format version {found}; this program reads version {high}")
        } else {
            format!("format version {found}; this program reads versions {low} to {high}")
        });
    }
    Ok((found, &sealed[HEAD..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_body_comes_back_and_any_damage_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.bin");
        write_sealed(&path, b"FANOTEST", 3, b"hello").unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            open_sealed(&bytes, b"FANOTEST", 3, "a test file"),
            Ok(&b"hello"[..])
        );
        let mut flipped = bytes.clone();
        flipped[HEAD + 1] ^= 1;
        assert!(
            open_sealed(&flipped, b"FANOTEST", 3, "x")
                .unwrap_err()
                .contains("checksum")
        );
        assert!(
            open_sealed(&bytes, b"FANOOTHR", 3, "a test file")
                .unwrap_err()
                .contains("not a test file")
        );
        assert!(
            open_sealed(&bytes, b"FANOTEST", 4, "x")
                .unwrap_err()
                .contains("version 3")
        );
        assert!(
            open_sealed(&bytes[..10], b"FANOTEST", 3, "x")
                .unwrap_err()
                .contains("too short")
        );
    }
}
