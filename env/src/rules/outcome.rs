//! How a game ends: a win (no pieces or no legal move for the loser) or a draw.

use super::color::Color;
use super::movegen::TurnStart;
use super::position::Position;

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The no-capture limit of [`super::Rules`] was reached.
    NoCaptureLimit,
    /// The same position occurred the limit number of times.
    Repetition,
    /// A turn limit set by the caller (an environment or arena) was reached.
    TurnLimit,
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser has no legal move at the start of its turn.
    NoMoves,
    /// The loser resigned.
    Resignation,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }

    /// The score for `color`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score(&self, color: Color) -> f64 {
        match self.winner() {
            Some(w) if w == color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The result as written in game records: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_string(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let why = match reason {
                    WinReason::NoPieces => "no pieces left",
                    WinReason::NoMoves => "no legal move",
                    WinReason::Resignation => "resignation",
                };
                write!(f, "{winner} wins ({} has {why})", winner.other())
            }
            Outcome::Draw(DrawReason::NoCaptureLimit) => f.write_str("draw (no-capture limit)"),
            Outcome::Draw(DrawReason::Repetition) => f.write_str("draw (repetition)"),
            Outcome::Draw(DrawReason::TurnLimit) => f.write_str("draw (turn limit)"),
        }
    }
}

impl Position {
    /// Whether the side to move has any legal step.
    pub fn has_legal_move(&self) -> bool {
        match self.turn_start() {
            // A chain is only in progress while it has a continuation.
            TurnStart::Chain(_) => true,
            TurnStart::Capture(movers) => movers != 0,
            TurnStart::Paika => self.paika_count() != 0,
        }
    }

    /// The outcome at this point, given how many times this position (pieces and side to
    /// move) has occurred at the start of a turn, this time included. Losses come first: a
    /// side without pieces has lost, whoever is to move (the side to move first, should
    /// both have none), and so has a side to move without moves, even where a draw limit is
    /// also reached.
    pub fn outcome(&self, occurrences: u32) -> Option<Outcome> {
        if self.chain.is_some() {
            return None;
        }
        for loser in [self.side, self.side.other()] {
            if self.pieces(loser) == 0 {
                return Some(Outcome::Win {
                    winner: loser.other(),
                    reason: WinReason::NoPieces,
                });
            }
        }
        if !self.has_legal_move() {
            return Some(Outcome::Win {
                winner: self.side.other(),
                reason: WinReason::NoMoves,
            });
        }
        if let Some(limit) = self.rules.no_capture_limit
            && self.no_capture >= limit
        {
            return Some(Outcome::Draw(DrawReason::NoCaptureLimit));
        }
        if let Some(limit) = self.rules.repetition_limit
            && occurrences >= limit as u32
        {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        None
    }
}
