//! A fixed test set for boards the solver cannot solve: positions from varied games, each
//! labelled by a deep alpha-beta search with its value and best turn, in a versioned text
//! file.
//!
//! ```text
//! # fanorona exam set
//! # version: 1
//! # board: 9x5
//! # labeller: minimax depth 5, hand-made evaluation; value = tanh(score / 300), forced results ±1
//! # sources: games of random, greedy, ... (seed 1)
//! # line: FEN ; value ; best turn ; score
//! BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 1 ; 0.0000 ; d2e3A ; 0
//! ```
//!
//! Header lines are `# key: value`; `version` (1) and `board` are required, every other
//! line starting with `#` is a comment. Each data line is a position (a fresh game: FEN with
//! no-capture counter 0 and turn 1, standard rules), its value for the side to move in
//! `[-1, 1]`, the label's best turn in notation and the search's score in hundredths of a
//! piece, separated by `;`.

use std::collections::HashSet;
use std::path::Path;

use fanorona_env::{Board, Budget, Excerpt, Position, Turn};
use fanorona_util::progress::ProgressBar;
use rayon::prelude::*;

use super::error::ExamError;
use super::sample::Sampler;
use super::set_file::{SetFormat, SetHeader, fields, parse_position, write_set_text};
use crate::arena::AgentFactory;
use crate::minimax::player::value_of_score;
use crate::minimax::search::{Searcher, depth_limit};

/// The layout of a set file: its title, version and data line.
const FORMAT: SetFormat = SetFormat {
    title: "# fanorona exam set",
    version: 1,
    line: "FEN ; value ; best turn ; score",
};

/// A position with its label.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    /// The position, a fresh game (no history, no-capture counter 0).
    pub position: Position,
    /// Its value for the side to move, in `[-1, 1]`.
    pub value: f32,
    /// The label's best turn.
    pub best: Turn,
    /// The search's score in hundredths of a piece (beyond ±999,000 a forced result).
    pub score: i32,
}

/// A versioned set of labelled positions of one board.
#[derive(Clone, Debug)]
pub struct TestSet {
    /// The board.
    pub board: &'static Board,
    /// How the labels were made.
    pub labeller: String,
    /// Where the positions come from.
    pub sources: String,
    /// The positions.
    pub positions: Vec<LabelledPosition>,
}

/// Hash table size of a labelling search, in MiB.
pub(crate) const LABEL_HASH_MB: usize = 32;

/// Positions one searcher labels in a row (the table is cleared before each, so labels do
/// not depend on the chunks).
const LABEL_CHUNK: usize = 8;

