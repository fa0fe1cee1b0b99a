//! [`NetworkEvaluator`]: the [`Evaluator`] search uses with a trained network. It writes the
//! states' observations into a reused buffer, runs the network once per batch, and maps the
//! mover-frame logits back to absolute actions.

use fanorona_env::Game;
use fanorona_search::Evaluator;

use crate::model::PolicyValueNet;

/// Evaluates batches of states with a policy/value network (an inference copy, without
/// autodiff).
pub struct NetworkEvaluator<G: Game> {
    net: PolicyValueNet,
    observations: Vec<f32>,
    logits: Vec<f32>,
    _game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Game> NetworkEvaluator<G> {
    /// An evaluator around `net` (taken as its inference copy).
    pub fn new(net: &PolicyValueNet) -> NetworkEvaluator<G> {
        use burn::module::Module;
        NetworkEvaluator {
            net: net.valid(),
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
    use crate::model::{Architecture, NetworkConfig};
    use burn::tensor::Device;
    use fanorona_env::Fanorona;

    #[test]
    fn logits_are_mapped_from_the_mover_frame_to_absolute_actions() {
        let mut game = Fanorona::standard();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        game.apply(legal[0]).unwrap();
        while game.current_player() == fanorona_env::Color::White {
            game.legal_actions(&mut legal);
            game.apply(legal[0]).unwrap();
        }
        // Black to move: its frame is the board turned round.
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[16]));
        let net = config.init(&Device::flex()).unwrap();
        let mut evaluator = NetworkEvaluator::<Fanorona>::new(&net);
        let a = config.num_actions;
        let mut policy = vec![0.0; 2 * a];
        let mut values = vec![0.0; 2];
        let states = [game.clone(), Fanorona::standard()];
        evaluator.evaluate(&states, &mut policy, &mut values);

        let mut obs = vec![0.0; config.observation_len()];
        let mut raw = vec![0.0; a];
        let mut value = [0.0];
        for (i, state) in states.iter().enumerate() {
            state.write_observation(&mut obs);
            evaluator.network().infer(&obs, &mut raw, &mut value);
            assert!((values[i] - value[0]).abs() < 1e-5);
            for action in 0..a {
                let expected = raw[state.to_mover_action(action)];
                assert!((policy[i * a + action] - expected).abs() < 1e-4);
            }
        }
        // For black the mapping is not the identity.
        assert!((0..a).any(|x| states[0].to_mover_action(x) != x));
    }
}
