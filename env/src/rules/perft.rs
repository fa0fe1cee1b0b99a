//! Perft: counting the complete turns of every line to a fixed depth (RULES.md, "Reference
//! counts"). Draw rules are ignored; a side without moves ends the line.

use super::position::Position;

/// Number of leaf positions at `depth` complete turns from `pos` (each distinct turn once).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_turns(),
        _ => {
            let mut total = 0;
            pos.for_each_turn(|turn| {
                let mut child = *pos;
                child.play_turn_unchecked(turn);
                total += perft(&child, depth - 1);
            });
            total
        }
    }
}

/// Perft split by first turn: each legal turn in notation with its subtree count, sorted.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut rows = Vec::new();
    pos.for_each_turn(|turn| {
        let mut child = *pos;
        child.play_turn_unchecked(turn);
        let count = if depth == 0 {
            1
        } else {
            perft(&child, depth - 1)
        };
        rows.push((turn.notation(pos.board()), count));
    });
    rows.sort();
    rows
}
