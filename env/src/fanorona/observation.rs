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

use crate::rules::board::{Board, Direction};
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

/// A bitboard in the mover's frame: bit `c` is the point of cell `c`.
#[inline]
fn mover_bits(board: &Board, mover: Color, set: u64) -> u64 {
    match mover {
        Color::White => set,
        // Cell c is point n - 1 - c: reverse the bits, then drop the 64 - n empty ones.
        Color::Black => set.reverse_bits() >> (64 - board.points()),
    }
}

/// `BYTE_CELLS[b]`: the eight cells of the bits of byte `b`, lowest bit first.
static BYTE_CELLS: [[f32; 8]; 256] = byte_cells();

const fn byte_cells() -> [[f32; 8]; 256] {
    let mut table = [[0.0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b][bit] = 1.0;
            }
            bit += 1;
        }
        b += 1;
    }
    table
}

/// Writes a 0/1 plane from a mover-frame bitboard, eight cells at a time from a table.
#[inline]
fn write_bits(plane: &mut [f32], mut bits: u64) {
    let mut chunks = plane.chunks_exact_mut(8);
    for chunk in &mut chunks {
        chunk.copy_from_slice(&BYTE_CELLS[(bits & 0xFF) as usize]);
        bits >>= 8;
    }
    let cells = &BYTE_CELLS[(bits & 0xFF) as usize];
    for (cell, &value) in chunks.into_remainder().iter_mut().zip(cells) {
        *cell = value;
    }
}

/// One observation plane in compact form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plane {
    /// 1 at the cells of the set bits of a mover-frame bitboard (bit `c` is cell `c`), 0
    /// elsewhere.
    Cells(u64),
    /// The same value in every cell.
    Level(f32),
}

/// The observation of `pos` plane by plane in compact form, given how many times the current
/// turn-start position has occurred: what [`write_observation`] writes out cell by cell, and
/// what a network whose first layer adds only its non-zero inputs' weights reads directly.
pub fn observation_planes(pos: &Position, occurrences: u32) -> [Plane; NUM_PLANES] {
    observation_planes_of(pos, occurrences, pos.side_to_move())
}

/// The observation of `pos` as `viewer` sees it: [`observation_planes`] with `viewer` in the
/// mover's place (its pieces on plane 0, the board turned for black, the Vela planes for its
/// side), whoever is to act; the chain planes show the chain in progress, if any. At
/// `viewer`'s turn it is the usual observation.
pub fn observation_planes_of(
    pos: &Position,
    occurrences: u32,
    viewer: Color,
) -> [Plane; NUM_PLANES] {
    let board = pos.board();
    let bits = |set| Plane::Cells(mover_bits(board, viewer, set));
    let (chain_piece, visited, last_dir) = match pos.chain() {
        Some(chain) => {
            let dir = match viewer {
                Color::White => chain.last_dir,
                Color::Black => chain.last_dir.opposite(),
            };
            (1u64 << chain.piece, chain.visited, Some(dir))
        }
        None => (0, 0, None),
    };
    let rules = pos.rules();
    let limit = rules.no_capture_limit.unwrap_or(100).max(1) as f32;
    let repetition = match rules.repetition_limit {
        Some(limit) => (occurrences.saturating_sub(1) as f32 / (limit.max(2) - 1) as f32).min(1.0),
        None => 0.0,
    };
    let vela = pos.vela_active();
    let flag = |on: bool| Plane::Level(if on { 1.0 } else { 0.0 });
    let mut planes = [Plane::Level(0.0); NUM_PLANES];
    planes[plane::OWN] = bits(pos.pieces(viewer));
    planes[plane::ENEMY] = bits(pos.pieces(viewer.other()));
    planes[plane::CHAIN_PIECE] = bits(chain_piece);
    planes[plane::VISITED] = bits(visited);
    if let Some(dir) = last_dir {
        planes[direction_plane(dir)] = Plane::Level(1.0);
    }
    planes[plane::NO_CAPTURE] = Plane::Level((pos.no_capture_turns() as f32 / limit).min(1.0));
    planes[plane::REPETITION] = Plane::Level(repetition);
    planes[plane::FIRST_TURN] = flag(rules.first_turn_single_capture && pos.turn_number() == 1);
    planes[plane::VELA_CAPTURE] = flag(vela && rules.vela == Some(viewer));
    planes[plane::VELA_PAIKA] = flag(vela && rules.vela != Some(viewer));
    planes[plane::MANDATORY] = flag(rules.mandatory_continuation);
    planes
}

/// Writes the observation of `pos` into `out` (length `NUM_PLANES * points`), given how many
/// times the current turn-start position has occurred. Every cell is written once.
pub fn write_observation(pos: &Position, occurrences: u32, out: &mut [f32]) {
    write_observation_of(pos, occurrences, pos.side_to_move(), out);
}

