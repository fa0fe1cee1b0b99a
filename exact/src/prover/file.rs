//! The proof file: every search of a `fanorona prove` run, so that a later run continues an
//! unfinished one and `fanorona prove --check` checks a finished one again.
//!
//! In the envelope of [`crate::envelope`] (magic `FANOPROF`, version 3; versions 1 and 2
//! still read), little-endian: board width and height (`u8` each), then (from version 2) the
//! endgame tables the file was made with (pieces `u8`, 0 for none, and their checksum `u32`,
//! see [`TablesId`]), then the records, compressed (from version 3: one zlib stream): the
//! number of records (`u32`), then per record: its root (white's points `u64`, black's `u64`,
//! side to move `u8`: 0 white, 1 black), its attacker (`u8`), its outcome (`u8`: 0 unproven,
//! 1 proven, 2 disproven), the nodes searched (`u64`), the seconds spent (`f64`), the number
//! of entries (`u64`) and the entries, in increasing order of position: position (as a root),
//! kind (`u8`: 0 open, 1 proven, 2 disproven, 3 tentative) and two `u32` (open: the proof and
//! disproof numbers; proven: the height).
//!
//! A settled record keeps its certificate only (proven or disproven entries, as its outcome).
//! An unsettled one keeps what its search settled (proven, disproven and tentative entries)
//! and its open entries whose proof and disproof numbers are both at least
//! [`KEPT_OPEN_LEAST`]: an open entry at 1 is one expansion from the unexplored edge (nine in
//! ten of a long search's entries), cheap to find again, and a continued search does so where
//! it goes.
//!
//! Nothing read is trusted: reading checks the format and that every number is one a search
//! stores (open entries with numbers a search can leave, each position once, each question
//! once); the prover then checks every record against the rules and the tables before it uses
//! or reports it ([`super::prove`]).

use std::io::{BufWriter, Read, Write};
use std::path::Path;

use fanorona_env::{Board, Color};

use flate2::Compression;
use flate2::bufread::ZlibDecoder;
use flate2::write::ZlibEncoder;

use super::certificate::Certificate;
use super::error::ProverError;
use super::node::Key;
use super::search::{Outcome, Question};
use super::table::{Entry, INFINITE, ProofTable};
use super::tables_id::TablesId;
use crate::envelope::{open_sealed_versions, write_sealed};
use fanorona_util::input_file::read_regular_limited;

const MAGIC: &[u8; 8] = b"FANOPROF";
/// The format written; versions 1 (without the tables) and 2 (records not compressed) still
/// read.
const VERSION: u32 = 3;
/// The first version whose records are compressed.
const COMPRESSED: u32 = 3;
/// The largest proof file read, and the most bytes its records may inflate to (a whole
/// transposition table of 50 million entries takes 1.3 GB).
const MAX_FILE_BYTES: u64 = 1 << 36;
/// An unsettled record keeps its open entries whose proof and disproof numbers both reach
/// this.
pub(crate) const KEPT_OPEN_LEAST: u32 = 2;
/// Bytes of a position in the file.
const KEY_BYTES: usize = 17;
/// Bytes of an entry.
const ENTRY_BYTES: usize = KEY_BYTES + 9;

/// One search of a proof file: a question at a root, how far it got, and its table.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) root: Key,
    pub(crate) question: Question,
    pub(crate) outcome: Outcome,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
    pub(crate) table: ProofTable,
    /// Checked in this process against the rules and the tables (never read from a file):
    /// a settled record's certificate, or an unsettled record's proven entries.
    pub(crate) checked: bool,
}

impl Record {
    /// The record in words, for messages: "white to win at FEN".
    pub(crate) fn describe(&self, board: &'static Board) -> String {
        let root = self
            .root
            .position(board)
            .map_or_else(|| format!("{:?}", self.root), |p| p.to_fen());
        format!("{} to win at {root}", self.question.attacker)
    }

    /// Every position of a settled record's table as a certificate of its outcome (proven
    /// entries with their heights; a disproof's entries at height 0).
    pub(crate) fn certificate(&self) -> Certificate {
        let mut nodes: Vec<(Key, u32)> = self
            .table
            .entries
            .iter()
            .map(|(&key, entry)| match *entry {
                Entry::Proven { height } => (key, height),
                _ => (key, 0),
            })
            .collect();
        nodes.sort_unstable();
        Certificate {
            question: self.question,
            outcome: self.outcome,
            root: self.root,
            nodes,
        }
    }
}

/// The searches of a proof run on one board.
#[derive(Debug)]
pub struct ProofFile {
    pub(crate) board: &'static Board,
    /// The tables it was made with; `None` for a file of version 1, which does not say.
    pub(crate) made_with: Option<TablesId>,
    pub(crate) records: Vec<Record>,
}

