//! Positions as the prover sees them: turn starts under the standard rules without draw
//! limits, keyed by their pieces and side to move, with the exact value of those that end the
//! game or that the endgame tables hold.

use fanorona_env::{Color, Position, Rules, Turn};

use crate::solver::Value;
use crate::tables::EndgameTables;

/// A turn-start position: white's points, black's points and the side to move (the whole
/// state under the prover's rules, so equal keys are equal positions: no hash collisions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// White's points.
    pub white: u64,
    /// Black's points.
    pub black: u64,
    /// The side to move is white.
    pub white_to_move: bool,
}

impl Key {
    /// The key of a turn-start position.
    #[inline]
    pub fn of(pos: &Position) -> Key {
        Key {
            white: pos.pieces(Color::White),
            black: pos.pieces(Color::Black),
            white_to_move: pos.side_to_move() == Color::White,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        if self.white_to_move {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The position of this key on `board` under the prover's rules, `None` where the
    /// pieces overlap or lie off the board.
    pub fn position(&self, board: &'static fanorona_env::Board) -> Option<Position> {
        Position::from_pieces(board, [self.white, self.black], self.side(), Rules::pure())
    }
}

/// The exact value of `pos` (a turn start) for its side to move where it is known without
/// search: the side to move has no piece or no turn (a loss now), or the tables hold it.
#[inline]
pub(crate) fn exact_value(pos: &Position, tables: Option<&EndgameTables>) -> Option<Value> {
    let us = pos.side_to_move();
    if pos.pieces(us) == 0 {
        return Some(Value::Loss(0));
    }
    if let Some(tables) = tables
        && pos.piece_count() as usize <= tables.pieces()
    {
        return tables.lookup(pos.pieces(us), pos.pieces(us.other()));
    }
    if pos.count_turns() == 0 {
        return Some(Value::Loss(0));
    }
    None
}

/// Whether `value`, the value of a position for its side to move `side`, is a win for
/// `attacker`.
#[inline]
pub(crate) fn wins_for(value: Value, side: Color, attacker: Color) -> bool {
    match value {
        Value::Win(_) => side == attacker,
        Value::Loss(_) => side != attacker,
        Value::Draw => false,
    }
}

/// Each legal complete turn of `pos` with the position after it, in generation order.
pub(crate) fn turns_and_children(pos: &Position) -> Vec<(Turn, Position)> {
    let mut out = Vec::new();
    pos.for_each_turn(|turn| {
        let mut next = *pos;
        next.play_turn_unchecked(turn);
        out.push((*turn, next));
    });
    out
}

/// The positions after each legal complete turn of `pos`, in generation order.
pub(crate) fn children(pos: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    pos.for_each_turn(|turn| {
        let mut next = *pos;
        next.play_turn_unchecked(turn);
        out.push(next);
    });
    out
}
