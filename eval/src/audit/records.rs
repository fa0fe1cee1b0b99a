//! The games to audit: game records (`*.pgn`) named one by one or found in folders, as
//! `fanorona match --out` and `fanorona gauntlet --out` write them, all of one board.

use std::path::{Path, PathBuf};

use super::error::AuditError;
use crate::record::{GameRecord, MAX_RECORD_BYTES, find_record_files};
use fanorona_util::input_file::read_text_limited;

/// A game record and the file it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    /// The file.
    pub path: PathBuf,
    /// The record.
    pub record: GameRecord,
}

/// Reads the game records that `paths` name: record files, and folders searched with their
/// subfolders for `*.pgn`, in path order, each file once. A match's `games.jsonl` (results
/// without turns) is refused with a pointer to its folder; the records must all be of one
/// board, and at least one must be found.
pub fn read_records(paths: &[PathBuf]) -> Result<Vec<RecordFile>, AuditError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            find_record_files(path, &mut files)
                .map_err(|(path, source)| AuditError::Io { path, source })?;
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            return Err(AuditError::ResultsOnly(path.clone()));
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    let records = files
        .into_iter()
        .map(|path| read_record(&path).map(|record| RecordFile { path, record }))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = records.first() else {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(AuditError::NoRecords(names.join(", ")));
    };
    let board = first.record.start.board();
    if let Some(other) = records
        .iter()
        .find(|r| !std::ptr::eq(r.record.start.board(), board))
    {
        return Err(AuditError::Boards {
            first: first.path.clone(),
            first_board: board.to_string(),
            path: other.path.clone(),
            board: other.record.start.board().to_string(),
        });
    }
    Ok(records)
}

/// Reads the game record in `path`.
fn read_record(path: &Path) -> Result<GameRecord, AuditError> {
    let text = read_text_limited(path, MAX_RECORD_BYTES, "a game record").map_err(|source| {
        AuditError::Io {
            path: path.to_path_buf(),
            source,
        }
    })?;
    GameRecord::parse(&text).map_err(|source| AuditError::BadRecord {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of `board` with no moves.
    fn record(board: &str) -> String {
        format!("[Board \"{board}\"]\n[Result \"*\"]\n\n*\n")
    }

    #[test]
    fn records_are_read_from_files_and_folders_in_path_order() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join("match").join("games");
        std::fs::create_dir_all(&games).unwrap();
        std::fs::write(games.join("game-0002.pgn"), record("5x3")).unwrap();
        std::fs::write(games.join("game-0001.pgn"), record("5x3")).unwrap();
        std::fs::write(dir.path().join("match").join("games.jsonl"), "{}\n").unwrap();
        let one = dir.path().join("one.pgn");
        std::fs::write(&one, record("5x3")).unwrap();
        let read = read_records(&[dir.path().join("match"), one.clone(), games.clone()]).unwrap();
        let names: Vec<_> = read.iter().map(|r| r.path.clone()).collect();
        assert_eq!(
            names,
            [
                games.join("game-0001.pgn"),
                games.join("game-0002.pgn"),
                one
            ]
        );
    }

    #[test]
    fn bad_input_is_refused_with_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let e = read_records(&[root.join("missing.pgn")]).unwrap_err();
        assert!(matches!(e, AuditError::Io { .. }), "{e}");
        let e = read_records(&[root.to_path_buf()]).unwrap_err();
        assert!(matches!(e, AuditError::NoRecords(_)), "{e}");
        let jsonl = root.join("games.jsonl");
        std::fs::write(&jsonl, "{}\n").unwrap();
        let e = read_records(&[jsonl]).unwrap_err();
        assert!(matches!(e, AuditError::ResultsOnly(_)), "{e}");
        let bad = root.join("bad.pgn");
        std::fs::write(&bad, "[Result \"2-0\"]\n").unwrap();
        let e = read_records(&[bad]).unwrap_err();
        assert!(matches!(e, AuditError::BadRecord { .. }), "{e}");
        assert!(e.to_string().starts_with("bad game record "), "{e}");
        let (a, b) = (root.join("a.pgn"), root.join("b.pgn"));
        std::fs::write(&a, record("5x3")).unwrap();
        std::fs::write(&b, record("5x5")).unwrap();
        let e = read_records(&[b.clone(), a.clone()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a game of 5x5, {} one of 5x3: audit one board at a time",
                b.display(),
                a.display()
            )
        );
    }
}
