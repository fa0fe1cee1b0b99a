//! The board's eight symmetries: the square's four rotations, each with and without a
//! mirror; all of them keep the lines of the board.

use crate::rules::board::{Direction, Point};

/// The image of a point under symmetry `sym`: a mirror of the columns if `sym >= 4`, then
/// `sym % 4` quarter turns clockwise.
pub(super) fn map_point(sym: usize, p: Point) -> Point {
    let (mut column, mut row) = (p % 3, p / 3);
    if sym >= 4 {
        column = 2 - column;
    }
    for _ in 0..sym % 4 {
        (column, row) = (row, 2 - column);
    }
    row * 3 + column
}

/// The image of a direction under symmetry `sym` (see [`map_point`]).
pub(super) fn map_direction(sym: usize, dir: Direction) -> Direction {
    let dir = if sym >= 4 {
        dir.mirror_horizontal()
    } else {
        dir
    };
    Direction::from_index(dir.index() + 2 * (sym % 4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::{Board, Points};
    use crate::telo::state::LINES;
    use crate::telo::{POINTS, TELO_SYMMETRIES};

    #[test]
    fn symmetries_keep_the_lines_of_the_board() {
        let board = Board::new(3, 3).unwrap();
        for sym in 0..TELO_SYMMETRIES {
            let mut image = [u8::MAX; POINTS];
            for p in 0..POINTS as Point {
                image[map_point(sym, p) as usize] = p;
                for dir in Direction::ALL {
                    let mapped = board
                        .neighbour(map_point(sym, p), map_direction(sym, dir))
                        .map(|q| q as usize);
                    let expected = board.neighbour(p, dir).map(|q| map_point(sym, q) as usize);
                    assert_eq!(mapped, expected, "sym {sym} point {p} dir {dir:?}");
                }
            }
            assert!(
                image.iter().all(|&p| p != u8::MAX),
                "sym {sym} is a bijection"
            );
            for line in LINES {
                let mapped = Points(line as u64).fold(0u16, |acc, p| acc | 1 << map_point(sym, p));
                assert!(LINES.contains(&mapped), "sym {sym} maps a line to a line");
            }
        }
        // The eight maps are distinct.
        let images: std::collections::HashSet<Vec<Point>> = (0..TELO_SYMMETRIES)
            .map(|s| (0..POINTS as Point).map(|p| map_point(s, p)).collect())
            .collect();
        assert_eq!(images.len(), TELO_SYMMETRIES);
    }
}
