//! Board geometry: points, lines and per-direction tables for any odd board.
//!
//! Point `p` of a `W x H` board has column `p % W` and row `p / W` (row 0 is rank 1, white's
//! side). A set of points is a `u64` bitboard. Tables are computed once per board size and
//! shared as `&'static Board`.

use std::sync::OnceLock;

use super::capture_probe::SLOT_DIRECTIONS;
use super::error::BoardError;

/// A point index on the board, `0..width*height`.
pub type Point = u8;

/// The eight line directions, in action-encoding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Direction {
    /// Up: towards higher rows (black's side).
    N = 0,
    /// Up and right (diagonal).
    NE = 1,
    /// Right.
    E = 2,
    /// Down and right (diagonal).
    SE = 3,
    /// Down: towards row 1 (white's side).
    S = 4,
    /// Down and left (diagonal).
    SW = 5,
    /// Left.
    W = 6,
    /// Up and left (diagonal).
    NW = 7,
}

impl Direction {
    /// All directions in index order.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The direction with this index (`0..8`), wrapping.
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 7]
    }

    /// The index of this direction, `0..8`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 4)
    }

    /// Column and row change of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// Whether this is a diagonal direction (only strong points have diagonal lines).
    pub const fn is_diagonal(self) -> bool {
        (self as u8) & 1 == 1
    }

    /// The direction after a left-right mirror.
    pub const fn mirror_horizontal(self) -> Direction {
        Direction::from_index(8 - self as usize)
    }

    /// The direction after a top-bottom mirror.
    pub const fn mirror_vertical(self) -> Direction {
        Direction::from_index(12 - self as usize)
    }
}

/// Largest number of points a board may have (one bitboard).
pub const MAX_POINTS: usize = 64;

/// Marker for "no neighbour" in [`Board::neighbour`].
pub const NO_POINT: Point = u8::MAX;

/// For one point, what a capture from it looks at: its neighbours (where the piece steps, and
/// withdrawal targets) and the points two steps away along a line (approach targets), as
/// bitboards, as masks by direction, by slot (see `capture_probe`), and as rotations that
/// bring the rows of the windows around the point to bit 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CaptureLines {
    /// All neighbours.
    pub(crate) neighbours: u64,
    /// All points two steps away along a line.
    pub(crate) beyonds: u64,
    /// All points a capture from here can strike.
    pub(crate) targets: u64,
    /// The directions with a neighbour.
    pub(crate) neighbour_dirs: u8,
    /// The directions with a point two steps away.
    pub(crate) beyond_dirs: u8,
    /// The neighbours that exist, by slot.
    pub(crate) neighbour_slots: u8,
    /// The points two steps away that exist, by slot.
    pub(crate) beyond_slots: u8,
    /// Right rotations bringing the lower, middle and upper row of the 3 x 3 window centred
    /// here to bit 0 (modulo 64; bits of missing points are garbage, masked off later).
    pub(crate) near_rows: [u8; 3],
    /// The same for the 5 x 5 window centred here.
    pub(crate) far_rows: [u8; 3],
}

/// The geometry of one board size, with precomputed tables.
#[derive(Debug)]
pub struct Board {
    width: u8,
    height: u8,
    all: u64,
    strong: u64,
    /// `has_line[d]`: points with a line leaving in direction `d`.
    has_line: [u64; 8],
    /// `shift[d]`: index change of one step in direction `d`.
    shift: [i8; 8],
    /// `neighbour[d][p]`: the point one step from `p` in direction `d`, or [`NO_POINT`].
    neighbour: [[Point; MAX_POINTS]; 8],
    /// `ray[d][p]`: the points beyond `p` in direction `d` along the line, `p` excluded.
    ray: [[u64; MAX_POINTS]; 8],
    /// `capture_lines[p]`: what captures from `p` look at, per direction.
    capture_lines: [CaptureLines; MAX_POINTS],
}

