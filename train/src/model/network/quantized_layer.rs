//! [`QuantizedLayer`]: a dense layer with ReLU inputs in 8-bit integers, as NNUE engines run
//! theirs. The weights are signed bytes, scaled per output so that its largest weight is 127;
//! the inputs are unsigned bytes, scaled per call so that the largest is 255; the products
//! are summed exactly in `i32`. On processors with AVX-512 VNNI one instruction multiplies
//! and adds 64 byte pairs (16 outputs by 4 inputs), four times the `f32` work of a vector
//! multiply and add. Groups of four inputs that are all zero are skipped. Integer sums do not
//! depend on their order, so every build gives the same results bit for bit.

use super::rows::Rows;

/// Inputs a group: the bytes one VNNI lane multiplies and adds.
const GROUP: usize = 4;
/// Outputs a block: one vector of 16 `i32` sums.
const LANES: usize = 16;
/// Bytes of weights a (group, block) pair: one vector.
const BLOCK_BYTES: usize = GROUP * LANES;

/// A dense layer in 8-bit integers (see the module documentation).
#[derive(Clone, Debug)]
pub(super) struct QuantizedLayer {
    /// `weights[(g * outputs_padded + o) * 4 + k]` is the weight of input `4g + k` for
    /// output `o`; inputs and outputs are padded with zero weights to whole groups and blocks.
    weights: Vec<i8>,
    /// Per output: the weight scale's inverse (the float weight of one step).
    unscale: Vec<f32>,
    bias: Vec<f32>,
    inputs: usize,
    /// Vectors of 16 outputs.
    blocks: usize,
}

/// Working memory of [`QuantizedLayer::forward`], kept between calls.
#[derive(Clone, Debug, Default)]
pub(super) struct QuantizedScratch {
    /// The inputs as bytes, padded to whole groups.
    bytes: Vec<u8>,
    /// The groups with a non-zero input: (group, its four bytes).
    groups: Vec<(u32, u32)>,
    /// The integer sums, padded to whole blocks.
    sums: Vec<i32>,
}

impl QuantizedLayer {
    /// `layer` in 8-bit weights.
    pub(super) fn new(layer: &Rows) -> QuantizedLayer {
        let outputs = layer.outputs;
        let inputs = layer.rows.len() / outputs;
        let blocks = outputs.div_ceil(LANES);
        let groups = inputs.div_ceil(GROUP);
        let padded = blocks * LANES;
        let mut weights = vec![0i8; groups * padded * GROUP];
        let mut unscale = vec![0.0; padded];
        for o in 0..outputs {
            let largest = (0..inputs).fold(0.0f32, |m, i| m.max(layer.row(i)[o].abs()));
            let scale = if largest > 0.0 { 127.0 / largest } else { 1.0 };
            unscale[o] = 1.0 / scale;
            for i in 0..inputs {
                let q = (layer.row(i)[o] * scale).round().clamp(-127.0, 127.0);
                weights[((i / GROUP) * padded + o) * GROUP + i % GROUP] = q as i8;
            }
        }
        QuantizedLayer {
            weights,
            unscale,
            bias: layer.bias.clone(),
            inputs,
            blocks,
        }
    }

