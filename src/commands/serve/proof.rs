//! The analysis board's proof: the prover's value of the position and whether each turn
//! keeps it, within the server's node budget (`--prove-nodes`), beside the endgame tables'
//! answer where they hold the position. The stream's `proof` event, sent before the
//! iterations.

use std::sync::atomic::AtomicBool;

use fanorona_env::Position;
use fanorona_exact::prover::{ProveOptions, Verdict, prove_file};
use fanorona_exact::tables::EndgameTables;
use serde_json::{Value, json};

/// Entries of the prover's working tables (about 40 bytes each, 20 MiB in all) before their
/// open entries are dropped: a proof's memory is bounded whatever its budget.
const PROOF_ENTRIES: usize = 1 << 19;

/// The `proof` event of `pos`: the prover's report within `nodes` (as `fanorona prove
/// --json --turns` gives it; stopped early by `stop`), with `tables`, the answer of the
/// endgame `tables` (null where they do not hold the position). Where the prover cannot take
/// the position (mid-chain, a variant's rules), `value` is null and `error` says why.
pub fn proof_event(
    pos: &Position,
    tables: Option<&EndgameTables>,
    nodes: u64,
    stop: &AtomicBool,
) -> Value {
    let options = ProveOptions {
        max_nodes: nodes,
        max_seconds: None,
        max_entries: PROOF_ENTRIES,
        turns: true,
        progress: &mut |_| {},
        stop: Some(stop),
        parallel: false,
    };
    let mut event = match prove_file(pos, tables, None, options) {
        Ok(report) => report.to_json(pos, None),
        Err(e) => json!({ "value": null, "error": e.to_string() }),
    };
    event["tables"] = tables.map_or(Value::Null, |t| tables_answer(t, pos));
    event
}

/// The tables' answer for `pos`: its `value`, `distance` (null for a draw) and the turns
/// that keep the value (`keeps`); null where the tables do not hold it.
fn tables_answer(tables: &EndgameTables, pos: &Position) -> Value {
    let Some(values) = tables.turn_values(pos) else {
        return Value::Null;
    };
    let Some(best) = values.iter().map(|(_, v)| *v).max() else {
        return Value::Null;
    };
    let verdict = Verdict::from(best);
    // A turn keeps a win where it still wins, a draw where it draws; every turn keeps a loss.
    let keeps: Vec<String> = values
        .iter()
        .filter(|(_, v)| verdict == Verdict::Loss || Verdict::from(*v) == verdict)
        .map(|(t, _)| t.notation(pos.board()))
        .collect();
    json!({ "value": verdict.name(), "distance": best.distance(), "keeps": keeps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_exact::tables::{BuildOptions, build};

    /// The turns of a proof event that keep the value.
    fn keeping(event: &Value) -> Vec<&str> {
        event["turns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["status"] == "keeps")
            .map(|t| t["turn"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn a_won_position_is_proven_beside_the_tables_answer() {
        // White takes every black piece with one chain.
        let pos = Position::from_fen("2B2/B4/BW1BB w 0 1").unwrap();
        let stop = AtomicBool::new(false);
        let event = proof_event(&pos, None, 10_000, &stop);
        assert_eq!(event["value"], "win");
        assert!(keeping(&event).contains(&"b1c1Ac2Ab2Ac3W"), "{event}");
        assert!(event["tables"].is_null());
        // With tables that hold it: their answer beside the proof, the same turns kept.
        let dir = tempfile::tempdir().unwrap();
        let (tables, _) = build(pos.board(), 6, dir.path(), &BuildOptions::default()).unwrap();
        let event = proof_event(&pos, Some(&tables), 10_000, &stop);
        assert_eq!(event["value"], "win");
        assert_eq!(event["tables"]["value"], "win");
        assert_eq!(event["tables"]["distance"], 1);
        let mut tabled: Vec<&str> = event["tables"]["keeps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let mut proven = keeping(&event);
        tabled.sort_unstable();
        proven.sort_unstable();
        assert_eq!(tabled, proven);
        // Mid-chain the prover cannot take it: said, not failed.
        let chain_step = pos
            .legal_steps()
            .iter()
            .copied()
            .find(|&s| {
                let mut next = pos;
                next.play_step_unchecked(s);
                !next.is_turn_start()
            })
            .unwrap();
        let mut mid = pos;
        mid.play_step_unchecked(chain_step);
        let event = proof_event(&mid, None, 10_000, &stop);
        assert!(event["value"].is_null());
        assert!(
            event["error"].as_str().unwrap().contains("mid-chain"),
            "{event}"
        );
    }
}
