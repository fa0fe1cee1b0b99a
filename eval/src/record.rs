//! Game records in a PGN-like text format:
//!
//! ```text
//! [Event "fanorona match"]
//! [Date "2025.06.01"]
//! [Round "3"]
//! [White "minimax:depth=4"]
//! [Black "random"]
//! [Result "1-0"]
//! [Board "9x5"]
//! [Rules "no-capture=100,repetition=3"]
//! [FEN "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 1"]
//! [Termination "white wins (black has no pieces left)"]
//!
//! 1. d2e3A f4e3W 2. ... 1-0
//! ```
//!
//! Tags are `[Name "value"]` with `\"` and `\\` escapes; the seven standard tags come first,
//! others (Round, Termination, Opening, ...) follow in their order. Moves are complete turns in
//! the notation of docs/rules.md, numbered per turn pair (`1...` when black moves first), and the
//! result closes the move text. Reading checks every move against the rules, and the result
//! against the end of the moves: a game the rules end carries their result; another result
//! than `*` for a game they do not end needs a Termination tag (forfeit, turn limit,
//! adjudication). A text with neither moves nor a result is refused.

use std::path::{Path, PathBuf};

use fanorona_env::{Board, Color, Excerpt, History, Position, Rules};

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A tag line is malformed.
    #[error("line {line}: bad tag {}: expected [Name \"value\"]", Excerpt(.text))]
    Tag {
        /// Line number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A tag's value is not acceptable.
    #[error("tag {tag}: {reason}")]
    TagValue {
        /// The tag.
        tag: String,
        /// What is wrong.
        reason: String,
    },
    /// A move is not legal or cannot be read.
    #[error("move {number} ({}): {reason}", Excerpt(.text))]
    Move {
        /// Move number in the record, from 1 (one per turn).
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Neither moves nor a result: nothing is recorded.
    #[error("no moves and no result: not a game record (expected [Result \"...\"] and/or moves)")]
    Empty,
    /// The result disagrees with the position the moves reach.
    #[error("the result {result} does not fit the game: {reason}")]
    ResultContradicted {
        /// The Result tag.
        result: String,
        /// How the final position disagrees.
        reason: String,
    },
    /// The result token after the moves disagrees with the Result tag.
    #[error(
        "the move text ends with {} but the Result tag says {}",
        Excerpt(.found),
        Excerpt(.tag)
    )]
    ResultMismatch {
        /// The Result tag.
        tag: String,
        /// The closing token.
        found: String,
    },
}

/// The results a record may carry.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The most bytes of a record file read whole (a game of the longest turn limit takes a few
/// hundred kB).
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// One game: who played, under what rules, from where, the turns and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The event (e.g. `fanorona match`).
    pub event: String,
    /// The date, `YYYY.MM.DD`.
    pub date: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished).
    pub result: String,
    /// The start position (its board and rules included).
    pub start: Position,
    /// The turns in notation.
    pub moves: Vec<String>,
    /// Further tags, in order.
    pub extra: Vec<(String, String)>,
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            _ => value.push(c),
        }
    }
    (!name.is_empty()).then(|| (name.to_string(), value))
}

/// Splits a record into its tags (the `[Name "value"]` lines before the moves), in order, and
/// its move text (the other lines, joined by spaces).
fn split_record(text: &str) -> Result<(Vec<(String, String)>, String), RecordError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && movetext.trim().is_empty() {
            let tag = parse_tag(trimmed).ok_or_else(|| RecordError::Tag {
                line: i + 1,
                text: line.to_string(),
            })?;
            tags.push(tag);
        } else {
            movetext.push_str(trimmed);
            movetext.push(' ');
        }
    }
    Ok((tags, movetext))
}

/// Removes the first tag called `name` from `tags` and returns its value.
fn take_tag(tags: &mut Vec<(String, String)>, name: &str) -> Option<String> {
    tags.iter()
        .position(|(n, _)| n == name)
        .map(|i| tags.remove(i).1)
}

/// A tag whose value is not acceptable.
fn tag_error(tag: &str, reason: String) -> RecordError {
    RecordError::TagValue {
        tag: tag.to_string(),
        reason,
    }
}

/// Takes the Rules, Board and FEN tags out of `tags` and returns the start position they
/// describe: the FEN's, else the initial position of the board (standard by default).
fn read_start(tags: &mut Vec<(String, String)>) -> Result<Position, RecordError> {
    let rules = match take_tag(tags, "Rules") {
        Some(r) => Rules::parse(&r).map_err(|e| tag_error("Rules", e.to_string()))?,
        None => Rules::default(),
    };
    let board = match take_tag(tags, "Board") {
        Some(b) => Some(Board::parse(&b).map_err(|e| tag_error("Board", e.to_string()))?),
        None => None,
    };
    let start = match take_tag(tags, "FEN") {
        Some(fen) => Position::from_fen_with_rules(&fen, rules)
            .map_err(|e| tag_error("FEN", e.to_string()))?,
        None => Position::initial(board.unwrap_or(Board::standard())).with_rules(rules),
    };
    if let Some(b) = board
        && !std::ptr::eq(b, start.board())
    {
        return Err(tag_error(
            "Board",
            format!(
                "{}x{} does not match the FEN's board",
                b.width(),
                b.height()
            ),
        ));
    }
    Ok(start)
}

