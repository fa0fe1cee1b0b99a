//! The solver's table file: a solved board saved compactly and loaded again.
//!
//! Little-endian binary, version 1:
//! `magic "FANOSOLV"`, `version u32`, `width u8`, `height u8`, `0u16`, `roots u32` and the
//! root keys (`u64` each), `classes u32`, `positions u64`, `wins u64`, `losses u64`,
//! `draws u64`, then per class `white u8`, `black u8`, `0u16`, `length u64`; then every
//! position's key (`u64`, class by class, in index order: sorted by a hash of the key), then every value code
//! (`u16`: 0 draw, otherwise distance + 1); last the CRC-32 of all the bytes before it.
//! Files are written to a temporary file beside the target and renamed into place.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use fanorona_env::Board;

use super::error::SolverError;
use super::index::{PositionIndex, check_board, keys_sorted, material};
use super::solution::{OutcomeCounts, Solution};
use fanorona_util::atomic_write::write_atomic_with;

const MAGIC: &[u8; 8] = b"FANOSOLV";
const VERSION: u32 = 1;
/// Values converted per buffer when reading or writing the arrays.
const CHUNK: usize = 1 << 16;

/// A writer that keeps the CRC-32 of what passes through it.
struct Crc32Writer<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Crc32Writer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that keeps the CRC-32 of what passes through it.
struct Crc32Reader<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for Crc32Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

impl Solution {
    /// Saves the solution to `path`, atomically (a temporary file renamed into place).
    pub fn save(&self, path: &Path) -> Result<(), SolverError> {
        let io = |source| SolverError::Io {
            path: path.to_path_buf(),
            source,
        };
        write_atomic_with(path, |file| {
            let mut out = Crc32Writer {
                inner: file,
                crc: crc32fast::Hasher::new(),
            };
            self.write_body(&mut out)?;
            let crc = out.crc.clone().finalize();
            out.inner.write_all(&crc.to_le_bytes())
        })
        .map_err(io)
    }

    fn write_body(&self, out: &mut impl Write) -> std::io::Result<()> {
        let board = self.board();
        let classes = self.index.classes();
        let counts = self.counts();
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&[board.width() as u8, board.height() as u8, 0, 0])?;
        out.write_all(&(self.roots.len() as u32).to_le_bytes())?;
        for root in &self.roots {
            out.write_all(&root.to_le_bytes())?;
        }
        out.write_all(&(classes.len() as u32).to_le_bytes())?;
        for n in [self.len() as u64, counts.wins, counts.losses, counts.draws] {
            out.write_all(&n.to_le_bytes())?;
        }
        for class in classes {
            out.write_all(&[class.white, class.black, 0, 0])?;
            out.write_all(&(class.keys.len() as u64).to_le_bytes())?;
        }
        let mut buf = Vec::with_capacity(CHUNK * 8);
        for class in classes {
            for chunk in class.keys.chunks(CHUNK) {
                buf.clear();
                buf.extend(chunk.iter().flat_map(|k| k.to_le_bytes()));
                out.write_all(&buf)?;
            }
        }
        for chunk in self.values.chunks(CHUNK) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            out.write_all(&buf)?;
        }
        Ok(())
    }

    /// Loads a solution saved by [`Solution::save`], checking its format, checksum and
    /// consistency.
    pub fn load(path: &Path) -> Result<Solution, SolverError> {
        let file = File::open(path).map_err(|source| SolverError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut reader = TableReader {
            path: path.to_path_buf(),
            input: Crc32Reader {
                inner: BufReader::new(file),
                crc: crc32fast::Hasher::new(),
            },
        };
        reader.read_solution()
    }
}

/// Reads one table file, turning every problem into a [`SolverError`] naming the file.
struct TableReader {
    path: PathBuf,
    input: Crc32Reader<BufReader<File>>,
}

