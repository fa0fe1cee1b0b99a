//! What a turn did, point by point, for the page to mark and animate: the points the piece
//! visited and the pieces each step captured.

use fanorona_env::{Point, Position, Step, Turn};
use serde::Serialize;

/// A finished turn as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnTrace {
    /// The side that played it (`white`, `black`).
    pub side: String,
    /// The turn in notation.
    pub notation: String,
    /// The points the piece stood on, from the start to the end (point names, `e3`).
    pub path: Vec<String>,
    /// For each movement, the points of the pieces it captured (empty for paika).
    pub captured: Vec<Vec<String>>,
}

impl TurnTrace {
    /// The trace of `turn`, played from `start`.
    pub fn of(start: &Position, turn: &Turn) -> TurnTrace {
        let board = start.board();
        let mut pos = *start;
        let mut path = vec![board.point_name(turn.from())];
        let mut captured = Vec::new();
        for step in pos.turn_steps(turn) {
            if let Step::Move { from, dir, .. } = step {
                let to = board
                    .neighbour(from, dir)
                    .expect("a legal step stays on the board");
                path.push(board.point_name(to));
                captured.push(captures(&pos, step));
            }
            pos.play_step_unchecked(step);
        }
        TurnTrace {
            side: start.side_to_move().to_string(),
            notation: turn.notation(board),
            path,
            captured,
        }
    }
}

/// The points of the pieces the legal `step` captures in `pos`, in board order.
pub fn captures(pos: &Position, step: Step) -> Vec<String> {
    let enemy = pos.side_to_move().other();
    let before = pos.pieces(enemy);
    let mut after = *pos;
    after.play_step_unchecked(step);
    let gone = before & !after.pieces(enemy);
    let board = pos.board();
    (0..board.points())
        .filter(|&p| gone >> p & 1 == 1)
        .map(|p| board.point_name(p as Point))
        .collect()
}
