//! The observation tensor: planes of `height x width` cells from the point of view of the
//! player to act (the board turned 180 degrees for black, so the mover always plays "up").
//! Together the planes determine the legal actions (the observation is Markov).
//!
//! | plane | content |
//! |---|---|
//! | 0 | the mover's pieces |
//! | 1 | the opponent's pieces |
//! | 2 | the piece in mid-chain |
//! | 3 | points visited this turn |
//! | 4..12 | the chain's last direction, one plane per direction (all ones) |
//! | 12 | no-capture counter / limit (all cells; limit 100 if none) |
//! | 13 | repetition: (occurrences - 1) / (limit - 1) of the current position |
//! | 14 | first-turn rule in force: this turn may capture only once |
//! | 15 | Vela: the mover must capture exactly one piece |
//! | 16 | Vela: the mover may only make paika moves |
//! | 17 | mandatory continuation: a chain may not be stopped |
//!
//! Cell `(row, column)` of a plane is at `row * width + column`, row 0 being the mover's home
//! row (rank 1 for white, the top rank for black).

use crate::rules::board::{Board, Direction, Points};
use crate::rules::color::Color;
use crate::rules::position::Position;

/// Number of observation planes.
pub const NUM_PLANES: usize = 18;

/// Plane indices of the observation.
pub mod plane {
    /// The mover's pieces.
    pub const OWN: usize = 0;
    /// The opponent's pieces.
    pub const ENEMY: usize = 1;
    /// The piece in mid-chain.
    pub const CHAIN_PIECE: usize = 2;
    /// Points visited this turn.
    pub const VISITED: usize = 3;
    /// First of the eight last-direction planes.
    pub const LAST_DIRECTION: usize = 4;
    /// The no-capture counter.
    pub const NO_CAPTURE: usize = 12;
    /// The repetition count.
    pub const REPETITION: usize = 13;
    /// The first-turn single-capture rule applies.
    pub const FIRST_TURN: usize = 14;
    /// Vela: the mover captures one.
    pub const VELA_CAPTURE: usize = 15;
    /// Vela: the mover plays paika.
    pub const VELA_PAIKA: usize = 16;
    /// Mandatory continuation.
    pub const MANDATORY: usize = 17;
}

/// The cell of point `p` in the mover's frame.
#[inline]
pub fn mover_cell(board: &Board, mover: Color, p: u8) -> usize {
    match mover {
        Color::White => p as usize,
        Color::Black => board.points() - 1 - p as usize,
    }
}

/// Writes the observation of `pos` into `out` (length `NUM_PLANES * points`), given how many
/// times the current turn-start position has occurred.
pub fn write_observation(pos: &Position, occurrences: u32, out: &mut [f32]) {
    let board = pos.board();
    let n = board.points();
    assert_eq!(
        out.len(),
        NUM_PLANES * n,
        "observation buffer has the wrong length"
    );
    out.fill(0.0);
    let mover = pos.side_to_move();
    let fill_bits = |out: &mut [f32], plane: usize, set: u64| {
        for p in Points(set) {
            out[plane * n + mover_cell(board, mover, p)] = 1.0;
        }
    };
    let fill_plane = |out: &mut [f32], plane: usize, value: f32| {
        out[plane * n..(plane + 1) * n].fill(value);
    };
    fill_bits(out, plane::OWN, pos.pieces(mover));
    fill_bits(out, plane::ENEMY, pos.pieces(mover.other()));
    if let Some(chain) = pos.chain() {
        fill_bits(out, plane::CHAIN_PIECE, 1 << chain.piece);
        fill_bits(out, plane::VISITED, chain.visited);
        let dir = match mover {
            Color::White => chain.last_dir,
            Color::Black => chain.last_dir.opposite(),
        };
        fill_plane(out, plane::LAST_DIRECTION + dir.index(), 1.0);
    }
    let rules = pos.rules();
    let limit = rules.no_capture_limit.unwrap_or(100).max(1) as f32;
    fill_plane(
        out,
        plane::NO_CAPTURE,
        (pos.no_capture_turns() as f32 / limit).min(1.0),
    );
    if let Some(limit) = rules.repetition_limit {
        let value = (occurrences.saturating_sub(1) as f32 / (limit.max(2) - 1) as f32).min(1.0);
        fill_plane(out, plane::REPETITION, value);
    }
    if rules.first_turn_single_capture && pos.turn_number() == 1 {
        fill_plane(out, plane::FIRST_TURN, 1.0);
    }
    if pos.vela_active() {
        let plane = if rules.vela == Some(mover) {
            plane::VELA_CAPTURE
        } else {
            plane::VELA_PAIKA
        };
        fill_plane(out, plane, 1.0);
    }
    if rules.mandatory_continuation {
        fill_plane(out, plane::MANDATORY, 1.0);
    }
}

/// The direction plane index for a direction in the mover's frame.
pub fn direction_plane(dir: Direction) -> usize {
    plane::LAST_DIRECTION + dir.index()
}
