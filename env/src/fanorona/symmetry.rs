//! The four symmetries of the board (docs/rules.md): identity, left-right mirror, top-bottom mirror
//! and 180-degree rotation, as maps of points and directions. They preserve strong points and
//! the rules, so they map positions, masks and actions to equivalent ones.

use crate::rules::board::{Board, Direction, Point};

/// Number of board symmetries.
pub const NUM_SYMMETRIES: usize = 4;

/// One of the four symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No change.
    Identity = 0,
    /// Columns reversed.
    MirrorLeftRight = 1,
    /// Rows reversed.
    MirrorTopBottom = 2,
    /// Both reversed (180-degree rotation).
    Rotate180 = 3,
}

impl Symmetry {
    /// All symmetries, identity first.
    pub const ALL: [Symmetry; NUM_SYMMETRIES] = [
        Symmetry::Identity,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorTopBottom,
        Symmetry::Rotate180,
    ];

    /// The symmetry with this index.
    pub fn from_index(i: usize) -> Symmetry {
        Symmetry::ALL[i]
    }

    /// The image of a point.
    pub fn point(self, board: &Board, p: Point) -> Point {
        match self {
            Symmetry::Identity => p,
            Symmetry::MirrorLeftRight => board.mirror_point_horizontal(p),
            Symmetry::MirrorTopBottom => board.mirror_point_vertical(p),
            Symmetry::Rotate180 => board.rotate_point(p),
        }
    }

    /// The image of a direction.
    pub fn direction(self, d: Direction) -> Direction {
        match self {
            Symmetry::Identity => d,
            Symmetry::MirrorLeftRight => d.mirror_horizontal(),
            Symmetry::MirrorTopBottom => d.mirror_vertical(),
            Symmetry::Rotate180 => d.opposite(),
        }
    }

    /// The image of a bitboard.
    pub fn bitboard(self, board: &Board, set: u64) -> u64 {
        crate::Points(set).fold(0, |acc, p| acc | 1 << self.point(board, p))
    }
}
