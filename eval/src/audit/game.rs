//! The audit of one game: its record replayed, the value of each turn start with few enough
//! pieces read from the endgame tables or proven by the prover within a budget, and the first
//! turn that lost its mover's value.

use fanorona_env::{Color, Excerpt, Position};
use fanorona_exact::prover::{ProofFile, ProveOptions, Verdict, prove};
use fanorona_exact::solver::check_rules;
use fanorona_exact::tables::EndgameTables;

use super::error::AuditError;
use super::judge::{Judgement, judge};
use super::records::RecordFile;
use crate::record::RecordError;

/// What one game's audit may spend, and on which turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditBudget {
    /// Only turns that start with at most this many pieces on the board are judged (`None`:
    /// every turn).
    pub pieces: Option<u32>,
    /// The most nodes the prover expands for one position's value.
    pub nodes: u64,
    /// Entries of each of the prover's working tables before its open entries are dropped.
    pub max_entries: usize,
}

/// The turn that first lost its mover's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostTurn {
    /// Its number in the record's moves, from 1 (one per turn).
    pub number: usize,
    /// Pieces on the board at its start.
    pub pieces: u32,
    /// The side that played it.
    pub mover: Color,
    /// The turn in notation.
    pub turn: String,
    /// The mover's value before it.
    pub before: Verdict,
    /// The mover's value after it.
    pub after: Verdict,
}

/// Where a game's value was first lost, if anywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirstLoss {
    /// This turn was the first to lose its mover's value.
    Lost(LostTurn),
    /// Every turn judged kept its mover's value.
    Kept,
    /// The values did not settle whether this turn, the first such, kept its mover's value;
    /// no earlier turn lost it.
    Unsettled {
        /// Its number in the record's moves, from 1.
        number: usize,
        /// Pieces on the board at its start.
        pieces: u32,
    },
    /// No turn was judged: none started with few enough pieces (or all were opening turns).
    NotAudited,
}

impl FirstLoss {
    /// `lost`, `kept`, `unsettled` or `not audited`.
    pub fn name(&self) -> &'static str {
        match self {
            FirstLoss::Lost(_) => "lost",
            FirstLoss::Kept => "kept",
            FirstLoss::Unsettled { .. } => "unsettled",
            FirstLoss::NotAudited => "not audited",
        }
    }
}

/// One game's audit.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAudit {
    /// The record audited.
    pub file: RecordFile,
    /// Where its value was first lost.
    pub first: FirstLoss,
    /// Turns judged.
    pub judged: usize,
    /// Values read from the endgame tables.
    pub from_tables: usize,
    /// Values the prover was asked for (settled or not).
    pub proofs: usize,
    /// Nodes the prover expanded for them.
    pub nodes: u64,
}

impl GameAudit {
    /// The agent that played `color`.
    pub fn agent(&self, color: Color) -> &str {
        match color {
            Color::White => &self.file.record.white,
            Color::Black => &self.file.record.black,
        }
    }
}

/// The values of a game's positions, each found once: from the tables, from the prover, or
/// by the end of the game.
struct Values<'a> {
    file: &'a RecordFile,
    positions: &'a [Position],
    tables: &'a EndgameTables,
    budget: AuditBudget,
    known: Vec<Option<Option<Verdict>>>,
    audit: GameAudit,
}

impl Values<'_> {
    /// The value of position `index` (after `index` turns) for its side to move, `None`
    /// where the budget does not settle it.
    fn get(&mut self, index: usize) -> Result<Option<Verdict>, AuditError> {
        if let Some(value) = self.known[index] {
            return Ok(value);
        }
        let pos = &self.positions[index];
        let value = if pos.pieces(pos.side_to_move()) == 0 {
            // The last turn took every piece: lost now.
            Some(Verdict::Loss)
        } else if let Some(value) = self.tables.value(pos) {
            self.audit.from_tables += 1;
            Some(value.into())
        } else {
            self.prove(index)?
        };
        self.known[index] = Some(value);
        Ok(value)
    }

    /// Proves the value of position `index` within the budget.
    fn prove(&mut self, index: usize) -> Result<Option<Verdict>, AuditError> {
        let pos = &self.positions[index];
        let options = ProveOptions {
            max_nodes: self.budget.nodes,
            max_seconds: None,
            max_entries: self.budget.max_entries,
            turns: false,
            progress: &mut |_| {},
            stop: None,
            parallel: false,
        };
        let (report, _) = prove(pos, Some(self.tables), ProofFile::new(pos.board()), options)
            .map_err(|source| AuditError::Prover {
                path: self.file.path.clone(),
                played: index,
                fen: pos.to_fen(),
                source: Box::new(source),
            })?;
        self.audit.proofs += 1;
        self.audit.nodes += report.nodes;
        Ok(report.value)
    }
}

