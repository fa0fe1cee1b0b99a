//! [`MlpValue`]: an MLP's value alone, one turn-start position at a time, as fast as an
//! alpha-beta search needs it at its leaves. Four differences from [`MlpInference`]:
//!
//! - **Read from the compact planes** ([`observation_planes`]): the first layer adds the
//!   weight rows of the cells set in the bitboard planes (no multiplications: the inputs
//!   are 1), in 16-bit integers ([`QuantizedFirstLayer`]), and the level planes' rows of
//!   plane sums, without writing out or scanning the 810 observation floats.
//! - **No policy head.**
//! - **Later hidden layers in 8-bit integers** ([`QuantizedLayer`], AVX-512 VNNI where the
//!   processor has it). This approximates the `f32` value: within 0.02 on the shipped model
//!   (tested: 0.012 at most over 300 positions of random games).
//! - **Units ordered by activity**: the first layer's units sorted by how often they are
//!   active in sample positions, so that the groups of four inputs the second layer skips
//!   when all are zero are more often zero (the shipped model: 35 of 64 groups computed on
//!   average instead of 50). The results do not change.
//!
//! [`observation_planes`]: fanorona_env::observation::observation_planes

use fanorona_env::observation::{NUM_PLANES, Plane};

use super::MlpInference;
use super::quantized_first_layer::QuantizedFirstLayer;
use super::quantized_layer::{QuantizedLayer, QuantizedScratch};
use super::rows::{Rows, relu};
use super::simd::Simd;
use super::value_out::ValueOut;

/// An MLP's value for the player to act (see the module documentation).
#[derive(Clone, Debug)]
pub struct MlpValue {
    first: QuantizedFirstLayer,
    cells: usize,
    hidden: Vec<QuantizedLayer>,
    value: ValueOut,
    /// The widest vector set this processor runs: AVX-512 VNNI for the integer sums where
    /// it has them, the portable sums otherwise (every build gives the same bits).
    simd: Simd,
}

/// The activations of one [`MlpValue::logit`] call, kept between calls (one per thread).
#[derive(Clone, Debug, Default)]
pub struct MlpValueScratch {
    /// First-layer inputs equal to 1.
    ones: Vec<usize>,
    /// The planes of one non-zero level: (plane, level).
    levels: Vec<(usize, f32)>,
    x: Vec<f32>,
    y: Vec<f32>,
    quantized: QuantizedScratch,
}

impl MlpValue {
    /// The value form of `mlp`, its first layer's units ordered by how often they are active
    /// in the positions of `samples` (their observation planes), so that units rarely active
    /// share the groups of four that the second layer skips when all four are zero. The
    /// order changes no result, only the speed.
    pub fn new(mlp: &MlpInference, samples: &[[Plane; NUM_PLANES]]) -> MlpValue {
        let quantized = |first: &Rows, hidden: &[Rows]| MlpValue {
            first: QuantizedFirstLayer::new(first, mlp.planes(), mlp.cells),
            cells: mlp.cells,
            hidden: hidden.iter().map(QuantizedLayer::new).collect(),
            value: mlp.value.clone(),
            simd: Simd::detect(),
        };
        let unordered = quantized(&mlp.first, &mlp.hidden);
        if mlp.hidden.is_empty() {
            return unordered;
        }
        let order = unordered.units_by_activity(samples);
        let mut first = mlp.first.clone();
        first.permute_outputs(&order);
        let mut hidden = mlp.hidden.clone();
        hidden[0].permute_inputs(&order);
        quantized(&first, &hidden)
    }

    /// The first layer's units, least often active in `samples` first.
    fn units_by_activity(&self, samples: &[[Plane; NUM_PLANES]]) -> Vec<usize> {
        let mut scratch = MlpValueScratch::default();
        let mut active = vec![0u32; self.first.outputs()];
        for planes in samples {
            self.first_layer::<32>(&mut scratch, planes, false);
            for (count, &x) in active.iter_mut().zip(&scratch.x) {
                *count += u32::from(x > 0.0);
            }
        }
        let mut order: Vec<usize> = (0..active.len()).collect();
        order.sort_by_key(|&u| active[u]);
        order
    }

    /// The value's logit, its `atanh` (a scalar head's output before its tanh; a win/draw/loss
    /// head's `atanh(P(win) - P(loss))`), for the player to act in the position whose observation planes are `planes`.
    pub fn logit(&self, scratch: &mut MlpValueScratch, planes: &[Plane]) -> f32 {
        match self.simd {
            // SAFETY: `simd` names a set the processor was found to run.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512Vnni => unsafe { self.value_vnni512(scratch, planes) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 | Simd::Avx512 => unsafe { self.value_avx2(scratch, planes) },
            _ => self.value_with::<32>(scratch, planes, false),
        }
    }

    /// [`MlpValue::logit`] compiled for AVX-512 with VNNI.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vnni")]
    fn value_vnni512(&self, scratch: &mut MlpValueScratch, planes: &[Plane]) -> f32 {
        self.value_with::<128>(scratch, planes, true)
    }

