//! One game between two agents from an opening: the opening turns, then the agents turn by
//! turn until the rules end the game (no pieces or moves, no-capture limit, repetition) or a
//! turn cap is reached, which scores as a draw. An agent that fails or plays an illegal action
//! forfeits the game ([`Forfeit`]). Also the game's result in a match (with the [`Seat`] of
//! each agent) and its record.

use fanorona_env::{Agent, Color, DrawReason, Fanorona, Game, Outcome, Turn, WinReason};

use super::opening::Opening;
use crate::agents::complete_turn::play_agent_turn;
use crate::record::GameRecord;

/// A played game: its turns, how it ended, and why.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Every turn from the opening's start, the opening's included.
    pub turns: Vec<Turn>,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended, in words.
    pub termination: String,
    /// The side that forfeited, and why, if one did.
    pub forfeit: Option<Forfeit>,
}

/// A game lost by an agent that failed or played an illegal action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The side that forfeited.
    pub color: Color,
    /// The agent's error.
    pub reason: String,
}

/// One of the two agents of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The first agent (white in even-numbered games, counting from 0).
    First,
    /// The second agent.
    Second,
}

/// Plays one game from an opening: the opening turns, then the agents step by step until the
/// rules end the game or `max_turns` turns have been played (a draw).
pub fn play_game(
    white: &mut dyn Agent<Fanorona>,
    black: &mut dyn Agent<Fanorona>,
    opening: &Opening,
    max_turns: usize,
) -> PlayedGame {
    white.reset();
    black.reset();
    let mut game = Fanorona::new(opening.start);
    for turn in &opening.turns {
        game.play_turn_unchecked(turn);
    }
    let mut turns = opening.turns.clone();
    loop {
        if let Some(outcome) = game.outcome() {
            let termination = outcome.to_string();
            return PlayedGame::ended(turns, outcome, termination, None);
        }
        if turns.len() >= max_turns {
            let outcome = Outcome::Draw(DrawReason::TurnLimit);
            let termination = format!("draw (turn limit of {max_turns})");
            return PlayedGame::ended(turns, outcome, termination, None);
        }
        let mover = game.current_player();
        let played = match mover {
            Color::White => play_agent_turn(white, &mut game),
            Color::Black => play_agent_turn(black, &mut game),
        };
        match played {
            Ok(turn) => turns.push(turn),
            Err(reason) => {
                let outcome = Outcome::Win {
                    winner: mover.other(),
                    reason: WinReason::Resignation,
                };
                let termination = format!("{mover} forfeits: {reason}");
                let forfeit = Forfeit {
                    color: mover,
                    reason: reason.to_string(),
                };
                return PlayedGame::ended(turns, outcome, termination, Some(forfeit));
            }
        }
    }
}

/// The tags of a match game's record that the game itself does not give.
pub(crate) struct RecordHeader<'a> {
    /// The event name.
    pub event: &'a str,
    /// The date, `YYYY.MM.DD`.
    pub date: &'a str,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The game number in the match, from 1.
    pub round: usize,
}

impl PlayedGame {
    /// A game that ended after `turns` with `outcome`, for the reason `termination`, with the
    /// `forfeit` that ended it, if one did.
    fn ended(
        turns: Vec<Turn>,
        outcome: Outcome,
        termination: String,
        forfeit: Option<Forfeit>,
    ) -> PlayedGame {
        PlayedGame {
            turns,
            outcome,
            termination,
            forfeit,
        }
    }

    /// The record of this game played from `opening`, with Round, Opening and Termination
    /// tags.
    pub(crate) fn record(&self, opening: &Opening, header: &RecordHeader) -> GameRecord {
        let mut pos = opening.start;
        let moves = self
            .turns
            .iter()
            .map(|t| {
                let name = t.notation(pos.board());
                pos.play_turn_unchecked(t);
                name
            })
            .collect();
        GameRecord {
            event: header.event.to_string(),
            date: header.date.to_string(),
            white: header.white.to_string(),
            black: header.black.to_string(),
            result: self.outcome.result_string().to_string(),
            start: opening.start,
            moves,
            extra: vec![
                ("Round".into(), header.round.to_string()),
                ("Opening".into(), opening.turns.len().to_string()),
                ("Termination".into(), self.termination.clone()),
            ],
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Game number in the match, from 0.
    pub index: usize,
    /// Whether the first agent had white.
    pub first_is_white: bool,
    /// The first agent's score: 1, ½ or 0.
    pub first_score: f64,
    /// How the game ended.
    pub outcome: Outcome,
    /// Why it ended, in words.
    pub termination: String,
    /// The side that forfeited, and why, if one did.
    pub forfeit: Option<Forfeit>,
    /// The record.
    pub record: GameRecord,
}

impl GameResult {
    /// Game `index` of a match, `played` with its `record`, scored for the first agent.
    pub(crate) fn new(
        index: usize,
        first_is_white: bool,
        played: PlayedGame,
        record: GameRecord,
    ) -> GameResult {
        let first_color = if first_is_white {
            Color::White
        } else {
            Color::Black
        };
        GameResult {
            index,
            first_is_white,
            first_score: played.outcome.score(first_color),
            outcome: played.outcome,
            termination: played.termination,
            forfeit: played.forfeit,
            record,
        }
    }

    /// The agent that had `color` in this game.
    pub fn seat_of(&self, color: Color) -> Seat {
        if (color == Color::White) == self.first_is_white {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The agent that forfeited this game, and why, if one did.
    pub fn forfeited_by(&self) -> Option<(Seat, &str)> {
        let forfeit = self.forfeit.as_ref()?;
        Some((self.seat_of(forfeit.color), &forfeit.reason))
    }
}
