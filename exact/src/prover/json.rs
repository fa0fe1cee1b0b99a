//! A run's report as one JSON object, the same for every tool: `fanorona prove --json`,
//! Python's `fanorona.prove` and the browser's analysis.

use std::path::Path;

use fanorona_env::Position;
use serde_json::{Value, json};

use super::prove::{ProofReport, TurnState};

impl ProofReport {
    /// The report of the run on `pos` as JSON: `fen`, `board`, `side_to_move`, `value`
    /// (`win`, `draw`, `loss`, or null when unproven), `questions` (each `attacker`,
    /// `outcome`, `nodes` and `seconds` over every run of the proof file, `size`, and
    /// `root_turns`: the root's `turns`, those `proven` and those `disproven` for it, and
    /// `each` turn's `state`, with `pn` and `dn` where `open`),
    /// `turns` (each `turn` in notation and its `status`: `keeps`, `spoils`, `unknown`),
    /// `nodes` and `seconds` of this run, and `proof`, the proof file (null without).
    pub fn to_json(&self, pos: &Position, proof: Option<&Path>) -> Value {
        let board = pos.board();
        json!({
            "fen": pos.to_fen(),
            "board": board.to_string(),
            "side_to_move": pos.side_to_move().to_string(),
            "value": self.value.map(|v| v.name()),
            "questions": self.questions.iter().map(|q| json!({
                "attacker": q.question.attacker.to_string(),
                "outcome": q.outcome.name(),
                "nodes": q.nodes,
                "seconds": q.seconds,
                "size": q.size,
                "root_turns": {
                    "turns": q.root_turns.each.len(),
                    "proven": q.root_turns.proven(),
                    "disproven": q.root_turns.disproven(),
                    "each": q.root_turns.each.iter().map(|(t, state)| match *state {
                        TurnState::Open { pn, dn } => json!({
                            "turn": t.notation(board),
                            "state": state.name(),
                            "pn": pn,
                            "dn": dn,
                        }),
                        settled => json!({
                            "turn": t.notation(board),
                            "state": settled.name(),
                        }),
                    }).collect::<Vec<_>>(),
                },
            })).collect::<Vec<_>>(),
            "turns": self.turns.iter().map(|(t, s)| json!({
                "turn": t.notation(board),
                "status": s.name(),
            })).collect::<Vec<_>>(),
            "nodes": self.nodes,
            "seconds": self.seconds,
            "proof": proof.map(|p| p.display().to_string()),
        })
    }
}
