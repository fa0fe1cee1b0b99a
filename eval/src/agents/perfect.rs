//! [`PerfectChooser`]: the perfect player of any board, within a budget. Where the endgame
//! tables hold the position it plays their best turn (the fastest win, else a draw, else the
//! slowest loss, within the game's draw limits); elsewhere the prover settles the position's
//! value and which turns keep it, and it plays a keeping turn, the one after which the
//! hand-made evaluation likes the opponent's position least (a capture before a quiet step,
//! so that a won game moves on). Where the prover does not settle within its node budget, or
//! the position is one it cannot take (mid-chain, a variant's rules), a fallback search plays
//! and the agent says so: its `last_info` carries a note (the engine's `info string`).
//!
//! The tables and the prover use the tables' convention, no draw limits: a win they prove may
//! take longer than the game's draw limits allow, and the game then ends in a draw.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use fanorona_env::{AgentError, Board, Fanorona, Position, SearchInfo, SearchLimits, Turn};
use fanorona_exact::prover::{ProofFile, ProveOptions, TurnStatus, prove};
use fanorona_exact::tables::{EndgameTables, shared_tables};

use super::turn_agent::TurnChooser;
use crate::minimax::{Handcrafted, MinimaxChooser, evaluate};

/// Entries the prover's tables may hold for one turn's proof (about 40 bytes each).
const MAX_ENTRIES: usize = 1 << 22;

/// Chooses turns the prover shows to keep the value (see the module documentation).
pub struct PerfectChooser {
    name: String,
    /// The folder of endgame tables, if any, loaded at the first turn of each board.
    dir: Option<PathBuf>,
    tables: Option<Arc<EndgameTables>>,
    /// The prover's node budget for one turn.
    nodes: u64,
    fallback: MinimaxChooser<Handcrafted>,
    last: Option<SearchInfo>,
}

impl PerfectChooser {
    /// A perfect player called `name` with the tables of `dir` (if any), a budget of `nodes`
    /// prover nodes a turn, and `fallback` where that does not settle the position.
    pub fn new(
        name: String,
        dir: Option<PathBuf>,
        nodes: u64,
        fallback: MinimaxChooser<Handcrafted>,
    ) -> PerfectChooser {
        PerfectChooser {
            name,
            dir,
            tables: None,
            nodes,
            fallback,
            last: None,
        }
    }

    fn error(&self, reason: impl ToString) -> AgentError {
        AgentError {
            agent: self.name.clone(),
            reason: reason.to_string(),
        }
    }

    /// The tables of `board` (loaded once a board), if a folder was given.
    fn tables_for(
        &mut self,
        board: &'static Board,
    ) -> Result<Option<Arc<EndgameTables>>, AgentError> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let loaded = self
            .tables
            .as_ref()
            .is_some_and(|t| std::ptr::eq(t.board(), board));
        if !loaded {
            self.tables = Some(shared_tables(dir, board).map_err(|e| self.error(e))?);
        }
        Ok(self.tables.clone())
    }

    /// The exact choice in `pos`: the tables' best turn, or a keeping turn the prover finds
    /// within the budget, with what it was based on; `None` where neither settles it.
    fn exact_turn(
        &mut self,
        pos: &Position,
        tables: Option<&EndgameTables>,
    ) -> Option<(Turn, SearchInfo)> {
        if let Some(t) = tables
            && t.value_under_limits(pos).is_some()
            && let Some((value, best)) = t.best_turns(pos)
        {
            let info = SearchInfo {
                value: Some(value.result()),
                nodes: 1,
                ..SearchInfo::default()
            };
            return Some((best[0], info));
        }
        let options = ProveOptions {
            max_nodes: self.nodes,
            max_seconds: None,
            max_entries: MAX_ENTRIES,
            turns: true,
            progress: &mut |_| {},
            stop: None,
            parallel: false,
        };
        let (report, _) = prove(pos, tables, ProofFile::new(pos.board()), options).ok()?;
        let value = report.value?;
        let keeping = report
            .turns
            .iter()
            .filter(|(_, status)| *status == TurnStatus::Keeps)
            .map(|(turn, _)| *turn);
        // The opponent's evaluation after the turn, lowest first; ties to the first turn.
        let turn = keeping.min_by_key(|turn| {
            let mut next = *pos;
            next.play_turn_unchecked(turn);
            evaluate(&next)
        })?;
        let info = SearchInfo {
            value: Some(value.result()),
            nodes: report.nodes,
            ..SearchInfo::default()
        };
        Some((turn, info))
    }
}

impl TurnChooser for PerfectChooser {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
        let started = Instant::now();
        let pos = *game.position();
        let tables = self.tables_for(pos.board())?;
        if pos.is_turn_start()
            && let Some((turn, mut info)) = self.exact_turn(&pos, tables.as_deref())
        {
            info.time = started.elapsed();
            info.pv = vec![turn.notation(pos.board())];
            self.last = Some(info);
            return Ok(turn);
        }
        let turn = self.fallback.choose_turn(game)?;
        let mut info = self.fallback.last_info().unwrap_or_default();
        info.note = Some(format!(
            "not settled within {} prover nodes: the fallback search played",
            self.nodes
        ));
        self.last = Some(info);
        Ok(turn)
    }

    fn reset(&mut self) {
        self.fallback.reset();
        self.last = None;
    }

    fn set_limits(&mut self, limits: &SearchLimits) {
        self.fallback.set_limits(limits);
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.last.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Budget;

    fn chooser(nodes: u64) -> PerfectChooser {
        let fallback = MinimaxChooser::new("minimax", Budget::fixed_depth(2), 1, 1);
        PerfectChooser::new("perfect".into(), None, nodes, fallback)
    }

    /// Whether `turn` keeps the value of `pos`, by a proof with a large budget.
    fn keeps(pos: &Position, turn: &Turn) -> bool {
        let options = ProveOptions {
            max_nodes: 5_000_000,
            max_seconds: None,
            max_entries: MAX_ENTRIES,
            turns: true,
            progress: &mut |_| {},
            stop: None,
            parallel: false,
        };
        let (report, _) = prove(pos, None, ProofFile::new(pos.board()), options).unwrap();
        report
            .turns
            .iter()
            .any(|(t, status)| t == turn && *status == TurnStatus::Keeps)
    }

    #[test]
    fn it_plays_turns_that_keep_the_proven_value_on_a_small_board() {
        let mut perfect = chooser(1_000_000);
        let mut pos = Position::initial(Board::new(5, 3).unwrap());
        for _ in 0..6 {
            if pos.legal_turns().is_empty() || pos.pieces(pos.side_to_move().other()) == 0 {
                break;
            }
            let turn = perfect.choose_turn(&Fanorona::new(pos)).unwrap();
            assert!(keeps(&pos, &turn), "{}", turn.notation(pos.board()));
            let info = perfect.last_info().unwrap();
            assert!(info.note.is_none() && info.value.is_some(), "{info:?}");
            pos.play_turn_unchecked(&turn);
        }
    }

    #[test]
    fn it_says_when_the_fallback_plays() {
        let mut perfect = chooser(1);
        let pos = Position::standard();
        let turn = perfect.choose_turn(&Fanorona::new(pos)).unwrap();
        assert!(pos.legal_turns().contains(&turn));
        let note = perfect.last_info().unwrap().note.unwrap();
        assert!(note.contains("not settled within 1 prover nodes"), "{note}");
    }
}
