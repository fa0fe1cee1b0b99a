//! `Fanorona`: the game state behind the [`Game`] trait, one step per action, with the draw
//! rules (repetition needs the keys of earlier turn starts) and the outcome kept up to date.

use super::action::{action_to_step, num_actions, rotate_action, step_to_action};
use super::observation::{NUM_PLANES, direction_plane, write_observation};
use super::symmetry::{NUM_SYMMETRIES, Symmetry};
use crate::game::{ActionError, Game};
use crate::rules::board::{Board, Direction, MAX_POINTS, Points};
use crate::rules::color::Color;
use crate::rules::outcome::Outcome;
use crate::rules::position::Position;
use crate::rules::step::Step;
use crate::rules::turn::Turn;

/// 64-bit words of a bitset over the largest action space (64 points).
const ACTION_WORDS: usize = (MAX_POINTS * 24 + 1).div_ceil(64);

/// The piece difference that [`Game::score`] maps to tanh(1) = 0.76.
const SCORE_PIECES: f32 = 2.0;

/// A Fanorona game in progress, stepped one action (one step of a piece, or "stop") at a time.
#[derive(Debug)]
pub struct Fanorona {
    position: Position,
    /// Keys of the turn-start positions since the last capture, the current one last.
    keys: Vec<u64>,
    /// How many times the current turn-start position has occurred (1 in mid-chain).
    occurrences: u32,
    outcome: Option<Outcome>,
}

impl Clone for Fanorona {
    fn clone(&self) -> Fanorona {
        Fanorona {
            position: self.position,
            keys: self.keys.clone(),
            occurrences: self.occurrences,
            outcome: self.outcome,
        }
    }

    /// Reuses the key buffer, so resetting a game to its start allocates nothing.
    fn clone_from(&mut self, source: &Fanorona) {
        self.position = source.position;
        self.keys.clone_from(&source.keys);
        self.occurrences = source.occurrences;
        self.outcome = source.outcome;
    }
}

impl Fanorona {
    /// A game starting at `position` (a turn start or mid-chain).
    pub fn new(position: Position) -> Fanorona {
        let mut keys = Vec::with_capacity(128);
        if position.is_turn_start() {
            keys.push(position.key());
        }
        let outcome = position.outcome(1);
        Fanorona {
            position,
            keys,
            occurrences: 1,
            outcome,
        }
    }

    /// The standard 9 x 5 game from its initial position.
    pub fn standard() -> Fanorona {
        Fanorona::new(Position::standard())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.position.board()
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// How many times the current turn-start position has occurred (1 in mid-chain).
    pub fn occurrences(&self) -> u32 {
        self.occurrences
    }

    /// The keys of the turn-start positions since the last capture, oldest first; at a turn
    /// start the current position's key is the last one. Searches use them to see repetitions.
    pub fn turn_start_keys(&self) -> &[u64] {
        &self.keys
    }

    /// The action of a step.
    pub fn step_to_action(&self, step: Step) -> usize {
        step_to_action(self.board(), step)
    }

    /// The step of an action index (`None` outside the action space).
    pub fn action_to_step(&self, action: usize) -> Option<Step> {
        action_to_step(self.board(), action)
    }

    /// Plays a complete turn generated for the current position, step by step.
    pub fn play_turn_unchecked(&mut self, turn: &Turn) {
        for step in self.position.turn_steps(turn) {
            self.play_step_unchecked(step);
        }
    }

    /// Plays a legal step.
    pub fn play_step_unchecked(&mut self, step: Step) {
        self.position.play_step_unchecked(step);
        if self.position.is_turn_start() {
            if self.position.no_capture_turns() == 0 {
                self.keys.clear();
            }
            let key = self.position.key();
            self.keys.push(key);
            self.occurrences = self.keys.iter().filter(|&&k| k == key).count() as u32;
            self.outcome = self.position.outcome(self.occurrences);
        } else {
            self.occurrences = 1;
        }
    }
}

impl Game for Fanorona {
    fn num_actions(&self) -> usize {
        num_actions(self.board())
    }

    fn current_player(&self) -> Color {
        self.position.side_to_move()
    }

