//! Action encoding for one step: `action = (point * 8 + direction) * 3 + kind` (kind 0 paika,
//! 1 approach, 2 withdrawal), and `points * 24` for "stop the chain": 1081 actions on 9x5.

use crate::rules::board::{Board, Direction};
use crate::rules::step::{Step, StepKind};

/// Version of the action encoding and observation planes that networks are trained on; raise
/// it whenever either changes, so that saved networks made for the old one are refused.
pub const ENCODING_VERSION: u32 = 1;

/// Size of the action space of a board: 24 per point, plus "stop".
pub fn num_actions(board: &Board) -> usize {
    board.points() * 24 + 1
}

/// The index of "stop the chain".
pub fn stop_action(board: &Board) -> usize {
    board.points() * 24
}

/// The action index of a step.
#[inline]
pub fn step_to_action(board: &Board, step: Step) -> usize {
    match step {
        Step::Move { from, dir, kind } => (from as usize * 8 + dir.index()) * 3 + kind as usize,
        Step::Stop => stop_action(board),
    }
}

/// The step of an action index, or `None` for an index outside the action space. The step
/// may still be illegal (or even leave the board); legality is the position's business.
#[inline]
pub fn action_to_step(board: &Board, action: usize) -> Option<Step> {
    let stop = stop_action(board);
    if action == stop {
        return Some(Step::Stop);
    }
    if action > stop {
        return None;
    }
    Some(Step::Move {
        from: (action / 24) as u8,
        dir: Direction::from_index(action / 3 % 8),
        kind: StepKind::from_index(action % 3),
    })
}

/// Maps an action through a map of points and directions (kinds and "stop" are kept).
#[inline]
pub fn map_action(
    board: &Board,
    action: usize,
    point: impl Fn(u8) -> u8,
    dir: impl Fn(Direction) -> Direction,
) -> usize {
    match action_to_step(board, action) {
        Some(Step::Move { from, dir: d, kind }) => step_to_action(
            board,
            Step::Move {
                from: point(from),
                dir: dir(d),
                kind,
            },
        ),
        _ => action,
    }
}

/// The action seen from the other side of the board (180-degree rotation); its own inverse.
#[inline]
pub fn rotate_action(board: &Board, action: usize) -> usize {
    map_action(
        board,
        action,
        |p| board.rotate_point(p),
        Direction::opposite,
    )
}