/// Audits the game of `file` with the `tables` (of its board) and the prover within `budget`:
/// judges each turn that starts with at most `budget.pieces` pieces, the opening turns a
/// match drew at random (its `Opening` tag) left out, until the first turn that lost its
/// mover's value or the first the values do not settle.
pub fn audit_game(
    file: &RecordFile,
    tables: &EndgameTables,
    budget: AuditBudget,
) -> Result<GameAudit, AuditError> {
    let record = &file.record;
    let board = record.start.board();
    if !std::ptr::eq(board, tables.board()) {
        return Err(AuditError::Board {
            path: file.path.clone(),
            board: board.to_string(),
            tables: tables.board().to_string(),
        });
    }
    check_rules(record.start.rules()).map_err(|source| AuditError::Rules {
        path: file.path.clone(),
        source,
    })?;
    let history = record.history().map_err(|source| AuditError::BadRecord {
        path: file.path.clone(),
        source,
    })?;
    let opening = match record.tag("Opening") {
        None => 0,
        Some(n) => n.parse::<usize>().map_err(|_| AuditError::BadRecord {
            path: file.path.clone(),
            source: RecordError::TagValue {
                tag: "Opening".into(),
                reason: format!("{}: expected the number of opening turns", Excerpt(n)),
            },
        })?,
    };
    let positions = history.positions();
    let mut values = Values {
        file,
        positions,
        tables,
        budget,
        known: vec![None; positions.len()],
        audit: GameAudit {
            file: file.clone(),
            first: FirstLoss::NotAudited,
            judged: 0,
            from_tables: 0,
            proofs: 0,
            nodes: 0,
        },
    };
    let mut first = FirstLoss::NotAudited;
    for (index, turn) in history.turns().iter().enumerate().skip(opening) {
        let pos = &positions[index];
        let pieces = pos.piece_count();
        if budget.pieces.is_some_and(|most| pieces > most) {
            continue;
        }
        values.audit.judged += 1;
        first = FirstLoss::Kept;
        let before = values.get(index)?;
        let after = match before {
            // Every turn keeps a loss: no need for the value after it.
            Some(Verdict::Loss) => None,
            _ => values.get(index + 1)?,
        };
        match (judge(before, after), before, after) {
            (Judgement::Keeps, ..) => {}
            (Judgement::Loses, Some(before), Some(after)) => {
                first = FirstLoss::Lost(LostTurn {
                    number: index + 1,
                    pieces,
                    mover: pos.side_to_move(),
                    turn: turn.notation(board),
                    before,
                    after: after.for_other_side(),
                });
                break;
            }
            _ => {
                first = FirstLoss::Unsettled {
                    number: index + 1,
                    pieces,
                };
                break;
            }
        }
    }
    values.audit.first = first;
    Ok(values.audit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameRecord;
    use fanorona_env::{Board, History};
    use fanorona_exact::solver::{Solution, TableSource, Value, shared_solution};
    use fanorona_exact::tables::{BuildOptions, build};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// The turn a game of [`game_with_one_loss`] spoiled, as the audit should find it.
    struct Spoiled {
        number: usize,
        pieces: u32,
        mover: Color,
        before: Verdict,
        after: Verdict,
    }

    /// Whether a turn of value `turn` (for its mover) keeps the position's value `best`.
    fn keeps(best: Value, turn: Value) -> bool {
        Verdict::from(best) == Verdict::from(turn)
    }

    /// A game of 5x3 from the start where every turn keeps its mover's value (by the solved
    /// board) but one: the first turn after `after` turns where some turn spoils a win or a
    /// draw. Returns its record (with `Opening` tag `opening`) and the turn spoiled; `None`
    /// where the game ends before such a turn.
    fn game_with_one_loss(
        solution: &Solution,
        after: usize,
        opening: usize,
    ) -> Option<(RecordFile, Spoiled)> {
        let board = Board::new(5, 3).unwrap();
        let mut history = History::new(Position::initial(board));
        let mut spoiled = None;
        while history.outcome().is_none() && history.turns().len() < 80 {
            let pos = *history.position();
            let values = solution.turn_values(&pos).unwrap();
            let best = solution.value(&pos).unwrap();
            let spoiling = values.iter().find(|(_, v)| !keeps(best, *v));
            let (turn, value) = match spoiling {
                Some(&(turn, value))
                    if spoiled.is_none()
                        && history.turns().len() >= after
                        && !matches!(best, Value::Loss(_)) =>
                {
                    (turn, value)
                }
                _ => *values.iter().find(|(_, v)| keeps(best, *v)).unwrap(),
            };
            if !keeps(best, value) {
                spoiled = Some(Spoiled {
                    number: history.turns().len() + 1,
                    pieces: pos.piece_count(),
                    mover: pos.side_to_move(),
                    before: best.into(),
                    after: value.into(),
                });
            }
            history.play_unchecked(&turn);
        }
        let result = history.outcome().map_or("*", |o| o.result_string());
        let record = GameRecord {
            event: "audit test".into(),
            date: "2026.12.07".into(),
            white: "keeper".into(),
            black: "spoiler".into(),
            result: result.into(),
            start: Position::initial(board),
            moves: history.notation(),
            extra: vec![("Opening".into(), opening.to_string())],
        };
        let file = RecordFile {
            path: PathBuf::from("game.pgn"),
            record: GameRecord::parse(&record.to_text()).unwrap(),
        };
        Some((file, spoiled?))
    }

    /// A budget: turns of at most `pieces`, `nodes` a proof.
    fn budget(pieces: Option<u32>, nodes: u64) -> AuditBudget {
        AuditBudget {
            pieces,
            nodes,
            max_entries: 1 << 20,
        }
    }

    /// The solved 5x3 board, and its tables of up to 4 pieces in a temporary folder (kept
    /// while it is held).
    fn solved_and_tables() -> (Arc<Solution>, tempfile::TempDir, EndgameTables) {
        let solution = shared_solution(&TableSource::Solve(5, 3)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let board = Board::new(5, 3).unwrap();
        let (tables, _) = build(board, 4, dir.path(), &BuildOptions::default()).unwrap();
        (solution, dir, tables)
    }

    #[test]
    fn the_first_turn_that_lost_the_value_is_found() {
        let (solution, _dir, tables) = solved_and_tables();
        let mut games = 0;
        for after in 0..12 {
            let Some((file, spoiled)) = game_with_one_loss(&solution, after, 0) else {
                continue;
            };
            games += 1;
            let audit = audit_game(&file, &tables, budget(None, 1_000_000)).unwrap();
            let FirstLoss::Lost(lost) = &audit.first else {
                panic!("after {after}: {:?}", audit.first);
            };
            assert_eq!(
                (
                    lost.number,
                    lost.pieces,
                    lost.mover,
                    lost.before,
                    lost.after
                ),
                (
                    spoiled.number,
                    spoiled.pieces,
                    spoiled.mover,
                    spoiled.before,
                    spoiled.after
                ),
                "after {after}"
            );
            assert_eq!(lost.turn, file.record.moves[lost.number - 1]);
            assert_eq!(audit.judged, spoiled.number);
            assert!(audit.proofs > 0 && audit.nodes > 0, "{audit:?}");
            // Turns of more pieces than the lost one's are not judged: the game kept its
            // value from there on.
            let fewer = audit_game(&file, &tables, budget(Some(spoiled.pieces - 1), 1_000_000));
            let fewer = fewer.unwrap();
            assert!(
                matches!(fewer.first, FirstLoss::Kept | FirstLoss::NotAudited),
                "{:?}",
                fewer.first
            );
            // An opening turn is no agent's choice: not judged.
            let (opened, _) = game_with_one_loss(&solution, after, spoiled.number).unwrap();
            let audit = audit_game(&opened, &tables, budget(None, 1_000_000)).unwrap();
            assert_eq!(audit.first, FirstLoss::Kept);
        }
        assert!(games >= 3, "{games} games with a spoiled turn");
    }

    #[test]
    fn positions_the_tables_hold_need_no_proof_and_small_budgets_leave_games_unsettled() {
        let (solution, _dir, tables) = solved_and_tables();
        let (file, _) = game_with_one_loss(&solution, 0, 0).unwrap();
        let in_tables = audit_game(&file, &tables, budget(Some(4), 1)).unwrap();
        assert_eq!(in_tables.proofs, 0, "{in_tables:?}");
        assert!(in_tables.judged == 0 || in_tables.from_tables > 0);
        let starved = audit_game(&file, &tables, budget(None, 1)).unwrap();
        let FirstLoss::Unsettled { number, pieces } = starved.first else {
            panic!("{:?}", starved.first);
        };
        assert_eq!((number, pieces), (1, 14));
        assert_eq!(starved.judged, 1);
    }

    #[test]
    fn games_of_another_board_or_rules_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let board = Board::new(5, 3).unwrap();
        let (tables, _) = build(board, 2, dir.path(), &BuildOptions::default()).unwrap();
        // Audits the record `text`, named `name`, which must fail.
        let refused = |name: &str, text: &str| {
            let file = RecordFile {
                path: PathBuf::from(name),
                record: GameRecord::parse(text).unwrap(),
            };
            audit_game(&file, &tables, budget(None, 10)).unwrap_err()
        };
        let e = refused("five.pgn", "[Board \"5x5\"]\n[Result \"*\"]\n\n*\n");
        assert!(matches!(e, AuditError::Board { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "five.pgn is a game of 5x5, the tables are of 5x3"
        );
        let vela = "[Board \"5x3\"]\n[Rules \"vela=white\"]\n[Result \"*\"]\n\n*\n";
        let e = refused("vela.pgn", vela);
        assert!(matches!(e, AuditError::Rules { .. }), "{e}");
        assert!(e.to_string().contains("vela"), "{e}");
        let opening = "[Board \"5x3\"]\n[Opening \"two\"]\n[Result \"*\"]\n\n*\n";
        let e = refused("opening.pgn", opening);
        assert_eq!(
            e.to_string(),
            "bad game record opening.pgn: tag Opening: \"two\": expected the number of opening turns"
        );
    }
}
