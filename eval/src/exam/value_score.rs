//! Scores of predicted values (a network's value head, in `[-1, 1]` for the side to move)
//! against true ones: [`ValueScore`] against solved win/draw/loss values, [`ValueError`]
//! against a search's values.

use serde_json::json;

use fanorona_exact::prover::Verdict;
use fanorona_exact::solver::Value;

/// The class of a solved value: 0 loss, 1 draw, 2 win.
fn class_of_value(value: Value) -> usize {
    match value {
        Value::Loss(_) => 0,
        Value::Draw => 1,
        Value::Win(_) => 2,
    }
}

/// The class of a predicted value: the nearest of -1 (loss), 0 (draw) and +1 (win).
fn class_of_prediction(value: f32) -> usize {
    if value > 0.5 {
        2
    } else if value < -0.5 {
        0
    } else {
        1
    }
}

/// Predicted values against solved ones: the accuracy of the class each predicts (the
/// nearest of loss -1, draw 0, win +1) and the mean absolute error against -1, 0, +1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueScore {
    /// `confusion[truth][predicted]`, classes in the order loss, draw, win.
    pub confusion: [[u64; 3]; 3],
    /// The sum of the absolute errors.
    abs_error: f64,
}

impl ValueScore {
    /// Adds a prediction of a position whose solved value is `truth`.
    pub fn add(&mut self, predicted: f32, truth: Value) {
        self.add_class(predicted, class_of_value(truth));
    }

    /// Adds a prediction of a position whose proven value is `truth`.
    pub fn add_verdict(&mut self, predicted: f32, truth: Verdict) {
        let class = match truth {
            Verdict::Loss => 0,
            Verdict::Draw => 1,
            Verdict::Win => 2,
        };
        self.add_class(predicted, class);
    }

    /// Adds a prediction of a position of true class `truth` (0 loss, 1 draw, 2 win; its
    /// target on the `[-1, 1]` scale is `truth - 1`).
    fn add_class(&mut self, predicted: f32, truth: usize) {
        self.confusion[truth][class_of_prediction(predicted)] += 1;
        self.abs_error += (f64::from(predicted) - (truth as f64 - 1.0)).abs();
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

    /// The figures as JSON: positions, accuracy, mean error and the confusion matrix.
    pub fn to_json(&self) -> serde_json::Value {
        let row = |c: usize| json!({"loss": self.confusion[c][0], "draw": self.confusion[c][1], "win": self.confusion[c][2]});
        json!({
            "positions": self.positions(),
            "accuracy": self.accuracy(),
            "mean_error": self.mean_error(),
            "confusion": {"loss": row(0), "draw": row(1), "win": row(2)},
        })
    }
}

/// `part / whole`, `None` for an empty whole.
pub(crate) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
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
    fn classes_accuracy_and_error_follow_the_nearest_outcome() {
        let mut score = ValueScore::default();
        assert_eq!((score.accuracy(), score.mean_error()), (None, None));
        score.add(0.9, Value::Win(3)); // right, error 0.1
        score.add(0.4, Value::Win(5)); // a draw predicted, error 0.6
        score.add(-0.2, Value::Draw); // right, error 0.2
        score.add(-0.7, Value::Loss(2)); // right, error 0.3
        assert_eq!(score.positions(), 4);
        assert_eq!(score.accuracy(), Some(0.75));
        assert!((score.mean_error().unwrap() - 0.3).abs() < 1e-6);
        assert_eq!(score.confusion[2], [0, 1, 1]);
        let json = score.to_json();
        assert_eq!(json["confusion"]["win"]["draw"], 1);
        assert_eq!(json["accuracy"], 0.75);
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
