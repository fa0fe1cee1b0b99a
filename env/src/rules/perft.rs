//! Perft: counting the complete turns of every line to a fixed depth (docs/rules.md, "Reference
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

/// Perft split by first turn: each legal turn in notation with its subtree count, sorted;
/// from depth 1 on, the counts add up to `perft(pos, depth)`. At depth 0 the only leaf, `pos` itself, has no
/// first turn: the list is empty.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut rows = Vec::new();
    let Some(below) = depth.checked_sub(1) else {
        return rows;
    };
    pos.for_each_turn(|turn| {
        let mut child = *pos;
        child.play_turn_unchecked(turn);
        rows.push((turn.notation(pos.board()), perft(&child, below)));
    });
    rows.sort();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_adds_up_to_perft_and_is_empty_at_depth_0() {
        let pos = Position::standard();
        assert!(divide(&pos, 0).is_empty());
        assert_eq!(perft(&pos, 0), 1);
        for depth in 1..=3 {
            let sum: u64 = divide(&pos, depth).iter().map(|(_, n)| n).sum();
            assert_eq!(sum, perft(&pos, depth), "depth {depth}");
        }
    }
}
