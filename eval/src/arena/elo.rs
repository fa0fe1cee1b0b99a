//! Match statistics from wins, draws and losses.
//!
//! With `N = W + D + L` games and per-game scores 1, ½, 0:
//! - score `μ = (W + D/2) / N`;
//! - per-game variance `σ² = (W(1-μ)² + D(½-μ)² + Lμ²) / N`, standard error `√(σ²/N)`;
//! - Elo difference `E(μ) = -400 log10(1/μ - 1)` (the logistic model);
//! - 95% interval: `E(μ ± 1.96·√(σ²/N))` (normal approximation on the score);
//! - likelihood of superiority `LOS = Φ((W-L)/√(W+L))`, the probability that the first player
//!   is the stronger, draws carrying no information.

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first player of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The Elo difference of an expected score (±∞ at 1 and 0).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Elo points per unit of natural log-odds: an Elo difference `E` makes a win `10^(E/400)`
/// times as likely as a loss, i.e. log-odds `E · ln 10 / 400`.
pub const ELO_PER_LOG_ODDS: f64 = 400.0 / std::f64::consts::LN_10;

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// A tally.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one game by its score (1, ½ or 0).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (½ with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// Variance of the per-game score.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let mu = self.score();
        (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n as f64
    }

    /// The Elo difference (±∞ for a clean sweep).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The 95% confidence interval of the mean score (normal approximation, within 0..1).
    pub fn score_interval(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let margin = Z95 * (self.variance() / n).sqrt();
        let mu = self.score();
        ((mu - margin).max(0.0), (mu + margin).min(1.0))
    }

    /// The 95% confidence interval of the Elo difference.
    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.score_interval();
        (elo_from_score(low), elo_from_score(high))
    }

    /// Likelihood of superiority (½ with no decisive game).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let z = (self.wins as f64 - self.losses as f64) / decisive.sqrt();
        0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    /// +60 =20 -20, by hand: μ = (60 + 10)/100 = 0.7; σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100
    /// = (5.4 + 0.8 + 9.8)/100 = 0.16; standard error √(0.16/100) = 0.04; Elo =
    /// -400·log10(1/0.7 - 1) = -400·log10(0.428571) = 147.19; interval 0.7 ± 1.96·0.04 =
    /// [0.62160, 0.77840] → -400·log10(0.60875) = 86.23 and -400·log10(0.28469) = 218.25;
    /// LOS = Φ(40/√80) = Φ(4.4721) = 0.9999961.
    #[test]
    fn elo_interval_and_los_by_hand() {
        let t = Tally::new(60, 20, 20);
        assert_eq!(t.games(), 100);
        assert!(close(t.score(), 0.7, 1e-12));
        assert!(close(t.variance(), 0.16, 1e-12));
        assert!(close(t.elo(), 147.19, 0.01), "{}", t.elo());
        let (lo, hi) = t.elo_interval();
        assert!(
            close(lo, 86.23, 0.01) && close(hi, 218.25, 0.01),
            "{lo} {hi}"
        );
        assert!(close(t.los(), 0.999_996_1, 1e-7), "{}", t.los());
    }

    /// Even match +10 =0 -10: μ = ½, Elo 0, LOS = Φ(0) = ½, interval symmetric.
    /// A sweep +5 =0 -0 has Elo +∞.
    #[test]
    fn symmetric_and_extreme_cases() {
        let t = Tally::new(10, 0, 10);
        assert!(close(t.elo(), 0.0, 1e-9) && close(t.los(), 0.5, 1e-12));
        let (lo, hi) = t.elo_interval();
        assert!(close(lo, -hi, 1e-9));
        assert_eq!(Tally::new(5, 0, 0).elo(), f64::INFINITY);
        assert!(close(score_from_elo(elo_from_score(0.64)), 0.64, 1e-12));
        // Log-odds ln 3 (a win three times as likely as a loss) is 400·log10(3) Elo.
        assert!(close(
            3f64.ln() * ELO_PER_LOG_ODDS,
            elo_from_score(0.75),
            1e-9
        ));
        let mut t = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            t.add(s);
        }
        assert_eq!(t, Tally::new(2, 1, 1));
    }
}
