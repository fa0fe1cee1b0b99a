//! [`Simd`]: the vector instruction sets the one-position inference forms
//! ([`super::MlpInference`], [`super::MlpValue`]) have builds for, found at run time. Every
//! build of a form gives the same results bit for bit.

/// The vector instruction sets, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Simd {
    /// SSE2 or no vectors (any processor).
    Portable,
    /// AVX2: 8 floats a vector.
    Avx2,
    /// AVX-512: 16 floats a vector.
    Avx512,
    /// AVX-512 with VNNI: 64 byte products summed into 16 `i32` an instruction.
    Avx512Vnni,
}

impl Simd {
    /// The widest set this processor runs.
    pub(super) fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                if std::is_x86_feature_detected!("avx512vnni") {
                    return Simd::Avx512Vnni;
                }
                return Simd::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Portable
    }

    /// Every set this processor runs, narrowest first.
    #[cfg(test)]
    pub(super) fn runnable() -> Vec<Simd> {
        let widest = Simd::detect();
        [Simd::Portable, Simd::Avx2, Simd::Avx512, Simd::Avx512Vnni]
            .into_iter()
            .filter(|&s| s <= widest)
            .collect()
    }
}
