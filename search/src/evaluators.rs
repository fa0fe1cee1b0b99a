//! Evaluators without a network: uniform priors with value 0 (to measure the search itself),
//! and random playouts (a weak but honest value, enough for small boards and for tests).

use fanorona_env::Game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::Evaluator;

/// Uniform priors (all logits 0) and value 0 for every state.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, _states: &[G], policy: &mut [f32], values: &mut [f32]) {
        policy.fill(0.0);
        values.fill(0.0);
    }
}

/// Uniform priors, and as value the mean return, for the player to act, of random playouts
/// (uniformly random legal actions). A playout that reaches the step cap counts as a draw.
/// Deterministic: each playout's random numbers come from the seed, the call number and the
/// state's place in the batch, so results do not depend on how rayon splits a batch.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    playouts: u32,
    max_steps: u32,
    seed: u64,
    calls: u64,
}

impl RolloutEvaluator {
    /// `playouts` playouts per state (at least 1), each at most `max_steps` actions long.
    pub fn new(playouts: u32, max_steps: u32, seed: u64) -> RolloutEvaluator {
        RolloutEvaluator {
            playouts: playouts.max(1),
            max_steps,
            seed,
            calls: 0,
        }
    }
}

impl Default for RolloutEvaluator {
    /// One playout of at most 400 actions, seed 0.
    fn default() -> RolloutEvaluator {
        RolloutEvaluator::new(1, 400, 0)
    }
}

/// One random playout from `state`, using `scratch` and `actions` as buffers; the return of
/// the player to act at `state`.
fn playout<G: Game>(
    state: &G,
    scratch: &mut G,
    actions: &mut Vec<usize>,
    max_steps: u32,
    rng: &mut impl Rng,
) -> f32 {
    scratch.clone_from(state);
    for _ in 0..max_steps {
        if scratch.is_terminal() {
            break;
        }
        scratch.legal_actions(actions);
        scratch.apply_unchecked(actions[rng.random_range(0..actions.len())]);
    }
    scratch.returns()[state.current_player().index()]
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, states: &[G], policy: &mut [f32], values: &mut [f32]) {
        policy.fill(0.0);
        let call = self.calls;
        self.calls += 1;
        let (playouts, max_steps, seed) = (self.playouts, self.max_steps, self.seed);
        states
            .par_iter()
            .zip(values.par_iter_mut())
            .enumerate()
            .for_each_init(
                || (None::<G>, Vec::new()),
                |(scratch, actions), (i, (state, value))| {
                    let mut rng = SmallRng::seed_from_u64(
                        seed ^ call.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i as u64) << 40,
                    );
                    let scratch = scratch.get_or_insert_with(|| state.clone());
                    let total: f32 = (0..playouts)
                        .map(|_| playout(state, scratch, actions, max_steps, &mut rng))
                        .sum();
                    *value = total / playouts as f32;
                },
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::{Fanorona, Position};

    #[test]
    fn a_forced_immediate_win_is_worth_one() {
        // White b2 must withdraw to b1, capturing black's last piece on b3.
        let win = Fanorona::new(Position::from_fen("1B1/1W1/3 w").unwrap());
        let mut policy = vec![1.0; win.num_actions()];
        let mut value = [0.0];
        RolloutEvaluator::new(3, 50, 1).evaluate(
            std::slice::from_ref(&win),
            &mut policy,
            &mut value,
        );
        assert_eq!(value, [1.0]);
        assert!(policy.iter().all(|&x| x == 0.0));
    }

    #[test]
    fn playouts_are_seeded_per_state_and_deterministic() {
        let open = Fanorona::new(Position::from_fen("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w").unwrap());
        let states = vec![open; 4];
        let n = states[0].num_actions();
        let run = |seed| {
            let (mut p, mut v) = (vec![0.0; 4 * n], [0.0; 4]);
            RolloutEvaluator::new(8, 300, seed).evaluate(&states, &mut p, &mut v);
            v
        };
        let v = run(7);
        assert_eq!(v, run(7));
        assert!(v.iter().all(|x| (-1.0..=1.0).contains(x)));
        assert!(
            v.windows(2).any(|w| w[0] != w[1]),
            "same playouts everywhere: {v:?}"
        );
    }
}
