//! The text layout shared by the exam-set files ([`super::TestSet`], [`super::ExactSet`]): a
//! title line, `# key: value` header lines (`version` and `board` required, `labeller` and
//! `sources` kept, other comments ignored; one `board` line only), then one position a line,
//! each counted once.

use std::collections::HashMap;
use std::path::Path;

use fanorona_env::{Board, Excerpt, Position};
use fanorona_util::atomic_write::write_atomic;
use fanorona_util::input_file::read_regular_text_limited;

use super::error::ExamError;

/// The most bytes of a set file (about 700,000 positions; the 9x5 set in `data/` has 187 kB).
pub const MAX_SET_BYTES: u64 = 64 << 20;

/// What a set file says about its positions.
#[derive(Clone, Debug)]
pub struct SetHeader {
    /// The board.
    pub board: &'static Board,
    /// How the labels were made.
    pub labeller: String,
    /// Where the positions come from.
    pub sources: String,
}

/// The kind of a set file: its title line, the version this code reads and writes, and
/// what a data line holds.
pub(crate) struct SetFormat {
    /// The first line.
    pub title: &'static str,
    /// The format version.
    pub version: u32,
    /// The fields of a data line, for the header and for errors.
    pub line: &'static str,
}

impl SetFormat {
    /// The header lines of a file of this format.
    pub fn header_text(&self, header: &SetHeader) -> String {
        format!(
            "{}\n# version: {}\n# board: {}x{}\n# labeller: {}\n# sources: {}\n# line: {}\n",
            self.title,
            self.version,
            header.board.width(),
            header.board.height(),
            header.labeller,
            header.sources,
            self.line
        )
    }

    /// Reads a file's text: its header and its data lines, each read by `parse_line` (on
    /// the header's board). A position met twice, a missing header line, another version or
    /// an empty set is refused; the error says what is wrong and on which line.
    pub fn parse<T>(
        &self,
        text: &str,
        parse_line: impl Fn(&str, &'static Board) -> Result<T, String>,
        position: impl Fn(&T) -> &Position,
    ) -> Result<(SetHeader, Vec<T>), String> {
        let mut lines = text.lines().enumerate();
        if lines.next().map(|(_, l)| l.trim()) != Some(self.title) {
            return Err(format!(
                "not an exam set: the first line must be {:?}",
                self.title
            ));
        }
        let (mut version, mut board, mut labeller, mut sources) = (false, None, None, None);
        let mut items = Vec::new();
        // The line of each position seen (by key, as sets are made distinct), so that a
        // repeated one is refused, not counted twice.
        let mut seen: HashMap<u64, usize> = HashMap::new();
        for (i, line) in lines {
            let at = |reason: String| format!("line {}: {reason}", i + 1);
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                let Some((key, value)) = comment.split_once(':') else {
                    continue;
                };
                let value = value.trim().to_string();
                match key.trim() {
                    "version" if value == self.version.to_string() => version = true,
                    "version" => {
                        return Err(at(format!(
                            "version {} is not supported (this program reads version {})",
                            Excerpt(&value),
                            self.version
                        )));
                    }
                    "board" if board.is_some() => {
                        return Err(at(
                            "a second \"# board:\" line (a set is of one board)".into()
                        ));
                    }
                    "board" => board = Some(Board::parse(&value).map_err(|e| at(e.to_string()))?),
                    "labeller" => labeller = Some(value),
                    "sources" => sources = Some(value),
                    _ => {}
                }
                continue;
            }
            if !version {
                return Err(at("a position before the \"# version:\" line".into()));
            }
            let board =
                board.ok_or_else(|| at("a position before the \"# board:\" line".into()))?;
            let item = parse_line(line, board).map_err(at)?;
            if let Some(first) = seen.insert(position(&item).key(), i + 1) {
                return Err(at(format!(
                    "the position of line {first} again (each position is counted once)"
                )));
            }
            items.push(item);
        }
        let board = board.ok_or("no \"# board:\" line")?;
        if items.is_empty() {
            return Err("the set has no position".into());
        }
        let header = SetHeader {
            board,
            labeller: labeller.unwrap_or_default(),
            sources: sources.unwrap_or_default(),
        };
        Ok((header, items))
    }
}

/// The fields of a data line split at `;`, exactly `N` of them, else an error naming `what`
/// (the line's layout).
pub(crate) fn fields<'l, const N: usize>(
    line: &'l str,
    what: &str,
) -> Result<[&'l str; N], String> {
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    let count = fields.len();
    fields
        .try_into()
        .map_err(|_| format!("{count} fields; expected {N}: {what}"))
}

/// The position of a data line's FEN, refused unless it is on `board`.
pub(crate) fn parse_position(fen: &str, board: &'static Board) -> Result<Position, String> {
    let position = Position::from_fen(fen).map_err(|e| format!("FEN {}: {e}", Excerpt(fen)))?;
    if !std::ptr::eq(position.board(), board) {
        return Err(format!(
            "the FEN's board is {}x{}, the set's {}x{}",
            position.board().width(),
            position.board().height(),
            board.width(),
            board.height()
        ));
    }
    Ok(position)
}

/// Reads a set file's text (of at most [`MAX_SET_BYTES`]), from a regular file only: a named
/// pipe with no writer would block for ever, a device never end.
pub(crate) fn read_set_text(path: &Path) -> Result<String, ExamError> {
    read_regular_text_limited(path, MAX_SET_BYTES, "an exam set").map_err(|e| ExamError::SetFile {
        path: path.display().to_string(),
        reason: format!("cannot read it: {e}"),
    })
}

/// Writes a set file's text to `path` atomically.
pub(crate) fn write_set_text(path: &Path, text: &str) -> Result<(), ExamError> {
    write_atomic(path, text.as_bytes()).map_err(|e| ExamError::SetFile {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// A set file of either kind, told apart by its first line.
#[derive(Clone, Debug)]
pub enum ExamSet {
    /// Labelled by a search ([`super::TestSet`]).
    Searched(super::TestSet),
    /// Labelled by the prover ([`super::ExactSet`]).
    Exact(super::ExactSet),
}

impl ExamSet {
    /// Reads a set file of either kind (of at most [`MAX_SET_BYTES`]).
    pub fn read(path: &Path) -> Result<ExamSet, ExamError> {
        let text = read_set_text(path)?;
        let set = if super::ExactSet::is_exact_set(&text) {
            super::ExactSet::parse(&text).map(ExamSet::Exact)
        } else {
            super::TestSet::parse(&text).map(ExamSet::Searched)
        };
        set.map_err(|reason| ExamError::SetFile {
            path: path.display().to_string(),
            reason,
        })
    }
}
