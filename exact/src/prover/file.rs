//! The proof file: every search of a `fanorona prove` run, so that a later run continues an
//! unfinished one and `fanorona prove --check` checks a finished one again.
//!
//! In the envelope of [`crate::envelope`] (magic `FANOPROF`, version 1), little-endian: board
//! width and height (`u8` each), the number of records (`u32`), then per record: its root
//! (white's points `u64`, black's `u64`, side to move `u8`: 0 white, 1 black), its attacker
//! (`u8`), its outcome (`u8`: 0 unproven, 1 proven, 2 disproven), the nodes searched (`u64`),
//! the seconds spent (`f64`), the number of entries (`u64`) and the entries: position (as a
//! root), kind (`u8`: 0 open, 1 proven, 2 disproven, 3 tentative) and two `u32` (open: the
//! proof and disproof numbers; proven: the height). A settled record keeps its certificate
//! only; an unsettled one its whole transposition table.

use std::path::Path;

use fanorona_env::{Board, Color};

use super::certificate::Certificate;
use super::error::ProverError;
use super::node::Key;
use super::search::{Outcome, Question};
use super::table::{Entry, ProofTable};
use crate::envelope::{open_sealed, write_sealed};
use crate::tables::EndgameTables;

const MAGIC: &[u8; 8] = b"FANOPROF";
const VERSION: u32 = 1;
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
}

/// The searches of a proof run on one board.
#[derive(Debug)]
pub struct ProofFile {
    pub(crate) board: &'static Board,
    pub(crate) records: Vec<Record>,
}

impl ProofFile {
    /// A file of `board` with no search yet.
    pub fn new(board: &'static Board) -> ProofFile {
        ProofFile {
            board,
            records: Vec::new(),
        }
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The record of `question` at `root`, if any.
    pub(crate) fn record(&self, root: Key, question: Question) -> Option<&Record> {
        self.records
            .iter()
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

    /// The certificates of the settled records, taken from their tables (an error where one
    /// does not hold together).
    pub fn certificates(
        &self,
        tables: Option<&EndgameTables>,
    ) -> Result<Vec<Certificate>, ProverError> {
        self.records
            .iter()
            .filter(|r| r.outcome != Outcome::Unproven)
            .map(|r| {
                let root = r.root.position(self.board).ok_or_else(|| {
                    ProverError::Refuted(format!(
                        "a record's root is not a position of {}",
                        self.board
                    ))
                })?;
                Certificate::extract(r.question, r.outcome, &root, tables, &r.table)
            })
            .collect()
    }

    /// Writes the file to `path`, atomically.
    pub fn save(&self, path: &Path) -> Result<(), ProverError> {
        let mut body = vec![self.board.width() as u8, self.board.height() as u8];
        body.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        for r in &self.records {
            put_key(&mut body, &r.root);
            body.push(r.question.attacker.index() as u8);
            body.push(match r.outcome {
                Outcome::Unproven => 0,
                Outcome::Proven => 1,
                Outcome::Disproven => 2,
            });
            body.extend_from_slice(&r.nodes.to_le_bytes());
            body.extend_from_slice(&r.seconds.to_le_bytes());
            body.extend_from_slice(&(r.table.entries.len() as u64).to_le_bytes());
            let mut entries: Vec<_> = r.table.entries.iter().collect();
            entries.sort_unstable_by_key(|(k, _)| **k);
            for (key, entry) in entries {
                put_key(&mut body, key);
                let (kind, a, b) = match *entry {
                    Entry::Open { pn, dn } => (0u8, pn, dn),
                    Entry::Proven { height } => (1, height, 0),
                    Entry::Disproven => (2, 0, 0),
                    Entry::Tentative => (3, 0, 0),
                };
                body.push(kind);
                body.extend_from_slice(&a.to_le_bytes());
                body.extend_from_slice(&b.to_le_bytes());
            }
        }
        write_sealed(path, MAGIC, VERSION, &body).map_err(|source| ProverError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads the proof file at `path`, refusing a damaged or foreign file with the reason.
    pub fn load(path: &Path) -> Result<ProofFile, ProverError> {
        let bytes = std::fs::read(path).map_err(|source| ProverError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        parse(&bytes).map_err(|reason| ProverError::BadFile {
            path: path.to_path_buf(),
            reason,
        })
    }
}

fn put_key(out: &mut Vec<u8>, key: &Key) {
    out.extend_from_slice(&key.white.to_le_bytes());
    out.extend_from_slice(&key.black.to_le_bytes());
    out.push(u8::from(!key.white_to_move));
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
    let body = open_sealed(
        bytes,
        MAGIC,
        VERSION,
        "a proof file written by `fanorona prove`",
    )?;
    let mut r = Reader { bytes: body, at: 0 };
    let (w, h) = (r.u8("the board")?, r.u8("the board")?);
    let board = Board::new(w as usize, h as usize).map_err(|e| format!("board {w}x{h}: {e}"))?;
    let count = r.u32("the record count")?;
    let mut records = Vec::new();
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
        let outcome = match r.u8(&what)? {
            0 => Outcome::Unproven,
            1 => Outcome::Proven,
            2 => Outcome::Disproven,
            o => return Err(format!("{what}: outcome {o} is not 0, 1 or 2")),
        };
        let nodes = r.u64(&what)?;
        let seconds = f64::from_le_bytes(r.take(8, &what)?.try_into().expect("8 bytes"));
        let entries = r.u64(&what)?;
        let room = (body.len() - r.at) / ENTRY_BYTES;
        if entries > room as u64 {
            return Err(format!(
                "{what} says {entries} entries; the file has room for {room}"
            ));
        }
        let mut table = ProofTable::default();
        table.entries.reserve(entries as usize);
        for _ in 0..entries {
            let key = r.key(board, &what)?;
            let kind = r.u8(&what)?;
            let (a, b) = (r.u32(&what)?, r.u32(&what)?);
            let entry = match kind {
                0 => Entry::Open { pn: a, dn: b },
                1 => Entry::Proven { height: a },
                2 => Entry::Disproven,
                3 => Entry::Tentative,
                k => return Err(format!("{what}: entry kind {k} is not 0 to 3")),
            };
            table.entries.insert(key, entry);
        }
        records.push(Record {
            root,
            question: Question { attacker },
            outcome,
            nodes,
            seconds,
            table,
        });
    }
    if r.at != body.len() {
        return Err(format!("{} bytes after the last record", body.len() - r.at));
    }
    Ok(ProofFile { board, records })
}
