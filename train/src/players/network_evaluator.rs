//! [`NetworkEvaluator`]: the [`Evaluator`] search uses with a trained network. It writes the
//! states' observations into a reused buffer and maps the mover-frame logits back to absolute
//! actions. An MLP runs one position at a time through [`MlpInference`] (sparse inputs, the
//! legal actions' logits only; the others are left at minus infinity, which search masks
//! anyway); other networks run once per batch through burn.

use fanorona_env::{Game, Wdl};
use fanorona_search::Evaluator;
use rayon::prelude::*;

use crate::config::ValueHead;
use crate::model::{MlpInference, MlpScratch, PolicyValueNet};

/// Batches from this size on are split over the rayon threads (self-play's); smaller ones (a
/// player's search) run on the calling thread.
const PARALLEL_FROM: usize = 32;

/// Evaluates batches of states with a policy/value network (an inference copy, without
/// autodiff).
pub struct NetworkEvaluator<G: Game> {
    net: PolicyValueNet,
    mlp: Option<MlpInference>,
    /// One per thread that evaluates a part of a batch through `mlp`.
    workers: Vec<MlpWorker>,
    observations: Vec<f32>,
    logits: Vec<f32>,
    _game: std::marker::PhantomData<fn(&G)>,
}

/// The buffers of one thread evaluating states through [`MlpInference`].
#[derive(Default)]
struct MlpWorker {
    scratch: MlpScratch,
    observation: Vec<f32>,
    /// A state's legal actions, absolute and in the mover's frame, and their logits.
    legal: Vec<usize>,
    mover_legal: Vec<usize>,
    logits: Vec<f32>,
}

impl MlpWorker {
    /// Evaluates `states` into their rows of `policy` and `values`.
    fn evaluate<G: Game>(
        &mut self,
        mlp: &MlpInference,
        states: &[G],
        policy: &mut [f32],
        values: &mut [f32],
    ) {
        let num_actions = policy.len() / states.len();
        for ((state, row), value) in states
            .iter()
            .zip(policy.chunks_exact_mut(num_actions))
            .zip(values)
        {
            self.observation
                .resize(state.observation_shape().iter().product(), 0.0);
            state.write_observation(&mut self.observation);
            state.legal_actions(&mut self.legal);
            self.mover_legal.clear();
            self.mover_legal
                .extend(self.legal.iter().map(|&a| state.to_mover_action(a)));
            self.logits.resize(self.legal.len(), 0.0);
            *value = mlp.evaluate(
                &mut self.scratch,
                &self.observation,
                &self.mover_legal,
                &mut self.logits,
            );
            row.fill(f32::NEG_INFINITY);
            for (&action, &logit) in self.legal.iter().zip(&self.logits) {
                row[action] = logit;
            }
        }
    }
}

impl<G: Game> NetworkEvaluator<G> {
    /// An evaluator around `net` (taken as its inference copy).
    pub fn new(net: &PolicyValueNet) -> NetworkEvaluator<G> {
        use burn::module::Module;
        NetworkEvaluator {
            net: net.valid(),
            mlp: net.mlp_inference(),
            workers: Vec::new(),
            observations: Vec::new(),
            logits: Vec::new(),
            _game: std::marker::PhantomData,
        }
    }

    /// The network.
    pub fn network(&self) -> &PolicyValueNet {
        &self.net
    }

    /// Replaces the network (e.g. after a training iteration), keeping the buffers.
    pub fn set_network(&mut self, net: &PolicyValueNet) {
        use burn::module::Module;
        self.net = net.valid();
        self.mlp = net.mlp_inference();
    }

    /// The network's own win/draw/loss probabilities for `state`'s mover, where its value head
    /// is a win/draw/loss head (`None` for a scalar head, whose probabilities would only
    /// restate its value).
    pub fn own_wdl(&mut self, state: &G) -> Option<Wdl> {
        if self.net.config().value_head != ValueHead::Wdl {
            return None;
        }
        self.observations
            .resize(state.observation_shape().iter().product(), 0.0);
        state.write_observation(&mut self.observations);
        self.logits.resize(self.net.config().num_actions, 0.0);
        let mut wdl = [Wdl::from_value(0.0)];
        self.net
            .infer_wdl(&self.observations, &mut self.logits, &mut wdl);
        Some(wdl[0])
    }

    /// Evaluates through `mlp`: on this thread, or split over the rayon threads.
    fn evaluate_mlp(&mut self, states: &[G], policy: &mut [f32], values: &mut [f32]) {
        let mlp = self.mlp.as_ref().expect("called for an MLP");
        let parts = if states.len() >= PARALLEL_FROM {
            rayon::current_num_threads().max(1)
        } else {
            1
        };
        if self.workers.len() < parts {
            self.workers.resize_with(parts, MlpWorker::default);
        }
        let n = states.len();
        let num_actions = states[0].num_actions();
        let (policy, values) = (&mut policy[..n * num_actions], &mut values[..n]);
        if parts == 1 {
            self.workers[0].evaluate(mlp, states, policy, values);
            return;
        }
        let chunk = n.div_ceil(parts);
        states
            .par_chunks(chunk)
            .zip(policy.par_chunks_mut(chunk * num_actions))
            .zip(values.par_chunks_mut(chunk))
            .zip(self.workers.par_iter_mut())
            .for_each(|(((states, policy), values), worker)| {
                worker.evaluate(mlp, states, policy, values)
            });
    }
}

