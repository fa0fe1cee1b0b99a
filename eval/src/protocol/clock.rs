//! The clocks of a `go` command (`wtime btime winc binc movestogo`) and the time they leave for
//! one turn.

use std::time::Duration;

use fanorona_env::Color;

/// Turns a clock is shared over when `movestogo` does not say more.
const TURNS_TO_PLAN: u32 = 20;

/// The clocks a GUI sends with `go`: time left and increment per turn for each side, and the
/// turns until the next time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// `wtime MS`: white's time left (a negative time counts as none left).
    pub wtime: Option<Duration>,
    /// `btime MS`: black's time left.
    pub btime: Option<Duration>,
    /// `winc MS`: white's increment per turn.
    pub winc: Duration,
    /// `binc MS`: black's increment per turn.
    pub binc: Duration,
    /// `movestogo N`: turns until the next time control.
    pub movestogo: Option<u32>,
}

impl Clocks {
    /// The time `side` may use for its turn, `None` without its clock: `min(left / max(movestogo,
    /// 20) + increment / 2, left / 2)`, at least 1 ms. Never more than half the time left, so
    /// a search that overruns its budget a little still does not lose on time.
    pub fn budget(&self, side: Color) -> Option<Duration> {
        let (left, increment) = match side {
            Color::White => (self.wtime?, self.winc),
            Color::Black => (self.btime?, self.binc),
        };
        let turns = self.movestogo.unwrap_or(0).max(TURNS_TO_PLAN);
        let share = left / turns + increment / 2;
        Some(share.min(left / 2).max(Duration::from_millis(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_budget_is_a_share_of_the_movers_clock_plus_half_the_increment() {
        let clocks = Clocks {
            wtime: Some(ms(60_000)),
            btime: Some(ms(10_000)),
            winc: ms(1_000),
            binc: ms(0),
            movestogo: None,
        };
        assert_eq!(clocks.budget(Color::White), Some(ms(3_500)));
        assert_eq!(clocks.budget(Color::Black), Some(ms(500)));
        let forty = Clocks {
            movestogo: Some(40),
            ..clocks
        };
        assert_eq!(forty.budget(Color::White), Some(ms(2_000)));
        // Few turns to go still share over 20.
        let two = Clocks {
            movestogo: Some(2),
            ..clocks
        };
        assert_eq!(two.budget(Color::Black), Some(ms(500)));
    }

    #[test]
    fn the_budget_is_at_most_half_the_time_left_and_needs_the_movers_clock() {
        let short = Clocks {
            wtime: Some(ms(1_000)),
            winc: ms(5_000),
            ..Clocks::default()
        };
        assert_eq!(short.budget(Color::White), Some(ms(500)));
        assert_eq!(short.budget(Color::Black), None);
        let none_left = Clocks {
            btime: Some(Duration::ZERO),
            ..Clocks::default()
        };
        assert_eq!(none_left.budget(Color::Black), Some(ms(1)));
    }
}