/// Labels `positions` by a minimax search within `budget` (a fresh table for each, seed 0,
/// so a depth-limited label depends on the position alone), in parallel. Positions without
/// a legal turn are refused.
pub fn label(
    positions: &[Position],
    budget: Budget,
    progress: &ProgressBar,
) -> Result<Vec<LabelledPosition>, ExamError> {
    positions
        .par_chunks(LABEL_CHUNK)
        .map(|chunk| {
            let mut searcher = Searcher::new(budget, LABEL_HASH_MB, 0);
            chunk
                .iter()
                .map(|pos| {
                    searcher.clear();
                    let result = searcher.search_position(pos, &[]).ok_or_else(|| {
                        ExamError::Settings(format!("{} has no legal turn", pos.to_fen()))
                    })?;
                    progress.inc(1);
                    Ok(LabelledPosition {
                        position: *pos,
                        value: value_of_score(result.score),
                        best: result.turn,
                        score: result.score,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|chunks| chunks.into_iter().flatten().collect())
}

/// Opening turns of the games a set's positions come from (up to two more, by game).
const SET_OPENING_PLIES: u32 = 2;

/// Most positions a set takes from one game.
const SET_PER_GAME: usize = 4;

/// The header's description of labels made within `budget`.
fn labeller(budget: Budget) -> String {
    let mut text = format!("minimax depth {}", depth_limit(&budget));
    if let Some(nodes) = budget.nodes {
        text.push_str(&format!(" (at most {nodes} nodes)"));
    }
    text + ", hand-made evaluation, fresh table; value = tanh(score / 300), forced results ±1"
}

impl TestSet {
    /// A set of up to `count` distinct positions from games between `pairs` of (white,
    /// black) agents from `start` (each opened by two to four random turns, seeded by `seed`),
    /// labelled by a minimax search within `budget`; `sources` describes the games in the
    /// header.
    pub fn make(
        start: &Position,
        pairs: Vec<(&AgentFactory, &AgentFactory)>,
        count: usize,
        seed: u64,
        budget: Budget,
        sources: String,
        progress: &ProgressBar,
    ) -> Result<TestSet, ExamError> {
        if count == 0 {
            return Err(ExamError::Settings(
                "at least one position is needed".into(),
            ));
        }
        let sampler = Sampler::new(*start, pairs, SET_OPENING_PLIES, SET_PER_GAME, seed);
        let positions = sampler.sample(count, &mut HashSet::new(), progress)?;
        progress.set_position(0);
        Ok(TestSet {
            board: start.board(),
            labeller: labeller(budget),
            sources,
            positions: label(&positions, budget, progress)?,
        })
    }

    /// The file's text (see the module documentation).
    pub fn to_text(&self) -> String {
        let header = SetHeader {
            board: self.board,
            labeller: self.labeller.clone(),
            sources: self.sources.clone(),
        };
        let mut text = FORMAT.header_text(&header);
        for p in &self.positions {
            text.push_str(&format!(
                "{} ; {:.4} ; {} ; {}\n",
                p.position.to_fen(),
                p.value,
                p.best.notation(self.board),
                p.score
            ));
        }
        text
    }

    /// Writes the set to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), ExamError> {
        write_set_text(path, &self.to_text())
    }

    /// Reads a set from its text; the error says what is wrong and where.
    pub fn parse(text: &str) -> Result<TestSet, String> {
        let (header, positions) =
            FORMAT.parse(text, parse_line, |p: &LabelledPosition| &p.position)?;
        Ok(TestSet {
            board: header.board,
            labeller: header.labeller,
            sources: header.sources,
            positions,
        })
    }
}

/// Reads a data line: `FEN ; value ; best turn ; score`, on `board`.
fn parse_line(line: &str, board: &'static Board) -> Result<LabelledPosition, String> {
    let [fen, value, best, score] = fields(line, FORMAT.line)?;
    let position = parse_position(fen, board)?;
    let value: f32 = value
        .parse()
        .ok()
        .filter(|v: &f32| (-1.0..=1.0).contains(v))
        .ok_or_else(|| format!("value {}: expected a number from -1 to 1", Excerpt(value)))?;
    let best = position
        .parse_turn(best)
        .map_err(|e| format!("best turn {}: {e}", Excerpt(best)))?;
    let score = score
        .parse()
        .map_err(|_| format!("score {}: expected a whole number", Excerpt(score)))?;
    Ok(LabelledPosition {
        position,
        value,
        best,
        score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exam::ExamSet;

    fn sample() -> TestSet {
        let board = Board::new(5, 3).unwrap();
        let start = Position::initial(board);
        let mut after = start;
        after.play_turn_unchecked(&start.legal_turns()[0]);
        let positions = label(
            &[start, super::super::sample::fresh(&after)],
            Budget::fixed_depth(3),
            &ProgressBar::hidden(),
        )
        .unwrap();
        TestSet {
            board,
            labeller: "minimax depth 3".into(),
            sources: "a test".into(),
            positions,
        }
    }

    #[test]
    fn a_set_round_trips_through_its_file() {
        let set = sample();
        assert_eq!(set.positions.len(), 2);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("set.txt");
        set.write(&path).unwrap();
        let ExamSet::Searched(read) = ExamSet::read(&path).unwrap() else {
            panic!("a searched set reads as one");
        };
        assert!(std::ptr::eq(read.board, set.board));
        assert_eq!(read.labeller, "minimax depth 3");
        for (a, b) in read.positions.iter().zip(&set.positions) {
            assert_eq!(a.position, b.position);
            assert!(a.best.same_result(&b.best));
            assert_eq!(a.score, b.score);
            assert!((a.value - b.value).abs() < 1e-4);
        }
        // Labels are deterministic.
        assert_eq!(sample().to_text(), set.to_text());
    }

    #[test]
    fn malformed_sets_are_refused_with_the_line() {
        let good = sample().to_text();
        assert!(TestSet::parse(&good).is_ok());
        let cases = [
            (
                good.replace("# fanorona exam set", "hello"),
                "not an exam set",
            ),
            (
                good.replace("version: 1", "version: 7"),
                "line 2: version \"7\" is not supported",
            ),
            (
                format!("{good}{}\n", good.lines().nth(6).unwrap()),
                "line 9: the position of line 7 again",
            ),
            (
                good.replace("# board: 5x3", "# board: 9x5"),
                "the FEN's board is 5x3",
            ),
            (good.replace(" ; ", " ! "), "1 fields; expected 4"),
            (
                format!("{good}BBBBB/BW1BW/WWWWW w 0 1 ; 2.5 ; a1a2 ; 0\n"),
                "expected a number from -1 to 1",
            ),
            (
                format!("{good}BBBBB/BW1BW/WWWWW w 0 1 ; 0.5 ; a1a2 ; 0\n"),
                "best turn \"a1a2\"",
            ),
            (
                format!("{good}BBBBB/BW1BW/WWWWW w 0 1 ; 0.5 ; b2c2W ; x\n"),
                "score \"x\"",
            ),
        ];
        for (text, expected) in cases {
            let e = TestSet::parse(&text).unwrap_err();
            assert!(e.contains(expected), "{e} (expected {expected})");
        }
        let huge = format!(
            "{good}BBBBB/BW1BW/WWWWW w 0 1 ; {} ; b2c2W ; 0\n",
            "9".repeat(1 << 20)
        );
        let e = TestSet::parse(&huge).unwrap_err();
        assert!(e.len() < 300 && e.contains("(1048576 characters)"), "{e}");
        let header: String = good.lines().take(6).map(|l| format!("{l}\n")).collect();
        assert!(TestSet::parse(&header).unwrap_err().contains("no position"));
    }
}
