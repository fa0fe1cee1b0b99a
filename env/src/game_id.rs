//! [`GameId`]: the name of a game and its board, as run configurations, checkpoints and
//! exported policies write it: `fanorona WxH` (e.g. `fanorona 9x5`) or `telo` (written
//! `telo 3x3`, its only board).

use std::fmt;
use std::str::FromStr;

use crate::excerpt::Excerpt;
use crate::fanorona::Fanorona;
use crate::game::Game;
use crate::rules::board::Board;
use crate::rules::error::BoardError;
use crate::rules::position::Position;
use crate::telo::Telo;

/// The name Fanorona goes by.
const FANORONA: &str = "fanorona";
/// The name Fanoron-Telo goes by.
const TELO: &str = "telo";
/// Columns and rows of Fanoron-Telo's board.
const TELO_SIDE: usize = 3;

/// A game and its board. Displays as `NAME WxH` (`fanorona 9x5`, `telo 3x3`); parses from that
/// form, and from `telo` alone.
#[derive(Clone, Copy, Debug)]
pub enum GameId {
    /// Fanorona on this board.
    Fanorona(&'static Board),
    /// Fanoron-Telo, on the 3 x 3 board.
    Telo,
}

/// Text that names no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameIdError {
    /// Neither `fanorona` nor `telo`.
    #[error(
        "unknown game {}: expected `fanorona WxH` (e.g. `fanorona 9x5`) or `telo`",
        Excerpt(.0)
    )]
    Unknown(String),
    /// `fanorona` without a board.
    #[error("fanorona needs a board: expected `fanorona WxH`, e.g. `fanorona 9x5`")]
    MissingBoard,
    /// A Fanorona board that cannot be built.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Telo on another board than 3x3.
    #[error("telo is played on 3x3, not {0}")]
    TeloBoard(String),
}

impl GameId {
    /// The standard game: Fanorona on the 9 x 5 board.
    pub fn standard() -> GameId {
        GameId::Fanorona(Board::standard())
    }

    /// The game named `name` (`fanorona` or `telo`) on the board written `board` (`WxH`).
    pub fn from_parts(name: &str, board: &str) -> Result<GameId, GameIdError> {
        GameId::build(name, Some(board))
    }

    /// The game named `name`, on `board` if given (Telo needs none).
    fn build(name: &str, board: Option<&str>) -> Result<GameId, GameIdError> {
        match (name, board) {
            (FANORONA, Some(board)) => Ok(GameId::Fanorona(Board::parse(board)?)),
            (FANORONA, None) => Err(GameIdError::MissingBoard),
            (TELO, None) => Ok(GameId::Telo),
            (TELO, Some(board)) => match Board::parse(board) {
                Ok(b) if (b.width(), b.height()) == (TELO_SIDE, TELO_SIDE) => Ok(GameId::Telo),
                _ => Err(GameIdError::TeloBoard(board.to_string())),
            },
            (other, _) => Err(GameIdError::Unknown(other.to_string())),
        }
    }

    /// The game's name: `fanorona` or `telo`.
    pub fn name(self) -> &'static str {
        match self {
            GameId::Fanorona(_) => FANORONA,
            GameId::Telo => TELO,
        }
    }

    /// The board the game is played on.
    pub fn board(self) -> &'static Board {
        match self {
            GameId::Fanorona(board) => board,
            GameId::Telo => Board::new(TELO_SIDE, TELO_SIDE).expect("3x3 is a valid board"),
        }
    }
}

/// What a game supports beyond the [`Game`] contract (which every game meets: self-play, tree
/// search, networks, the environments). The engines written for Fanorona's rules play
/// Fanorona alone: ask here rather than match on the name.
impl GameId {
    /// The board of a Fanorona game, which the Fanorona engines are built for; `None` for the
    /// other games.
    pub fn fanorona_board(self) -> Option<&'static Board> {
        match self {
            GameId::Fanorona(board) => Some(board),
            GameId::Telo => None,
        }
    }

    /// Whether endgame tables and the solver of small boards hold its positions (exact value
    /// targets, `tables=` options).
    pub fn has_tables(self) -> bool {
        self.fanorona_board().is_some()
    }

    /// Whether the alpha-beta agents play it: `minimax` (the arena's evaluation opponents)
    /// and `abnet` (an alpha-beta search over a network's value, its self-play and its
    /// student).
    pub fn has_alpha_beta(self) -> bool {
        self.fanorona_board().is_some()
    }

    /// Whether the agent registry's network agents (`net`, `abnet`) play its networks: the
    /// registry builds Fanorona agents.
    pub fn has_network_agents(self) -> bool {
        self.fanorona_board().is_some()
    }
}

/// Work done with a game whatever its type (a generic function the registry can call):
/// [`GameId::visit`] hands it the game's initial state.
pub trait GameVisitor {
    /// What the work gives.
    type Output;

    /// Does the work with `start`, the initial state of the game.
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

impl GameId {
    /// The game registry: runs `visitor` with this game's initial state, as its own type. The
    /// one place that maps a game's name to a type; code generic over [`Game`] reaches any
    /// game through it.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameId::Fanorona(board) => visitor.visit(Fanorona::new(Position::initial(board))),
            GameId::Telo => visitor.visit(Telo::new()),
        }
    }
}

