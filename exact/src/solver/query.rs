//! Questions a [`Solution`] answers about positions of its board: the value of a position
//! and the value of each legal turn, so that any move can be scored against perfect play.

use fanorona_env::{Position, Turn};

use super::index::pack;
use super::solution::{Solution, check_rules};
use super::value::Value;

impl Solution {
    /// The value of a turn-start position for its side to move, looked up by its pieces and
    /// side to move. `None` if it is of another board, under a rules variant, or not in the
    /// table.
    fn lookup(&self, pos: &Position) -> Option<Value> {
        if !std::ptr::eq(pos.board(), self.board()) || check_rules(pos.rules()).is_err() {
            return None;
        }
        self.index
            .find(pack(pos))
            .map(|i| Value::decode(self.values[i]))
    }

    /// The value of `pos` for its side to move under perfect play (draw limits ignored).
    /// In mid-chain, the value of the best way to finish the turn. `None` if the position is
    /// of another board, under a rules variant, or not reachable from the table's roots.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        if pos.is_turn_start() {
            self.lookup(pos)
        } else {
            self.turn_values(pos)?.into_iter().map(|(_, v)| v).max()
        }
    }

    /// The value of `pos` where its draw limits cannot change it
    /// ([`Value::within_draw_limits`]). `None` as for [`Solution::value`], or where the limit
    /// may end the game before its distance.
    pub fn value_under_limits(&self, pos: &Position) -> Option<Value> {
        self.value(pos)?.within_draw_limits(pos)
    }

    /// Every legal complete turn of `pos` (each distinct result once; in mid-chain the ways
    /// to finish the chain) with its value for the side playing it. `None` if a turn leads
    /// outside the table (see [`Solution::value`]); an empty list where the side to move has
    /// lost.
    pub fn turn_values(&self, pos: &Position) -> Option<Vec<(Turn, Value)>> {
        let mut out = Vec::new();
        let mut complete = true;
        pos.for_each_turn(|turn| {
            let mut next = *pos;
            next.play_turn_unchecked(turn);
            match self.lookup(&next) {
                Some(v) => out.push((*turn, v.before_turn())),
                None => complete = false,
            }
        });
        complete.then_some(out)
    }

    /// The best value of `pos` for its side to move and every turn that achieves it: the
    /// fastest wins, else the draws, else the slowest losses. `None` as for
    /// [`Solution::turn_values`], or where the side to move has no turn.
    pub fn best_turns(&self, pos: &Position) -> Option<(Value, Vec<Turn>)> {
        Value::best_turns(self.turn_values(pos)?)
    }
}
