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
//! The results equal the dense pass's up to float rounding (tested). Each layer sums a block
//! of its outputs in vector registers over the non-zero inputs before storing them. On x86-64
//! processors with AVX-512 or AVX2 the same code runs compiled for them (16 or 8 floats a
//! vector instead of SSE2's 4), with the same results bit for bit: the arithmetic and its
//! order are the same.

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

    /// `out = bias + sum of x * row(i)` over the `(i, x)` of `terms`, in their order. The
    /// outputs are summed `BLOCK` at a time in a local array the compiler keeps in vector
    /// registers (eight of them: 64 floats with AVX2, 128 with AVX-512), so each weight is
    /// loaded once and nothing is stored until a block is done. Any `BLOCK` gives the same
    /// sums: each output adds the same products in the same order.
    #[inline(always)]
    fn forward_terms<const BLOCK: usize>(&self, terms: &[(usize, f32)], out: &mut Vec<f32>) {
        out.clone_from(&self.bias);
        let blocks = self.outputs / BLOCK * BLOCK;
        for start in (0..blocks).step_by(BLOCK) {
            let mut acc = [0.0f32; BLOCK];
            acc.copy_from_slice(&out[start..start + BLOCK]);
            for &(i, x) in terms {
                let w = &self.rows[i * self.outputs + start..][..BLOCK];
                for k in 0..BLOCK {
                    acc[k] += x * w[k];
                }
            }
            out[start..start + BLOCK].copy_from_slice(&acc);
        }
        for &(i, x) in terms {
            axpy(x, &self.row(i)[blocks..], &mut out[blocks..]);
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
    /// The first layer, its rows followed by one more per input plane: the sum of the
    /// plane's cells' rows.
    first: Rows,
    cells: usize,
    /// The later hidden layers.
    hidden: Vec<Rows>,
    /// The policy head's weights, one row of the last hidden width per action.
    policy: Vec<f32>,
    policy_bias: Vec<f32>,
    value: Vec<f32>,
    value_bias: f32,
    /// The widest vector build this processor runs (see the module documentation).
    simd: Simd,
}

/// The activations of one [`MlpInference::evaluate`] call, kept between calls (one per
/// thread).
#[derive(Clone, Debug, Default)]
pub struct MlpScratch {
    x: Vec<f32>,
    y: Vec<f32>,
    /// The non-zero inputs of a layer: (row, coefficient).
    terms: Vec<(usize, f32)>,
}

impl MlpInference {
    /// The inference form of `mlp`, whose input is `planes` planes of `cells` cells.
    pub(super) fn new(mlp: &Mlp, planes: usize, cells: usize) -> MlpInference {
        let (first, rest) = mlp
            .hidden
            .split_first()
            .expect("an MLP has at least one hidden layer");
        let mut first = Rows::of(first);
        for p in 0..planes {
            let mut sum = vec![0.0; first.outputs];
            for cell in 0..cells {
                axpy(1.0, first.row(p * cells + cell), &mut sum);
            }
            first.rows.extend(sum);
        }
        let policy = Rows::of(&mlp.policy_out);
        let value = Rows::of(&mlp.value_out);
        MlpInference {
            first,
            cells,
            hidden: rest.iter().map(Rows::of).collect(),
            policy: policy.transposed(),
            policy_bias: policy.bias,
            value: value.rows,
            value_bias: value.bias[0],
            simd: Simd::detect(),
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
        match self.simd {
            // SAFETY: `simd` names a build only where the processor was found to run it.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.evaluate_avx512(scratch, observation, actions, logits) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.evaluate_avx2(scratch, observation, actions, logits) },
            _ => self.evaluate_with::<32>(scratch, observation, actions, logits),
        }
    }

    /// [`MlpInference::evaluate`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn evaluate_avx512(
        &self,
        scratch: &mut MlpScratch,
        observation: &[f32],
        actions: &[usize],
        logits: &mut [f32],
    ) -> f32 {
        self.evaluate_with::<128>(scratch, observation, actions, logits)
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
        self.evaluate_with::<64>(scratch, observation, actions, logits)
    }

    /// [`MlpInference::evaluate`] for any processor, summing `BLOCK` outputs at a time (see
    /// [`Rows::forward_terms`]); inlined into each processor-specific build.
    #[inline(always)]
    fn evaluate_with<const BLOCK: usize>(
        &self,
        scratch: &mut MlpScratch,
        observation: &[f32],
        actions: &[usize],
        logits: &mut [f32],
    ) -> f32 {
        let MlpScratch { x, y, terms } = scratch;
        self.first_layer::<BLOCK>(observation, terms, x);
        for layer in &self.hidden {
            terms.clear();
            for (c, chunk) in x.chunks(64).enumerate() {
                push_nonzero(chunk, c * 64, terms);
            }
            layer.forward_terms::<BLOCK>(terms, y);
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

    /// The first hidden layer's activations into `x`: a constant plane adds its level times
    /// its row of plane sums (stored after the cells' rows), any other plane its non-zero
    /// cells' rows.
    #[inline(always)]
    fn first_layer<const BLOCK: usize>(
        &self,
        observation: &[f32],
        terms: &mut Vec<(usize, f32)>,
        x: &mut Vec<f32>,
    ) {
        terms.clear();
        let sums = observation.len();
        for (p, plane) in observation.chunks_exact(self.cells).enumerate() {
            let level = plane[0];
            // Without early exits, so that the comparisons vectorise.
            if plane.iter().fold(true, |same, &v| same & (v == level)) {
                if level != 0.0 {
                    terms.push((sums + p, level));
                }
            } else {
                push_nonzero(plane, p * self.cells, terms);
            }
        }
        self.first.forward_terms::<BLOCK>(terms, x);
        relu(x);
    }
}

/// Pushes `(offset + i, v)` for each non-zero `v = values[i]` of at most 64 values, in order:
/// a mask of the non-zero ones first (branch-free, vectorised), then its set bits.
#[inline(always)]
fn push_nonzero(values: &[f32], offset: usize, terms: &mut Vec<(usize, f32)>) {
    debug_assert!(values.len() <= 64);
    let mut mask = values
        .iter()
        .enumerate()
        .fold(0u64, |mask, (i, &v)| mask | (u64::from(v != 0.0) << i));
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        terms.push((offset + i, values[i]));
        mask &= mask - 1;
    }
}

/// The vector builds of [`MlpInference::evaluate`]; they give the same results bit for bit
/// (the same operations in the same order on wider vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Simd {
    /// SSE2 or no vectors (any processor).
    Portable,
    /// 8 floats a vector.
    Avx2,
    /// 16 floats a vector.
    Avx512,
}

impl Simd {
    /// The widest build this processor runs.
    fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                return Simd::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Portable
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
    fn every_processor_specific_build_gives_the_portable_results_bit_for_bit() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[200, 72]));
        let net = config.init_seeded(&Device::flex(), 5).unwrap();
        let mlp = net.mlp_inference().unwrap();
        let mut obs = vec![0.0; config.observation_len()];
        game.write_observation(&mut obs);
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let actions: Vec<usize> = legal.iter().map(|&a| game.to_mover_action(a)).collect();
        let mut scratch = MlpScratch::default();
        let mut portable = vec![0.0; actions.len()];
        let portable_build = MlpInference {
            simd: Simd::Portable,
            ..mlp.clone()
        };
        let v = portable_build.evaluate(&mut scratch, &obs, &actions, &mut portable);
        assert!(portable.iter().any(|&l| l != portable[0]), "{portable:?}");
        let mut builds = vec![Simd::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                builds.push(Simd::Avx2);
            }
            if std::is_x86_feature_detected!("avx512f") {
                builds.push(Simd::Avx512);
            }
        }
        // Widths that are no multiple of the blocks (200, 72) take the remainder path too.
        for simd in builds {
            let build = MlpInference {
                simd,
                ..mlp.clone()
            };
            let mut logits = vec![0.0; actions.len()];
            let value = build.evaluate(&mut scratch, &obs, &actions, &mut logits);
            assert_eq!(
                (value.to_bits(), &logits),
                (v.to_bits(), &portable),
                "{simd:?}"
            );
        }
    }
}
