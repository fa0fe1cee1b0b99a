//! The sequential probability ratio test between two Elo hypotheses, to stop a match as soon
//! as the result is clear.
//!
//! Hypotheses H0: Elo = `elo0`, H1: Elo = `elo1` (logistic scale, `elo0 < elo1`). With the
//! expected scores `s0 = 1/(1+10^(-elo0/400))` and `s1` likewise, the generalized SPRT's
//! log-likelihood ratio under the normal approximation of the trinomial (win/draw/loss) model
//! (as used by Fishtest and described by M. Van den Bergh) is
//!
//! `LLR = N (s1 - s0) (2μ - s0 - s1) / (2σ²)`,
//!
//! with `N`, `μ`, `σ²` the games, mean score and per-game score variance of [`Tally`]. The test
//! When every game so far has the same result, σ² is 0 and the formula breaks down; the
//! variance is then taken from the tally with one win and one loss added (a weak prior), so a
//! sweep still ends the test. The test
//! accepts H1 once `LLR ≥ ln((1-β)/α)` and H0 once `LLR ≤ ln(β/(1-α))` (Wald's bounds).

use fanorona_env::Excerpt;
use serde::Serialize;

use super::elo::{Tally, score_from_elo};

/// The settings of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The first player is not stronger by `elo1`: H0 accepted.
    AcceptH0,
    /// The first player is stronger by at least `elo0`: H1 accepted.
    AcceptH1,
}

/// SPRT settings that make no sense.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "bad SPRT {text:?}: {reason}; expected elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta, alpha + beta < 1 (e.g. 0,10 or 0,10,0.05,0.05)"
)]
pub struct SprtError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl Sprt {
    /// Reads `elo0,elo1[,alpha,beta]` (α = β = 0.05 unless given).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let err = |reason: String| SprtError {
            text: text.to_string(),
            reason,
        };
        let numbers = text
            .split(',')
            .map(|s| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("{} is not a number", Excerpt(s.trim()))))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(err(format!("{} numbers given", numbers.len()))),
        };
        if elo0 >= elo1 {
            return Err(err("elo0 must be below elo1".into()));
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(err(
                "alpha and beta must be positive with a sum below 1".into()
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for a tally (0 with no games).
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let mut variance = tally.variance();
        if variance <= 0.0 {
            let prior = Tally::new(tally.wins + 1, tally.draws, tally.losses + 1);
            variance = prior.variance();
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        tally.games() as f64 * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * variance)
    }

    /// The decision for a tally.
    pub fn decision(&self, tally: &Tally) -> SprtDecision {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    /// By hand, α = β = 0.05: bounds ln(0.05/0.95) = -2.9444 and ln(0.95/0.05) = +2.9444.
    /// elo0 = 0, elo1 = 50: s0 = 0.5, s1 = 1/(1 + 10^-0.125) = 1/1.749894 = 0.571463.
    /// +60 =20 -20 (μ = 0.7, σ² = 0.16): LLR = 100·0.071463·(1.4 - 1.071463)/(2·0.16)
    /// = 100·0.071463·0.328537/0.32 = 7.337 → H1.
    /// +20 =20 -60 (μ = 0.3, σ² = 0.16): LLR = 100·0.071463·(0.6 - 1.071463)/0.32 = -10.529
    /// → H0.
    /// elo1 = 10 (s1 = 1/(1 + 10^-0.025) = 0.514387), +30 =50 -20: μ = 0.55,
    /// σ² = (30·0.2025 + 50·0.0025 + 20·0.3025)/100 = 0.1225,
    /// LLR = 100·0.014387·(1.1 - 1.014387)/0.245 = 0.5027 → continue.
    #[test]
    fn llr_and_decisions_by_hand() {
        let sprt = Sprt::parse("0,50").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.9444, 1e-4) && close(hi, 2.9444, 1e-4));
        let t = Tally::new(60, 20, 20);
        assert!(close(sprt.llr(&t), 7.337, 1e-3), "{}", sprt.llr(&t));
        assert_eq!(sprt.decision(&t), SprtDecision::AcceptH1);
        let t = Tally::new(20, 20, 60);
        assert!(close(sprt.llr(&t), -10.529, 1e-3), "{}", sprt.llr(&t));
        assert_eq!(sprt.decision(&t), SprtDecision::AcceptH0);
        let sprt = Sprt::parse("0, 10, 0.05, 0.05").unwrap();
        let t = Tally::new(30, 50, 20);
        assert!(close(sprt.llr(&t), 0.5027, 1e-4), "{}", sprt.llr(&t));
        assert_eq!(sprt.decision(&t), SprtDecision::Continue);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        // A sweep +10 =0 -0, elo1 = 50: σ² from +11 =0 -1: μ' = 11/12, σ² = (11·(1/12)²
        // + (11/12)²)/12 = (11 + 121)/144/12 = 0.076389; LLR = 10·0.071463·(2 - 1.071463)
        // /(2·0.076389) = 4.3433 → H1.
        let sprt = Sprt::parse("0,50").unwrap();
        let t = Tally::new(10, 0, 0);
        assert!(close(sprt.llr(&t), 4.3433, 1e-3), "{}", sprt.llr(&t));
        assert_eq!(sprt.decision(&t), SprtDecision::AcceptH1);
    }

    #[test]
    fn bad_settings_are_refused() {
        for text in ["10,0", "0", "0,10,0.5", "0,10,0.6,0.5", "a,b", "0,10,0,0.1"] {
            let e = Sprt::parse(text).unwrap_err();
            assert!(e.to_string().contains("expected elo0,elo1"), "{e}");
        }
    }
}
