//! [`TablesFirst`]: an agent that plays the endgame tables' best turn wherever they hold the
//! position (within its draw limits), and lets another agent play everywhere else. It
//! converts every won ending by the fastest win, never spoils a draw, and loses as slowly
//! as it can.

use std::path::PathBuf;
use std::sync::Arc;

use fanorona_env::{Agent, AgentError, Board, Fanorona, SearchInfo, SearchLimits, Turn};

use fanorona_exact::solver::Value;
use fanorona_exact::tables::{EndgameTables, shared_tables};

use super::turn_agent::{TurnAgent, TurnChooser};

/// Chooses the tables' best turn (the first of them: the fastest win, else a draw, else the
/// slowest loss).
struct TableTurns {
    tables: Arc<EndgameTables>,
    name: String,
}

impl TurnChooser for TableTurns {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
        let (_, best) = self
            .tables
            .best_turns(game.position())
            .ok_or_else(|| AgentError {
                agent: self.name.clone(),
                reason: "the endgame tables do not hold this position".into(),
            })?;
        Ok(best[0])
    }
}

/// Plays from the endgame tables of the folder `dir` where they hold the position, else as
/// `inner`. The tables of a game's board are loaded at its first move (once per process).
pub struct TablesFirst {
    inner: Box<dyn Agent<Fanorona>>,
    dir: PathBuf,
    exact: Option<TurnAgent<TableTurns>>,
    /// The exact value of the last position the tables played in; `None` when `inner` played.
    last: Option<Value>,
}

impl TablesFirst {
    /// `inner`, playing from the tables in `dir` where they hold the position.
    pub fn new(inner: Box<dyn Agent<Fanorona>>, dir: PathBuf) -> TablesFirst {
        TablesFirst {
            inner,
            dir,
            exact: None,
            last: None,
        }
    }

    /// The tables' player for `board`, loading its tables where needed.
    fn exact_player(
        &mut self,
        board: &'static Board,
    ) -> Result<&mut TurnAgent<TableTurns>, AgentError> {
        let loaded = self
            .exact
            .as_ref()
            .is_some_and(|t| std::ptr::eq(t.chooser().tables.board(), board));
        if !loaded {
            let tables = shared_tables(&self.dir, board).map_err(|e| AgentError {
                agent: self.inner.name(),
                reason: e.to_string(),
            })?;
            let name = self.inner.name();
            self.exact = Some(TurnAgent::new(TableTurns { tables, name }));
        }
        Ok(self.exact.as_mut().expect("just loaded"))
    }
}

impl Agent<Fanorona> for TablesFirst {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
        let pos = state.position();
        let exact = self.exact_player(pos.board())?;
        let value = exact.chooser().tables.value_under_limits(pos);
        let action = match value {
            Some(_) => exact.act(state),
            None => self.inner.act(state),
        };
        self.last = value;
        action
    }

    fn reset(&mut self) {
        self.inner.reset();
        if let Some(exact) = &mut self.exact {
            exact.reset();
        }
        self.last = None;
    }

    fn set_limits(&mut self, limits: &SearchLimits) {
        self.inner.set_limits(limits);
    }

    fn last_info(&self) -> Option<SearchInfo> {
        let Some(value) = self.last else {
            return self.inner.last_info();
        };
        let mate_in = match value {
            Value::Win(n) => Some(i32::from(n)),
            Value::Loss(n) => Some(-i32::from(n)),
            Value::Draw => None,
        };
        Some(SearchInfo {
            value: Some(value.result()),
            mate_in,
            nodes: 1,
            ..SearchInfo::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::complete_turn::agent_turn;
    use fanorona_env::{Position, RandomAgent};
    use fanorona_exact::tables::{BuildOptions, build};

    #[test]
    fn the_tables_play_where_they_hold_the_position_and_the_inner_agent_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        build(Board::standard(), 3, dir.path(), &BuildOptions::default()).unwrap();
        // White wins at once only by the whole chain c1d1A d1d2A; random play may stop early.
        let won = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        let mut random_kept = 0;
        for seed in 0..20 {
            let mut tables = TablesFirst::new(Box::new(RandomAgent::new(seed)), dir.path().into());
            let mut game = won.clone();
            let turn = agent_turn(&mut tables, &mut game).unwrap();
            assert_eq!(turn.notation(Board::standard()), "c1d1Ad2A");
            let info = tables.last_info().unwrap();
            assert_eq!((info.value, info.mate_in), (Some(1.0), Some(1)));

            let mut random = RandomAgent::new(seed);
            let mut game = won.clone();
            let turn = agent_turn(&mut random, &mut game).unwrap();
            random_kept += usize::from(turn.notation(Board::standard()) == "c1d1Ad2A");
        }
        assert!(
            random_kept < 20,
            "random play always won: the test shows nothing"
        );
        // The opening is beyond the tables: the inner agent plays it.
        let mut tables = TablesFirst::new(Box::new(RandomAgent::new(1)), dir.path().into());
        let mut inner = RandomAgent::new(1);
        let opening = Fanorona::standard();
        assert_eq!(tables.act(&opening).unwrap(), inner.act(&opening).unwrap());
        assert!(tables.last_info().is_none_or(|i| i.mate_in.is_none()));
        // A folder without tables of the board is refused at the first move.
        let empty = tempfile::tempdir().unwrap();
        let mut none = TablesFirst::new(Box::new(RandomAgent::new(1)), empty.path().into());
        let error = none.act(&won).unwrap_err();
        assert!(error.reason.contains("no endgame tables of 9x5"), "{error}");
    }
}
