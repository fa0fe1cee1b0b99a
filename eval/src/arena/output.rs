//! The folder a match writes its results into (`fanorona match --out DIR`): `summary.json`,
//! `games.jsonl` and `games/game-NNNN.pgn`. It is checked before the first game is played: it
//! must be a folder where files can be created (or not exist yet, and be creatable), and be
//! empty or hold the results of an earlier match, which the new results replace (game records
//! of the earlier match beyond the new match's games are removed); a folder holding anything
//! else is refused.

use std::path::Path;

use super::error::ArenaError;
use fanorona_util::atomic_write::check_writable_dir;

/// The match summary.
pub const SUMMARY_FILE: &str = "summary.json";
/// One JSON line per game.
pub const GAMES_FILE: &str = "games.jsonl";
/// The folder of game records.
pub const GAMES_DIR: &str = "games";

/// The file name of game `index`'s record (from 0): `game-0001.pgn` for the first.
pub fn game_file_name(index: usize) -> String {
    format!("game-{:04}.pgn", index + 1)
}

/// Whether `name` is the name of a game record in [`GAMES_DIR`].
fn is_game_file_name(name: &str) -> bool {
    name.strip_prefix("game-")
        .and_then(|rest| rest.strip_suffix(".pgn"))
        .is_some_and(|number| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// The first entry of `dir` that a match's results do not consist of, if any (`None` for a
/// folder that does not exist).
fn foreign_entry(dir: &Path) -> std::io::Result<Option<String>> {
    if !dir.exists() {
        return Ok(None);
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = match name.as_str() {
            SUMMARY_FILE | GAMES_FILE => entry.file_type()?.is_file(),
            GAMES_DIR => entry.file_type()?.is_dir() && game_records_only(&entry.path())?,
            _ => false,
        };
        if !ours {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

/// Whether the folder `games` holds nothing but game records.
fn game_records_only(games: &Path) -> std::io::Result<bool> {
    for entry in std::fs::read_dir(games)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() || !is_game_file_name(&entry.file_name().to_string_lossy())
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Checks, before a match is played, that its results can be written into `dir` (see the
/// module's documentation).
pub fn check_out_dir(dir: &Path) -> Result<(), ArenaError> {
    let refuse = |reason: String| ArenaError::OutDir {
        path: dir.display().to_string(),
        reason,
    };
    check_writable_dir(dir).map_err(|e| refuse(e.to_string()))?;
    match foreign_entry(dir).map_err(|e| refuse(e.to_string()))? {
        None => Ok(()),
        Some(name) => Err(refuse(format!(
            "it holds {name:?}, which is not part of a match's results: choose an empty or new \
             folder (a folder of an earlier match's results is replaced)"
        ))),
    }
}

/// Removes the game records in `games` of an earlier match that the records `written` (file
/// names) did not replace.
pub(super) fn remove_stale_games(games: &Path, written: &[String]) -> std::io::Result<()> {
    for entry in std::fs::read_dir(games)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if is_game_file_name(&name) && !written.contains(&name) {
            std::fs::remove_file(games.join(name))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_record_names_are_recognised() {
        assert_eq!(game_file_name(0), "game-0001.pgn");
        assert!(is_game_file_name("game-0001.pgn") && is_game_file_name("game-12345.pgn"));
        for other in ["game-.pgn", "game-1a.pgn", "game-0001.txt", "notes.pgn"] {
            assert!(!is_game_file_name(other), "{other}");
        }
    }

    #[test]
    fn an_earlier_match_folder_is_accepted_and_others_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        check_out_dir(&root.join("new")).unwrap();
        check_out_dir(root).unwrap();
        std::fs::create_dir(root.join(GAMES_DIR)).unwrap();
        std::fs::write(root.join(GAMES_DIR).join("game-0001.pgn"), "").unwrap();
        std::fs::write(root.join(SUMMARY_FILE), "{}").unwrap();
        check_out_dir(root).unwrap();
        std::fs::write(root.join(GAMES_DIR).join("notes.txt"), "").unwrap();
        let e = check_out_dir(root).unwrap_err().to_string();
        assert!(e.contains("it holds \"games\""), "{e}");
    }
}
