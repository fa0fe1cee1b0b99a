//! Move ordering: the transposition-table move first, then captures by the number of pieces
//! they take, then quiet turns by a history score (how often the same start and end point
//! caused a cutoff, weighted by depth squared).

use fanorona_env::Turn;

use super::tt::TtMove;

/// Ordering score of the transposition-table move.
const TT_MOVE: i32 = i32::MAX;

/// Ordering score of a capture, before adding its size.
const CAPTURE: i32 = 1 << 24;

/// Cutoff statistics of quiet turns by start and end point.
#[derive(Debug)]
pub struct QuietHistory {
    table: Box<[[i32; 64]; 64]>,
}

impl Default for QuietHistory {
    fn default() -> QuietHistory {
        QuietHistory {
            table: Box::new([[0; 64]; 64]),
        }
    }
}

impl QuietHistory {
    /// Records that quiet `turn` caused a cutoff at `depth`.
    #[inline]
    pub fn reward(&mut self, turn: &Turn, depth: i32) {
        let cell = &mut self.table[turn.from() as usize][turn.to() as usize];
        *cell = (*cell + depth * depth).min(CAPTURE - 1);
    }

    /// Halves every score (between searches, so old statistics fade).
    pub fn age(&mut self) {
        self.table.iter_mut().flatten().for_each(|v| *v /= 2);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().flatten().for_each(|v| *v = 0);
    }

    /// The ordering score of a turn: higher is tried first.
    #[inline]
    pub fn score(&self, turn: &Turn, tt_move: Option<TtMove>) -> i32 {
        if tt_move.is_some_and(|m| m.matches(turn)) {
            TT_MOVE
        } else if turn.is_capture() {
            CAPTURE + turn.captured().count_ones() as i32
        } else {
            self.table[turn.from() as usize][turn.to() as usize]
        }
    }
}

/// Moves the highest-scored entry of `list[i..]` to position `i` (selection, so a cutoff
/// early on saves sorting the rest).
#[inline]
pub fn pick_next(list: &mut [(i32, Turn)], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[best].0 {
            best = j;
        }
    }
    list.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Position;

    #[test]
    fn tt_move_then_biggest_capture_then_history() {
        // White f5g5Wh4A takes four, f5g5W three, i1i2A one (see the greedy test).
        let pos = Position::from_fen("B1BBBW3/9/8B/9/8W w").unwrap();
        let turns = pos.legal_turns();
        let history = QuietHistory::default();
        let mut list: Vec<(i32, Turn)> =
            turns.iter().map(|t| (history.score(t, None), *t)).collect();
        pick_next(&mut list, 0);
        assert_eq!(list[0].1.captured().count_ones(), 4);
        pick_next(&mut list, 1);
        assert_eq!(list[1].1.captured().count_ones(), 3);
        let small = turns
            .iter()
            .find(|t| t.captured().count_ones() == 1)
            .unwrap();
        let mut list: Vec<(i32, Turn)> = turns
            .iter()
            .map(|t| (history.score(t, Some(TtMove::of(small))), *t))
            .collect();
        pick_next(&mut list, 0);
        assert_eq!(list[0].1, *small);

        // A lone white piece on e3 has eight quiet turns.
        let mut history = QuietHistory::default();
        let any_quiet = Position::from_fen("9/9/4W4/9/B8 w").unwrap().legal_turns();
        history.reward(&any_quiet[3], 4);
        assert_eq!(history.score(&any_quiet[3], None), 16);
        assert_eq!(history.score(&any_quiet[2], None), 0);
        history.age();
        assert_eq!(history.score(&any_quiet[3], None), 8);
    }
}
