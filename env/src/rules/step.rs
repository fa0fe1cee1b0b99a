//! One movement of one piece (a step), the unit of the step-level view of the game.

use super::board::{Direction, Point};

/// What a step does besides moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum StepKind {
    /// A non-capturing step.
    Paika = 0,
    /// Captures the line of enemies in front of the arrival point.
    Approach = 1,
    /// Captures the line of enemies behind the departure point.
    Withdrawal = 2,
}

impl StepKind {
    /// All kinds in encoding order.
    pub const ALL: [StepKind; 3] = [StepKind::Paika, StepKind::Approach, StepKind::Withdrawal];

    /// The kind with this index (`0..3`).
    pub const fn from_index(i: usize) -> StepKind {
        StepKind::ALL[i]
    }

    /// Whether the step captures.
    pub const fn is_capture(self) -> bool {
        !matches!(self, StepKind::Paika)
    }

    /// The notation marker: `A`, `W`, or nothing for paika.
    pub const fn marker(self) -> &'static str {
        match self {
            StepKind::Paika => "",
            StepKind::Approach => "A",
            StepKind::Withdrawal => "W",
        }
    }
}

/// A step: a piece moving one point along a line, or ending a capture chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Move the piece on `from` one point in `dir`, capturing as `kind` says.
    Move {
        /// The point the piece leaves.
        from: Point,
        /// The direction of travel.
        dir: Direction,
        /// Paika, approach or withdrawal.
        kind: StepKind,
    },
    /// End the capture chain in progress (legal only in mid-chain).
    Stop,
}

/// One step of a turn's path, packed as `direction * 3 + kind`.
pub(crate) type StepCode = u8;

pub(crate) const fn step_code(dir: Direction, kind: StepKind) -> StepCode {
    dir as u8 * 3 + kind as u8
}

pub(crate) const fn decode_step(code: StepCode) -> (Direction, StepKind) {
    (
        Direction::from_index(code as usize / 3),
        StepKind::from_index(code as usize % 3),
    )
}
