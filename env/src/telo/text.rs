//! The text form of a position (`W1B/1W1/B2 w 4`) and the notation of actions (`b2` for a
//! placement, `a1b2` for a move).

use super::action::{decode, move_action};
use super::{TELO_ACTIONS, Telo, TeloError};
use crate::excerpt::Excerpt;
use crate::game::{ActionError, Game};
use crate::rules::board::Direction;
use crate::rules::color::Color;
use crate::rules::fen::{fen_rows, parse_rows};

impl Telo {
    /// Reads the text form, e.g. `W1B/1W1/B2 w 4` (the plies may be left out: then the number
    /// of pieces placed).
    pub fn from_text(text: &str, max_plies: Option<u32>) -> Result<Telo, TeloError> {
        let syntax = |reason: &str| TeloError::Syntax {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let mut fields = text.split_whitespace();
        let rows = fields
            .next()
            .ok_or_else(|| syntax("empty: expected rows, side to move and plies"))?;
        let (board, pieces) = parse_rows(rows).map_err(|reason| syntax(&reason))?;
        if (board.width(), board.height()) != (3, 3) {
            return Err(syntax("expected 3 rows of 3 points separated by '/'"));
        }
        // A 3 x 3 board's points are 0 to 8.
        let pieces = pieces.map(|p| p as u16);
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

    /// The text form, e.g. `W1B/1W1/B2 w 4`: rows from the top, the side to move, the plies.
    pub(super) fn text_form(&self) -> String {
        let rows = fen_rows(self.board(), |p| {
            Color::BOTH
                .into_iter()
                .find(|c| self.pieces[c.index()] & (1 << p) != 0)
        });
        let side = if self.side == Color::White { 'w' } else { 'b' };
        format!("{rows} {side} {}", self.plies)
    }

    /// The name of `action`: `b2` for a placement, `a1b2` for a move (`#N` out of range).
    pub(super) fn notation(&self, action: usize) -> String {
        let board = self.board();
        if action >= TELO_ACTIONS {
            return format!("#{action}");
        }
        match decode(action) {
            Ok(p) => board.point_name(p),
            Err((from, dir)) => match board.neighbour(from, dir) {
                Some(to) => format!("{}{}", board.point_name(from), board.point_name(to)),
                None => format!("{}->{dir:?}(no line)", board.point_name(from)),
            },
        }
    }

    /// Reads an action in notation; it must be legal here.
    pub(super) fn parse_notation(&self, text: &str) -> Result<usize, ActionError> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
