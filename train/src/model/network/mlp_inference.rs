//! [`MlpInference`]: the MLP's forward pass for search, one position at a time, in plain `f32`
//! arrays, doing only the work search needs. Three savings over the dense batched pass:
//!
//! - **Sparse and constant input planes**: a plane that is the same number everywhere (the
//!   chain's direction, the counters, the rule flags) adds that number times the sum of its
//!   cells' weight rows (summed once when the network is loaded); any other plane adds the
//!   weight rows of its non-zero cells only (pieces: a few dozen of 810 inputs). NNUE engines
//!   use the same idea for their first layer.
//! - **Zero activations skipped**: a hidden layer adds only the weight rows of the inputs
//!   that ReLU left non-zero.
//! - **Only the legal actions' logits**: search masks the others (`Evaluator`'s contract),
//!   so the policy head computes a few dozen of its 1,081 outputs.
//!
//! The results equal the dense pass's up to float rounding (tested). On x86-64 processors with
//! AVX2 the same code runs compiled for AVX2 (8 floats a vector instead of SSE2's 4), with
//! the same results: the arithmetic and its order are the same.

use burn::module::Param;
use burn::nn::Linear;
use burn::tensor::Tensor;

use super::Mlp;

/// A dense layer's weights as rows: `rows[i * outputs..(i + 1) * outputs]` is input `i`'s.
#[derive(Clone, Debug)]
struct Rows {
    rows: Vec<f32>,
    bias: Vec<f32>,
    outputs: usize,
}

impl Rows {
    /// The weights of `layer` (`[inputs, outputs]` in burn) and its bias (zeros if none).
    fn of(layer: &Linear) -> Rows {
        let rows = values(&layer.weight);
        let outputs = layer.weight.val().dims()[1];
        let bias = layer
            .bias
            .as_ref()
            .map_or_else(|| vec![0.0; outputs], values);
        Rows {
            rows,
            bias,
            outputs,
        }
    }

    #[inline(always)]
    fn row(&self, input: usize) -> &[f32] {
        &self.rows[input * self.outputs..(input + 1) * self.outputs]
    }

    /// `out = bias + sum of inputs[i] * row(i)` over the non-zero inputs.
    #[inline(always)]
    fn forward_sparse(&self, inputs: &[f32], out: &mut Vec<f32>) {
        out.clone_from(&self.bias);
        for (i, &x) in inputs.iter().enumerate() {
            if x != 0.0 {
                axpy(x, self.row(i), out);
            }
        }
    }

    /// The rows transposed: `columns[o * inputs..]` is output `o`'s weights.
    fn transposed(&self) -> Vec<f32> {
        let inputs = self.rows.len() / self.outputs;
        let mut columns = vec![0.0; self.rows.len()];
        for i in 0..inputs {
            for (o, &w) in self.row(i).iter().enumerate() {
                columns[o * inputs + i] = w;
            }
        }
        columns
    }
}

/// A parameter's values, flat.
fn values<const D: usize>(param: &Param<Tensor<D>>) -> Vec<f32> {
    param
        .val()
        .into_data()
        .try_to_vec::<f32>()
        .expect("network parameters are f32")
}

/// `y += a * x`.
#[inline(always)]
fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The dot product, in eight lanes so that it vectorises.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The MLP ready for one-position inference (see the module documentation).
#[derive(Clone, Debug)]
pub struct MlpInference {
    /// The first layer and, per input plane, the sum of its cells' rows.
    first: Rows,
    plane_sums: Vec<Vec<f32>>,
    cells: usize,
    /// The later hidden layers.
    hidden: Vec<Rows>,
    /// The policy head's weights, one row of the last hidden width per action.
    policy: Vec<f32>,
    policy_bias: Vec<f32>,
    value: Vec<f32>,
    value_bias: f32,
    /// Whether the processor has AVX2 (see the module documentation).
    avx2: bool,
}

/// The activations of one [`MlpInference::evaluate`] call, kept between calls (one per
/// thread).
#[derive(Clone, Debug, Default)]
pub struct MlpScratch {
    x: Vec<f32>,
    y: Vec<f32>,
}