    /// [`MlpValue::logit`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn value_avx2(&self, scratch: &mut MlpValueScratch, planes: &[Plane]) -> f32 {
        self.value_with::<64>(scratch, planes, false)
    }

    /// [`MlpValue::logit`] summing the first layer `BLOCK` outputs at a time, or with `vnni`
    /// (the processor was found to run AVX-512 VNNI) every layer in AVX-512 registers; inlined
    /// into each processor-specific build.
    #[inline(always)]
    fn value_with<const BLOCK: usize>(
        &self,
        scratch: &mut MlpValueScratch,
        planes: &[Plane],
        vnni: bool,
    ) -> f32 {
        self.first_layer::<BLOCK>(scratch, planes, vnni);
        let MlpValueScratch {
            x, y, quantized, ..
        } = scratch;
        for layer in &self.hidden {
            layer.forward(x, quantized, vnni, y);
            relu(y);
            std::mem::swap(x, y);
        }
        self.value.logit(x)
    }

    /// The first layer's activations for `planes` into `scratch.x`, its sums in AVX-512
    /// registers with `avx512` (the processor was found to run it).
    #[inline(always)]
    fn first_layer<const BLOCK: usize>(
        &self,
        scratch: &mut MlpValueScratch,
        planes: &[Plane],
        avx512: bool,
    ) {
        let MlpValueScratch {
            ones, levels, x, ..
        } = scratch;
        ones.clear();
        levels.clear();
        for (p, plane) in planes.iter().enumerate() {
            match *plane {
                Plane::Cells(mut bits) => {
                    while bits != 0 {
                        ones.push(p * self.cells + bits.trailing_zeros() as usize);
                        bits &= bits - 1;
                    }
                }
                Plane::Level(level) if level != 0.0 => levels.push((p, level)),
                Plane::Level(_) => {}
            }
        }
        self.first.forward::<BLOCK>(ones, levels, x, avx512);
        relu(x);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig, ValueHead};
    use crate::model::PolicyValueNet;
    use burn::tensor::Device;
    use fanorona_env::observation::{observation_planes, write_observation};
    use fanorona_env::{History, Position};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Turn-start positions of seeded random games.
    pub(crate) fn positions(count: usize) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(11);
        let mut out = Vec::new();
        while out.len() < count {
            let mut history = History::new(Position::standard());
            while history.outcome().is_none() && out.len() < count {
                out.push(*history.position());
                let turns = history.position().legal_turns();
                history.play_unchecked(&turns[rng.random_range(0..turns.len())]);
            }
        }
        out
    }

    /// The largest difference between `net`'s `f32` values and its quantized ones at
    /// `positions`.
    pub(crate) fn largest_error(net: &PolicyValueNet, positions: &[Position]) -> f32 {
        let exact = net.mlp_inference().unwrap();
        let quantized = MlpValue::new(&exact, &[]);
        let mut observation = vec![0.0; net.config().observation_len()];
        let (mut scratch, mut value_scratch) = Default::default();
        let mut largest = 0.0f32;
        for pos in positions {
            write_observation(pos, 1, &mut observation);
            let v = exact.evaluate(&mut scratch, &observation, &[], &mut []);
            let q = quantized
                .logit(&mut value_scratch, &observation_planes(pos, 1))
                .tanh();
            largest = largest.max((v - q).abs());
        }
        largest
    }

    #[test]
    fn the_quantized_value_stays_close_to_the_float_value() {
        // Widths that are no multiple of a group or a block take the padding paths.
        let game = fanorona_env::Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[70, 37, 21]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 3).unwrap();
        let error = largest_error(&net, &positions(300));
        assert!(error < 0.01, "{error}");
        assert!(error > 0.0, "the hidden layers are approximated");
        // A win/draw/loss head: the logit is atanh(P(win) - P(loss)).
        let wdl = config.with_value_head(ValueHead::Wdl);
        let net = PolicyValueNet::init_seeded(&wdl, &Device::flex(), 3).unwrap();
        let error = largest_error(&net, &positions(300));
        assert!(error < 0.01, "{error}");
    }

    #[test]
    fn ordering_the_units_by_activity_changes_no_value() {
        let game = fanorona_env::Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[256, 256]));
        let mlp = PolicyValueNet::init_seeded(&config, &Device::flex(), 5)
            .unwrap()
            .mlp_inference()
            .unwrap();
        let planes: Vec<_> = positions(400)
            .iter()
            .map(|pos| observation_planes(pos, 1))
            .collect();
        let (samples, tests) = planes.split_at(200);
        let unordered = MlpValue::new(&mlp, &[]);
        let ordered = MlpValue::new(&mlp, samples);
        let order = unordered.units_by_activity(samples);
        assert!(order.iter().enumerate().any(|(k, &u)| k != u), "reordered");
        assert_eq!(ordered.units_by_activity(samples), {
            let mut sorted = order.clone();
            sorted.sort();
            sorted
        });
        let mut scratch = MlpValueScratch::default();
        for planes in tests {
            let a = unordered.logit(&mut scratch, planes);
            let b = ordered.logit(&mut scratch, planes);
            assert_eq!(a.to_bits(), b.to_bits());
        }
    }

    /// 232 first-layer outputs: 128 + 64 + 32 + 8, every width of the AVX-512 sums and the rest.
    #[test]
    fn every_processor_specific_build_gives_the_portable_results_bit_for_bit() {
        let game = fanorona_env::Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[232, 72, 19]));
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 8).unwrap();
        let detected = MlpValue::new(&net.mlp_inference().unwrap(), &[]);
        let portable = MlpValue {
            simd: Simd::Portable,
            ..detected.clone()
        };
        let mut scratch = MlpValueScratch::default();
        let mut values = Vec::new();
        for pos in positions(60) {
            let planes = observation_planes(&pos, 1);
            let v = portable.logit(&mut scratch, &planes);
            for simd in Simd::runnable() {
                let build = MlpValue {
                    simd,
                    ..detected.clone()
                };
                let w = build.logit(&mut scratch, &planes);
                assert_eq!(w.to_bits(), v.to_bits(), "{simd:?}");
            }
            values.push(v);
        }
        assert!(values.iter().any(|&v| v != values[0]), "{values:?}");
    }
}