impl<G: Game> Evaluator<G> for NetworkEvaluator<G> {
    fn evaluate(&mut self, states: &[G], policy: &mut [f32], values: &mut [f32]) {
        let Some(first) = states.first() else {
            return;
        };
        let config = self.net.config();
        assert!(
            config.fits(first),
            "the network ({:?} planes x {} x {}, {} actions) does not fit this game",
            config.planes,
            config.height,
            config.width,
            config.num_actions
        );
        if self.mlp.is_some() {
            self.evaluate_mlp(states, policy, values);
            return;
        }
        let len = config.observation_len();
        let num_actions = config.num_actions;
        self.observations.resize(states.len() * len, 0.0);
        self.logits.resize(states.len() * num_actions, 0.0);
        for (state, obs) in states.iter().zip(self.observations.chunks_exact_mut(len)) {
            state.write_observation(obs);
        }
        self.net.infer(
            &self.observations,
            &mut self.logits,
            &mut values[..states.len()],
        );
        for (i, state) in states.iter().enumerate() {
            let mover = &self.logits[i * num_actions..(i + 1) * num_actions];
            let absolute = &mut policy[i * num_actions..(i + 1) * num_actions];
            for (mover_action, &logit) in mover.iter().enumerate() {
                absolute[state.mover_action_to_absolute(mover_action)] = logit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use burn::module::Module;
    use burn::tensor::Device;
    use fanorona_env::{Color, Fanorona};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions of a seeded random game: white and black to move, at turn starts and in
    /// mid-chain.
    fn positions() -> Vec<Fanorona> {
        let mut rng = StdRng::seed_from_u64(1);
        let mut game = Fanorona::standard();
        let mut legal = Vec::new();
        let mut out = Vec::new();
        while !game.is_terminal() && out.len() < 60 {
            out.push(game.clone());
            game.legal_actions(&mut legal);
            game.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        }
        assert!(out.iter().any(|g| g.current_player() == Color::Black));
        assert!(out.iter().any(|g| !g.position().is_turn_start()));
        out
    }

    #[test]
    fn logits_of_legal_actions_and_values_are_the_networks_in_the_absolute_frame() {
        let states = positions();
        let architectures = [
            (Architecture::mlp(&[16]), ValueHead::Scalar),
            (Architecture::mlp(&[32, 16]), ValueHead::Scalar),
            (Architecture::mlp(&[32, 16]), ValueHead::Wdl),
            (Architecture::resnet(1, 8), ValueHead::Scalar),
            (Architecture::resnet(1, 8), ValueHead::Wdl),
        ];
        for (seed, (architecture, head)) in architectures.into_iter().enumerate() {
            let config = NetworkConfig::for_game(&states[0], architecture).with_value_head(head);
            let net = PolicyValueNet::init_seeded(&config, &Device::flex(), seed as u64)
                .unwrap()
                .valid();
            let mut evaluator = NetworkEvaluator::<Fanorona>::new(&net);
            let a = config.num_actions;
            let mut policy = vec![0.0; states.len() * a];
            let mut values = vec![0.0; states.len()];
            evaluator.evaluate(&states, &mut policy, &mut values);

            // The dense pass of burn, one position at a time, in the mover's frame.
            let mut obs = vec![0.0; config.observation_len()];
            let (mut raw, mut value) = (vec![0.0; a], [0.0]);
            let mut legal = Vec::new();
            for (i, state) in states.iter().enumerate() {
                state.write_observation(&mut obs);
                net.infer(&obs, &mut raw, &mut value);
                assert!((values[i] - value[0]).abs() < 1e-5, "{config:?}");
                state.legal_actions(&mut legal);
                for &action in &legal {
                    let expected = raw[state.to_mover_action(action)];
                    let got = policy[i * a + action];
                    assert!((got - expected).abs() < 1e-4, "{got} against {expected}");
                }
                if net.mlp_inference().is_some() {
                    let illegal = (0..a).filter(|x| !legal.contains(x));
                    assert!(
                        illegal
                            .into_iter()
                            .all(|x| policy[i * a + x] == f32::NEG_INFINITY)
                    );
                }
            }
        }
        // For black the mapping is not the identity.
        let black = states.iter().find(|g| g.current_player() == Color::Black);
        let black = black.unwrap();
        assert!((0..black.num_actions()).any(|x| black.to_mover_action(x) != x));
    }
}
