//! `Position::from_pieces`: rebuilding a turn-start position from its pieces.

use fanorona_env::{Board, Color, Position, Rules};

#[test]
fn from_pieces_rebuilds_positions_and_refuses_bad_sets() {
    let board = Board::new(5, 5).unwrap();
    let initial = Position::initial(board);
    let pieces = [initial.pieces(Color::White), initial.pieces(Color::Black)];
    let rebuilt = Position::from_pieces(board, pieces, Color::White, Rules::default()).unwrap();
    assert_eq!(rebuilt, initial);
    assert_eq!(rebuilt.key(), initial.key());
    let black = Position::from_pieces(board, pieces, Color::Black, Rules::pure()).unwrap();
    assert_eq!(black.side_to_move(), Color::Black);
    assert_ne!(black.key(), initial.key());
    assert_eq!(black.rules(), &Rules::pure());
    // Overlapping sets and pieces off the board are refused.
    assert!(Position::from_pieces(board, [1, 1], Color::White, Rules::pure()).is_none());
    assert!(Position::from_pieces(board, [1 << 25, 2], Color::White, Rules::pure()).is_none());
}
