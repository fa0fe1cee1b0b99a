//! The policy/value network (burn): observation planes in, policy logits over the mover-frame
//! action space and a value in `[-1, 1]` for the player to act out: a scalar head's tanh, or a
//! win/draw/loss head's `P(win) - P(loss)` ([`ValueHead`]). Three architectures behind one
//! serialisable [`NetworkConfig`]: a residual CNN, an MLP and a residual MLP with layer norm.

mod denormals;
mod mlp;
mod mlp_inference;
mod mlp_value;
mod quantized_first_layer;
mod quantized_layer;
mod residual_mlp;
mod resnet;
mod rows;
mod seeded;
mod simd;
mod value_out;

pub use denormals::{count_denormals, flush_denormals};
pub use mlp::Mlp;
pub use mlp_inference::{MlpInference, MlpScratch};
#[cfg(test)]
pub(crate) use mlp_value::tests as mlp_value_tests;
pub use mlp_value::{MlpValue, MlpValueScratch};
pub use residual_mlp::ResidualMlp;
pub use resnet::{ResNet, ResNetShape};

use burn::module::Module;
use burn::tensor::activation::{softmax, tanh};
use burn::tensor::{Device, Tensor, TensorData};
use fanorona_env::Wdl;

use crate::config::{Architecture, NetworkConfig, NetworkConfigError, ValueHead};

/// The trunk and heads of one architecture.
// One value per network, never moved in a hot loop; burn modules cannot be boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Module, Debug)]
pub enum Body {
    /// The residual CNN.
    ResNet(ResNet),
    /// The MLP.
    Mlp(Mlp),
    /// The residual MLP.
    ResidualMlp(ResidualMlp),
}

/// A policy/value network together with the configuration it was built from.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    body: Body,
    #[module(skip)]
    config: NetworkConfig,
}

impl PolicyValueNet {
    /// Builds a freshly initialised network of `config` on `device` (use an autodiff device to
    /// train it). Its weights are drawn lazily from burn's process-wide generator, its parameter
    /// ids are random: for a network to load a record into, or where any start will do.
    pub fn init(
        config: &NetworkConfig,
        device: &Device,
    ) -> Result<PolicyValueNet, NetworkConfigError> {
        config.validate()?;
        Ok(PolicyValueNet::build(config, device))
    }

    /// Builds a network like [`PolicyValueNet::init`] whose weights and parameter ids depend on
    /// `seed` alone: the same seed gives the same bytes in a checkpoint. `device` must be a
    /// plain one, not an autodiff one (burn cannot track the re-drawn weights there; it
    /// panics): [`crate::model::Trainer::new`] moves the network to its autodiff device.
    pub fn init_seeded(
        config: &NetworkConfig,
        device: &Device,
        seed: u64,
    ) -> Result<PolicyValueNet, NetworkConfigError> {
        Ok(seeded::seeded(
            PolicyValueNet::init(config, device)?,
            device,
            seed,
        ))
    }

    /// A freshly initialised network (the configuration must be valid).
    fn build(config: &NetworkConfig, device: &Device) -> PolicyValueNet {
        let value_outputs = config.value_head.outputs();
        let body = match &config.architecture {
            Architecture::ResNet {
                blocks,
                channels,
                policy_channels,
                value_channels,
                value_hidden,
            } => Body::ResNet(ResNet::new(
                &ResNetShape {
                    planes: config.planes,
                    cells: config.height * config.width,
                    num_actions: config.num_actions,
                    blocks: *blocks,
                    channels: *channels,
                    policy_channels: *policy_channels,
                    value_channels: *value_channels,
                    value_hidden: *value_hidden,
                    value_outputs,
                },
                device,
            )),
            Architecture::Mlp { hidden } => Body::Mlp(Mlp::new(
                config.observation_len(),
                hidden,
                config.num_actions,
                value_outputs,
                device,
            )),
            Architecture::ResidualMlp { width, blocks } => Body::ResidualMlp(ResidualMlp::new(
                config.observation_len(),
                *width,
                *blocks,
                config.num_actions,
                value_outputs,
                device,
            )),
        };
        PolicyValueNet {
            body,
            config: config.clone(),
        }
    }

    /// The configuration the network was built from.
    pub fn config(&self) -> &NetworkConfig {
        &self.config
    }

