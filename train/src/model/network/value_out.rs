//! [`ValueOut`]: the value head of an MLP's one-position forms ([`super::MlpInference`],
//! [`super::MlpValue`]) over the last hidden layer's activations, scalar or win/draw/loss.

use burn::nn::Linear;
use fanorona_env::Wdl;

use super::rows::{Rows, dot};
use crate::config::ValueHead;

/// A value head in plain `f32` columns, one per output.
#[derive(Clone, Debug)]
pub struct ValueOut {
    head: ValueHead,
    /// One column of the last hidden width per output.
    columns: Vec<f32>,
    bias: Vec<f32>,
}

impl ValueOut {
    /// The head `layer` of kind `head`.
    pub(super) fn of(layer: &Linear, head: ValueHead) -> ValueOut {
        let rows = Rows::of(layer);
        assert_eq!(rows.outputs, head.outputs(), "value head of {head:?}");
        ValueOut {
            head,
            columns: rows.transposed(),
            bias: rows.bias,
        }
    }

    /// Output `i` before any squashing, for the activations `x`.
    #[inline(always)]
    fn raw(&self, x: &[f32], i: usize) -> f32 {
        let width = x.len();
        self.bias[i] + dot(x, &self.columns[i * width..(i + 1) * width])
    }

    /// The win/draw/loss probabilities (a scalar head's value read by [`Wdl::from_value`]).
    pub(super) fn wdl(&self, x: &[f32]) -> Wdl {
        match self.head {
            ValueHead::Scalar => Wdl::from_value(self.raw(x, 0).tanh()),
            ValueHead::Wdl => Wdl::from_logits([self.raw(x, 0), self.raw(x, 1), self.raw(x, 2)]),
        }
    }

    /// The value in `[-1, 1]`.
    pub(super) fn value(&self, x: &[f32]) -> f32 {
        match self.head {
            ValueHead::Scalar => self.raw(x, 0).tanh(),
            ValueHead::Wdl => self.wdl(x).value(),
        }
    }

    /// The value's logit, its `atanh` (infinite at +-1): a scalar head's output before its
    /// tanh, exactly.
    pub(super) fn logit(&self, x: &[f32]) -> f32 {
        match self.head {
            ValueHead::Scalar => self.raw(x, 0),
            ValueHead::Wdl => self.wdl(x).value().clamp(-1.0, 1.0).atanh(),
        }
    }
}