const MAX_SIDE: usize = 32;
static BOARDS: [[OnceLock<Board>; MAX_SIDE]; MAX_SIDE] =
    [const { [const { OnceLock::new() }; MAX_SIDE] }; MAX_SIDE];

impl Board {
    /// The board of the given size: both sides odd and at least 3, at most 64 points.
    pub fn new(width: usize, height: usize) -> Result<&'static Board, BoardError> {
        if width < 3 || height < 3 || width.is_multiple_of(2) || height.is_multiple_of(2) {
            return Err(BoardError::NotOdd { width, height });
        }
        // Checked: a huge width times 3 could wrap around to a small product.
        if width.checked_mul(height).is_none_or(|n| n > MAX_POINTS) {
            return Err(BoardError::TooLarge { width, height });
        }
        Ok(BOARDS[width][height].get_or_init(|| Board::build(width, height)))
    }

    /// The standard 9 x 5 board.
    pub fn standard() -> &'static Board {
        Board::new(9, 5).expect("9x5 is a valid board")
    }

    /// Parses a size written `WxH` (e.g. `9x5`).
    pub fn parse(text: &str) -> Result<&'static Board, BoardError> {
        let bad = || BoardError::Syntax(text.to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let w = w.trim().parse().map_err(|_| bad())?;
        let h = h.trim().parse().map_err(|_| bad())?;
        Board::new(w, h)
    }

    fn build(width: usize, height: usize) -> Board {
        let n = width * height;
        let mut board = Board {
            width: width as u8,
            height: height as u8,
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            strong: 0,
            has_line: [0; 8],
            shift: [0; 8],
            neighbour: [[NO_POINT; MAX_POINTS]; 8],
            ray: [[0; MAX_POINTS]; 8],
            capture_lines: [CaptureLines::default(); MAX_POINTS],
        };
        for p in 0..n {
            if (p % width + p / width).is_multiple_of(2) {
                board.strong |= 1 << p;
            }
        }
        for d in Direction::ALL {
            let (dx, dy) = d.delta();
            board.shift[d.index()] = (dy * width as i32 + dx) as i8;
            for p in 0..n {
                let (x, y) = ((p % width) as i32, (p / width) as i32);
                if d.is_diagonal() && board.strong & (1 << p) == 0 {
                    continue;
                }
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= width as i32 || ny >= height as i32 {
                    continue;
                }
                board.has_line[d.index()] |= 1 << p;
                board.neighbour[d.index()][p] = (ny * width as i32 + nx) as Point;
            }
            for p in 0..n {
                let mut ray = 0;
                let mut q = board.neighbour[d.index()][p];
                while q != NO_POINT {
                    ray |= 1u64 << q;
                    q = board.neighbour[d.index()][q as usize];
                }
                board.ray[d.index()][p] = ray;
            }
        }
        for p in 0..n {
            board.capture_lines[p] = board.lines_of(p);
        }
        board
    }

    /// The capture lines of point `p`, from the neighbour table.
    fn lines_of(&self, p: usize) -> CaptureLines {
        let bit = |q: Point| if q == NO_POINT { 0 } else { 1u64 << q };
        let mut lines = CaptureLines::default();
        for d in 0..8 {
            let to = self.neighbour[d][p];
            if to == NO_POINT {
                continue;
            }
            let beyond = bit(self.neighbour[d][to as usize]);
            let behind = bit(self.neighbour[(d + 4) & 7][p]);
            lines.neighbours |= 1 << to;
            lines.beyonds |= beyond;
            lines.targets |= beyond | behind;
            lines.neighbour_dirs |= 1 << d;
            lines.beyond_dirs |= u8::from(beyond != 0) << d;
        }
        for (slot, &d) in SLOT_DIRECTIONS.iter().enumerate() {
            lines.neighbour_slots |= u8::from(lines.neighbour_dirs & (1 << d) != 0) << slot;
            lines.beyond_slots |= u8::from(lines.beyond_dirs & (1 << d) != 0) << slot;
        }
        let w = self.width as i64;
        let rotation = |offset: i64| (p as i64 + offset).rem_euclid(64) as u8;
        lines.near_rows = [-w - 1, -1, w - 1].map(rotation);
        lines.far_rows = [-2 * w - 2, -2, 2 * w - 2].map(rotation);
        lines
    }

    /// What captures from `p` look at.
    #[inline]
    pub(crate) fn capture_lines(&self, p: Point) -> &CaptureLines {
        &self.capture_lines[p as usize]
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of points.
    pub fn points(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// All points of the board as a bitboard.
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The strong points (those with diagonal lines).
    pub fn strong(&self) -> u64 {
        self.strong
    }

    /// The point at a column and row (both from 0).
    pub fn point(&self, column: usize, row: usize) -> Point {
        (row * self.width as usize + column) as Point
    }

    /// Column (from 0) of a point.
    pub fn column(&self, p: Point) -> usize {
        p as usize % self.width as usize
    }

    /// Row (from 0) of a point.
    pub fn row(&self, p: Point) -> usize {
        p as usize / self.width as usize
    }

    /// The neighbour of `p` in direction `d` along a line, if there is one.
    #[inline]
    pub fn neighbour(&self, p: Point, d: Direction) -> Option<Point> {
        let q = self.neighbour[d.index()][p as usize];
        (q != NO_POINT).then_some(q)
    }

    /// Raw neighbour lookup: [`NO_POINT`] where there is no line.
    #[inline]
    pub(crate) fn neighbour_raw(&self, p: Point, d: usize) -> Point {
        self.neighbour[d][p as usize]
    }

    /// Points with a line leaving in direction `d`.
    #[inline]
    pub fn has_line(&self, d: Direction) -> u64 {
        self.has_line[d.index()]
    }

    /// The points beyond `p` in direction `d` along the line (`p` excluded).
    #[inline]
    pub fn ray(&self, p: Point, d: Direction) -> u64 {
        self.ray[d.index()][p as usize]
    }

    /// Moves every point of `set` one step in direction `d`; points without a line vanish.
    #[inline]
    pub fn shift(&self, set: u64, d: usize) -> u64 {
        // The points kept have their neighbour on the board, so no bit wraps around.
        (set & self.has_line[d]).rotate_left(self.shift[d] as u32 & 63)
    }

    /// The points from which one step in direction `d` lands in `set`.
    #[inline]
    pub fn pre(&self, set: u64, d: usize) -> u64 {
        self.shift(set, (d + 4) & 7)
    }

    /// The contiguous run of `pieces` starting at `start` and going on in direction `d`,
    /// stopping at the first point not in `pieces` or at the edge. Empty if `start` is not in
    /// `pieces`.
    #[inline]
    pub fn run(&self, start: Point, d: usize, pieces: u64) -> u64 {
        let line = (1u64 << start) | self.ray[d][start as usize];
        let blockers = line & !pieces;
        if blockers == 0 {
            return line;
        }
        if self.shift[d] > 0 {
            // Bits increase along the line: keep those below the first blocker.
            line & ((blockers & blockers.wrapping_neg()) - 1)
        } else {
            // Bits decrease along the line: keep those above the highest blocker.
            let top = 63 - blockers.leading_zeros();
            line & (u64::MAX << top << 1)
        }
    }

    /// The name of a point, e.g. `e3`.
    pub fn point_name(&self, p: Point) -> String {
        format!(
            "{}{}",
            (b'a' + self.column(p) as u8) as char,
            self.row(p) + 1
        )
    }

    /// Parses a point name such as `e3` (case-insensitive).
    pub fn parse_point(&self, text: &str) -> Option<Point> {
        let mut chars = text.chars();
        let c = chars.next()?.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        let column = (c as u8 - b'a') as usize;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        if column >= self.width() || row == 0 || row > self.height() || digits.starts_with('0') {
            return None;
        }
        Some(self.point(column, row - 1))
    }

    /// The image of a point under a left-right mirror.
    pub fn mirror_point_horizontal(&self, p: Point) -> Point {
        self.point(self.width() - 1 - self.column(p), self.row(p))
    }

    /// The image of a point under a top-bottom mirror.
    pub fn mirror_point_vertical(&self, p: Point) -> Point {
        self.point(self.column(p), self.height() - 1 - self.row(p))
    }

    /// The image of a point under a 180-degree rotation.
    pub fn rotate_point(&self, p: Point) -> Point {
        (self.points() - 1 - p as usize) as Point
    }

    /// Number of lines (pairs of joined neighbours) on the board.
    pub fn line_count(&self) -> usize {
        Direction::ALL[..4]
            .iter()
            .map(|&d| self.has_line(d).count_ones() as usize)
            .sum()
    }
}

/// Writes the size as `WxH`, the form [`Board::parse`] reads.
impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// Iterates over the points of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Points(pub u64);

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as Point;
        self.0 &= self.0 - 1;
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_108_lines() {
        let b = Board::standard();
        let count =
            |ds: &[Direction]| -> u32 { ds.iter().map(|&d| b.has_line(d).count_ones()).sum() };
        assert_eq!(count(&[Direction::E]), 40);
        assert_eq!(count(&[Direction::N]), 36);
        assert_eq!(count(&[Direction::NE, Direction::NW]), 32);
        assert_eq!(b.line_count(), 108);
    }

    #[test]
    fn strong_points_have_diagonals() {
        let b = Board::standard();
        let a1 = b.parse_point("a1").unwrap();
        let b1 = b.parse_point("b1").unwrap();
        let e3 = b.parse_point("e3").unwrap();
        assert!(b.strong() & (1 << a1) != 0 && b.strong() & (1 << e3) != 0);
        assert!(b.strong() & (1 << b1) == 0);
        assert_eq!(b.neighbour(a1, Direction::NE), b.parse_point("b2"));
        assert_eq!(b.neighbour(b1, Direction::NE), None);
        assert_eq!(b.neighbour(e3, Direction::SW), b.parse_point("d2"));
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(matches!(Board::new(8, 5), Err(BoardError::NotOdd { .. })));
        assert!(matches!(Board::new(1, 5), Err(BoardError::NotOdd { .. })));
        assert!(matches!(Board::new(9, 9), Err(BoardError::TooLarge { .. })));
        // (2^64 + 5) / 3, odd: times 3 it wraps around to 5.
        assert!(matches!(
            Board::parse("6148914691236517207x3"),
            Err(BoardError::TooLarge { .. })
        ));
        assert!(Board::parse("9by5").is_err());
        assert_eq!(Board::parse("7x9").unwrap().points(), 63);
        assert_eq!(Board::parse("3x21").unwrap().height(), 21);
    }

    #[test]
    fn run_stops_at_first_gap() {
        let b = Board::standard();
        let p = |s| b.parse_point(s).unwrap();
        let pieces = (1u64 << p("c5")) | (1 << p("d5")) | (1 << p("e5")) | (1 << p("a5"));
        let run = b.run(p("e5"), Direction::W.index(), pieces);
        assert_eq!(run, (1 << p("c5")) | (1 << p("d5")) | (1 << p("e5")));
        let run = b.run(p("c5"), Direction::E.index(), pieces);
        assert_eq!(run, (1 << p("c5")) | (1 << p("d5")) | (1 << p("e5")));
        assert_eq!(b.run(p("b5"), Direction::E.index(), pieces), 0);
    }

    #[test]
    fn point_names_round_trip() {
        for (w, h) in [(9, 5), (3, 21), (21, 3), (5, 5)] {
            let b = Board::new(w, h).unwrap();
            for p in 0..b.points() as Point {
                assert_eq!(b.parse_point(&b.point_name(p)), Some(p));
            }
        }
        let b = Board::standard();
        assert_eq!(b.parse_point("j1"), None);
        assert_eq!(b.parse_point("a6"), None);
        assert_eq!(b.parse_point("a0"), None);
        assert_eq!(b.parse_point("a01"), None);
    }
}
