//! Fanoron-Telo (RULES.md, "Options and variants"): the 3 x 3 alignment game without captures.
//! Each side has three pieces. White, then black, place them one at a time on empty points;
//! once a side has placed all three it moves one piece per turn along a line of the 3 x 3
//! Fanorona board (orthogonal lines everywhere, diagonals through the strong points: the
//! corners and the centre) to an adjacent empty point. Three in a row (a row, a column or one
//! of the two diagonals) wins, during placement too.
//!
//! Two cases the rule book leaves open are settled here. Since pieces can shuffle forever, a
//! game is drawn once `max_plies` actions have been played ([`DEFAULT_MAX_PLIES`] by default,
//! `None` for no limit). A side with no legal move would lose, as in Fanorona, but with three
//! pieces each that never happens. Exhaustive retrograde analysis of all 5390 reachable
//! positions (`tests/telo.rs`) shows that white wins with perfect play, by its fifth action
//! (ply 9), well within the default limit.
//!
//! Actions: `0..9` place a piece on a point (`point = row * 3 + column`, row 0 = rank 1);
//! `9 + point * 8 + direction` moves the piece on `point` one step in `direction` (the
//! [`Direction`] order); 81 in all. Notation: `b2` for a placement, `a1b2` for a move.
//! Text form: rows from the top, `W`/`B`/digits as in FEN, the side to move and the plies
//! played, e.g. `W1B/1W1/B2 w 4`.
//!
//! The observation needs no turned board: it has own and enemy planes, and the board's
//! eight symmetries (the square's rotations and mirrors, all of which keep the lines) make
//! both sides' views equivalent; mover-frame actions are the absolute ones.

use crate::excerpt::Excerpt;
use crate::game::{ActionError, Game};
use crate::rules::board::{Board, Direction, Point, Points};
use crate::rules::color::Color;

/// Pieces each side places.
pub const TELO_PIECES: u32 = 3;

/// Actions played before a game is drawn, unless set otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 100;

/// Number of points of the board.
const POINTS: usize = 9;

/// First movement action: the placements come before.
const FIRST_MOVE: usize = POINTS;

/// Size of the action space: 9 placements and 9 x 8 moves.
pub const TELO_ACTIONS: usize = FIRST_MOVE + POINTS * 8;

/// Number of observation planes: own pieces, enemy pieces, placement phase, plies played.
pub const TELO_PLANES: usize = 4;

/// Number of symmetries of the board: the square's four rotations, each with and without a
/// mirror.
pub const TELO_SYMMETRIES: usize = 8;

/// The eight lines of three.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A Telo position that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeloError {
    /// The text form could not be read.
    #[error("cannot read Telo position {}: {reason}", Excerpt(.text))]
    Syntax {
        /// The input.
        text: String,
        /// What is wrong and what is expected.
        reason: String,
    },
    /// The pieces cannot arise in a game.
    #[error("impossible Telo position: {0}")]
    Impossible(String),
}

/// A game of Fanoron-Telo, one placement or move per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Telo {
    /// Bitboards of white and black pieces, bit `row * 3 + column`.
    pieces: [u16; 2],
    side: Color,
    plies: u32,
    max_plies: Option<u32>,
    /// `None` while the game goes on; `Some(None)` a draw, `Some(Some(c))` a win for `c`.
    result: Option<Option<Color>>,
}

impl Default for Telo {
    fn default() -> Telo {
        Telo::new()
    }
}

