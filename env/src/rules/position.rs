//! A position: the pieces, the side to move, a capture chain in progress, the counters and an
//! incrementally kept Zobrist key. Moves are played here; they are generated in `movegen`.

use super::board::{Board, Direction, Point};
use super::color::Color;
use super::error::MoveError;
use super::settings::{Rules, VELA_END_PIECES};
use super::step::{Step, StepKind};
use super::turn::Turn;
use super::zobrist;

/// The state of a capture chain in progress: the same piece must go on capturing or stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Where the capturing piece stands now.
    pub piece: Point,
    /// Every point the piece has occupied this turn, its starting point included.
    pub visited: u64,
    /// The direction of the piece's last step.
    pub last_dir: Direction,
}

/// A Fanorona position under a set of [`Rules`].
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub(crate) board: &'static Board,
    pub(crate) pieces: [u64; 2],
    pub(crate) side: Color,
    pub(crate) chain: Option<Chain>,
    pub(crate) no_capture: u16,
    pub(crate) turn_number: u32,
    pub(crate) key: u64,
    pub(crate) rules: Rules,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.board, other.board)
            && self.pieces == other.pieces
            && self.side == other.side
            && self.chain == other.chain
            && self.no_capture == other.no_capture
            && self.turn_number == other.turn_number
            && self.rules == other.rules
    }
}

impl Eq for Position {}

