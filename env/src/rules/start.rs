//! Where a game starts: a FEN, or the initial position of a board, under some rule settings.
//! The command line (`--fen`, `--board`, `--rules`) and the Python package read it alike.

use thiserror::Error;

use super::board::Board;
use super::error::{BoardError, FenError, RulesError};
use super::position::Position;
use super::settings::Rules;

/// A start that cannot be built; each variant says which input is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// The rule settings.
    #[error("bad rules: {0}")]
    Rules(#[from] RulesError),
    /// The FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The board size.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Both a FEN and a board were given, and they disagree.
    #[error("board {board} does not match the FEN's board ({width}x{height})")]
    BoardMismatch {
        /// The board asked for.
        board: String,
        /// The FEN's board width.
        width: usize,
        /// The FEN's board height.
        height: usize,
    },
}

/// The start position of a game: `fen` if given (its rows give the board), else the initial
/// position of `board` (`WxH`, default 9x5), under the rule settings `rules` (as
/// [`Rules::parse`] reads them; empty: the standard rules).
pub fn start_position(
    fen: Option<&str>,
    board: Option<&str>,
    rules: &str,
) -> Result<Position, StartError> {
    let rules = Rules::parse(rules)?;
    let board_size = board.map(Board::parse).transpose()?;
    match fen {
        Some(fen) => {
            let pos = Position::from_fen_with_rules(fen, rules)?;
            match (board, board_size) {
                (Some(name), Some(b)) if !std::ptr::eq(b, pos.board()) => {
                    Err(StartError::BoardMismatch {
                        board: name.to_string(),
                        width: pos.board().width(),
                        height: pos.board().height(),
                    })
                }
                _ => Ok(pos),
            }
        }
        None => Ok(Position::initial(board_size.unwrap_or(Board::standard())).with_rules(rules)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_to_the_standard_game() {
        assert_eq!(
            start_position(None, None, "").unwrap(),
            Position::standard()
        );
    }

    #[test]
    fn a_board_gives_its_initial_position_under_the_rules() {
        let pos = start_position(None, Some("5x3"), "mandatory").unwrap();
        assert_eq!((pos.board().width(), pos.board().height()), (5, 3));
        assert!(pos.rules().mandatory_continuation);
    }

    #[test]
    fn a_fen_gives_its_board_and_a_matching_board_is_accepted() {
        let fen = Position::initial(Board::new(5, 5).unwrap()).to_fen();
        let pos = start_position(Some(&fen), Some("5x5"), "").unwrap();
        assert_eq!(pos.to_fen(), fen);
    }

    #[test]
    fn each_bad_input_is_named() {
        let fen = Position::initial(Board::new(5, 5).unwrap()).to_fen();
        assert!(matches!(
            start_position(Some(&fen), Some("9x5"), ""),
            Err(StartError::BoardMismatch {
                width: 5,
                height: 5,
                ..
            })
        ));
        assert!(matches!(
            start_position(None, None, "nonsense"),
            Err(StartError::Rules(_))
        ));
        assert!(matches!(
            start_position(None, Some("4x4"), ""),
            Err(StartError::Board(_))
        ));
        assert!(matches!(
            start_position(Some("x"), None, ""),
            Err(StartError::Fen(_))
        ));
    }
}
