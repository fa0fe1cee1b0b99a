//! Scores of predicted values (a network's value head for the side to move) against true
//! ones: [`ValueScore`] of win/draw/loss predictions against solved values (class and
//! calibration), [`ValueError`] of values in `[-1, 1]` against a search's values.

use fanorona_env::{Wdl, WdlClass};
use serde_json::json;

use fanorona_exact::prover::Verdict;
use fanorona_exact::solver::Value;

/// The row or column of a class in [`ValueScore::confusion`]: 0 loss, 1 draw, 2 win.
fn index(class: WdlClass) -> usize {
    match class {
        WdlClass::Loss => 0,
        WdlClass::Draw => 1,
        WdlClass::Win => 2,
    }
}

/// Predictions against solved values: the accuracy of the class each predicts (its most
/// likely one: a scalar value `v`, read as [`Wdl::from_value`], predicts the nearest of loss
/// -1, draw 0, win +1), the mean absolute error of the expected value against -1, 0, +1, and
/// the calibration of the probabilities (Brier score and log loss).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueScore {
    /// `confusion[truth][predicted]`, classes in the order loss, draw, win.
    pub confusion: [[u64; 3]; 3],
    /// The sum of the absolute errors.
    abs_error: f64,
    /// The sum of the Brier scores.
    brier: f64,
    /// The sum of the log losses.
    log_loss: f64,
}

impl ValueScore {
    /// Adds a prediction of a position whose solved value is `truth`.
    pub fn add(&mut self, predicted: Wdl, truth: Value) {
        self.add_class(
            predicted,
            match truth {
                Value::Loss(_) => WdlClass::Loss,
                Value::Draw => WdlClass::Draw,
                Value::Win(_) => WdlClass::Win,
            },
        );
    }

    /// Adds a prediction of a position whose proven value is `truth`.
    pub fn add_verdict(&mut self, predicted: Wdl, truth: Verdict) {
        self.add_class(
            predicted,
            match truth {
                Verdict::Loss => WdlClass::Loss,
                Verdict::Draw => WdlClass::Draw,
                Verdict::Win => WdlClass::Win,
            },
        );
    }

    /// Adds a prediction of a position of true class `truth`.
    fn add_class(&mut self, predicted: Wdl, truth: WdlClass) {
        self.confusion[index(truth)][index(predicted.class())] += 1;
        let target = index(truth) as f64 - 1.0;
        self.abs_error += (f64::from(predicted.value()) - target).abs();
        self.brier += f64::from(predicted.brier(truth));
        self.log_loss += f64::from(predicted.log_loss(truth));
    }

    /// The mean Brier score (0 certain and right, 2 certain and wrong; 2/3 for a uniform
    /// guess); `None` before any prediction.
    pub fn brier(&self) -> Option<f64> {
        let n = self.positions();
        (n > 0).then(|| self.brier / n as f64)
    }

    /// The mean log loss (`-ln p` of the true class, `p` at least 1e-6; ln 3 = 1.10 for a
    /// uniform guess); `None` before any prediction.
    pub fn log_loss(&self) -> Option<f64> {
        let n = self.positions();
        (n > 0).then(|| self.log_loss / n as f64)
    }

    /// Predictions added.
    pub fn positions(&self) -> u64 {
        self.confusion.iter().flatten().sum()
    }

    /// The share of predictions of the right class; `None` before any.
    pub fn accuracy(&self) -> Option<f64> {
        let right: u64 = (0..3).map(|c| self.confusion[c][c]).sum();
        share(right, self.positions())
    }

    /// The mean absolute error against -1, 0, +1; `None` before any prediction.
    pub fn mean_error(&self) -> Option<f64> {
        let n = self.positions();
        (n > 0).then(|| self.abs_error / n as f64)
    }

    /// The figures as JSON: positions, accuracy, mean error, Brier score, log loss and the
    /// confusion matrix.
    pub fn to_json(&self) -> serde_json::Value {
        let row = |c: usize| json!({"loss": self.confusion[c][0], "draw": self.confusion[c][1], "win": self.confusion[c][2]});
        json!({
            "positions": self.positions(),
            "accuracy": self.accuracy(),
            "mean_error": self.mean_error(),
            "brier": self.brier(),
            "log_loss": self.log_loss(),
            "confusion": {"loss": row(0), "draw": row(1), "win": row(2)},
        })
    }
}

/// `part / whole`, `None` for an empty whole.
pub(crate) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// The 95% Wilson score interval of the share `part / whole` (sound near 0 and 1, where the
/// normal approximation is not), `None` for an empty whole.
pub(crate) fn share_interval(part: u64, whole: u64) -> Option<(f64, f64)> {
    const Z: f64 = 1.959_964;
    let p = share(part, whole)?;
    let n = whole as f64;
    let z2 = Z * Z / n;
    let centre = (p + z2 / 2.0) / (1.0 + z2);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n)).sqrt() / (1.0 + z2);
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Predicted values against a search's values (both in `[-1, 1]`): the mean absolute error
/// and how often both have the same sign (one side better, or both level within 0.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueError {
    n: u64,
    abs_error: f64,
    same_sign: u64,
}