impl Position {
    /// The initial position of `board` under the standard rules (docs/rules.md, "Initial position").
    pub fn initial(board: &'static Board) -> Position {
        let (w, h) = (board.width(), board.height());
        let mid = h / 2;
        let mut pieces = [0u64; 2];
        for row in 0..h {
            for col in 0..w {
                let p = board.point(col, row);
                let color = if row < mid {
                    Some(Color::White)
                } else if row > mid {
                    Some(Color::Black)
                } else if col == w / 2 {
                    None
                } else if col < w / 2 {
                    // Left half: black at column a, then alternating.
                    Some(if col % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    })
                } else {
                    // Right half: the rotated, colour-swapped image of the left half.
                    let mirror = w - 1 - col;
                    Some(if mirror % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    })
                };
                if let Some(c) = color {
                    pieces[c.index()] |= 1 << p;
                }
            }
        }
        Position::from_parts(board, pieces, Color::White, None, 0, 1, Rules::default())
    }

    /// The initial position of the standard 9 x 5 game.
    pub fn standard() -> Position {
        Position::initial(Board::standard())
    }

    /// Builds a position from its parts (no legality checks beyond disjoint pieces).
    pub(crate) fn from_parts(
        board: &'static Board,
        pieces: [u64; 2],
        side: Color,
        chain: Option<Chain>,
        no_capture: u16,
        turn_number: u32,
        rules: Rules,
    ) -> Position {
        let mut key = zobrist::pieces_key(0, pieces[0]) ^ zobrist::pieces_key(1, pieces[1]);
        if side == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        Position {
            board,
            pieces,
            side,
            chain,
            no_capture,
            turn_number,
            key,
            rules,
        }
    }

    /// A turn-start position from its pieces and side to move (no-capture counter 0, turn 1),
    /// as the solver rebuilds positions from its table. `None` if the two sets overlap or a
    /// piece lies off the board.
    pub fn from_pieces(
        board: &'static Board,
        pieces: [u64; 2],
        side: Color,
        rules: Rules,
    ) -> Option<Position> {
        if pieces[0] & pieces[1] != 0 || (pieces[0] | pieces[1]) & !board.all() != 0 {
            return None;
        }
        Some(Position::from_parts(board, pieces, side, None, 0, 1, rules))
    }

    /// The same position under other rules.
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The board geometry.
    #[inline]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The pieces of one colour.
    #[inline]
    pub fn pieces(&self, color: Color) -> u64 {
        self.pieces[color.index()]
    }

    /// The pieces on the board, both colours.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        (self.pieces[0] | self.pieces[1]).count_ones()
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self) -> u64 {
        self.board.all() & !(self.pieces[0] | self.pieces[1])
    }

    /// The colour of the piece on `p`, if any.
    pub fn piece_at(&self, p: Point) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.pieces[c.index()] & (1 << p) != 0)
    }

    /// The side to move (in mid-chain: the side whose chain it is).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The capture chain in progress, if the turn is under way.
    #[inline]
    pub fn chain(&self) -> Option<&Chain> {
        self.chain.as_ref()
    }

    /// Whether this is the start of a turn (no chain in progress).
    #[inline]
    pub fn is_turn_start(&self) -> bool {
        self.chain.is_none()
    }

    /// Consecutive completed turns without a capture.
    #[inline]
    pub fn no_capture_turns(&self) -> u16 {
        self.no_capture
    }

    /// The turn number: 1 for the first turn of each side, increased after black moves.
    #[inline]
    pub fn turn_number(&self) -> u32 {
        self.turn_number
    }

    /// The Zobrist key of the pieces and side to move (the chain is not part of it).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether the Vela opening phase is on: the favoured side captures one piece a turn and
    /// the other side may only make paika moves.
    #[inline]
    pub fn vela_active(&self) -> bool {
        match self.rules.vela {
            Some(favoured) => self.pieces[favoured.other().index()].count_ones() > VELA_END_PIECES,
            None => false,
        }
    }

    /// Whether a capture this turn may be followed by another (no first-turn or Vela limit).
    #[inline]
    pub(crate) fn chains_allowed(&self) -> bool {
        !(self.vela_active() || self.rules.first_turn_single_capture && self.turn_number == 1)
    }

    /// The pieces a capturing step removes: the run of enemies starting at `target` in `dir`
    /// (only `target` itself in the Vela phase).
    #[inline]
    pub(crate) fn capture_run(&self, target: Point, dir: usize, them: u64) -> u64 {
        if self.vela_active() {
            1 << target
        } else {
            self.board.run(target, dir, them)
        }
    }

    #[inline]
    fn move_piece(&mut self, color: Color, from: Point, to: Point) {
        let c = color.index();
        self.pieces[c] ^= (1 << from) | (1 << to);
        self.key ^= zobrist::PIECE[c][from as usize] ^ zobrist::PIECE[c][to as usize];
    }

    #[inline]
    fn remove(&mut self, color: Color, set: u64) {
        self.pieces[color.index()] &= !set;
        self.key ^= zobrist::pieces_key(color.index(), set);
    }

    #[inline]
    fn end_turn(&mut self, captured: bool) {
        self.chain = None;
        self.no_capture = if captured {
            0
        } else {
            self.no_capture.saturating_add(1)
        };
        if self.side == Color::Black {
            self.turn_number += 1;
        }
        self.side = self.side.other();
        self.key ^= zobrist::BLACK_TO_MOVE;
    }

    /// Plays a step known to be legal. The turn passes when the step ends it: a paika step, a
    /// stop, or a capture with no (allowed) continuation.
    pub fn play_step_unchecked(&mut self, step: Step) {
        let Step::Move { from, dir, kind } = step else {
            self.end_turn(true);
            return;
        };
        let board = self.board;
        let to = board.neighbour_raw(from, dir.index());
        let us = self.side;
        self.move_piece(us, from, to);
        if kind == StepKind::Paika {
            self.end_turn(false);
            return;
        }
        let them = self.pieces[us.other().index()];
        let (target, line_dir) = match kind {
            StepKind::Approach => (board.neighbour_raw(to, dir.index()), dir.index()),
            _ => (
                board.neighbour_raw(from, dir.opposite().index()),
                dir.opposite().index(),
            ),
        };
        let run = self.capture_run(target, line_dir, them);
        self.remove(us.other(), run);
        if !self.chains_allowed() {
            self.end_turn(true);
            return;
        }
        let visited = self.chain.map_or(1 << from, |c| c.visited) | (1 << to);
        let chain = Chain {
            piece: to,
            visited,
            last_dir: dir,
        };
        if self.chain_can_continue(&chain) {
            self.chain = Some(chain);
        } else {
            self.end_turn(true);
        }
    }

    /// Plays a step after checking that it is legal; on error the position is unchanged.
    pub fn play_step(&mut self, step: Step) -> Result<(), MoveError> {
        if self.legal_steps().contains(&step) {
            self.play_step_unchecked(step);
            Ok(())
        } else {
            Err(MoveError::Illegal {
                text: self.step_notation(step),
                legal: self
                    .legal_steps()
                    .iter()
                    .map(|&s| self.step_notation(s))
                    .collect(),
            })
        }
    }

    /// Plays a complete turn known to be legal (generated for this position).
    pub fn play_turn_unchecked(&mut self, turn: &Turn) {
        let us = self.side;
        let captured = turn.captured != 0 || self.chain.is_some();
        if turn.from != turn.to {
            self.move_piece(us, turn.from, turn.to);
        }
        if turn.captured != 0 {
            self.remove(us.other(), turn.captured);
        }
        self.end_turn(captured);
    }

    /// The step sequence that plays `turn` here, with a final [`Step::Stop`] where the chain
    /// could go on but the turn ends it.
    pub fn turn_steps(&self, turn: &Turn) -> Vec<Step> {
        let mut steps = turn.moves(self.board);
        let mut pos = *self;
        for &s in &steps {
            pos.play_step_unchecked(s);
        }
        if pos.chain.is_some() {
            steps.push(Step::Stop);
        }
        steps
    }

    /// A step in notation: `d3e3W` for a move, `stop` for ending a chain.
    pub fn step_notation(&self, step: Step) -> String {
        match step {
            Step::Stop => "stop".to_string(),
            Step::Move { from, dir, kind } => match self.board.neighbour(from, dir) {
                Some(to) => format!(
                    "{}{}{}",
                    self.board.point_name(from),
                    self.board.point_name(to),
                    kind.marker()
                ),
                None => format!("{}->{dir:?}(off the board)", self.board.point_name(from)),
            },
        }
    }
}
