//! [`QuantizedFirstLayer`]: the first layer of an MLP over observation planes with its cell
//! weights in 16-bit integers, as NNUE engines keep their first layer ("feature
//! transformer"). The inputs of the bitboard planes are 0 or 1, so the layer adds the integer
//! rows of the set cells exactly in `i32`, then scales the sums back per output; half the
//! bytes of `f32` rows, which is what limits this layer (it reads one row per piece). The
//! planes of one level everywhere stay in `f32`: their level times the plane's row sum.

use super::rows::Rows;

/// Outputs summed at a time where a whole block does not fit.
const NARROW: usize = 32;

/// A first layer with 16-bit cell weights (see the module documentation).
#[derive(Clone, Debug)]
pub(super) struct QuantizedFirstLayer {
    /// `cells[i * outputs + o]`: the weight of cell input `i` for output `o`, scaled.
    cells: Vec<i16>,
    /// Per output: the weight scale's inverse.
    unscale: Vec<f32>,
    /// The planes' row sums, one row per plane, with the layer's bias.
    levels: Rows,
}

impl QuantizedFirstLayer {
    /// `layer` in 16-bit weights: its first `planes * cells` rows are the cell inputs', the
    /// next `planes` the planes' row sums (as [`super::MlpInference`] stores them).
    pub(super) fn new(layer: &Rows, planes: usize, cells: usize) -> QuantizedFirstLayer {
        let outputs = layer.outputs;
        let inputs = planes * cells;
        let mut quantized = vec![0i16; inputs * outputs];
        let mut unscale = vec![0.0; outputs];
        for o in 0..outputs {
            let largest = (0..inputs).fold(0.0f32, |m, i| m.max(layer.row(i)[o].abs()));
            let scale = if largest > 0.0 {
                32767.0 / largest
            } else {
                1.0
            };
            unscale[o] = 1.0 / scale;
            for i in 0..inputs {
                quantized[i * outputs + o] = (layer.row(i)[o] * scale).round() as i16;
            }
        }
        QuantizedFirstLayer {
            cells: quantized,
            unscale,
            levels: Rows {
                rows: layer.rows[inputs * outputs..].to_vec(),
                bias: layer.bias.clone(),
                outputs,
            },
        }
    }

    /// Outputs (units) of the layer.
    pub(super) fn outputs(&self) -> usize {
        self.levels.outputs
    }

    /// `out = bias + sum of level * plane row sum` over the `(plane, level)` of `levels`
    /// `+` the cell rows of the inputs `ones`, `BLOCK` outputs at a time in registers. With
    /// `avx512` (the caller found that the processor runs AVX-512) the integer sums are held in
    /// AVX-512 registers, up to 128 outputs a pass over the rows: the same sums, so the same
    /// results.
    #[inline(always)]
    pub(super) fn forward<const BLOCK: usize>(
        &self,
        ones: &[usize],
        levels: &[(usize, f32)],
        out: &mut Vec<f32>,
        avx512: bool,
    ) {
        self.levels.forward::<BLOCK>(&[], levels, out);
        let outputs = self.levels.outputs;
        #[cfg(target_arch = "x86_64")]
        if avx512 {
            let mut start = 0;
            // SAFETY (each call): the caller found that the processor runs AVX-512.
            while start + 128 <= outputs {
                unsafe { self.add_rows_avx512::<8>(ones, start, out) };
                start += 128;
            }
            if start + 64 <= outputs {
                unsafe { self.add_rows_avx512::<4>(ones, start, out) };
                start += 64;
            }
            if start + 32 <= outputs {
                unsafe { self.add_rows_avx512::<2>(ones, start, out) };
                start += 32;
            }
            self.add_last_rows(ones, start, out);
            return;
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = avx512;
        let blocks = outputs / BLOCK * BLOCK;
        for start in (0..blocks).step_by(BLOCK) {
            self.add_rows::<BLOCK>(ones, start, out);
        }
        // A layer narrower than a block, or its last part: 32 outputs at a time (two AVX-512
        // registers of sums), then the rest.
        let narrow = blocks + (outputs - blocks) / NARROW * NARROW;
        for start in (blocks..narrow).step_by(NARROW) {
            self.add_rows::<NARROW>(ones, start, out);
        }
        self.add_last_rows(ones, narrow, out);
    }

    /// Adds the cell rows of `ones` to the outputs from `start` on, fewer than [`NARROW`].
    #[inline(always)]
    fn add_last_rows(&self, ones: &[usize], start: usize, out: &mut [f32]) {
        let outputs = self.levels.outputs;
        if start < outputs {
            let width = outputs - start;
            let mut acc = [0i32; NARROW];
            for &i in ones {
                let w = &self.cells[i * outputs + start..][..width];
                for (a, &w) in acc.iter_mut().zip(w) {
                    *a += i32::from(w);
                }
            }
            self.unscale_into(&acc[..width], start, out);
        }
    }

    /// Adds the cell rows of `ones` to the outputs `start..start + 16 * N`, summed in `N`
    /// AVX-512 registers of 16 `i32` (the weights widened from `i16` as they are loaded).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add_rows_avx512<const N: usize>(&self, ones: &[usize], start: usize, out: &mut [f32]) {
        use std::arch::x86_64::{
            __m256i, _mm256_loadu_si256, _mm512_add_epi32, _mm512_cvtepi16_epi32,
            _mm512_setzero_si512, _mm512_storeu_si512,
        };
        let outputs = self.levels.outputs;
        let mut acc = [_mm512_setzero_si512(); N];
        for &i in ones {
            let w = &self.cells[i * outputs + start..][..16 * N];
            for (k, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `w` holds N whole groups of 16 weights; unaligned loads.
                let wk = unsafe { _mm256_loadu_si256(w.as_ptr().add(16 * k).cast::<__m256i>()) };
                *acc = _mm512_add_epi32(*acc, _mm512_cvtepi16_epi32(wk));
            }
        }
        let mut sums = [[0i32; 16]; N];
        for (sums, acc) in sums.iter_mut().zip(&acc) {
            // SAFETY: `sums` holds one whole vector; unaligned store.
            unsafe { _mm512_storeu_si512(sums.as_mut_ptr().cast(), *acc) };
        }
        self.unscale_into(sums.as_flattened(), start, out);
    }

    /// Adds the cell rows of `ones` to the outputs `start..start + N`, summed in registers.
    #[inline(always)]
    fn add_rows<const N: usize>(&self, ones: &[usize], start: usize, out: &mut [f32]) {
        let outputs = self.levels.outputs;
        let mut acc = [0i32; N];
        for &i in ones {
            let w = &self.cells[i * outputs + start..][..N];
            for k in 0..N {
                acc[k] += i32::from(w[k]);
            }
        }
        self.unscale_into(&acc, start, out);
    }

    /// Adds the integer sums `acc` of the outputs from `start` on, scaled back, to `out`.
    #[inline(always)]
    fn unscale_into(&self, acc: &[i32], start: usize, out: &mut [f32]) {
        let out = &mut out[start..start + acc.len()];
        for ((o, &a), &u) in out.iter_mut().zip(acc).zip(&self.unscale[start..]) {
            *o += a as f32 * u;
        }
    }
}
