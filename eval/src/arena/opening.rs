//! Openings, so that the games of a match differ: each pair of games (one with each colour)
//! starts from the same opening, either a few random turns from the start position (seeded,
//! never ending the game) or the next entry of an opening file.
//!
//! An opening file has one opening per line; blank lines and lines starting with `#` are
//! skipped. A line is a FEN, optionally followed by `;` and turns played from it, or just
//! turns played from the start position: `d2e3A f4e3W` or
//! `BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1 ; c2d3A`.

use std::io::Read;
use std::path::Path;

use fanorona_env::{History, Position, Turn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// An opening file or line that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file cannot be read.
    #[error("cannot read opening file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a FEN and/or legal turns.
    #[error("opening line {line}: {reason}")]
    Line {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file has no opening.
    #[error("the opening file has no opening (expected one FEN and/or move list per line)")]
    Empty,
    /// The file is larger than an opening file may be.
    #[error("opening file {path} is larger than {MAX_FILE_BYTES} bytes: not an opening file?")]
    TooLarge {
        /// The file.
        path: String,
    },
}

/// The largest opening file read (a million openings of a few turns fit).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most characters of a bad line an error quotes.
const QUOTED_CHARS: usize = 120;

/// A start position and the turns played from it before the agents take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where the game starts.
    pub start: Position,
    /// The opening turns, played from `start`.
    pub turns: Vec<Turn>,
}

/// Where the games of a match start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// This many random turns from the start position (0: the start position itself).
    Random {
        /// Turns to play.
        plies: u32,
    },
    /// Openings from a list, one per pair of games, in order, repeating.
    List(Vec<Opening>),
}

impl Openings {
    /// Reads an opening file; FENs are read under the rules of `base` and must be on its
    /// board, move lists start from `base`.
    pub fn from_file(path: &Path, base: &Position) -> Result<Openings, OpeningError> {
        let io = |source| OpeningError::Io {
            path: path.display().to_string(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // Read one byte past the limit to tell a file of exactly the limit from a larger one
        // (or an endless one, such as /dev/zero).
        let mut text = String::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(OpeningError::TooLarge {
                path: path.display().to_string(),
            });
        }
        Openings::parse(&text, base)
    }

    /// Reads openings from text (see the module documentation).
    pub fn parse(text: &str, base: &Position) -> Result<Openings, OpeningError> {
        let mut list = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |reason: String| OpeningError::Line {
                line: i + 1,
                reason: shortened(reason),
            };
            let (start, moves) = if line.contains('/') {
                let (fen, moves) = line.split_once(';').unwrap_or((line, ""));
                let pos = Position::from_fen_with_rules(fen.trim(), *base.rules())
                    .map_err(|e| err(e.to_string()))?;
                if !std::ptr::eq(pos.board(), base.board()) {
                    return Err(err(format!(
                        "the FEN's board is {}x{}, the match is played on {}x{}",
                        pos.board().width(),
                        pos.board().height(),
                        base.board().width(),
                        base.board().height()
                    )));
                }
                (pos, moves)
            } else {
                (*base, line)
            };
            let mut history = History::new(start);
            for m in moves.split_whitespace() {
                history.play(m).map_err(|e| err(format!("{m}: {e}")))?;
            }
            if let Some(outcome) = history.outcome() {
                return Err(err(format!("the game is already over: {outcome}")));
            }
            list.push(Opening {
                start,
                turns: history.turns().to_vec(),
            });
        }
        if list.is_empty() {
            return Err(OpeningError::Empty);
        }
        Ok(Openings::List(list))
    }

    /// The opening of pair `pair` of a match seeded with `seed`, starting from `base`.
    pub fn opening(&self, base: &Position, pair: usize, seed: u64) -> Opening {
        match self {
            Openings::List(list) => list[pair % list.len()].clone(),
            Openings::Random { plies } => random_opening(base, *plies, pair, seed),
        }
    }
}

/// Up to `plies` random turns from `base`, never one that ends the game.
fn random_opening(base: &Position, plies: u32, pair: usize, seed: u64) -> Opening {
    let mut rng =
        StdRng::seed_from_u64(seed ^ (pair as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut history = History::new(*base);
    for _ in 0..plies {
        let mut playable = history.position().legal_turns();
        playable.retain(|t| {
            history.play_unchecked(t);
            let open = history.outcome().is_none();
            history.undo();
            open
        });
        if playable.is_empty() {
            break;
        }
        let turn = playable[rng.random_range(0..playable.len())];
        history.play_unchecked(&turn);
    }
    Opening {
        start: *base,
        turns: history.turns().to_vec(),
    }
}

/// `reason` cut to [`QUOTED_CHARS`] characters, so that a huge bad line gives a short error.
fn shortened(reason: String) -> String {
    match reason.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}... ({} bytes in all)", &reason[..end], reason.len()),
        None => reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Board;

    #[test]
    fn random_openings_are_seeded_and_differ_by_pair() {
        let base = Position::initial(Board::new(5, 5).unwrap());
        let openings = Openings::Random { plies: 3 };
        let a = openings.opening(&base, 0, 1);
        assert_eq!(a.turns.len(), 3);
        assert_eq!(a, openings.opening(&base, 0, 1));
        let distinct: std::collections::HashSet<Vec<Turn>> = (0..8)
            .map(|pair| openings.opening(&base, pair, 1).turns)
            .collect();
        assert!(distinct.len() > 2, "openings vary between pairs");
    }

    #[test]
    fn opening_files_are_read_and_checked() {
        let base = Position::initial(Board::new(5, 5).unwrap());
        let text = "# two openings\nc2c3\n\nBBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1 ; c2c3\n";
        let Openings::List(list) = Openings::parse(text, &base).unwrap() else {
            panic!("a list");
        };
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].turns.len(), 1);
        assert_eq!(list[1].start.board().width(), 5);
        let e = Openings::parse("a1a9\n", &base).unwrap_err();
        assert!(e.to_string().starts_with("opening line 1:"), "{e}");
        assert!(matches!(
            Openings::parse("# nothing\n", &base),
            Err(OpeningError::Empty)
        ));
    }

    #[test]
    fn a_huge_bad_line_gives_a_short_error_and_an_endless_file_is_refused() {
        let base = Position::initial(Board::new(5, 5).unwrap());
        let line = format!("{}/BBBBB/BW1BW/WWWWW/WWWWW w 0 1\n", "B".repeat(1 << 20));
        let e = Openings::parse(&line, &base).unwrap_err().to_string();
        assert!(
            e.len() < 400 && e.contains("bytes in all"),
            "{} bytes",
            e.len()
        );
        #[cfg(unix)]
        {
            let e = Openings::from_file(Path::new("/dev/zero"), &base).unwrap_err();
            assert!(matches!(e, OpeningError::TooLarge { .. }), "{e}");
        }
    }

    #[test]
    fn an_opening_on_another_board_is_refused() {
        let base = Position::initial(Board::new(5, 3).unwrap());
        let e = Openings::parse("# 3x3\n\nBBB/B1W/WWW w 0 1\n", &base).unwrap_err();
        assert_eq!(
            e.to_string(),
            "opening line 3: the FEN's board is 3x3, the match is played on 5x3"
        );
    }
}