/// Boards are compared by size (there is one board of each size).
impl PartialEq for GameId {
    fn eq(&self, other: &GameId) -> bool {
        match (self, other) {
            (GameId::Fanorona(a), GameId::Fanorona(b)) => {
                (a.width(), a.height()) == (b.width(), b.height())
            }
            (GameId::Telo, GameId::Telo) => true,
            _ => false,
        }
    }
}

impl Eq for GameId {}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name(), self.board())
    }
}

impl FromStr for GameId {
    type Err = GameIdError;

    fn from_str(text: &str) -> Result<GameId, GameIdError> {
        let text = text.trim();
        match text.split_once(' ') {
            Some((name, board)) => GameId::build(name, Some(board.trim())),
            None => GameId::build(text, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fanorona(width: usize, height: usize) -> GameId {
        GameId::Fanorona(Board::new(width, height).unwrap())
    }

    /// The action count of the game a visitor is given.
    struct Actions;

    impl GameVisitor for Actions {
        type Output = (usize, String);

        fn visit<G: Game>(self, start: G) -> (usize, String) {
            (start.num_actions(), start.to_text())
        }
    }

    #[test]
    fn the_registry_hands_each_game_its_own_start() {
        let (actions, text) = GameId::Telo.visit(Actions);
        assert_eq!(
            (actions, text),
            (Telo::new().num_actions(), Telo::new().to_text())
        );
        let (actions, text) = fanorona(5, 3).visit(Actions);
        let start = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        assert_eq!((actions, text), (start.num_actions(), start.to_text()));
        assert_ne!(actions, Fanorona::standard().num_actions());
    }

    #[test]
    fn every_game_round_trips_through_its_text() {
        for id in [
            GameId::standard(),
            fanorona(5, 5),
            fanorona(3, 3),
            fanorona(7, 3),
        ] {
            assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
        }
        assert_eq!(GameId::Telo.to_string().parse::<GameId>(), Ok(GameId::Telo));
    }

    #[test]
    fn the_fanorona_engines_play_fanorona_alone() {
        for id in [GameId::standard(), fanorona(5, 3)] {
            assert!(std::ptr::eq(id.fanorona_board().unwrap(), id.board()));
            assert!(id.has_tables() && id.has_alpha_beta() && id.has_network_agents());
        }
        let telo = GameId::Telo;
        assert!(telo.fanorona_board().is_none());
        assert!(!telo.has_tables() && !telo.has_alpha_beta() && !telo.has_network_agents());
    }

    #[test]
    fn games_display_as_name_and_board() {
        assert_eq!(GameId::standard().to_string(), "fanorona 9x5");
        assert_eq!(fanorona(7, 3).to_string(), "fanorona 7x3");
        assert_eq!(GameId::Telo.to_string(), "telo 3x3");
        assert_eq!(GameId::Telo.name(), "telo");
        assert_eq!(GameId::Telo.board().to_string(), "3x3");
        assert_eq!(fanorona(5, 3).name(), "fanorona");
    }

    #[test]
    fn telo_alone_and_separate_parts_parse() {
        assert_eq!("telo".parse(), Ok(GameId::Telo));
        assert_eq!(" fanorona 5x3 ".parse(), Ok(fanorona(5, 3)));
        assert_eq!(
            GameId::from_parts("fanorona", "9x5"),
            Ok(GameId::standard())
        );
        assert_eq!(GameId::from_parts("telo", "3x3"), Ok(GameId::Telo));
    }

    #[test]
    fn games_differ_by_name_and_board() {
        assert_ne!(fanorona(3, 3), GameId::Telo);
        assert_ne!(fanorona(5, 3), fanorona(3, 5));
    }

    #[test]
    fn bad_names_and_boards_are_refused_with_what_is_expected() {
        let err = |text: &str| text.parse::<GameId>().unwrap_err();
        assert_eq!(err("checkers"), GameIdError::Unknown("checkers".into()));
        assert_eq!(err("checkers 9x5"), GameIdError::Unknown("checkers".into()));
        assert!(err("chess").to_string().contains("expected `fanorona WxH`"));
        assert_eq!(err("fanorona"), GameIdError::MissingBoard);
        assert!(matches!(
            err("fanorona 4x4"),
            GameIdError::Board(BoardError::NotOdd { .. })
        ));
        assert!(matches!(
            err("fanorona 9"),
            GameIdError::Board(BoardError::Syntax(_))
        ));
        assert!(matches!(
            err("fanorona 11x7"),
            GameIdError::Board(BoardError::TooLarge { .. })
        ));
        assert_eq!(err("telo 5x5"), GameIdError::TeloBoard("5x5".into()));
        assert_eq!(err("telo 3"), GameIdError::TeloBoard("3".into()));
        assert_eq!(err(""), GameIdError::Unknown(String::new()));
        assert!(
            err("telo 5x5")
                .to_string()
                .contains("telo is played on 3x3")
        );
    }
}