    /// `out = bias + W x` for the non-negative inputs `x` (a ReLU's outputs), `vnni` choosing
    /// the AVX-512 VNNI build (which the caller must have found the processor to run).
    #[inline(always)]
    pub(super) fn forward(
        &self,
        x: &[f32],
        scratch: &mut QuantizedScratch,
        vnni: bool,
        out: &mut Vec<f32>,
    ) {
        debug_assert_eq!(x.len(), self.inputs);
        out.clone_from(&self.bias);
        let largest = x.iter().fold(0.0f32, |m, &v| m.max(v));
        if largest <= 0.0 {
            return;
        }
        let QuantizedScratch {
            bytes,
            groups,
            sums,
        } = scratch;
        let scale = 255.0 / largest;
        bytes.clear();
        bytes.resize(self.inputs.div_ceil(GROUP) * GROUP, 0);
        for (byte, &v) in bytes.iter_mut().zip(x) {
            // At most 255.5 before truncation; through i32, which vectorises (a saturating
            // cast to u8 would not).
            *byte = (v * scale + 0.5) as i32 as u8;
        }
        // The non-zero groups, written without branches: each slot is kept or overwritten.
        groups.resize(bytes.len() / GROUP, (0, 0));
        let mut kept = 0;
        for (g, four) in bytes.chunks_exact(GROUP).enumerate() {
            let four = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
            groups[kept] = (g as u32, four);
            kept += usize::from(four != 0);
        }
        groups.truncate(kept);
        sums.clear();
        sums.resize(self.blocks * LANES, 0);
        match vnni {
            // SAFETY: the caller found the processor to run AVX-512 VNNI.
            #[cfg(target_arch = "x86_64")]
            true => unsafe { self.sum_vnni512(groups, sums) },
            _ => self.sum_portable(groups, sums),
        }
        let unit = 1.0 / scale;
        for ((o, &s), &u) in out.iter_mut().zip(sums.iter()).zip(&self.unscale) {
            *o += s as f32 * (u * unit);
        }
    }

    /// The weights of group `g`, all blocks.
    #[inline(always)]
    fn group_weights(&self, g: u32) -> &[i8] {
        let len = self.blocks * BLOCK_BYTES;
        &self.weights[g as usize * len..][..len]
    }

    /// The integer sums on any processor.
    fn sum_portable(&self, groups: &[(u32, u32)], sums: &mut [i32]) {
        for &(g, four) in groups {
            let x = four.to_le_bytes();
            for (sum, w) in sums
                .iter_mut()
                .zip(self.group_weights(g).chunks_exact(GROUP))
            {
                *sum += (0..GROUP)
                    .map(|k| i32::from(x[k]) * i32::from(w[k]))
                    .sum::<i32>();
            }
        }
    }

    /// The integer sums with AVX-512 VNNI: up to 16 blocks (256 outputs) at a time held in
    /// registers over all the groups.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vnni")]
    fn sum_vnni512(&self, groups: &[(u32, u32)], sums: &mut [i32]) {
        let mut block = 0;
        while block + 16 <= self.blocks {
            self.blocks_vnni512::<16>(groups, block, sums);
            block += 16;
        }
        while block < self.blocks {
            self.blocks_vnni512::<1>(groups, block, sums);
            block += 1;
        }
    }

    /// Blocks `first..first + N` of the sums with AVX-512 VNNI.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vnni")]
    #[inline]
    fn blocks_vnni512<const N: usize>(
        &self,
        groups: &[(u32, u32)],
        first: usize,
        sums: &mut [i32],
    ) {
        use std::arch::x86_64::{
            __m512i, _mm512_dpbusd_epi32, _mm512_loadu_si512, _mm512_set1_epi32,
            _mm512_setzero_si512, _mm512_storeu_si512,
        };
        let mut acc = [_mm512_setzero_si512(); N];
        for &(g, four) in groups {
            let x = _mm512_set1_epi32(four as i32);
            let w = &self.group_weights(g)[first * BLOCK_BYTES..][..N * BLOCK_BYTES];
            for (k, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `w` holds N whole vectors; unaligned loads.
                let wk = unsafe {
                    _mm512_loadu_si512(w.as_ptr().add(k * BLOCK_BYTES).cast::<__m512i>())
                };
                *acc = _mm512_dpbusd_epi32(*acc, x, wk);
            }
        }
        let out = &mut sums[first * LANES..][..N * LANES];
        for (k, acc) in acc.iter().enumerate() {
            // SAFETY: `out` holds N whole vectors of sums; unaligned stores.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(k * LANES).cast::<__m512i>(), *acc) };
        }
    }
}
