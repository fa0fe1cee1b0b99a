//! A position a request names: a start (a FEN, or a board's start position) with rule
//! settings, and whole turns played from it into a game between two people. The
//! page reads a game's earlier positions this way, and analysis starts from one.

use std::collections::BTreeMap;

use fanorona_env::start_position;
use serde::Deserialize;

use super::error::ApiError;
use fanorona_eval::Player;

use super::store::Session;

/// The position of `GET /api/position` and `GET /api/analysis`, from the query string.
#[derive(Debug, Default, Deserialize)]
pub struct PositionQuery {
    /// The start position; default the board's start.
    fen: Option<String>,
    /// `WxH`; default 9x5 (or the FEN's board).
    board: Option<String>,
    /// Rule settings in `--rules` syntax.
    #[serde(default)]
    rules: String,
    /// Whole turns played from the start, in notation, separated by spaces.
    #[serde(default)]
    moves: String,
    /// Any other parameter, refused.
    #[serde(flatten)]
    unknown: BTreeMap<String, String>,
}

impl PositionQuery {
    /// The game from the start through the turns, or what is wrong (the turn that cannot
    /// be played named by its number).
    pub fn session(&self) -> Result<Session, ApiError> {
        if let Some(name) = self.unknown.keys().next() {
            return Err(ApiError::bad_request(format!(
                "unknown parameter {name:?}; a position takes fen, board, rules and moves"
            )));
        }
        let start = start_position(self.fen.as_deref(), self.board.as_deref(), &self.rules)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut session = Session::new(start, Player::Human, Player::Human);
        for (index, turn) in self.moves.split_whitespace().enumerate() {
            session.play_turn(turn).map_err(|e| {
                ApiError::bad_request(format!(
                    "move {} ({turn:?}) cannot be played: {e}",
                    index + 1
                ))
            })?;
        }
        Ok(session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_played_from_the_start_and_a_bad_one_is_named() {
        let query = |moves: &str| PositionQuery {
            fen: Some("2B2/B4/BW1BB w 0 1".into()),
            moves: moves.into(),
            ..PositionQuery::default()
        };
        let session = query("b1c1Ac2Ab2Ac3W").session().unwrap();
        assert_eq!(session.moves(), ["b1c1Ac2Ab2Ac3W"]);
        assert!(session.game().outcome().is_some());
        let e = query("b1c1A a1a2").session().err().unwrap();
        assert!(format!("{e:?}").contains("move 2 (\\\"a1a2\\\")"), "{e:?}");
        let e = PositionQuery {
            board: Some("abc".into()),
            ..PositionQuery::default()
        };
        assert!(e.session().is_err());
        let mut e = PositionQuery::default();
        e.unknown.insert("colour".into(), "w".into());
        let e = e.session().err().unwrap();
        assert!(
            format!("{e:?}").contains("unknown parameter \\\"colour\\\""),
            "{e:?}"
        );
    }
}
