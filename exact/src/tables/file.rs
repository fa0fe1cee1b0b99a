//! The file of one material class: its values, one byte a position, sealed by a CRC-32.
//!
//! Little-endian binary, version 1, named `WxH-MvO.egtb` (e.g. `9x5-2v3.egtb`):
//! `magic "FANOEGTB"`, `version u32`, `width u8`, `height u8`, `mover u8`, `opponent u8`,
//! `positions u64`, `wins u64`, `losses u64`, `draws u64` (48 bytes), then one byte per
//! position in index order ([`super::index`]): 0 for a draw, otherwise the distance to the end
//! plus one (odd distances are wins for the side to move, even ones losses); last the CRC-32
//! of all the bytes before it. Files are written to a temporary file beside the target and
//! renamed into place; a reader loads the whole file into memory and checks everything.

use std::path::Path;

use fanorona_env::Board;

use super::error::TablesError;
use super::index::ClassIndex;
use crate::solver::{OutcomeCounts, Value};
use fanorona_util::atomic_write::write_atomic;

const MAGIC: &[u8; 8] = b"FANOEGTB";
const VERSION: u32 = 1;
/// Bytes before the values.
const HEADER: usize = 48;
/// The largest distance a one-byte code holds.
pub const MAX_FILE_DISTANCE: u16 = 254;

/// The file name of class `mover`v`opponent` of `board`.
pub fn class_file_name(board: &Board, mover: usize, opponent: usize) -> String {
    format!("{board}-{mover}v{opponent}.egtb")
}

/// The one-byte code of a value, `None` if its distance is beyond [`MAX_FILE_DISTANCE`].
#[inline]
pub(crate) fn encode(value: Value) -> Option<u8> {
    u8::try_from(value.encode()).ok()
}

/// The value of a one-byte code.
#[inline]
pub(crate) fn decode(code: u8) -> Value {
    Value::decode(u16::from(code))
}

/// Counts the wins, losses and draws among codes.
fn count(codes: &[u8]) -> OutcomeCounts {
    OutcomeCounts::of_codes(codes.iter().map(|&c| u16::from(c)))
}

/// The values of one class, as read from (or to be written to) its file.
#[derive(Debug)]
pub struct ClassTable {
    index: ClassIndex,
    /// The whole file; the values start at [`HEADER`].
    bytes: Vec<u8>,
}

impl ClassTable {
    /// The class's numbering.
    pub fn index(&self) -> &ClassIndex {
        &self.index
    }

    /// The value codes, in index order.
    pub fn codes(&self) -> &[u8] {
        &self.bytes[HEADER..HEADER + self.index.len() as usize]
    }

    /// The value of position number `i` for its side to move.
    #[inline]
    pub fn value(&self, i: u64) -> Value {
        decode(self.bytes[HEADER + i as usize])
    }

    /// The counts of wins, losses and draws.
    pub fn counts(&self) -> OutcomeCounts {
        count(self.codes())
    }
}

impl ClassTable {
    /// The table of class `index` of `board` with these codes (one per position, in index
    /// order), sealed as its file will be.
    pub fn new(board: &Board, index: &ClassIndex, codes: &[u8]) -> ClassTable {
        debug_assert_eq!(codes.len() as u64, index.len());
        let counts = count(codes);
        let mut bytes = Vec::with_capacity(HEADER + codes.len() + 4);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&[
            board.width() as u8,
            board.height() as u8,
            index.mover() as u8,
            index.opponent() as u8,
        ]);
        for n in [index.len(), counts.wins, counts.losses, counts.draws] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        bytes.extend_from_slice(codes);
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        ClassTable {
            index: *index,
            bytes,
        }
    }

    /// Writes the table to `path`, atomically (a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> Result<(), TablesError> {
        write_atomic(path, &self.bytes).map_err(|source| TablesError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Reads the file of class `index` of `board`, refusing a damaged file, a file of another
/// format, board or class, with the reason.
pub fn read_class(
    path: &Path,
    board: &Board,
    index: &ClassIndex,
) -> Result<ClassTable, TablesError> {
    let bytes = std::fs::read(path).map_err(|source| TablesError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    check(&bytes, board, index).map_err(|reason| TablesError::BadFile {
        path: path.to_path_buf(),
        reason,
    })?;
    Ok(ClassTable {
        index: *index,
        bytes,
    })
}

/// Why `bytes` are not the file of class `index` of `board`, if they are not.
fn check(bytes: &[u8], board: &Board, index: &ClassIndex) -> Result<(), String> {
    if bytes.len() < HEADER + 4 {
        return Err(format!(
            "{} bytes, too short for the {}-byte header and checksum",
            bytes.len(),
            HEADER + 4
        ));
    }
    if &bytes[..8] != MAGIC {
        return Err("wrong magic bytes: not written by `fanorona tables build`".into());
    }
    let (body, stored) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes(stored.try_into().expect("4 bytes"));
    let computed = crc32fast::hash(body);
    if stored != computed {
        return Err(format!(
            "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is damaged"
        ));
    }
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(format!(
            "format version {version}; this program reads version {VERSION}"
        ));
    }
    let [width, height, mover, opponent] = bytes[12..16].try_into().expect("4 bytes");
    if (width as usize, height as usize) != (board.width(), board.height()) {
        return Err(format!("a table of {width}x{height}, not of {board}"));
    }
    if (mover as usize, opponent as usize) != (index.mover(), index.opponent()) {
        return Err(format!(
            "it holds class {mover}v{opponent}, not {}v{}",
            index.mover(),
            index.opponent()
        ));
    }
    let positions = u64_at(16);
    if positions != index.len() || body.len() as u64 != HEADER as u64 + positions {
        return Err(format!(
            "{} value bytes and a header saying {positions}; class {}v{} of {board} has {} positions",
            body.len() - HEADER,
            index.mover(),
            index.opponent(),
            index.len()
        ));
    }
    let header_counts = OutcomeCounts {
        wins: u64_at(24),
        losses: u64_at(32),
        draws: u64_at(40),
    };
    if count(&body[HEADER..]) != header_counts {
        return Err("the outcome counts in the header do not match the values".into());
    }
    Ok(())
}
