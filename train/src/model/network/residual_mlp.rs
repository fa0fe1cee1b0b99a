//! The residual MLP: the flattened planes projected to `width`, then residual blocks
//! `x + W2 relu(W1 layer_norm(x))` (pre-norm, as in transformers' feed-forward blocks), a final
//! layer norm and ReLU, and the two heads of [`super::Mlp`] (linear policy, linear value with
//! tanh). Layer norm keeps a deeper stack of dense layers trainable at the same cost per
//! position as a plain MLP of that width.

use burn::module::Module;
use burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

/// One pre-norm residual block.
#[derive(Module, Debug)]
pub struct DenseResidualBlock {
    norm: LayerNorm,
    expand: Linear,
    project: Linear,
}

impl DenseResidualBlock {
    fn new(width: usize, device: &Device) -> DenseResidualBlock {
        DenseResidualBlock {
            norm: LayerNormConfig::new(width).init(device),
            expand: LinearConfig::new(width, width).init(device),
            project: LinearConfig::new(width, width).init(device),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let update = self
            .project
            .forward(relu(self.expand.forward(self.norm.forward(x.clone()))));
        x + update
    }
}

/// The residual MLP with its two heads.
#[derive(Module, Debug)]
pub struct ResidualMlp {
    input: Linear,
    blocks: Vec<DenseResidualBlock>,
    norm: LayerNorm,
    policy_out: Linear,
    value_out: Linear,
}

impl ResidualMlp {
    /// A freshly initialised residual MLP from `inputs` floats to `num_actions` logits and
    /// `value_outputs` value outputs, `blocks` blocks of `width`.
    pub fn new(
        inputs: usize,
        width: usize,
        blocks: usize,
        num_actions: usize,
        value_outputs: usize,
        device: &Device,
    ) -> ResidualMlp {
        ResidualMlp {
            input: LinearConfig::new(inputs, width).init(device),
            blocks: (0..blocks)
                .map(|_| DenseResidualBlock::new(width, device))
                .collect(),
            norm: LayerNormConfig::new(width).init(device),
            policy_out: LinearConfig::new(width, num_actions).init(device),
            value_out: LinearConfig::new(width, value_outputs).init(device),
        }
    }

    /// Policy logits `[batch, actions]` and the value head's raw outputs `[batch, outputs]` for observations
    /// `[batch, planes, height, width]`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = self.input.forward(input.flatten::<2>(1, 3));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let x = relu(self.norm.forward(x));
        (
            self.policy_out.forward(x.clone()),
            self.value_out.forward(x),
        )
    }
}