impl TableReader {
    /// The error for a table that is not well formed, with `reason`.
    fn bad(&self, reason: impl Into<String>) -> SolverError {
        SolverError::BadTable {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// The error for a failed read of the `what`: a file that ends too early is a bad table.
    fn read_error(&self, e: std::io::Error, what: &str) -> SolverError {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            self.bad(format!("the file ends inside the {what}"))
        } else {
            SolverError::Io {
                path: self.path.clone(),
                source: e,
            }
        }
    }

    /// Reads `N` bytes of the `what`.
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], SolverError> {
        let mut buf = [0u8; N];
        self.input
            .read_exact(&mut buf)
            .map_err(|e| self.read_error(e, what))?;
        Ok(buf)
    }

    /// Reads a little-endian `u32` of the `what`.
    fn u32(&mut self, what: &str) -> Result<u32, SolverError> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    /// Reads a little-endian `u64` of the `what`.
    fn u64(&mut self, what: &str) -> Result<u64, SolverError> {
        Ok(u64::from_le_bytes(self.bytes(what)?))
    }

    /// Reads `len` little-endian values of `N` bytes each.
    fn array<const N: usize, T>(
        &mut self,
        len: usize,
        what: &str,
        convert: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, SolverError> {
        let mut out = Vec::with_capacity(len);
        let mut buf = vec![0u8; CHUNK * N];
        while out.len() < len {
            let n = (len - out.len()).min(CHUNK);
            let bytes = &mut buf[..n * N];
            if let Err(e) = self.input.read_exact(bytes) {
                return Err(self.read_error(e, what));
            }
            out.extend(
                bytes
                    .chunks_exact(N)
                    .map(|c| convert(c.try_into().expect("chunk of N bytes"))),
            );
        }
        Ok(out)
    }

    /// Reads the whole file: header, class table, keys, values and checksum, checking each
    /// part and then the whole.
    fn read_solution(&mut self) -> Result<Solution, SolverError> {
        let board = self.read_board()?;
        let roots = self.read_roots()?;
        let class_count = self.read_class_count(board)?;
        let len = self.u64("header")?;
        let counts = OutcomeCounts {
            wins: self.u64("header")?,
            losses: self.u64("header")?,
            draws: self.u64("header")?,
        };
        let class_lens = self.read_class_table(board, class_count, len, &counts)?;
        let classes = self.read_keys(board, &class_lens)?;
        let values = self.array(len as usize, "values", u16::from_le_bytes)?;
        self.read_checksum()?;
        if OutcomeCounts::of_codes(values.iter().copied()) != counts {
            return Err(self.bad("the outcome counts in the header do not match the values"));
        }
        let index = PositionIndex::new(board, classes);
        if let Some(root) = roots.iter().find(|&&r| index.find(r).is_none()) {
            return Err(self.bad(format!("root key {root:#x} is not in the table")));
        }
        Ok(Solution {
            index,
            values,
            roots,
        })
    }

    /// Reads the magic bytes, the format version and the board, checking each.
    fn read_board(&mut self) -> Result<&'static Board, SolverError> {
        let magic: [u8; 8] = self.bytes("header")?;
        if &magic != MAGIC {
            return Err(self.bad("wrong magic bytes: not written by `fanorona solve --save`"));
        }
        let version = self.u32("header")?;
        if version != VERSION {
            return Err(self.bad(format!(
                "format version {version}; this program reads version {VERSION}"
            )));
        }
        let [width, height, _, _] = self.bytes::<4>("header")?;
        let board = Board::new(width as usize, height as usize)
            .map_err(|e| self.bad(format!("bad board: {e}")))?;
        check_board(board).map_err(|e| self.bad(e.to_string()))?;
        Ok(board)
    }

    /// Reads the number of roots (1 to 2^20) and their keys.
    fn read_roots(&mut self) -> Result<Vec<u64>, SolverError> {
        let root_count = self.u32("header")? as usize;
        if root_count == 0 || root_count > 1 << 20 {
            return Err(self.bad(format!("{root_count} roots: expected 1 to 2^20")));
        }
        self.array(root_count, "roots", u64::from_le_bytes)
    }

