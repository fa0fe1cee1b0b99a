//! The static evaluation, in hundredths of a piece, from the side to move's point of view.
//!
//! For each side: `PIECE` per piece (material comes first: 100 against at most a few dozen
//! for all other terms together on one piece), `STRONG_POINT` per piece on a strong point
//! (strong points have eight lines instead of four, so pieces there attack and escape in more
//! directions), and `MOBILITY` per paika step it could make (a piece with an empty
//! neighbour along a line). The value is our sum minus theirs. The evaluation is only asked
//! in quiet positions: where the side to move must capture, the search goes on (quiescence).

use fanorona_env::{Board, Position};

/// Value of one piece.
pub const PIECE: i32 = 100;

/// Bonus for a piece standing on a strong point.
pub const STRONG_POINT: i32 = 3;

/// Bonus for each paika step a side could make.
pub const MOBILITY: i32 = 1;

/// Number of paika steps open to `pieces`: pairs of a piece and a line to an empty neighbour.
#[inline]
pub fn mobility(board: &Board, pieces: u64, empty: u64) -> u32 {
    (0..8)
        .map(|d| (pieces & board.pre(empty, d)).count_ones())
        .sum()
}

/// The value of one side's pieces.
#[inline]
fn side_value(board: &Board, pieces: u64, empty: u64) -> i32 {
    PIECE * pieces.count_ones() as i32
        + STRONG_POINT * (pieces & board.strong()).count_ones() as i32
        + MOBILITY * mobility(board, pieces, empty) as i32
}

/// A static evaluation, called by the search at its leaves (quiet positions, and the stand-pat
/// value of the quiescence search).
pub trait StaticEvaluation {
    /// The value of `pos` (at a turn start) for the side to move, in hundredths of a piece;
    /// within `±(MATE_BOUND - 1)` so that it never reads as a forced result.
    fn evaluate(&mut self, pos: &Position) -> i32;
}

/// The hand-made evaluation of this module: material, strong points, mobility.
#[derive(Clone, Copy, Debug, Default)]
pub struct Handcrafted;

impl StaticEvaluation for Handcrafted {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        evaluate(pos)
    }
}

/// The static value of `pos` for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let empty = pos.empty();
    let us = pos.side_to_move();
    side_value(board, pos.pieces(us), empty) - side_value(board, pos.pieces(us.other()), empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position_is_balanced_and_material_counts() {
        assert_eq!(evaluate(&Position::standard()), 0);
        // Row 1 full of white, one black on a5; white to move.
        let pos = Position::from_fen("B8/9/9/9/WWWWWWWWW w").unwrap();
        let board = pos.board();
        let white = pos.pieces(fanorona_env::Color::White);
        let black = pos.pieces(fanorona_env::Color::Black);
        // White: 9 pieces, 5 on strong points (a1 c1 e1 g1 i1), steps: 9 north plus
        // diagonals from the 5 strong points (a1 and i1 one each, c1 e1 g1 two each) = 17.
        assert_eq!(mobility(board, white, pos.empty()), 17);
        // Black a5: S, E and SE (a5 is strong) = 3 steps.
        assert_eq!(mobility(board, black, pos.empty()), 3);
        let expected = (900 + 5 * STRONG_POINT + 17 * MOBILITY) - (100 + STRONG_POINT + 3);
        assert_eq!(evaluate(&pos), expected);
    }
}