impl ProofFile {
    /// A file of `board` with no search yet.
    pub fn new(board: &'static Board) -> ProofFile {
        ProofFile {
            board,
            made_with: Some(TablesId::NONE),
            records: Vec::new(),
        }
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The endgame tables the file was made with, where it says (files of version 1 do not).
    pub fn made_with(&self) -> Option<TablesId> {
        self.made_with
    }

    /// The record of `question` at `root`, if any.
    pub(crate) fn record(&self, root: Key, question: Question) -> Option<&Record> {
        self.records
            .iter()
            .find(|r| r.root == root && r.question == question)
    }

    /// The record of `question` at `root`, to update, if any.
    pub(crate) fn record_mut(&mut self, root: Key, question: Question) -> Option<&mut Record> {
        self.records
            .iter_mut()
            .find(|r| r.root == root && r.question == question)
    }

    /// Takes the record of `question` at `root` out of the file (to continue it), if any.
    pub(crate) fn take(&mut self, root: Key, question: Question) -> Option<Record> {
        let i = self
            .records
            .iter()
            .position(|r| r.root == root && r.question == question)?;
        Some(self.records.swap_remove(i))
    }

    /// The certificates of the settled records: each with every position of its record.
    pub fn certificates(&self) -> Vec<Certificate> {
        self.records
            .iter()
            .filter(|r| r.outcome != Outcome::Unproven)
            .map(Record::certificate)
            .collect()
    }

    /// Writes the file to `path`, atomically: the records compressed, an unsettled record
    /// without its open entries at the unexplored edge (see the module's documentation).
    pub fn save(&self, path: &Path) -> Result<(), ProverError> {
        let io = |source| ProverError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut body = vec![self.board.width() as u8, self.board.height() as u8];
        let tables = self.made_with.unwrap_or(TablesId::NONE);
        body.push(tables.pieces as u8);
        body.extend_from_slice(&tables.checksum.to_le_bytes());
        let mut records = ZlibEncoder::new(body, Compression::default());
        let mut buffered = BufWriter::with_capacity(1 << 16, &mut records);
        write_records(&mut buffered, &self.records).map_err(io)?;
        buffered.flush().map_err(io)?;
        drop(buffered);
        let body = records.finish().map_err(io)?;
        write_sealed(path, MAGIC, VERSION, &body).map_err(io)
    }

    /// Reads the proof file at `path`, refusing a damaged or foreign file with the reason
    /// (and anything but a regular file: a device or a named pipe is not read).
    pub fn load(path: &Path) -> Result<ProofFile, ProverError> {
        let bytes =
            read_regular_limited(path, MAX_FILE_BYTES, "a proof file").map_err(|source| {
                ProverError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        parse(&bytes).map_err(|reason| ProverError::BadFile {
            path: path.to_path_buf(),
            reason,
        })
    }
}

/// Whether an unsettled record's file keeps `entry`: settled ones, and open ones beyond the
/// unexplored edge.
fn kept(entry: &Entry) -> bool {
    match *entry {
        Entry::Open { pn, dn } => pn.min(dn) >= KEPT_OPEN_LEAST,
        _ => true,
    }
}

/// Writes the record count and the records, each with its entries in increasing order of
/// position (an unsettled record's as [`kept`] says).
fn write_records(out: &mut impl Write, records: &[Record]) -> std::io::Result<()> {
    out.write_all(&(records.len() as u32).to_le_bytes())?;
    for r in records {
        let mut head = Vec::with_capacity(KEY_BYTES + 26);
        put_key(&mut head, &r.root);
        head.push(r.question.attacker.index() as u8);
        head.push(match r.outcome {
            Outcome::Unproven => 0,
            Outcome::Proven => 1,
            Outcome::Disproven => 2,
        });
        head.extend_from_slice(&r.nodes.to_le_bytes());
        head.extend_from_slice(&r.seconds.to_le_bytes());
        let unsettled = r.outcome == Outcome::Unproven;
        let mut entries: Vec<_> = r
            .table
            .entries
            .iter()
            .filter(|(_, e)| !unsettled || kept(e))
            .collect();
        entries.sort_unstable_by_key(|(k, _)| **k);
        head.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        out.write_all(&head)?;
        let mut bytes = Vec::with_capacity(ENTRY_BYTES);
        for (key, entry) in entries {
            bytes.clear();
            put_key(&mut bytes, key);
            let (kind, a, b) = match *entry {
                Entry::Open { pn, dn } => (0u8, pn, dn),
                Entry::Proven { height } => (1, height, 0),
                Entry::Disproven => (2, 0, 0),
                Entry::Tentative => (3, 0, 0),
            };
            bytes.push(kind);
            bytes.extend_from_slice(&a.to_le_bytes());
            bytes.extend_from_slice(&b.to_le_bytes());
            out.write_all(&bytes)?;
        }
    }
    Ok(())
}

fn put_key(out: &mut Vec<u8>, key: &Key) {
    out.extend_from_slice(&key.white.to_le_bytes());
    out.extend_from_slice(&key.black.to_le_bytes());
    out.push(u8::from(!key.white_to_move));
}

/// The records of a file of version 3 or later, inflated; an error where the stream is
/// damaged, inflates beyond [`MAX_FILE_BYTES`] or is followed by anything.
fn inflate(compressed: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = ZlibDecoder::new(compressed);
    let mut records = Vec::new();
    (&mut decoder)
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut records)
        .map_err(|e| format!("its records do not inflate: {e}"))?;
    if records.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("its records inflate beyond {MAX_FILE_BYTES} bytes"));
    }
    let after = decoder.into_inner().len();
    if after > 0 {
        return Err(format!("{after} bytes after the compressed records"));
    }
    Ok(records)
}

