//! The audit of many games together: by agent and colour, how many games first lost their
//! value at each piece count, and how many the audit could not settle; as a table for people
//! and as JSON.

use std::collections::{BTreeMap, BTreeSet};

use fanorona_env::Color;
use serde_json::{Value, json};

use super::game::{AuditBudget, FirstLoss, GameAudit};

/// The audits of a set of games of one board.
#[derive(Clone, Debug)]
pub struct AuditReport {
    /// The board, `WxH`.
    pub board: String,
    /// The most pieces the endgame tables hold.
    pub tables_pieces: usize,
    /// The budget of each game.
    pub budget: AuditBudget,
    /// Each game's audit, in the order of the records.
    pub games: Vec<GameAudit>,
}

/// Games by the piece count at the start of a turn, most pieces first.
type ByPieces = BTreeMap<std::cmp::Reverse<u32>, usize>;

impl AuditReport {
    /// The games whose value was first lost, by the agent and colour that lost it and the
    /// pieces at the start of that turn.
    pub fn first_losses(&self) -> BTreeMap<(&str, Color), ByPieces> {
        let mut out: BTreeMap<(&str, Color), ByPieces> = BTreeMap::new();
        for game in &self.games {
            if let FirstLoss::Lost(lost) = &game.first {
                let row = out.entry((game.agent(lost.mover), lost.mover)).or_default();
                *row.entry(std::cmp::Reverse(lost.pieces)).or_default() += 1;
            }
        }
        out
    }

    /// The unsettled games, by the pieces at the start of the first turn not settled.
    pub fn unsettled(&self) -> ByPieces {
        let mut out = ByPieces::new();
        for game in &self.games {
            if let FirstLoss::Unsettled { pieces, .. } = game.first {
                *out.entry(std::cmp::Reverse(pieces)).or_default() += 1;
            }
        }
        out
    }

    /// How many games' audits ended as `name` ([`FirstLoss::name`]).
    pub fn count(&self, name: &str) -> usize {
        self.games.iter().filter(|g| g.first.name() == name).count()
    }

    /// The settings in words: board, pieces, tables, nodes.
    fn settings(&self) -> String {
        let turns = match self.budget.pieces {
            Some(n) => format!("turns starting with at most {n} pieces"),
            None => "every turn".into(),
        };
        format!(
            "{} games of {}, {turns}; tables up to {} pieces, at most {} nodes a proof",
            self.games.len(),
            self.board,
            self.tables_pieces,
            self.budget.nodes
        )
    }

    /// The report for people: the counts, then a table of the first losses by agent and
    /// colour (rows) and piece count (columns), with the unsettled games in a last row.
    pub fn table(&self) -> String {
        let losses = self.first_losses();
        let unsettled = self.unsettled();
        let mut rows: Vec<(String, &ByPieces)> = losses
            .iter()
            .map(|((agent, color), row)| (format!("{agent} ({color})"), row))
            .collect();
        rows.push(("unsettled (first turn not settled)".into(), &unsettled));
        let columns: BTreeSet<_> = rows.iter().flat_map(|(_, r)| r.keys().copied()).collect();
        let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        let mut out = format!(
            "audit of {}\nlost their value: {}, kept it: {}, unsettled: {}, not audited: {}\n\n\
             games by the pieces at the start of the turn that first lost the value\n",
            self.settings(),
            self.count("lost"),
            self.count("kept"),
            self.count("unsettled"),
            self.count("not audited"),
        );
        out.push_str(&format!("{:width$} {:>5} |", "who lost it", "games"));
        for c in &columns {
            out.push_str(&format!(" {:>4}", c.0));
        }
        out.push('\n');
        for (name, row) in rows {
            let total: usize = row.values().sum();
            out.push_str(&format!("{name:width$} {total:>5} |"));
            for c in &columns {
                match row.get(c) {
                    Some(n) => out.push_str(&format!(" {n:>4}")),
                    None => out.push_str(&format!(" {:>4}", "-")),
                }
            }
            out.push('\n');
        }
        out
    }

