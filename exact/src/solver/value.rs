//! The game-theoretic value of a position for the side to move, with the distance to the end.

use std::cmp::Ordering;

use fanorona_env::{Position, Turn};

/// The value of a position from the point of view of the side to move, under perfect play:
/// the winner ends the game as fast as it can, the loser makes it last as long as it can.
/// Distances count complete turns (of both sides) until the loser has no piece or no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many turns (always odd: its own turn ends the game).
    Win(u16),
    /// The side to move loses in this many turns (always even; `Loss(0)`: lost now).
    Loss(u16),
    /// Neither side can force a win: the game goes on for ever.
    Draw,
}

impl Value {
    /// The largest distance a value can hold in the table's 16-bit code.
    pub const MAX_DISTANCE: u16 = u16::MAX - 1;

    /// The value for the side that played a turn into a position of value `self` (seen from
    /// its side to move, the opponent): one turn longer, with the roles swapped.
    pub fn before_turn(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The result it stands for, for the side to move: +1 a win, 0 a draw, -1 a loss (the
    /// scale of a network's value and of a game's return).
    pub fn result(self) -> f32 {
        match self {
            Value::Win(_) => 1.0,
            Value::Draw => 0.0,
            Value::Loss(_) => -1.0,
        }
    }

    /// The distance to the end, `None` for a draw.
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// `self`, the value of `pos`, where its draw limits cannot change it: a draw always
    /// (limits only add draws), a win or a loss when its distance fits the turns left before
    /// the no-capture limit (even without a capture the game ends first). `None` where the
    /// limit may end the game before that distance.
    #[inline]
    pub fn within_draw_limits(self, pos: &Position) -> Option<Value> {
        let turns_left = pos.rules().no_capture_limit.map_or(u16::MAX, |limit| {
            limit.saturating_sub(pos.no_capture_turns())
        });
        self.distance()
            .is_none_or(|n| n <= turns_left)
            .then_some(self)
    }

    /// The table's 16-bit code: 0 for a draw, otherwise the distance plus one (its parity
    /// tells a win, odd distance, from a loss, even distance).
    pub(crate) fn encode(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(n) | Value::Loss(n) => n + 1,
        }
    }

    /// Reads a 16-bit code written by [`Value::encode`].
    pub(crate) fn decode(code: u16) -> Value {
        match code {
            0 => Value::Draw,
            c if (c - 1) % 2 == 0 => Value::Loss(c - 1),
            c => Value::Win(c - 1),
        }
    }

    /// Orders values by how good they are for the side to move: fast wins first, then
    /// draws, then slow losses.
    fn rank(self) -> (u8, i32) {
        match self {
            Value::Win(n) => (2, -(n as i32)),
            Value::Draw => (1, 0),
            Value::Loss(n) => (0, n as i32),
        }
    }

    /// The best of `values` (each turn's value for the side to move) and every turn that
    /// achieves it: the fastest wins, else the draws, else the slowest losses. `None` for no
    /// turn.
    pub fn best_turns(values: Vec<(Turn, Value)>) -> Option<(Value, Vec<Turn>)> {
        let best = values.iter().map(|&(_, v)| v).max()?;
        let turns = values
            .into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(t, _)| t)
            .collect();
        Some((best, turns))
    }
}

impl Ord for Value {
    /// `a > b` when `a` is better than `b` for the side to move.
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn codes_round_trip_and_keep_parity() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(8),
            Value::Win(37),
        ] {
            assert_eq!(Value::decode(v.encode()), v);
        }
        assert_eq!(Value::Loss(0).before_turn(), Value::Win(1));
        assert_eq!(Value::Win(3).before_turn(), Value::Loss(4));
        assert_eq!(Value::Draw.before_turn(), Value::Draw);
    }

    #[test]
    fn order_prefers_fast_wins_and_slow_losses() {
        let mut values = vec![
            Value::Loss(2),
            Value::Win(5),
            Value::Draw,
            Value::Win(1),
            Value::Loss(10),
        ];
        values.sort();
        assert_eq!(
            values,
            vec![
                Value::Loss(2),
                Value::Loss(10),
                Value::Draw,
                Value::Win(5),
                Value::Win(1)
            ]
        );
    }
}