/// Reads the move text: the moves without their numbers, and the result closing it, if any.
fn read_moves(movetext: &str) -> Result<(Vec<String>, Option<String>), RecordError> {
    let mut moves = Vec::new();
    let mut closing = None;
    for token in movetext.split_whitespace() {
        if closing.is_some() {
            return Err(RecordError::Move {
                number: moves.len() + 1,
                text: token.to_string(),
                reason: "text after the result".into(),
            });
        }
        if RESULTS.contains(&token) {
            closing = Some(token.to_string());
            continue;
        }
        let body = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let body = if body.len() < token.len() {
            body.trim_start_matches('.')
        } else {
            body
        };
        if !body.is_empty() {
            moves.push(body.to_string());
        }
    }
    Ok((moves, closing))
}

impl GameRecord {
    /// The standard tags and the extra ones, in writing order.
    pub fn tags(&self) -> Vec<(String, String)> {
        let board = self.start.board();
        let mut tags = vec![
            ("Event".to_string(), self.event.clone()),
            ("Date".to_string(), self.date.clone()),
            ("White".to_string(), self.white.clone()),
            ("Black".to_string(), self.black.clone()),
            ("Result".to_string(), self.result.clone()),
            (
                "Board".to_string(),
                format!("{}x{}", board.width(), board.height()),
            ),
            ("Rules".to_string(), format!("{:#}", self.start.rules())),
            ("FEN".to_string(), self.start.to_fen()),
        ];
        tags.extend(self.extra.iter().cloned());
        tags
    }

    /// The value of an extra tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The record as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, value) in self.tags() {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
        }
        out.push('\n');
        let mut tokens = Vec::new();
        let mut number = self.start.turn_number();
        let mut side = self.start.side_to_move();
        for (i, m) in self.moves.iter().enumerate() {
            match side {
                Color::White => tokens.push(format!("{number}.")),
                Color::Black if i == 0 => tokens.push(format!("{number}...")),
                Color::Black => {}
            }
            tokens.push(m.clone());
            if side == Color::Black {
                number += 1;
            }
            side = side.other();
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Reads a record, checking every move.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let (mut tags, movetext) = split_record(text)?;
        let event = take_tag(&mut tags, "Event").unwrap_or_default();
        let date = take_tag(&mut tags, "Date").unwrap_or_default();
        let white = take_tag(&mut tags, "White").unwrap_or_default();
        let black = take_tag(&mut tags, "Black").unwrap_or_default();
        let result_tag = take_tag(&mut tags, "Result");
        let (moves, closing) = read_moves(&movetext)?;
        if moves.is_empty() && result_tag.is_none() && closing.is_none() {
            return Err(RecordError::Empty);
        }
        let result = result_tag.unwrap_or_else(|| "*".into());
        if !RESULTS.contains(&result.as_str()) {
            return Err(tag_error(
                "Result",
                format!(
                    "{}: expected one of {}",
                    Excerpt(&result),
                    RESULTS.join(", ")
                ),
            ));
        }
        let start = read_start(&mut tags)?;
        if let Some(found) = closing
            && found != result
        {
            return Err(RecordError::ResultMismatch { tag: result, found });
        }
        let record = GameRecord {
            event,
            date,
            white,
            black,
            result,
            start,
            moves,
            extra: tags,
        };
        let history = record.history()?;
        record.check_result(&history)?;
        Ok(record)
    }

    /// Checks the result against the position the moves reach (`history`): a game the rules
    /// have ended carries their result; a result for a game they have not ended needs a
    /// Termination tag saying why (a forfeit, a turn limit, an adjudication).
    fn check_result(&self, history: &History) -> Result<(), RecordError> {
        let contradicted = |reason: String| {
            Err(RecordError::ResultContradicted {
                result: self.result.clone(),
                reason,
            })
        };
        match history.outcome() {
            Some(outcome) if outcome.result_string() != self.result => contradicted(format!(
                "the moves end the game: {outcome}, which is {}",
                outcome.result_string()
            )),
            None if self.result != "*" && self.tag("Termination").is_none() => contradicted(
                "the moves do not end the game and no Termination tag says why it ended".into(),
            ),
            _ => Ok(()),
        }
    }

    /// Plays the moves from the start position.
    pub fn history(&self) -> Result<History, RecordError> {
        let mut history = History::new(self.start);
        for (i, m) in self.moves.iter().enumerate() {
            history.play(m).map_err(|e| RecordError::Move {
                number: i + 1,
                text: m.clone(),
                reason: e.to_string(),
            })?;
        }
        Ok(history)
    }
}