    fn legal_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.outcome.is_some() {
            return;
        }
        let board = self.board();
        self.position
            .for_each_step(|s| mask[step_to_action(board, s)] = true);
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        // Steps come by direction; a bitset of actions gives them in increasing order
        // without sorting.
        let board = self.board();
        let mut set = [0u64; ACTION_WORDS];
        self.position.for_each_step(|s| {
            let a = step_to_action(board, s);
            set[a / 64] |= 1 << (a % 64);
        });
        for (word, &bits) in set[..num_actions(board).div_ceil(64)].iter().enumerate() {
            out.extend(Points(bits).map(|bit| word * 64 + bit as usize));
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match self.action_to_step(action) {
            Some(step) => {
                let mut found = false;
                self.position.for_each_step(|s| found |= s == step);
                found
            }
            None => false,
        }
    }

    fn apply_unchecked(&mut self, action: usize) {
        let step = self.action_to_step(action).expect("action in range");
        self.play_step_unchecked(step);
    }

    fn is_terminal(&self) -> bool {
        self.outcome.is_some()
    }

    fn returns(&self) -> [f32; 2] {
        match self.outcome.and_then(|o| o.winner()) {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// The piece difference, `tanh(difference / SCORE_PIECES)`: one piece up scores 0.46.
    fn score(&self) -> [f32; 2] {
        let count = |color| self.position.pieces(color).count_ones() as f32;
        let white = ((count(Color::White) - count(Color::Black)) / SCORE_PIECES).tanh();
        [white, -white]
    }

    fn observation_shape(&self) -> [usize; 3] {
        [NUM_PLANES, self.board().height(), self.board().width()]
    }

    fn write_observation(&self, out: &mut [f32]) {
        write_observation(&self.position, self.occurrences, out);
    }

    fn to_mover_action(&self, action: usize) -> usize {
        match self.current_player() {
            Color::White => action,
            Color::Black => rotate_action(self.board(), action),
        }
    }

    fn mover_action_to_absolute(&self, action: usize) -> usize {
        self.to_mover_action(action)
    }

    fn num_symmetries(&self) -> usize {
        NUM_SYMMETRIES
    }

    fn transform_observation(&self, sym: usize, obs: &[f32], out: &mut [f32]) {
        let board = self.board();
        let sym = Symmetry::from_index(sym);
        let n = board.points();
        for plane in 0..NUM_PLANES {
            let target_plane = if (direction_plane(Direction::N)..direction_plane(Direction::N) + 8)
                .contains(&plane)
            {
                direction_plane(
                    sym.direction(Direction::from_index(plane - direction_plane(Direction::N))),
                )
            } else {
                plane
            };
            for p in 0..n {
                out[target_plane * n + sym.point(board, p as u8) as usize] = obs[plane * n + p];
            }
        }
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        let board = self.board();
        let sym = Symmetry::from_index(sym);
        super::action::map_action(board, action, |p| sym.point(board, p), |d| sym.direction(d))
    }

    fn action_name(&self, action: usize) -> String {
        match self.action_to_step(action) {
            Some(step) => self.position.step_notation(step),
            None => format!("#{action}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<usize, ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        self.position
            .parse_step(text)
            .map(|s| self.step_to_action(s))
            .map_err(|e| ActionError::Parse {
                text: text.to_string(),
                reason: e.to_string(),
            })
    }

    fn to_text(&self) -> String {
        self.position.to_fen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_turn_is_played_step_by_step() {
        // White c1 takes e1 by approach and goes on to take d3: the game ends, white wins.
        let pos = Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap();
        let turn = pos.parse_turn("c1d1Ad2A").unwrap();
        let mut game = Fanorona::new(pos);
        game.play_turn_unchecked(&turn);
        let mut expected = pos;
        expected.play_turn_unchecked(&turn);
        assert_eq!(game.position(), &expected);
        assert_eq!(game.returns(), [1.0, -1.0]);
    }

    #[test]
    fn the_score_is_the_piece_difference_squashed_and_zero_sum() {
        let behind = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 b").unwrap());
        let ahead = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1W4 b").unwrap());
        let far_ahead = Fanorona::new(Position::from_fen("9/9/3W5/9/2W1W4 w").unwrap());
        // Black is one piece up; the mover does not matter.
        assert_eq!(behind.score(), [-0.5f32.tanh(), 0.5f32.tanh()]);
        assert_eq!(ahead.score(), [0.5f32.tanh(), -0.5f32.tanh()]);
        assert_eq!(far_ahead.score(), [1.5f32.tanh(), -1.5f32.tanh()]);
        let start = Fanorona::new(Position::initial(Board::standard()));
        assert_eq!(start.score(), [0.0, 0.0]);
    }
}