    /// Policy logits `[batch, actions]` and values `[batch]` in `[-1, 1]` for observations
    /// `[batch, planes, height, width]`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<1>) {
        let (policy, raw) = self.forward_raw(input);
        (policy, self.value_of_raw(raw))
    }

    /// Policy logits `[batch, actions]` and the value head's raw outputs `[batch, 1 or 3]`
    /// (before a scalar head's tanh or a win/draw/loss head's softmax), which the trainer's
    /// losses take.
    pub fn forward_raw(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        match &self.body {
            Body::ResNet(net) => net.forward(input),
            Body::Mlp(net) => net.forward(input),
            Body::ResidualMlp(net) => net.forward(input),
        }
    }

    /// The values `[batch]` in `[-1, 1]` of the value head's raw outputs `[batch, 1 or 3]`:
    /// the tanh of a scalar head, `P(win) - P(loss)` of a win/draw/loss head.
    pub fn value_of_raw(&self, raw: Tensor<2>) -> Tensor<1> {
        match self.config.value_head {
            ValueHead::Scalar => tanh(raw).flatten::<1>(0, 1),
            ValueHead::Wdl => {
                let p = softmax(raw, 1);
                (p.clone().narrow(1, 0, 1) - p.narrow(1, 2, 1)).flatten::<1>(0, 1)
            }
        }
    }

    /// The one-position inference form of an MLP ([`MlpInference`]); `None` for the other
    /// architectures.
    pub fn mlp_inference(&self) -> Option<MlpInference> {
        match &self.body {
            Body::Mlp(mlp) => Some(MlpInference::new(
                mlp,
                self.config.value_head,
                self.config.planes,
                self.config.height * self.config.width,
            )),
            Body::ResNet(_) | Body::ResidualMlp(_) => None,
        }
    }

    /// Replaces this network's first layer with a copy of `other`'s where both are MLPs whose
    /// first layers have the same shape (a student starting from its teacher's features);
    /// whether it did.
    pub fn adopt_first_layer(&mut self, other: &PolicyValueNet) -> bool {
        match (&mut self.body, &other.body) {
            (Body::Mlp(mine), Body::Mlp(theirs)) => mine.adopt_first_layer(theirs),
            _ => false,
        }
    }

    /// The input tensor for a batch of observations laid out one after another.
    pub fn input_tensor(&self, observations: &[f32], device: &Device) -> Tensor<4> {
        let c = &self.config;
        let len = c.observation_len();
        assert!(
            !observations.is_empty() && observations.len().is_multiple_of(len),
            "observation batch of {} floats is not a positive multiple of {len}",
            observations.len()
        );
        let shape = [observations.len() / len, c.planes, c.height, c.width];
        Tensor::from_data(TensorData::new(observations.to_vec(), shape), device)
    }

    /// Batched inference: for `n = observations.len() / observation_len` observations, writes
    /// `n * num_actions` policy logits (mover frame) into `policy` and `n` values into `values`.
    /// Call it on an inference copy ([`Module::valid`]) of a trained network.
    pub fn infer(&self, observations: &[f32], policy: &mut [f32], values: &mut [f32]) {
        let raw = self.infer_raw(observations, policy);
        for (i, v) in values
            .iter_mut()
            .enumerate()
            .take(raw.len() / self.outputs())
        {
            *v = self.wdl_of_raw(&raw, i).value();
        }
    }

    /// [`PolicyValueNet::infer`] with the value as win/draw/loss probabilities, one [`Wdl`]
    /// per observation: a win/draw/loss head's own, a scalar head's value `v` read as
    /// [`Wdl::from_value`].
    pub fn infer_wdl(&self, observations: &[f32], policy: &mut [f32], wdl: &mut [Wdl]) {
        let raw = self.infer_raw(observations, policy);
        for (i, w) in wdl.iter_mut().enumerate().take(raw.len() / self.outputs()) {
            *w = self.wdl_of_raw(&raw, i);
        }
    }

    /// Outputs of the value head per position.
    fn outputs(&self) -> usize {
        self.config.value_head.outputs()
    }

    /// The win/draw/loss probabilities of position `i` of the value head's raw outputs
    /// (a scalar head's `tanh` read as [`Wdl::from_value`], whose expectation is that value
    /// exactly).
    fn wdl_of_raw(&self, raw: &[f32], i: usize) -> Wdl {
        match self.config.value_head {
            ValueHead::Scalar => Wdl::from_value(raw[i].tanh()),
            ValueHead::Wdl => Wdl::from_logits([raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]]),
        }
    }

    /// Writes the policy logits of `observations` into `policy` and returns the value head's
    /// raw outputs, position after position.
    fn infer_raw(&self, observations: &[f32], policy: &mut [f32]) -> Vec<f32> {
        let device = self
            .devices()
            .into_iter()
            .next()
            .expect("a network has parameters");
        let input = self.input_tensor(observations, &device);
        let n = input.dims()[0];
        let (logits, raw) = self.forward_raw(input);
        let logits = logits.into_data();
        let logits = logits.as_slice::<f32>().expect("f32 logits");
        policy[..n * self.config.num_actions].copy_from_slice(logits);
        raw.into_data().try_into_vec::<f32>().expect("f32 values")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::{Fanorona, Game};

    fn check_shapes(arch: Architecture, head: ValueHead) {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, arch).with_value_head(head);
        let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 1).unwrap();
        let len = config.observation_len();
        let mut obs = vec![0.0; 3 * len];
        game.write_observation(&mut obs[..len]);
        let mut policy = vec![0.0; 3 * config.num_actions];
        let mut values = vec![2.0; 3];
        net.valid().infer(&obs, &mut policy, &mut values);
        assert!(
            values.iter().all(|v| (-1.0..=1.0).contains(v)),
            "{values:?}"
        );
        assert!(policy.iter().all(|p| p.is_finite()));
        // Different inputs give different outputs; equal inputs equal outputs.
        assert_ne!(
            policy[..config.num_actions],
            policy[config.num_actions..2 * config.num_actions]
        );
        assert_eq!(
            policy[config.num_actions..2 * config.num_actions],
            policy[2 * config.num_actions..]
        );
    }

    #[test]
    fn resnet_outputs_have_the_right_shape_and_range() {
        check_shapes(Architecture::resnet(1, 8), ValueHead::Scalar);
    }

    #[test]
    fn mlp_outputs_have_the_right_shape_and_range() {
        check_shapes(Architecture::mlp(&[32, 16]), ValueHead::Scalar);
    }

    #[test]
    fn an_mlp_adopts_a_first_layer_of_the_same_shape_only() {
        let game = Fanorona::standard();
        let device = Device::flex();
        let net = |arch, seed| {
            PolicyValueNet::init_seeded(&NetworkConfig::for_game(&game, arch), &device, seed)
                .unwrap()
        };
        let teacher = net(Architecture::mlp(&[16, 16]), 1);
        let first_rows = |net: &PolicyValueNet| net.mlp_inference().unwrap().first.rows;
        let mut student = net(Architecture::mlp(&[16, 4]), 2);
        assert_ne!(first_rows(&student), first_rows(&teacher));
        assert!(student.adopt_first_layer(&teacher));
        assert_eq!(first_rows(&student), first_rows(&teacher));
        let mut wider = net(Architecture::mlp(&[8, 4]), 2);
        let before = first_rows(&wider);
        assert!(!wider.adopt_first_layer(&teacher));
        assert_eq!(first_rows(&wider), before);
        let mut resnet = net(Architecture::resnet(1, 8), 2);
        assert!(!resnet.adopt_first_layer(&teacher));
    }

    #[test]
    fn a_win_draw_loss_head_gives_probabilities_whose_expectation_is_the_value() {
        let game = Fanorona::standard();
        for arch in [
            Architecture::mlp(&[32, 16]),
            Architecture::residual_mlp(32, 1),
            Architecture::resnet(1, 8),
        ] {
            check_shapes(arch.clone(), ValueHead::Wdl);
            let config = NetworkConfig::for_game(&game, arch).with_value_head(ValueHead::Wdl);
            let net = PolicyValueNet::init_seeded(&config, &Device::flex(), 2)
                .unwrap()
                .valid();
            let len = config.observation_len();
            let mut obs = vec![0.0; len];
            game.write_observation(&mut obs);
            let mut policy = vec![0.0; config.num_actions];
            let (mut values, mut wdl) = ([0.0], [Wdl::default()]);
            net.infer(&obs, &mut policy, &mut values);
            net.infer_wdl(&obs, &mut policy, &mut wdl);
            let sum: f32 = wdl[0].as_array().iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "{wdl:?}");
            assert!(wdl[0].as_array().iter().all(|&p| p > 0.0 && p < 1.0));
            assert!((wdl[0].value() - values[0]).abs() < 1e-6);
            // The one-position MLP form agrees with the dense pass.
            if let Some(mlp) = net.mlp_inference() {
                let v = mlp.evaluate(&mut MlpScratch::default(), &obs, &[], &mut []);
                assert!((v - values[0]).abs() < 1e-5, "{v} against {}", values[0]);
            }
        }
    }

    #[test]
    fn residual_mlp_outputs_have_the_right_shape_and_range() {
        check_shapes(Architecture::residual_mlp(32, 2), ValueHead::Scalar);
    }
}