impl Telo {
    /// The empty board, white to place, drawn after [`DEFAULT_MAX_PLIES`] actions.
    pub fn new() -> Telo {
        Telo::with_max_plies(Some(DEFAULT_MAX_PLIES))
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

    /// Reads the text form, e.g. `W1B/1W1/B2 w 4` (the plies may be left out: then the number
    /// of pieces placed).
    pub fn from_text(text: &str, max_plies: Option<u32>) -> Result<Telo, TeloError> {
        let syntax = |reason: &str| TeloError::Syntax {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let mut fields = text.split_whitespace();
        let rows: Vec<&str> = fields
            .next()
            .ok_or_else(|| syntax("empty: expected rows, side to move and plies"))?
            .split('/')
            .collect();
        if rows.len() != 3 {
            return Err(syntax("expected 3 rows separated by '/'"));
        }
        let mut pieces = [0u16; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 2 - i;
            let mut column = 0;
            for c in row.chars() {
                match c {
                    '1'..='3' => column += c as usize - '0' as usize,
                    'W' | 'w' | 'B' | 'b' if column < 3 => {
                        let color = usize::from(c.eq_ignore_ascii_case(&'b'));
                        pieces[color] |= 1 << (rank * 3 + column);
                        column += 1;
                    }
                    _ => return Err(syntax("rows hold W, B and digits 1-3, 3 points each")),
                }
            }
            if column != 3 {
                return Err(syntax("each row must describe exactly 3 points"));
            }
        }
        let side = match fields.next() {
            Some("w" | "W") => Color::White,
            Some("b" | "B") => Color::Black,
            _ => return Err(syntax("the side to move must be w or b")),
        };
        let plies = match fields.next() {
            Some(t) => t
                .parse()
                .map_err(|_| syntax("the plies played must be a number"))?,
            None => (pieces[0] | pieces[1]).count_ones(),
        };
        if fields.next().is_some() {
            return Err(syntax("at most 3 fields: rows, side to move, plies"));
        }
        Telo::from_parts(pieces[0], pieces[1], side, plies, max_plies)
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

    fn empty(&self) -> u16 {
        !(self.pieces[0] | self.pieces[1]) & ((1 << POINTS) - 1)
    }

    /// Calls `f` for every legal action of the side to move, in increasing order (whether or
    /// not the game is over).
    fn for_each_action(&self, mut f: impl FnMut(usize)) {
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
    fn judge(&self) -> Option<Option<Color>> {
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

    /// The action's meaning: `Ok(point)` a placement, `Err((from, dir))` a move.
    fn decode(action: usize) -> Result<Point, (Point, Direction)> {
        if action < FIRST_MOVE {
            Ok(action as Point)
        } else {
            let m = action - FIRST_MOVE;
            Err(((m / 8) as Point, Direction::from_index(m % 8)))
        }
    }
}

/// The action that moves the piece on `from` one step in `dir`.
fn move_action(from: Point, dir: Direction) -> usize {
    FIRST_MOVE + from as usize * 8 + dir.index()
}

/// The image of a point under symmetry `sym`: a mirror of the columns if `sym >= 4`, then
/// `sym % 4` quarter turns clockwise.
fn map_point(sym: usize, p: Point) -> Point {
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
fn map_direction(sym: usize, dir: Direction) -> Direction {
    let dir = if sym >= 4 {
        dir.mirror_horizontal()
    } else {
        dir
    };
    Direction::from_index(dir.index() + 2 * (sym % 4))
}

impl Game for Telo {
    fn num_actions(&self) -> usize {
        TELO_ACTIONS
    }

    fn current_player(&self) -> Color {
        self.side
    }

    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.result.is_none() {
            self.for_each_action(|a| mask[a] = true);
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.result.is_none() {
            self.for_each_action(|a| out.push(a));
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        if self.result.is_some() || action >= TELO_ACTIONS {
            return false;
        }
        match Telo::decode(action) {
            Ok(p) => self.is_placing() && self.empty() & (1 << p) != 0,
            Err((from, dir)) => {
                !self.is_placing()
                    && self.pieces[self.side.index()] & (1 << from) != 0
                    && self
                        .board()
                        .neighbour(from, dir)
                        .is_some_and(|to| self.empty() & (1 << to) != 0)
            }
        }
    }

    fn apply_unchecked(&mut self, action: usize) {
        let own = &mut self.pieces[self.side.index()];
        match Telo::decode(action) {
            Ok(p) => *own |= 1 << p,
            Err((from, dir)) => {
                let to = Board::new(3, 3)
                    .expect("3x3 is a valid board")
                    .neighbour(from, dir)
                    .expect("a legal move stays on the board");
                *own ^= (1 << from) | (1 << to);
            }
        }
        self.side = self.side.other();
        self.plies += 1;
        self.result = self.judge();
    }

    fn is_terminal(&self) -> bool {
        self.result.is_some()
    }

    fn returns(&self) -> [f32; 2] {
        match self.winner() {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [TELO_PLANES, 3, 3]
    }

    /// Planes: 0 the mover's pieces, 1 the opponent's, 2 all ones while the mover places,
    /// 3 plies played / limit (0 without a limit). Cell `row * 3 + column`.
    fn write_observation(&self, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            TELO_PLANES * POINTS,
            "observation buffer has the wrong length"
        );
        out.fill(0.0);
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.other().index()];
        for p in 0..POINTS {
            out[p] = f32::from(own >> p & 1);
            out[POINTS + p] = f32::from(enemy >> p & 1);
        }
        if self.is_placing() {
            out[2 * POINTS..3 * POINTS].fill(1.0);
        }
        if let Some(limit) = self.max_plies {
            let progress = (self.plies as f32 / limit.max(1) as f32).min(1.0);
            out[3 * POINTS..].fill(progress);
        }
    }

    fn to_mover_action(&self, action: usize) -> usize {
        action
    }

    fn mover_action_to_absolute(&self, action: usize) -> usize {
        action
    }

    fn num_symmetries(&self) -> usize {
        TELO_SYMMETRIES
    }

    fn transform_observation(&self, sym: usize, obs: &[f32], out: &mut [f32]) {
        for plane in 0..TELO_PLANES {
            for p in 0..POINTS {
                out[plane * POINTS + map_point(sym, p as Point) as usize] = obs[plane * POINTS + p];
            }
        }
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        match Telo::decode(action) {
            Ok(p) => map_point(sym, p) as usize,
            Err((from, dir)) => move_action(map_point(sym, from), map_direction(sym, dir)),
        }
    }

    fn action_name(&self, action: usize) -> String {
        let board = self.board();
        if action >= TELO_ACTIONS {
            return format!("#{action}");
        }
        match Telo::decode(action) {
            Ok(p) => board.point_name(p),
            Err((from, dir)) => match board.neighbour(from, dir) {
                Some(to) => format!("{}{}", board.point_name(from), board.point_name(to)),
                None => format!("{}->{dir:?}(no line)", board.point_name(from)),
            },
        }
    }

    fn parse_action(&self, text: &str) -> Result<usize, ActionError> {
        let error = |reason: String| ActionError::Parse {
            text: text.to_string(),
            reason,
        };
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        let board = self.board();
        let clean: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        let point = |s: &str| {
            board
                .parse_point(s)
                .ok_or_else(|| error(format!("{} is not a point a1..c3", Excerpt(s))))
        };
        let action = match clean.len() {
            2 => point(&clean)? as usize,
            4 if clean.is_char_boundary(2) => {
                let (from, to) = (point(&clean[..2])?, point(&clean[2..])?);
                let dir = Direction::ALL
                    .into_iter()
                    .find(|&d| board.neighbour(from, d) == Some(to))
                    .ok_or_else(|| error("the two points are not joined by a line".into()))?;
                move_action(from, dir)
            }
            _ => {
                return Err(error(
                    "expected a point to place on (b2) or a move between two points (a1b2)".into(),
                ));
            }
        };
        if self.is_legal(action) {
            Ok(action)
        } else {
            let mut legal = Vec::new();
            self.legal_actions(&mut legal);
            let names: Vec<String> = legal.iter().map(|&a| self.action_name(a)).collect();
            Err(error(format!(
                "not legal here; legal actions: {}",
                names.join(" ")
            )))
        }
    }

    fn to_text(&self) -> String {
        let mut rows = Vec::with_capacity(3);
        for rank in (0..3).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for column in 0..3 {
                let bit = 1 << (rank * 3 + column);
                let piece = Color::BOTH
                    .into_iter()
                    .find(|c| self.pieces[c.index()] & bit != 0);
                match piece {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c.piece_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if self.side == Color::White { 'w' } else { 'b' };
        format!("{} {side} {}", rows.join("/"), self.plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn text_form_round_trips_and_bad_text_is_refused() {
        for text in [
            "3/3/3 w 0",
            "W1B/1W1/B2 w 4",
            "B1B/BW1/1WW w 6",
            "BBW/WWB/3 b 6",
        ] {
            assert_eq!(Telo::from_text(text, None).unwrap().to_text(), text);
        }
        for bad in [
            "",
            "3/3 w",
            "4/3/3 w",
            "3/3/3 x",
            "WWW/WW1/3 w",
            "W2/3/3 w",
            "3/3/3 w 0 1",
        ] {
            assert!(Telo::from_text(bad, None).is_err(), "{bad:?}");
        }
    }
}
