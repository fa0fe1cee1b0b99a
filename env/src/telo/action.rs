//! The action encoding: `0..9` place a piece on a point, `9 + point * 8 + direction` moves
//! the piece on `point` one step in `direction`.

use super::POINTS;
use crate::rules::board::{Direction, Point};

/// First movement action: the placements come before.
pub(super) const FIRST_MOVE: usize = POINTS;

/// The action's meaning: `Ok(point)` a placement, `Err((from, dir))` a move.
pub(super) fn decode(action: usize) -> Result<Point, (Point, Direction)> {
    if action < FIRST_MOVE {
        Ok(action as Point)
    } else {
        let m = action - FIRST_MOVE;
        Err(((m / 8) as Point, Direction::from_index(m % 8)))
    }
}

/// The action that moves the piece on `from` one step in `dir`.
pub(super) fn move_action(from: Point, dir: Direction) -> usize {
    FIRST_MOVE + from as usize * 8 + dir.index()
}
