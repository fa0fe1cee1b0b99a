//! Finding the games to rate: every game record (`*.pgn`) in the folders given and their
//! subfolders, in path order, read for its players and result; unfinished games (`*`) are
//! left out.

use std::path::PathBuf;

use super::error::RatingError;
use super::results::GameResults;
use crate::record::{GameRecord, MAX_RECORD_BYTES, find_record_files};
use fanorona_util::input_file::read_text_limited;

/// The games found, and how many records were left out as unfinished.
#[derive(Clone, Debug)]
pub struct CollectedGames {
    /// The finished games.
    pub results: GameResults,
    /// Records found.
    pub records: usize,
    /// Records of unfinished games, not rated.
    pub unfinished: usize,
}

/// Reads every game record under `folders`.
pub fn collect_games(folders: &[PathBuf]) -> Result<CollectedGames, RatingError> {
    let mut files = Vec::new();
    for folder in folders {
        if !folder.is_dir() {
            return Err(RatingError::NotAFolder(folder.clone()));
        }
        find_record_files(folder, &mut files)
            .map_err(|(path, source)| RatingError::Io { path, source })?;
    }
    files.sort();
    files.dedup();
    let mut collected = CollectedGames {
        results: GameResults::new(),
        records: files.len(),
        unfinished: 0,
    };
    for path in files {
        let text =
            read_text_limited(&path, MAX_RECORD_BYTES, "a game record").map_err(|source| {
                RatingError::Io {
                    path: path.clone(),
                    source,
                }
            })?;
        let record =
            GameRecord::parse(&text).map_err(|source| RatingError::BadRecord { path, source })?;
        let white_score = match record.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => {
                collected.unfinished += 1;
                continue;
            }
        };
        collected
            .results
            .add(&record.white, &record.black, white_score);
    }
    if collected.results.games().is_empty() {
        let names: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
        return Err(RatingError::NoGames {
            folders: names.join(", "),
        });
    }
    Ok(collected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(white: &str, black: &str, result: &str) -> String {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Termination \"adjudication\"]\n\n{result}\n"
        )
    }

    #[test]
    fn records_in_folders_and_subfolders_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("match-1").join("games");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("game-0001.pgn"), record("a", "b", "1-0")).unwrap();
        std::fs::write(sub.join("game-0002.pgn"), record("b", "a", "1/2-1/2")).unwrap();
        std::fs::write(sub.join("game-0003.pgn"), record("b", "a", "*")).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a record").unwrap();
        let found = collect_games(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!((found.records, found.unfinished), (3, 1));
        assert_eq!(found.results.players(), ["a", "b"]);
        let scores: Vec<f64> = found
            .results
            .games()
            .iter()
            .map(|g| g.first_score)
            .collect();
        assert_eq!(scores, [1.0, 0.5]);

        let empty = tempfile::tempdir().unwrap();
        let e = collect_games(&[empty.path().to_path_buf()]).unwrap_err();
        assert!(matches!(e, RatingError::NoGames { .. }), "{e}");
        let e = collect_games(&[sub.join("game-0001.pgn")]).unwrap_err();
        assert!(matches!(e, RatingError::NotAFolder(_)), "{e}");
        std::fs::write(sub.join("game-0004.pgn"), "[Result \"2-0\"]\n").unwrap();
        let e = collect_games(&[dir.path().to_path_buf()]).unwrap_err();
        assert!(e.to_string().contains("game-0004.pgn"), "{e}");
    }
}
