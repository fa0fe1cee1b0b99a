//! The file of one material class: its values, one byte a position, in the sealed envelope of
//! [`crate::envelope`], memory-mapped for probing so that every process on the machine shares
//! one copy.
//!
//! Named `WxH-MvO.egtb` (e.g. `9x5-2v3.egtb`), little-endian: magic `FANOEGTB`, version `u32`
//! (2: positions numbered up to the board's symmetries), then `width u8`, `height u8`,
//! `mover u8`, `opponent u8`, `positions u64`, `wins u64`, `losses u64`, `draws u64`, then
//! one byte per position in index order ([`super::index`]): 0 for a draw, otherwise the
//! distance to the end plus one (odd distances are wins for the side to move, even ones
//! losses); last the CRC-32 of all the bytes before it. Files are written to a temporary
//! file beside the target and renamed into place (a process that mapped the old file keeps
//! its inode); opening one checks everything. A file truncated under its map is caught by
//! [`super::guard`]: its values are refused from then on ([`ClassTable::damaged`]).

use std::ops::Deref;
use std::path::Path;

use fanorona_env::Board;

use super::error::TablesError;
use super::guard::Guard;
use super::index::ClassIndex;
use crate::envelope::{HEAD, open_sealed, write_sealed};
use crate::solver::{OutcomeCounts, Value};

const MAGIC: &[u8; 8] = b"FANOEGTB";
const VERSION: u32 = 2;
/// Bytes of the class header, after the envelope's magic and version.
const CLASS_HEADER: usize = 36;
/// Bytes before the values.
const VALUES: usize = HEAD + CLASS_HEADER;
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
    let mut histogram = [0u64; 256];
    for &c in codes {
        histogram[c as usize] += 1;
    }
    OutcomeCounts::of_histogram(&histogram)
}

/// The bytes of a class file: built in memory, or mapped from its file (the guard, dropped
/// first, unregisters the map before it goes).
#[derive(Debug)]
enum Bytes {
    Owned(Vec<u8>),
    Mapped { guard: Guard, map: memmap2::Mmap },
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped { map, .. } => map,
        }
    }
}

/// The values of one class, as read from (or to be written to) its file.
#[derive(Debug)]
pub struct ClassTable {
    index: ClassIndex,
    /// The whole file; the values start at [`VALUES`].
    bytes: Bytes,
}

impl ClassTable {
    /// The class's numbering.
    pub fn index(&self) -> &ClassIndex {
        &self.index
    }

    /// The value codes, in index order.
    pub fn codes(&self) -> &[u8] {
        &self.bytes[VALUES..VALUES + self.index.len() as usize]
    }

    /// The value of position number `i` for its side to move.
    #[inline]
    pub fn value(&self, i: u64) -> Value {
        decode(self.bytes[VALUES + i as usize])
    }

    /// Whether the table's file was truncated under its map: values read from it may be
    /// zeros, not the table's, and are not to be used (open the folder again).
    #[inline]
    pub fn damaged(&self) -> bool {
        match &self.bytes {
            Bytes::Owned(_) => false,
            Bytes::Mapped { guard, .. } => guard.damaged(),
        }
    }

    /// The counts of wins, losses and draws (of every number, twins included).
    pub fn counts(&self) -> OutcomeCounts {
        count(self.codes())
    }

    /// The CRC-32 of its file (magic, version, header and values): what its file stores
    /// last (checked when it was opened), or computed for a table built in memory.
    pub fn checksum(&self) -> u32 {
        match &self.bytes {
            Bytes::Owned(bytes) => crc32fast::hash(bytes),
            Bytes::Mapped { map, .. } => {
                let tail = &map[map.len() - crate::envelope::TAIL..];
                u32::from_le_bytes(tail.try_into().expect("4 bytes"))
            }
        }
    }

    /// The table of class `index` of `board` with these codes (one per position, in index
    /// order), as its file will hold it.
    pub fn new(board: &Board, index: &ClassIndex, codes: &[u8]) -> ClassTable {
        debug_assert_eq!(codes.len() as u64, index.len());
        let body = body(board, index, codes);
        let mut bytes = Vec::with_capacity(HEAD + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&body);
        ClassTable {
            index: index.clone(),
            bytes: Bytes::Owned(bytes),
        }
    }

    /// Writes the table to `path`, atomically (a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> Result<(), TablesError> {
        write_sealed(path, MAGIC, VERSION, &self.bytes[HEAD..]).map_err(|source| TablesError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// The file's body: class header and codes.
fn body(board: &Board, index: &ClassIndex, codes: &[u8]) -> Vec<u8> {
    let counts = count(codes);
    let mut body = Vec::with_capacity(CLASS_HEADER + codes.len());
    body.extend_from_slice(&[
        board.width() as u8,
        board.height() as u8,
        index.mover() as u8,
        index.opponent() as u8,
    ]);
    for n in [index.len(), counts.wins, counts.losses, counts.draws] {
        body.extend_from_slice(&n.to_le_bytes());
    }
    body.extend_from_slice(codes);
    body
}

/// Opens the file of class `index` of `board`, memory-mapped, refusing a damaged file, a file
/// of another format, board or class, with the reason.
pub fn read_class(
    path: &Path,
    board: &Board,
    index: &ClassIndex,
) -> Result<ClassTable, TablesError> {
    let io = |source| TablesError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    // SAFETY: the map is read-only, and the tables' files are replaced by a rename (a new
    // inode; this map keeps the old one). A file truncated in place by someone else faults
    // on access; the guard registered before any access turns that fault into a mark the
    // readers check ([`ClassTable::damaged`]) instead of the end of the process.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
    let guard = Guard::register(&map);
    let bytes = Bytes::Mapped { guard, map };
    let bad = |reason| TablesError::BadFile {
        path: path.to_path_buf(),
        reason,
    };
    check(&bytes, board, index).map_err(bad)?;
    let table = ClassTable {
        index: index.clone(),
        bytes,
    };
    if table.damaged() {
        return Err(bad("it was truncated while being checked".into()));
    }
    Ok(table)
}

/// Why `bytes` are not the file of class `index` of `board`, if they are not.
fn check(bytes: &[u8], board: &Board, index: &ClassIndex) -> Result<(), String> {
    let body = open_sealed(bytes, MAGIC, VERSION, "written by `fanorona tables build`").map_err(
        |reason| {
            if reason.starts_with("format version 1;") {
                format!("{reason} (tables before symmetry; build them again)")
            } else {
                reason
            }
        },
    )?;
    if body.len() < CLASS_HEADER {
        return Err(format!(
            "{} bytes, too short for the {CLASS_HEADER}-byte class header",
            body.len()
        ));
    }
    let u64_at = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
    let [width, height, mover, opponent] = body[..4].try_into().expect("4 bytes");
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
    let positions = u64_at(4);
    let codes = &body[CLASS_HEADER..];
    if positions != index.len() || codes.len() as u64 != positions {
        return Err(format!(
            "{} value bytes and a header saying {positions}; class {}v{} of {board} has {} positions",
            codes.len(),
            index.mover(),
            index.opponent(),
            index.len()
        ));
    }
    let header_counts = OutcomeCounts {
        wins: u64_at(12),
        losses: u64_at(20),
        draws: u64_at(28),
    };
    if count(codes) != header_counts {
        return Err("the outcome counts in the header do not match the values".into());
    }
    Ok(())
}