/// Values within this of 0 count as level for [`ValueError`]'s sign agreement.
const LEVEL: f32 = 0.1;

/// -1, 0 or +1: which side a value favours, 0 within [`LEVEL`] of 0.
fn side(value: f32) -> i8 {
    if value > LEVEL {
        1
    } else if value < -LEVEL {
        -1
    } else {
        0
    }
}

impl ValueError {
    /// Adds a prediction of a position whose label is `label`.
    pub fn add(&mut self, predicted: f32, label: f32) {
        self.n += 1;
        self.abs_error += f64::from((predicted - label).abs());
        self.same_sign += u64::from(side(predicted) == side(label));
    }

    /// Predictions added.
    pub fn positions(&self) -> u64 {
        self.n
    }

    /// The mean absolute error; `None` before any prediction.
    pub fn mean_error(&self) -> Option<f64> {
        (self.n > 0).then(|| self.abs_error / self.n as f64)
    }

    /// The share of predictions that favour the same side as the label.
    pub fn sign_agreement(&self) -> Option<f64> {
        share(self.same_sign, self.n)
    }

    /// The figures as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "positions": self.n,
            "mean_error": self.mean_error(),
            "sign_agreement": self.sign_agreement(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_interval_is_wilsons() {
        // 90 of 100: Wilson's 95% interval is 0.8256 .. 0.9448.
        let (lo, hi) = share_interval(90, 100).unwrap();
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        // At the edges it stays within [0, 1] and off the point itself.
        let (lo, hi) = share_interval(50, 50).unwrap();
        assert!(hi > 0.999_999 && hi <= 1.0 && lo > 0.9 && lo < 0.95, "{lo}");
        let (lo, hi) = share_interval(0, 50).unwrap();
        assert!((0.0..1e-9).contains(&lo) && hi > 0.05 && hi < 0.1, "{hi}");
        assert_eq!(share_interval(0, 0), None);
    }

    #[test]
    fn classes_accuracy_and_error_follow_the_nearest_outcome() {
        let mut score = ValueScore::default();
        assert_eq!((score.accuracy(), score.mean_error()), (None, None));
        let v = Wdl::from_value;
        score.add(v(0.9), Value::Win(3)); // right, error 0.1
        score.add(v(0.4), Value::Win(5)); // a draw predicted, error 0.6
        score.add(v(-0.2), Value::Draw); // right, error 0.2
        score.add(v(-0.7), Value::Loss(2)); // right, error 0.3
        assert_eq!(score.positions(), 4);
        assert_eq!(score.accuracy(), Some(0.75));
        assert!((score.mean_error().unwrap() - 0.3).abs() < 1e-6);
        assert_eq!(score.confusion[2], [0, 1, 1]);
        let json = score.to_json();
        assert_eq!(json["confusion"]["win"]["draw"], 1);
        assert_eq!(json["accuracy"], 0.75);
        // Brier: (0.1^2 + 0.1^2), (0.6^2 + 0.6^2), (0.2^2 + 0.2^2), (0.3^2 + 0.3^2).
        let brier = (0.02 + 0.72 + 0.08 + 0.18) / 4.0;
        assert!((score.brier().unwrap() - brier).abs() < 1e-6);
        let log_loss = -(0.9f64.ln() + 0.4f64.ln() + 0.8f64.ln() + 0.7f64.ln()) / 4.0;
        assert!((score.log_loss().unwrap() - log_loss).abs() < 1e-6);
        assert!(json["brier"].as_f64().is_some());
    }

    #[test]
    fn a_three_way_prediction_scores_its_most_likely_class_and_its_probabilities() {
        let mut score = ValueScore::default();
        // Expected value 0.1 (a draw by the nearest value) but a win is the most likely.
        let leaning = Wdl::from_array([0.45, 0.2, 0.35]);
        score.add_verdict(leaning, Verdict::Win);
        assert_eq!(score.accuracy(), Some(1.0));
        let mut sure = ValueScore::default();
        sure.add_verdict(Wdl::from_array([0.9, 0.05, 0.05]), Verdict::Win);
        assert!(sure.brier().unwrap() < score.brier().unwrap());
        assert!(sure.log_loss().unwrap() < score.log_loss().unwrap());
    }

    #[test]
    fn value_error_counts_error_and_sign() {
        let mut e = ValueError::default();
        e.add(0.5, 0.3);
        e.add(-0.05, 0.08);
        e.add(0.4, -0.4);
        assert_eq!(e.positions(), 3);
        assert!((e.mean_error().unwrap() - (0.2 + 0.13 + 0.8) / 3.0).abs() < 1e-6);
        assert!((e.sign_agreement().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    }
}
