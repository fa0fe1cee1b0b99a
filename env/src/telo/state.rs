//! The Telo position and its rules: placing, moving along the lines, three in a row.

use super::action::move_action;
use super::{POINTS, TELO_PIECES, TeloError};
use crate::rules::board::{Board, Direction, Points};
use crate::rules::color::Color;

/// The eight lines of three.
pub(super) const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A game of Fanoron-Telo, one placement or move per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Telo {
    /// Bitboards of white and black pieces, bit `row * 3 + column`.
    pub(super) pieces: [u16; 2],
    /// The side to move.
    pub(super) side: Color,
    /// Actions played so far.
    pub(super) plies: u32,
    /// The draw limit on actions, if any.
    pub(super) max_plies: Option<u32>,
    /// `None` while the game goes on; `Some(None)` a draw, `Some(Some(c))` a win for `c`.
    pub(super) result: Option<Option<Color>>,
}

impl Default for Telo {
    fn default() -> Telo {
        Telo::new()
    }
}

impl Telo {
    /// Actions played before a game is drawn, unless set otherwise.
    pub const DEFAULT_MAX_PLIES: u32 = 100;

    /// The empty board, white to place, drawn after [`Telo::DEFAULT_MAX_PLIES`] actions.
    pub fn new() -> Telo {
        Telo::with_max_plies(Some(Telo::DEFAULT_MAX_PLIES))
    }

    /// The empty board with another draw limit (`None`: no limit; games may never end).
    pub fn with_max_plies(max_plies: Option<u32>) -> Telo {
        Telo::from_parts(0, 0, Color::White, 0, max_plies).expect("the empty board is valid")
    }

    /// A position from bitboards (bit `row * 3 + column`), the side to move and the plies
    /// played. The piece counts must fit the turn order: white places first.
    pub fn from_parts(
        white: u16,
        black: u16,
        side: Color,
        plies: u32,
        max_plies: Option<u32>,
    ) -> Result<Telo, TeloError> {
        let impossible = |why: String| Err(TeloError::Impossible(why));
        if (white | black) >> POINTS != 0 || white & black != 0 {
            return impossible("pieces must be on distinct points of the 3x3 board".into());
        }
        let (w, b) = (white.count_ones(), black.count_ones());
        if w > TELO_PIECES || b > TELO_PIECES {
            return impossible(format!("{w} white and {b} black pieces: at most 3 each"));
        }
        let placing = w + b < 2 * TELO_PIECES;
        let expected_side = if w == b { Color::White } else { Color::Black };
        if placing && (w < b || w > b + 1 || side != expected_side) {
            return impossible(format!(
                "{w} white and {b} black pieces with {side} to move: white places first"
            ));
        }
        if plies < w + b {
            return impossible(format!("{plies} plies cannot place {} pieces", w + b));
        }
        let mut telo = Telo {
            pieces: [white, black],
            side,
            plies,
            max_plies,
            result: None,
        };
        telo.result = telo.judge();
        Ok(telo)
    }

    /// The board geometry (the 3 x 3 Fanorona board).
    pub fn board(&self) -> &'static Board {
        Board::new(3, 3).expect("3x3 is a valid board")
    }

    /// The pieces of one side, bit `row * 3 + column`.
    pub fn pieces(&self, color: Color) -> u16 {
        self.pieces[color.index()]
    }

    /// Actions played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The draw limit on actions, if any.
    pub fn max_plies(&self) -> Option<u32> {
        self.max_plies
    }

    /// The winner of a finished game (`None` while it goes on or after a draw).
    pub fn winner(&self) -> Option<Color> {
        self.result.flatten()
    }

    /// Whether the side to move still places pieces.
    pub fn is_placing(&self) -> bool {
        self.pieces[self.side.index()].count_ones() < TELO_PIECES
    }

    /// The empty points.
    pub(super) fn empty(&self) -> u16 {
        !(self.pieces[0] | self.pieces[1]) & ((1 << POINTS) - 1)
    }

    /// Calls `f` for every legal action of the side to move, in increasing order (whether or
    /// not the game is over).
    pub(super) fn for_each_action(&self, mut f: impl FnMut(usize)) {
        let empty = self.empty();
        if self.is_placing() {
            Points(empty as u64).for_each(|p| f(p as usize));
            return;
        }
        let board = self.board();
        for from in Points(self.pieces[self.side.index()] as u64) {
            for dir in Direction::ALL {
                if let Some(to) = board.neighbour(from, dir)
                    && empty & (1 << to) != 0
                {
                    f(move_action(from, dir));
                }
            }
        }
    }

    /// The result of the position as it stands: a line of three wins for its owner (only the
    /// side that just acted can have made one), no legal move loses, the limit draws.
    pub(super) fn judge(&self) -> Option<Option<Color>> {
        for color in Color::BOTH {
            let own = self.pieces[color.index()];
            if LINES.into_iter().any(|line| own & line == line) {
                return Some(Some(color));
            }
        }
        let mut any = false;
        self.for_each_action(|_| any = true);
        if !any {
            return Some(Some(self.side.other()));
        }
        match self.max_plies {
            Some(limit) if self.plies >= limit => Some(None),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ActionError, Game};

    #[test]
    fn three_in_a_row_wins_during_placement() {
        let mut game = Telo::new();
        for name in ["a1", "a3", "b2", "c3", "c1"] {
            assert!(!game.is_terminal());
            let a = game.parse_action(name).unwrap();
            game.apply(a).unwrap();
        }
        assert_eq!(game.to_text(), "B1B/1W1/W1W b 5");
        let b3 = game.parse_action("b3").unwrap();
        game.apply(b3).unwrap();
        assert!(game.is_terminal());
        assert_eq!(game.winner(), Some(Color::Black));
        assert_eq!(game.returns(), [-1.0, 1.0]);
        assert_eq!(game.apply(0), Err(ActionError::GameOver));
    }

    #[test]
    fn movement_follows_lines_only() {
        // White to move; b1 is weak, so it has no diagonal to a2 or c2.
        let game = Telo::from_text("B1B/BW1/1WW w 6", None).unwrap();
        assert!(!game.is_placing());
        let mut names: Vec<String> = Vec::new();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        names.extend(legal.iter().map(|&a| game.action_name(a)));
        assert_eq!(names, ["b1a1", "c1c2", "b2b3", "b2c2", "b2a1"]);
        assert!(game.parse_action("b1c2").is_err());
        for &a in &legal {
            assert_eq!(game.parse_action(&game.action_name(a)), Ok(a));
        }
    }

    #[test]
    fn the_limit_draws() {
        let mut game = Telo::from_text("B1B/BW1/1WW w 6", Some(7)).unwrap();
        let a = game.parse_action("b1a1").unwrap();
        game.apply(a).unwrap();
        assert!(game.is_terminal());
        assert_eq!(game.winner(), None);
        assert_eq!(game.returns(), [0.0, 0.0]);
    }
}
