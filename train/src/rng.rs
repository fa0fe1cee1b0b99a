//! The training run's random number generator and its saved state, so a resumed run draws the
//! same numbers as an uninterrupted one.

use fanorona_env::Excerpt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The generator used for sampling, augmentation and self-play noise: ChaCha8, whose whole
/// state is a seed, a stream and a position.
pub type TrainRng = ChaCha8Rng;

/// A generator's state as it is written into checkpoints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// The 32-byte seed, in hex.
    pub seed: String,
    /// The stream number.
    pub stream: u64,
    /// The position in the stream, in 32-bit words (decimal, as it may exceed 2^64).
    pub word_pos: String,
}

/// A saved generator state that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad random generator state: {0}")]
pub struct RngStateError(String);

impl RngState {
    /// The state of `rng`.
    pub fn of(rng: &TrainRng) -> RngState {
        RngState {
            seed: rng.get_seed().iter().map(|b| format!("{b:02x}")).collect(),
            stream: rng.get_stream(),
            word_pos: rng.get_word_pos().to_string(),
        }
    }

    /// A generator in exactly this state.
    pub fn restore(&self) -> Result<TrainRng, RngStateError> {
        if self.seed.len() != 64 || !self.seed.is_ascii() {
            return Err(RngStateError(format!(
                "seed {:?} is not 64 hex digits",
                self.seed
            )));
        }
        let mut seed = [0u8; 32];
        for (i, byte) in seed.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&self.seed[2 * i..2 * i + 2], 16)
                .map_err(|_| RngStateError(format!("seed {} is not hex", Excerpt(&self.seed))))?;
        }
        let word_pos: u128 = self.word_pos.parse().map_err(|_| {
            RngStateError(format!(
                "word position {} is not a number",
                Excerpt(&self.word_pos)
            ))
        })?;
        let mut rng = TrainRng::from_seed(seed);
        rng.set_stream(self.stream);
        rng.set_word_pos(word_pos);
        Ok(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn a_restored_generator_continues_the_same_sequence() {
        let mut rng = TrainRng::seed_from_u64(7);
        let _: [u64; 5] = rng.random();
        let state = RngState::of(&rng);
        let json = serde_json::to_string(&state).unwrap();
        let mut restored = serde_json::from_str::<RngState>(&json)
            .unwrap()
            .restore()
            .unwrap();
        let a: [u64; 8] = rng.random();
        let b: [u64; 8] = restored.random();
        assert_eq!(a, b);
        let mut bad = state.clone();
        bad.seed.pop();
        assert!(bad.restore().is_err());
    }
}