/// Appends the game record files (`*.pgn`) under `folder` and its subfolders to `files`. An
/// error names the folder that could not be read.
pub(crate) fn find_record_files(
    folder: &Path,
    files: &mut Vec<PathBuf>,
) -> Result<(), (PathBuf, std::io::Error)> {
    let io = |source| (folder.to_path_buf(), source);
    for entry in std::fs::read_dir(folder).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        if entry.file_type().map_err(io)?.is_dir() {
            find_record_files(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "pgn") {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let start = Position::initial(Board::new(5, 5).unwrap())
            .with_rules(Rules::parse("no-capture=30,mandatory").unwrap());
        let mut history = History::new(start);
        let mut moves = Vec::new();
        // Play the first legal turn (sorted by name) a few times.
        for _ in 0..5 {
            if history.outcome().is_some() {
                break;
            }
            let name = history.position().legal_turn_names()[0].clone();
            history.play(&name).unwrap();
            moves.push(name);
        }
        GameRecord {
            event: "test \"quoted\" event".into(),
            date: "2025.01.02".into(),
            white: "minimax:depth=2".into(),
            black: "random".into(),
            result: "*".into(),
            start,
            moves,
            extra: vec![("Round".into(), "7".into())],
        }
    }

    #[test]
    fn records_round_trip() {
        let record = sample();
        assert!(record.moves.len() >= 2);
        let text = record.to_text();
        assert!(text.contains("[Rules \"no-capture=30,repetition=3,mandatory\"]"));
        assert!(text.contains("[Event \"test \\\"quoted\\\" event\"]"));
        assert!(text.contains("1. "));
        let back = GameRecord::parse(&text).unwrap();
        assert_eq!(back, record);
        assert_eq!(back.tag("Round"), Some("7"));
        assert_eq!(back.history().unwrap().turns().len(), record.moves.len());
    }

    #[test]
    fn black_to_move_starts_with_ellipsis() {
        let mut record = sample();
        let mut pos = record.start;
        pos.play_turn(&record.moves[0]).unwrap();
        record.start = pos;
        record.moves.remove(0);
        let text = record.to_text();
        assert!(text.contains("1... "), "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap(), record);
    }

    #[test]
    fn bad_records_are_refused_with_reasons() {
        let text = sample().to_text();
        let bad_move = text.replacen("1. ", "1. a1a1 ", 1);
        assert!(matches!(
            GameRecord::parse(&bad_move),
            Err(RecordError::Move { number: 1, .. })
        ));
        let bad_result = text.replace("[Result \"*\"]", "[Result \"2-0\"]");
        assert!(matches!(
            GameRecord::parse(&bad_result),
            Err(RecordError::TagValue { .. })
        ));
        let mismatch = text.replace("[Result \"*\"]", "[Result \"1-0\"]");
        assert!(matches!(
            GameRecord::parse(&mismatch),
            Err(RecordError::ResultMismatch { .. })
        ));
        let bad_tag = text.replace("[Round \"7\"]", "[Round 7]");
        assert!(matches!(
            GameRecord::parse(&bad_tag),
            Err(RecordError::Tag { .. })
        ));
        let bad_board = text.replace("[Board \"5x5\"]", "[Board \"9x5\"]");
        assert!(GameRecord::parse(&bad_board).is_err());
    }

    /// A record from `fen` with `result`, `moves` and the `extra` tag lines.
    fn record_text(fen: &str, result: &str, extra: &str, moves: &str) -> String {
        format!("[Result \"{result}\"]\n[FEN \"{fen}\"]\n{extra}\n{moves} {result}\n")
    }

    #[test]
    fn empty_records_are_refused() {
        for text in ["", "\n\n", "[Event \"x\"]\n"] {
            assert_eq!(GameRecord::parse(text), Err(RecordError::Empty), "{text:?}");
        }
        let no_moves = GameRecord::parse("[Result \"*\"]\n").unwrap();
        assert!(no_moves.moves.is_empty());
    }

    #[test]
    fn the_result_must_fit_the_end_of_the_moves() {
        // White a1 takes black's last piece c1: the rules end the game, 1-0.
        let won = "9/9/9/9/W1B6 w";
        assert!(GameRecord::parse(&record_text(won, "1-0", "", "1. a1b1A")).is_ok());
        for result in ["0-1", "1/2-1/2", "*"] {
            let e = GameRecord::parse(&record_text(won, result, "", "1. a1b1A")).unwrap_err();
            assert!(matches!(e, RecordError::ResultContradicted { .. }), "{e}");
            assert!(e.to_string().contains("white wins"), "{e}");
        }
        // Black to move, walled in, has lost before any move.
        let lost = "BW7/WW7/9/9/9 b";
        assert!(GameRecord::parse(&record_text(lost, "1-0", "", "")).is_ok());
        assert!(GameRecord::parse(&record_text(lost, "0-1", "", "")).is_err());
        // An open game: a result needs a Termination tag saying why.
        let open = "9/9/9/9/W7B w";
        assert!(GameRecord::parse(&record_text(open, "*", "", "1. a1a2")).is_ok());
        let e = GameRecord::parse(&record_text(open, "0-1", "", "1. a1a2")).unwrap_err();
        assert!(e.to_string().contains("no Termination tag"), "{e}");
        let forfeit = "[Termination \"black forfeits: timeout\"]";
        assert!(GameRecord::parse(&record_text(open, "1-0", forfeit, "1. a1a2")).is_ok());
    }
}
