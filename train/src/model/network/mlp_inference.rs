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

use super::Mlp;
use super::rows::{Rows, axpy, dot, push_nonzero, relu};
use super::simd::Simd;
use super::value_out::ValueOut;
use crate::config::ValueHead;

/// The MLP ready for one-position inference (see the module documentation).
#[derive(Clone, Debug)]
pub struct MlpInference {
    /// The first layer, its rows followed by one more per input plane: the sum of the
    /// plane's cells' rows.
    pub(super) first: Rows,
    pub(super) cells: usize,
    /// The later hidden layers.
    pub(super) hidden: Vec<Rows>,
    /// The policy head's weights, one row of the last hidden width per action.
    policy: Vec<f32>,
    policy_bias: Vec<f32>,
    pub(super) value: ValueOut,
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
    /// The inference form of `mlp` with a value head of kind `value_head`, whose input is
    /// `planes` planes of `cells` cells.
    pub(super) fn new(
        mlp: &Mlp,
        value_head: ValueHead,
        planes: usize,
        cells: usize,
    ) -> MlpInference {
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
        MlpInference {
            first,
            cells,
            hidden: rest.iter().map(Rows::of).collect(),
            policy: policy.transposed(),
            policy_bias: policy.bias,
            value: ValueOut::of(&mlp.value_out, value_head),
            simd: Simd::detect(),
        }
    }

    /// Planes of the observation.
    pub(super) fn planes(&self) -> usize {
        self.first.rows.len() / self.first.outputs / (self.cells + 1)
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
            Simd::Avx512 | Simd::Avx512Vnni => unsafe {
                self.evaluate_avx512(scratch, observation, actions, logits)
            },
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
    /// [`Rows::forward`]); inlined into each processor-specific build.
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
            layer.forward::<BLOCK>(&[], terms, y);
            relu(y);
            std::mem::swap(x, y);
        }
        let width = x.len();
        for (&action, logit) in actions.iter().zip(logits.iter_mut()) {
            let column = &self.policy[action * width..(action + 1) * width];
            *logit = self.policy_bias[action] + dot(x, column);
        }
        self.value.value(x)
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
        self.first.forward::<BLOCK>(&[], terms, x);
        relu(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use crate::model::PolicyValueNet;
    use burn::tensor::Device;
    use fanorona_env::{Fanorona, Game};

    #[test]
    fn every_processor_specific_build_gives_the_portable_results_bit_for_bit() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[200, 72]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 5).unwrap();
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
        // Widths that are no multiple of the blocks (200, 72) take the remainder path too.
        for simd in Simd::runnable() {
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
