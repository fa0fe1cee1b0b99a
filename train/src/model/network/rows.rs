//! A dense layer's `f32` weights stored by input ([`Rows`]), and the small vector kernels the
//! one-position inference forms ([`super::MlpInference`], [`super::MlpValue`]) build on.

use burn::module::Param;
use burn::nn::Linear;
use burn::tensor::Tensor;

/// A dense layer's weights as rows: `rows[i * outputs..(i + 1) * outputs]` is input `i`'s.
#[derive(Clone, Debug)]
pub(super) struct Rows {
    pub(super) rows: Vec<f32>,
    pub(super) bias: Vec<f32>,
    pub(super) outputs: usize,
}

impl Rows {
    /// The weights of `layer` (`[inputs, outputs]` in burn) and its bias (zeros if none).
    pub(super) fn of(layer: &Linear) -> Rows {
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
    pub(super) fn row(&self, input: usize) -> &[f32] {
        &self.rows[input * self.outputs..(input + 1) * self.outputs]
    }

    /// `out = bias + sum of row(i)` over the inputs `i` of `ones` (inputs equal to 1) `+ sum of
    /// x * row(i)` over the `(i, x)` of `scaled`, in that order. The outputs are summed `BLOCK`
    /// at a time in a local array the compiler keeps in vector registers (eight of them: 64
    /// floats with AVX2, 128 with AVX-512), so each weight is loaded once and nothing is
    /// stored until a block is done. Any `BLOCK` gives the same sums: each output adds the
    /// same terms in the same order.
    #[inline(always)]
    pub(super) fn forward<const BLOCK: usize>(
        &self,
        ones: &[usize],
        scaled: &[(usize, f32)],
        out: &mut Vec<f32>,
    ) {
        out.clone_from(&self.bias);
        let blocks = self.outputs / BLOCK * BLOCK;
        for start in (0..blocks).step_by(BLOCK) {
            let mut acc = [0.0f32; BLOCK];
            acc.copy_from_slice(&out[start..start + BLOCK]);
            for &i in ones {
                let w = &self.rows[i * self.outputs + start..][..BLOCK];
                for k in 0..BLOCK {
                    acc[k] += w[k];
                }
            }
            for &(i, x) in scaled {
                let w = &self.rows[i * self.outputs + start..][..BLOCK];
                for k in 0..BLOCK {
                    acc[k] += x * w[k];
                }
            }
            out[start..start + BLOCK].copy_from_slice(&acc);
        }
        for &i in ones {
            axpy(1.0, &self.row(i)[blocks..], &mut out[blocks..]);
        }
        for &(i, x) in scaled {
            axpy(x, &self.row(i)[blocks..], &mut out[blocks..]);
        }
    }

    /// The outputs reordered: output `k` becomes the old output `order[k]`.
    pub(super) fn permute_outputs(&mut self, order: &[usize]) {
        let pick = |row: &[f32]| order.iter().map(|&o| row[o]).collect::<Vec<f32>>();
        self.rows = self
            .rows
            .chunks_exact(self.outputs)
            .flat_map(pick)
            .collect();
        self.bias = pick(&self.bias);
    }

    /// The first `order.len()` inputs reordered: input `k` becomes the old input `order[k]`.
    pub(super) fn permute_inputs(&mut self, order: &[usize]) {
        let reordered: Vec<f32> = order.iter().flat_map(|&i| self.row(i).to_vec()).collect();
        self.rows[..reordered.len()].copy_from_slice(&reordered);
    }

    /// The rows transposed: `columns[o * inputs..]` is output `o`'s weights.
    pub(super) fn transposed(&self) -> Vec<f32> {
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
pub(super) fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The dot product, in eight lanes so that it vectorises.
#[inline(always)]
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
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

/// Pushes `(offset + i, v)` for each non-zero `v = values[i]` of at most 64 values, in order:
/// a mask of the non-zero ones first (branch-free, vectorised), then its set bits.
#[inline(always)]
pub(super) fn push_nonzero(values: &[f32], offset: usize, terms: &mut Vec<(usize, f32)>) {
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

#[inline(always)]
pub(super) fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}