/// A little-endian reader over the body that names what is missing.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file ends inside {what}"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }

    fn key(&mut self, board: &Board, what: &str) -> Result<Key, String> {
        let (white, black) = (self.u64(what)?, self.u64(what)?);
        let side = self.u8(what)?;
        if side > 1 || white & black != 0 || (white | black) & !board.all() != 0 {
            return Err(format!("{what} is not a position of {board}"));
        }
        Ok(Key {
            white,
            black,
            white_to_move: side == 0,
        })
    }
}

fn parse(bytes: &[u8]) -> Result<ProofFile, String> {
    let (version, body) = open_sealed_versions(
        bytes,
        MAGIC,
        1..=VERSION,
        "a proof file written by `fanorona prove`",
    )?;
    let mut r = Reader { bytes: body, at: 0 };
    let (w, h) = (r.u8("the board")?, r.u8("the board")?);
    let board = Board::new(w as usize, h as usize).map_err(|e| format!("board {w}x{h}: {e}"))?;
    let made_with = if version >= 2 {
        let pieces = r.u8("the tables")? as usize;
        let checksum = r.u32("the tables")?;
        if pieces == 1 || pieces >= board.points() || (pieces == 0 && checksum != 0) {
            return Err(format!(
                "tables of {pieces} pieces with checksum {checksum:08x} are no tables of {board}"
            ));
        }
        Some(TablesId { pieces, checksum })
    } else {
        None
    };
    let inflated;
    let mut r = if version >= COMPRESSED {
        inflated = inflate(&body[r.at..])?;
        Reader {
            bytes: &inflated,
            at: 0,
        }
    } else {
        r
    };
    let count = r.u32("the record count")?;
    let mut records: Vec<Record> = Vec::new();
    for i in 0..count {
        let what = format!("record {}", i + 1);
        let root = r.key(board, &what)?;
        let attacker = match r.u8(&what)? {
            0 => Color::White,
            1 => Color::Black,
            a => {
                return Err(format!(
                    "{what}: attacker {a} is not 0 (white) or 1 (black)"
                ));
            }
        };
        let question = Question { attacker };
        if records
            .iter()
            .any(|other| other.root == root && other.question == question)
        {
            return Err(format!(
                "{what} asks the question of an earlier record again"
            ));
        }
        let outcome = match r.u8(&what)? {
            0 => Outcome::Unproven,
            1 => Outcome::Proven,
            2 => Outcome::Disproven,
            o => return Err(format!("{what}: outcome {o} is not 0, 1 or 2")),
        };
        let nodes = r.u64(&what)?;
        let seconds = f64::from_le_bytes(r.take(8, &what)?.try_into().expect("8 bytes"));
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(format!("{what}: {seconds} seconds spent"));
        }
        let entries = r.u64(&what)?;
        let room = (r.bytes.len() - r.at) / ENTRY_BYTES;
        if entries > room as u64 {
            return Err(format!(
                "{what} says {entries} entries; the file has room for {room}"
            ));
        }
        let mut table = ProofTable::default();
        table.entries.reserve(entries as usize);
        let mut last: Option<Key> = None;
        for _ in 0..entries {
            let key = r.key(board, &what)?;
            if last.is_some_and(|l| l >= key) {
                return Err(format!(
                    "{what}: its entries are not in increasing order of position (a position \
                     repeated, or the entries moved)"
                ));
            }
            last = Some(key);
            let kind = r.u8(&what)?;
            let (a, b) = (r.u32(&what)?, r.u32(&what)?);
            let entry = match kind {
                0 if (1..INFINITE).contains(&a) && (1..INFINITE).contains(&b) => {
                    Entry::Open { pn: a, dn: b }
                }
                0 => {
                    return Err(format!(
                        "{what}: an open entry with proof number {a} and disproof number {b}; \
                         a search leaves open numbers from 1 to {}",
                        INFINITE - 1
                    ));
                }
                1 => Entry::Proven { height: a },
                2 => Entry::Disproven,
                3 => Entry::Tentative,
                k => return Err(format!("{what}: entry kind {k} is not 0 to 3")),
            };
            let fits = match outcome {
                Outcome::Unproven => true,
                Outcome::Proven => matches!(entry, Entry::Proven { .. }),
                Outcome::Disproven => entry == Entry::Disproven,
            };
            if !fits {
                return Err(format!(
                    "{what} is {} but holds an entry of kind {kind}; a settled record holds \
                     its certificate only",
                    outcome.name()
                ));
            }
            table.entries.insert(key, entry);
        }
        records.push(Record {
            root,
            question,
            outcome,
            nodes,
            seconds,
            table,
            checked: false,
        });
    }
    if r.at != r.bytes.len() {
        return Err(format!(
            "{} bytes after the last record",
            r.bytes.len() - r.at
        ));
    }
    Ok(ProofFile {
        board,
        made_with,
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key of a 5x3 board numbered `i` (distinct for distinct `i` below 2^10).
    fn key(i: u64) -> Key {
        Key {
            white: i & 0x1f,
            black: (i >> 5) << 5,
            white_to_move: true,
        }
    }

    fn record(outcome: Outcome, entries: &[(u64, Entry)]) -> Record {
        let mut table = ProofTable::default();
        for &(i, entry) in entries {
            table.entries.insert(key(i), entry);
        }
        Record {
            root: key(entries[0].0),
            question: Question {
                attacker: Color::White,
            },
            outcome,
            nodes: 7,
            seconds: 0.5,
            table,
            checked: false,
        }
    }

    #[test]
    fn an_unsettled_record_keeps_its_settled_entries_and_its_open_ones_beyond_the_edge() {
        let board = Board::new(5, 3).unwrap();
        let open = |pn, dn| Entry::Open { pn, dn };
        let entries = [
            (1, open(2, 2)),
            (2, open(1, 7)),
            (3, open(9, 1)),
            (4, open(3, 40)),
            (5, Entry::Proven { height: 3 }),
            (6, Entry::Disproven),
            (7, Entry::Tentative),
        ];
        let mut file = ProofFile::new(board);
        file.records.push(record(Outcome::Unproven, &entries));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lean.proof");
        file.save(&path).unwrap();
        let back = ProofFile::load(&path).unwrap();
        let kept: Vec<(Key, Entry)> = {
            let mut kept: Vec<_> = back.records[0]
                .table
                .entries
                .iter()
                .map(|(k, e)| (*k, *e))
                .collect();
            kept.sort_unstable_by_key(|&(k, _)| k);
            kept
        };
        let mut expected: Vec<(Key, Entry)> = entries
            .iter()
            .filter(|(i, _)| ![2, 3].contains(i))
            .map(|&(i, e)| (key(i), e))
            .collect();
        expected.sort_unstable_by_key(|&(k, _)| k);
        assert_eq!(kept, expected);
        let r = &back.records[0];
        assert_eq!((r.nodes, r.seconds, r.outcome), (7, 0.5, Outcome::Unproven));
    }

    #[test]
    fn records_are_compressed_and_what_follows_them_is_refused() {
        let board = Board::new(5, 3).unwrap();
        let entries: Vec<(u64, Entry)> = (0..1000)
            .map(|i| (i, Entry::Open { pn: 2, dn: 3 }))
            .collect();
        let mut file = ProofFile::new(board);
        file.records.push(record(Outcome::Unproven, &entries));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.proof");
        file.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            bytes.len() < 1000 * ENTRY_BYTES / 4,
            "{} bytes",
            bytes.len()
        );
        assert_eq!(ProofFile::load(&path).unwrap().records[0].table.len(), 1000);
        // Bytes slipped in after the compressed records, the checksum fixed.
        let mut body = bytes[crate::envelope::HEAD..bytes.len() - 4].to_vec();
        body.extend_from_slice(b"xyz");
        write_sealed(&path, MAGIC, VERSION, &body).unwrap();
        let e = ProofFile::load(&path).unwrap_err().to_string();
        assert!(e.contains("3 bytes after the compressed records"), "{e}");
        // A stream cut short.
        let cut = &bytes[crate::envelope::HEAD..bytes.len() - 40];
        write_sealed(&path, MAGIC, VERSION, cut).unwrap();
        let e = ProofFile::load(&path).unwrap_err().to_string();
        assert!(e.contains("do not inflate"), "{e}");
    }
}
