//! A game's history: the start position and the turns played, for repetition, outcome and
//! undo.

use super::error::MoveError;
use super::outcome::Outcome;
use super::position::Position;
use super::turn::Turn;

/// A position together with the complete turns that led to it.
#[derive(Clone, Debug)]
pub struct History {
    positions: Vec<Position>,
    turns: Vec<Turn>,
}

impl History {
    /// A history that starts at `start` (which should be at the start of a turn).
    pub fn new(start: Position) -> History {
        History {
            positions: vec![start],
            turns: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a history always has a position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The turns played so far.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The positions so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How many times the current position has occurred at the start of a turn. Only the
    /// turns since the last capture can repeat it, since captures cannot be undone.
    pub fn occurrences(&self) -> u32 {
        let current = self.position();
        let window = current.no_capture_turns() as usize;
        let n = self.positions.len();
        let first = n.saturating_sub(window + 1);
        self.positions[first..]
            .iter()
            .filter(|p| {
                p.key() == current.key() && p.pieces == current.pieces && p.side == current.side
            })
            .count() as u32
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome(self.occurrences())
    }

    /// Plays a turn generated for the current position.
    pub fn play_unchecked(&mut self, turn: &Turn) {
        let mut next = *self.position();
        next.play_turn_unchecked(turn);
        self.positions.push(next);
        self.turns.push(*turn);
    }

    /// Parses and plays a turn in notation; on error nothing changes. A finished game
    /// accepts no more turns.
    pub fn play(&mut self, text: &str) -> Result<Turn, MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::NotPlayable(format!(
                "the game is over: {outcome}"
            )));
        }
        let turn = self.position().parse_turn(text)?;
        self.play_unchecked(&turn);
        Ok(turn)
    }

    /// Takes back the last turn, returning it (`None` at the start).
    pub fn undo(&mut self) -> Option<Turn> {
        let turn = self.turns.pop()?;
        self.positions.pop();
        Some(turn)
    }

    /// The turns in notation, in order.
    pub fn notation(&self) -> Vec<String> {
        self.turns
            .iter()
            .zip(&self.positions)
            .map(|(t, p)| t.notation(p.board()))
            .collect()
    }
}