impl MlpInference {
    /// The inference form of `mlp`, whose input is `planes` planes of `cells` cells.
    pub(super) fn new(mlp: &Mlp, planes: usize, cells: usize) -> MlpInference {
        let (first, rest) = mlp
            .hidden
            .split_first()
            .expect("an MLP has at least one hidden layer");
        let first = Rows::of(first);
        let plane_sums = (0..planes)
            .map(|p| {
                let mut sum = vec![0.0; first.outputs];
                for cell in 0..cells {
                    axpy(1.0, first.row(p * cells + cell), &mut sum);
                }
                sum
            })
            .collect();
        let policy = Rows::of(&mlp.policy_out);
        let value = Rows::of(&mlp.value_out);
        MlpInference {
            first,
            plane_sums,
            cells,
            hidden: rest.iter().map(Rows::of).collect(),
            policy: policy.transposed(),
            policy_bias: policy.bias,
            value: value.rows,
            value_bias: value.bias[0],
            avx2: has_avx2(),
        }
    }

    /// For one observation: writes the logits of the mover-frame `actions` into `logits` (one
    /// each) and returns the value, in `[-1, 1]`, for the player to act.
    pub fn evaluate(
        &self,
        scratch: &mut MlpScratch,
        observation: &[f32],
        actions: &[usize],
        logits: &mut [f32],
    ) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor was found to have AVX2.
            return unsafe { self.evaluate_avx2(scratch, observation, actions, logits) };
        }
        self.evaluate_portable(scratch, observation, actions, logits)
    }

    /// [`MlpInference::evaluate`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(
        &self,
        scratch: &mut MlpScratch,
        observation: &[f32],
        actions: &[usize],
        logits: &mut [f32],
    ) -> f32 {
        self.evaluate_portable(scratch, observation, actions, logits)
    }

    /// [`MlpInference::evaluate`] for any processor (inlined into the AVX2 version).
    #[inline(always)]
    fn evaluate_portable(
        &self,
        scratch: &mut MlpScratch,
        observation: &[f32],
        actions: &[usize],
        logits: &mut [f32],
    ) -> f32 {
        let MlpScratch { x, y } = scratch;
        self.first_layer(observation, x);
        for layer in &self.hidden {
            layer.forward_sparse(x, y);
            relu(y);
            std::mem::swap(x, y);
        }
        let width = x.len();
        for (&action, logit) in actions.iter().zip(logits.iter_mut()) {
            let column = &self.policy[action * width..(action + 1) * width];
            *logit = self.policy_bias[action] + dot(x, column);
        }
        (self.value_bias + dot(x, &self.value)).tanh()
    }

    /// The first hidden layer's activations into `x`.
    #[inline(always)]
    fn first_layer(&self, observation: &[f32], x: &mut Vec<f32>) {
        x.clone_from(&self.first.bias);
        for (p, plane) in observation.chunks_exact(self.cells).enumerate() {
            let level = plane[0];
            if plane.iter().all(|&v| v == level) {
                if level != 0.0 {
                    axpy(level, &self.plane_sums[p], x);
                }
                continue;
            }
            for (cell, &v) in plane.iter().enumerate() {
                if v != 0.0 {
                    axpy(v, self.first.row(p * self.cells + cell), x);
                }
            }
        }
        relu(x);
    }
}

/// Whether this processor has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[inline(always)]
fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Architecture, NetworkConfig};
    use burn::tensor::Device;
    use fanorona_env::{Fanorona, Game};

    #[test]
    fn the_processor_specific_build_gives_the_portable_results_bit_for_bit() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[64, 32]));
        let net = config.init_seeded(&Device::flex(), 5).unwrap();
        let mlp = net.mlp_inference().unwrap();
        let mut obs = vec![0.0; config.observation_len()];
        game.write_observation(&mut obs);
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let actions: Vec<usize> = legal.iter().map(|&a| game.to_mover_action(a)).collect();
        let (mut fast, mut portable) = (vec![0.0; actions.len()], vec![0.0; actions.len()]);
        let mut scratch = MlpScratch::default();
        let v1 = mlp.evaluate(&mut scratch, &obs, &actions, &mut fast);
        let v2 = mlp.evaluate_portable(&mut scratch, &obs, &actions, &mut portable);
        assert_eq!((v1.to_bits(), &fast), (v2.to_bits(), &portable));
        assert!(fast.iter().any(|&l| l != fast[0]), "{fast:?}");
    }
}