/// Writes the observation of `pos` as `viewer` sees it ([`observation_planes_of`]) into `out`.
pub fn write_observation_of(pos: &Position, occurrences: u32, viewer: Color, out: &mut [f32]) {
    let n = pos.board().points();
    assert_eq!(
        out.len(),
        NUM_PLANES * n,
        "observation buffer has the wrong length"
    );
    for (plane, cells) in observation_planes_of(pos, occurrences, viewer)
        .into_iter()
        .zip(out.chunks_exact_mut(n))
    {
        match plane {
            Plane::Cells(bits) => write_bits(cells, bits),
            Plane::Level(value) => cells.fill(value),
        }
    }
}

/// The direction plane index for a direction in the mover's frame.
pub fn direction_plane(dir: Direction) -> usize {
    plane::LAST_DIRECTION + dir.index()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_sees_the_board_from_its_own_side() {
        // Black in mid-chain: c3 came from d3 moving W.
        let pos = Position::from_fen("5/5/2B2/5/W4 b 7 3 c3:c3,d3:W").unwrap();
        let n = pos.board().points();
        let (mut mover, mut black) = (vec![0.0; NUM_PLANES * n], vec![0.0; NUM_PLANES * n]);
        write_observation(&pos, 1, &mut mover);
        write_observation_of(&pos, 1, Color::Black, &mut black);
        assert_eq!(mover, black, "the side to act sees the usual observation");
        // White's view is in the absolute frame (cell = point), with its own piece on plane 0.
        let point = |name: &str| pos.board().parse_point(name).unwrap();
        let white = observation_planes_of(&pos, 1, Color::White);
        assert_eq!(white[plane::OWN], Plane::Cells(1 << point("a1")));
        assert_eq!(white[plane::ENEMY], Plane::Cells(1 << point("c3")));
        assert_eq!(white[plane::CHAIN_PIECE], Plane::Cells(1 << point("c3")));
        assert_eq!(white[direction_plane(Direction::W)], Plane::Level(1.0));
        assert_eq!(white[direction_plane(Direction::E)], Plane::Level(0.0));
    }

    #[test]
    fn planes_follow_the_documented_layout() {
        // Black in mid-chain on 5x5: the piece on c3 came from d3 (moving W) and may take
        // a1 by approach (c3b2A).
        let pos = Position::from_fen("5/5/2B2/5/W4 b 7 3 c3:c3,d3:W")
            .unwrap()
            .with_rules(crate::Rules::parse("no-capture=10,mandatory").unwrap());
        let board = pos.board();
        let n = board.points();
        let mut out = vec![-1.0; NUM_PLANES * n];
        write_observation(&pos, 1, &mut out);
        let cell = |name: &str| mover_cell(board, Color::Black, board.parse_point(name).unwrap());
        let ones = |plane: usize| -> Vec<usize> {
            (0..n).filter(|&c| out[plane * n + c] == 1.0).collect()
        };
        assert_eq!(ones(plane::OWN), [cell("c3")]);
        // The compact form: bitboards of cells and levels.
        let planes = observation_planes(&pos, 1);
        assert_eq!(planes[plane::ENEMY], Plane::Cells(1 << cell("a1")));
        assert_eq!(planes[plane::NO_CAPTURE], Plane::Level(0.7));
        assert_eq!(ones(plane::ENEMY), [cell("a1")]);
        // Turned for black: a1 (column 0, row 0) is seen at column 4, row 4.
        assert_eq!(cell("a1"), 4 * 5 + 4);
        assert_eq!(ones(plane::CHAIN_PIECE), [cell("c3")]);
        let mut visited = vec![cell("c3"), cell("d3")];
        visited.sort();
        assert_eq!(ones(plane::VISITED), visited);
        // West for black is east in the mover's frame.
        for dir in Direction::ALL {
            let expected = if dir == Direction::E { n } else { 0 };
            assert_eq!(ones(direction_plane(dir)).len(), expected, "{dir:?}");
        }
        assert!(out[plane::NO_CAPTURE * n..][..n].iter().all(|&x| x == 0.7));
        assert!(out[plane::REPETITION * n..][..n].iter().all(|&x| x == 0.0));
        assert_eq!(ones(plane::MANDATORY).len(), n);
        for p in [plane::FIRST_TURN, plane::VELA_CAPTURE, plane::VELA_PAIKA] {
            assert!(ones(p).is_empty());
        }
        assert!(
            out.iter().all(|&x| (0.0..=1.0).contains(&x)),
            "every cell written"
        );
    }
}
