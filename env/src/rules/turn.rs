//! A complete turn: a paika step or a whole capture chain, as one move.

use super::board::{Board, Direction, MAX_POINTS, Point};
use super::step::{Step, StepCode, StepKind, decode_step, step_code};

/// Most steps one turn can have (a chain never revisits a point).
pub const MAX_TURN_STEPS: usize = MAX_POINTS - 1;

/// A complete turn: where the piece starts and ends, what it captures, and its path.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub(crate) from: Point,
    pub(crate) to: Point,
    pub(crate) len: u8,
    pub(crate) captured: u64,
    pub(crate) path: [StepCode; MAX_TURN_STEPS],
}

impl PartialEq for Turn {
    fn eq(&self, other: &Turn) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.captured == other.captured
            && self.path() == other.path()
    }
}

impl Eq for Turn {}

impl std::hash::Hash for Turn {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured, self.path()).hash(state);
    }
}

impl Turn {
    /// An empty turn starting (and, so far, ending) at `from`.
    pub(crate) fn start(from: Point) -> Turn {
        Turn {
            from,
            to: from,
            len: 0,
            captured: 0,
            path: [0; MAX_TURN_STEPS],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, dir: Direction, kind: StepKind) {
        self.path[self.len as usize] = step_code(dir, kind);
        self.len += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len -= 1;
    }

    /// The point the moving piece starts from.
    pub fn from(&self) -> Point {
        self.from
    }

    /// The point the moving piece ends on.
    pub fn to(&self) -> Point {
        self.to
    }

    /// The enemy pieces the turn removes.
    pub fn captured(&self) -> u64 {
        self.captured
    }

    /// Whether the turn captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Number of steps (0 only for "stop" in mid-chain).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the turn has no steps (ending a chain in progress).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn path(&self) -> &[StepCode] {
        &self.path[..self.len as usize]
    }

    /// Whether two turns lead to the same position (same start, end and captures).
    pub fn same_result(&self, other: &Turn) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }

    /// The direction and kind of each step.
    pub fn step_moves(&self) -> impl Iterator<Item = (Direction, StepKind)> + '_ {
        self.path().iter().map(|&c| decode_step(c))
    }

    /// The moving steps of the turn on `board` (without a final [`Step::Stop`]; see
    /// `Position::turn_steps` for the full step sequence).
    pub fn moves(&self, board: &Board) -> Vec<Step> {
        let mut at = self.from;
        self.step_moves()
            .map(|(dir, kind)| {
                let step = Step::Move {
                    from: at,
                    dir,
                    kind,
                };
                at = board.neighbour(at, dir).expect("turn path follows lines");
                step
            })
            .collect()
    }

    /// The points the piece visits, start included.
    pub fn points(&self, board: &Board) -> Vec<Point> {
        let mut at = self.from;
        let mut points = vec![at];
        for (dir, _) in self.step_moves() {
            at = board.neighbour(at, dir).expect("turn path follows lines");
            points.push(at);
        }
        points
    }

    /// The turn in notation, e.g. `c1d1Ad2A` (`stop` for an empty turn).
    pub fn notation(&self, board: &Board) -> String {
        if self.is_empty() {
            return "stop".to_string();
        }
        let mut text = board.point_name(self.from);
        let mut at = self.from;
        for (dir, kind) in self.step_moves() {
            at = board.neighbour(at, dir).expect("turn path follows lines");
            text.push_str(&board.point_name(at));
            text.push_str(kind.marker());
        }
        text
    }
}