    /// The report as JSON: the settings, the counts, the first losses by agent and colour
    /// (`by_pieces`: pieces to games), the unsettled games by pieces, and every game.
    pub fn to_json(&self) -> Value {
        let by_pieces = |row: &ByPieces| -> Value {
            row.iter()
                .map(|(pieces, games)| (pieces.0.to_string(), json!(games)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let first_losses: Vec<Value> = self
            .first_losses()
            .iter()
            .map(|((agent, color), row)| {
                json!({
                    "agent": agent,
                    "colour": color.name(),
                    "games": row.values().sum::<usize>(),
                    "by_pieces": by_pieces(row),
                })
            })
            .collect();
        json!({
            "board": self.board,
            "pieces": self.budget.pieces,
            "nodes": self.budget.nodes,
            "tables_pieces": self.tables_pieces,
            "games": self.games.len(),
            "lost": self.count("lost"),
            "kept": self.count("kept"),
            "unsettled": self.count("unsettled"),
            "not_audited": self.count("not audited"),
            "first_losses": first_losses,
            "unsettled_by_pieces": by_pieces(&self.unsettled()),
            "per_game": self.games.iter().map(game_json).collect::<Vec<_>>(),
        })
    }
}

/// One game's audit as JSON.
fn game_json(game: &GameAudit) -> Value {
    let record = &game.file.record;
    let mut out = json!({
        "file": game.file.path.display().to_string(),
        "white": record.white,
        "black": record.black,
        "result": record.result,
        "audit": game.first.name(),
        "judged": game.judged,
        "from_tables": game.from_tables,
        "proofs": game.proofs,
        "nodes": game.nodes,
    });
    match &game.first {
        FirstLoss::Lost(lost) => {
            out["turn"] = json!(lost.number);
            out["pieces"] = json!(lost.pieces);
            out["colour"] = json!(lost.mover.name());
            out["agent"] = json!(game.agent(lost.mover));
            out["played"] = json!(lost.turn);
            out["before"] = json!(lost.before.name());
            out["after"] = json!(lost.after.name());
        }
        FirstLoss::Unsettled { number, pieces } => {
            out["turn"] = json!(number);
            out["pieces"] = json!(pieces);
        }
        FirstLoss::Kept | FirstLoss::NotAudited => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::game::LostTurn;
    use crate::audit::records::RecordFile;
    use crate::record::GameRecord;
    use fanorona_exact::prover::Verdict;

    /// A game of `white` and `black` whose audit ended as `first`.
    fn game(white: &str, black: &str, first: FirstLoss) -> GameAudit {
        let text = format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\n*\n");
        GameAudit {
            file: RecordFile {
                path: "g.pgn".into(),
                record: GameRecord::parse(&text).unwrap(),
            },
            first,
            judged: 3,
            from_tables: 1,
            proofs: 2,
            nodes: 100,
        }
    }

    /// A first loss by `mover` at `pieces`.
    fn lost(mover: Color, pieces: u32) -> FirstLoss {
        FirstLoss::Lost(LostTurn {
            number: 40,
            pieces,
            mover,
            turn: "a1a2".into(),
            before: Verdict::Win,
            after: Verdict::Draw,
        })
    }

    #[test]
    fn first_losses_are_counted_by_agent_colour_and_pieces() {
        let report = AuditReport {
            board: "9x5".into(),
            tables_pieces: 6,
            budget: AuditBudget {
                pieces: Some(12),
                nodes: 1000,
                max_entries: 4000,
            },
            games: vec![
                game("a", "b", lost(Color::White, 10)),
                game("b", "a", lost(Color::Black, 10)),
                game("a", "b", lost(Color::White, 8)),
                game("b", "a", lost(Color::White, 12)),
                game(
                    "a",
                    "b",
                    FirstLoss::Unsettled {
                        number: 30,
                        pieces: 11,
                    },
                ),
                game("a", "b", FirstLoss::Kept),
                game("a", "b", FirstLoss::NotAudited),
            ],
        };
        let losses = report.first_losses();
        let row = |agent, color| -> Vec<(u32, usize)> {
            losses[&(agent, color)]
                .iter()
                .map(|(p, n)| (p.0, *n))
                .collect()
        };
        assert_eq!(row("a", Color::White), [(10, 1), (8, 1)]);
        assert_eq!(row("a", Color::Black), [(10, 1)]);
        assert_eq!(row("b", Color::White), [(12, 1)]);
        assert_eq!(losses.len(), 3);
        let counts = ["lost", "kept", "unsettled", "not audited"].map(|n| report.count(n));
        assert_eq!(counts, [4, 1, 1, 1]);
        let table = report.table();
        assert!(
            table.contains("7 games of 9x5, turns starting with at most 12 pieces"),
            "{table}"
        );
        assert!(table.contains("who lost it"), "{table}");
        let line = table.lines().find(|l| l.starts_with("a (white)")).unwrap();
        // Columns: 12, 11, 10, 8.
        assert!(line.ends_with("2 |    -    -    1    1"), "{line}");
        let line = table.lines().find(|l| l.starts_with("unsettled")).unwrap();
        assert!(line.ends_with("1 |    -    1    -    -"), "{line}");
        let json = report.to_json();
        assert_eq!(json["lost"], 4);
        assert_eq!(json["unsettled_by_pieces"], json!({"11": 1}));
        assert_eq!(
            json["first_losses"][0],
            json!({"agent": "a", "colour": "white", "games": 2, "by_pieces": {"10": 1, "8": 1}})
        );
        assert_eq!(json["per_game"][0]["after"], "draw");
        assert_eq!(json["per_game"][4]["turn"], 30);
        assert_eq!(json["per_game"].as_array().unwrap().len(), 7);
    }
}
