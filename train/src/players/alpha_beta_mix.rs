//! [`AlphaBetaMix`]: a leaf evaluator that mixes a network's value with a shallow alpha-beta
//! search's, as AlphaGo mixed its value network with rollout results (Silver et al. 2016,
//! `V = (1 - lambda) v_net + lambda z`). The alpha-beta is the minimax baseline's (complete
//! turns, a quiescence search over compulsory captures, material and mobility), so a leaf in
//! the middle of a capture fight is valued after the captures fall: the tactics an MLP's value
//! misses, at a small cost (a probe of at most a few hundred nodes, a few microseconds each).

use fanorona_env::{Budget, Fanorona};
use fanorona_eval::minimax::{Searcher, value_of_score};
use fanorona_search::Evaluator;

/// Transposition table of the probes, in MiB.
const HASH_MB: usize = 16;

/// How a leaf's alpha-beta probe is run and weighed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafProbe {
    /// Complete turns searched (0: the quiescence search alone).
    pub depth: u32,
    /// Weight of the probe's value in the leaf's value, in `[0, 1]`.
    pub lambda: f32,
    /// Most nodes of a probe; a leaf that needs more keeps the network's value.
    pub max_nodes: u64,
}

/// Wraps an evaluator: its policy is kept, its values mixed with alpha-beta probes'.
pub struct AlphaBetaMix<E> {
    inner: E,
    searcher: Searcher,
    probe: LeafProbe,
}

impl<E> AlphaBetaMix<E> {
    /// `inner`'s evaluations with values mixed as `probe` says.
    pub fn new(inner: E, probe: LeafProbe) -> AlphaBetaMix<E> {
        AlphaBetaMix {
            inner,
            searcher: Searcher::new(Budget::fixed_depth(1), HASH_MB, 0),
            probe,
        }
    }
}

impl<E: Evaluator<Fanorona>> Evaluator<Fanorona> for AlphaBetaMix<E> {
    fn evaluate(&mut self, states: &[Fanorona], policy: &mut [f32], values: &mut [f32]) {
        self.inner.evaluate(states, policy, values);
        let LeafProbe {
            depth,
            lambda,
            max_nodes,
        } = self.probe;
        for (state, value) in states.iter().zip(values.iter_mut()) {
            if let Some(score) = self.searcher.probe(state, depth, max_nodes) {
                *value = (1.0 - lambda) * *value + lambda * value_of_score(score);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use fanorona_env::{Game, Position};
    use fanorona_search::UniformEvaluator;

    /// Policy logits 1 and value 0.5 everywhere (also the inner evaluator of the tests of
    /// `table_leaves`).
    pub(crate) struct Constant;

    impl Evaluator<Fanorona> for Constant {
        fn evaluate(&mut self, _states: &[Fanorona], policy: &mut [f32], values: &mut [f32]) {
            policy.fill(1.0);
            values.fill(0.5);
        }
    }

    fn probe(depth: u32, lambda: f32) -> LeafProbe {
        LeafProbe {
            depth,
            lambda,
            max_nodes: 200,
        }
    }

    #[test]
    fn mixes_the_inner_value_with_the_probe_value_and_keeps_the_policy() {
        // White must capture and wipes black out: a won position, worth 1 at any depth.
        let won = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        // Quiet, eight pieces up.
        let quiet = Fanorona::new(Position::from_fen("B8/9/9/9/WWWWWWWWW w").unwrap());
        let states = [won, quiet, Fanorona::standard()];
        let n = states[0].num_actions();
        let mut policy = vec![0.0; 3 * n];
        let mut values = [0.0; 3];
        let mixed = |score| 0.75 * 0.5 + 0.25 * value_of_score(score);
        for depth in [0, 1, 2] {
            AlphaBetaMix::new(Constant, probe(depth, 0.25)).evaluate(
                &states,
                &mut policy,
                &mut values,
            );
            assert!(policy.iter().all(|&p| p == 1.0));
            assert_eq!(values[0], 0.75 * 0.5 + 0.25);
            let mut searcher = Searcher::new(Budget::fixed_depth(1), 1, 0);
            let quiet_score = searcher.probe(&states[1], depth, u64::MAX).unwrap();
            assert_eq!(values[1], mixed(quiet_score));
            // The opening's capture tree is beyond a probe: the network's value stays.
            assert_eq!(values[2], 0.5);
        }
        let mut alone = AlphaBetaMix::new(UniformEvaluator, probe(0, 1.0));
        alone.evaluate(&states, &mut policy, &mut values);
        assert!(policy.iter().all(|&p| p == 0.0));
        assert_eq!(values[0], 1.0);
        assert!(values[1] > 0.9 && values[1] < 1.0);
    }
}