    /// Reads the number of material classes, at most one per piece count pair of `board`.
    fn read_class_count(&mut self, board: &Board) -> Result<usize, SolverError> {
        let slots = (board.points() + 1) * (board.points() + 1);
        let class_count = self.u32("header")? as usize;
        if class_count > slots {
            return Err(self.bad(format!(
                "{class_count} material classes: a {}x{} board has at most {slots}",
                board.width(),
                board.height()
            )));
        }
        Ok(class_count)
    }

    /// Reads the class table (white and black pieces and length of each class), checking
    /// that no class is impossible or repeated and that the lengths add up to `len`, as the
    /// outcome `counts` must.
    fn read_class_table(
        &mut self,
        board: &Board,
        class_count: usize,
        len: u64,
        counts: &OutcomeCounts,
    ) -> Result<Vec<(u8, u8, usize)>, SolverError> {
        let points = board.points();
        let mut class_lens = Vec::with_capacity(class_count);
        let mut seen = vec![false; (points + 1) * (points + 1)];
        let mut sum = 0u64;
        for _ in 0..class_count {
            let [white, black, _, _] = self.bytes::<4>("class table")?;
            let class_len = self.u64("class table")?;
            let slot = white as usize * (points + 1) + black as usize;
            if white as usize > points || black as usize > points || seen[slot] {
                return Err(self.bad(format!(
                    "class {white}v{black} is impossible or repeated on {}x{}",
                    board.width(),
                    board.height()
                )));
            }
            seen[slot] = true;
            sum = sum.saturating_add(class_len);
            class_lens.push((white, black, class_len as usize));
        }
        if sum != len || counts.total() != len {
            return Err(self.bad(format!(
                "the header says {len} positions, the classes hold {sum}, the outcome counts {}",
                counts.total()
            )));
        }
        Ok(class_lens)
    }

    /// Reads the keys of every class of `class_lens`, checking that they are valid keys of
    /// their class in index order.
    fn read_keys(
        &mut self,
        board: &Board,
        class_lens: &[(u8, u8, usize)],
    ) -> Result<Vec<(u8, u8, Vec<u64>)>, SolverError> {
        let mut classes = Vec::with_capacity(class_lens.len());
        for &(white, black, class_len) in class_lens {
            let keys = self.array(class_len, "keys", u64::from_le_bytes)?;
            if !class_keys_valid(board, white, black, &keys) {
                return Err(self.bad(format!(
                    "the keys of class {white}v{black} are not sorted, overlapping or of another class"
                )));
            }
            classes.push((white, black, keys));
        }
        Ok(classes)
    }

    /// Reads the stored CRC-32, checks it against the bytes read, and checks that nothing
    /// follows it.
    fn read_checksum(&mut self) -> Result<(), SolverError> {
        let expected = self.input.crc.clone().finalize();
        let stored = self.u32("checksum")?;
        if stored != expected {
            return Err(self.bad(format!(
                "checksum mismatch (stored {stored:08x}, computed {expected:08x}): the file is damaged"
            )));
        }
        let mut rest = [0u8; 1];
        match self.input.read(&mut rest) {
            Ok(0) => Ok(()),
            Ok(_) => Err(self.bad("unexpected bytes after the checksum")),
            Err(source) => Err(SolverError::Io {
                path: self.path.clone(),
                source,
            }),
        }
    }
}

/// Whether `keys` are in index order and each is the key of a position of class
/// `white`v`black` on `board` (no stray bits, no point taken by both sides).
fn class_keys_valid(board: &Board, white: u8, black: u8, keys: &[u64]) -> bool {
    let points = board.points();
    keys_sorted(keys)
        && keys.iter().all(|&k| {
            k >> (2 * points + 1) == 0 && material(board, k) == (white, black) && {
                let (p, _) = super::index::unpack_parts(board, k);
                p[0] & p[1] == 0
            }
        })
}
