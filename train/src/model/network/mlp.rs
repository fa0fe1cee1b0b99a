//! The multi-layer perceptron: the flattened planes through hidden layers with ReLU, then a
//! linear policy head and a linear value head (one output squashed by tanh, or three
//! win/draw/loss logits). Much cheaper than a CNN on a CPU.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

/// The MLP with its two heads.
#[derive(Module, Debug)]
pub struct Mlp {
    pub(super) hidden: Vec<Linear>,
    pub(super) policy_out: Linear,
    pub(super) value_out: Linear,
}

impl Mlp {
    /// A freshly initialised MLP from `inputs` floats to `num_actions` logits and
    /// `value_outputs` value outputs.
    pub fn new(
        inputs: usize,
        hidden: &[usize],
        num_actions: usize,
        value_outputs: usize,
        device: &Device,
    ) -> Mlp {
        let mut width = inputs;
        let layers = hidden
            .iter()
            .map(|&h| {
                let layer = LinearConfig::new(width, h).init(device);
                width = h;
                layer
            })
            .collect();
        Mlp {
            hidden: layers,
            policy_out: LinearConfig::new(width, num_actions).init(device),
            value_out: LinearConfig::new(width, value_outputs).init(device),
        }
    }

    /// Replaces this MLP's first layer with a copy of `other`'s if the two have the same
    /// shape (inputs and width); whether it did.
    pub(super) fn adopt_first_layer(&mut self, other: &Mlp) -> bool {
        let shape = |mlp: &Mlp| mlp.hidden.first().map(|l| l.weight.val().dims());
        if shape(self).is_none() || shape(self) != shape(other) {
            return false;
        }
        self.hidden[0] = other.hidden[0].clone();
        true
    }

    /// Policy logits `[batch, actions]` and the value head's raw outputs `[batch, outputs]` for observations
    /// `[batch, planes, height, width]`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = input.flatten::<2>(1, 3);
        for layer in &self.hidden {
            x = relu(layer.forward(x));
        }
        (
            self.policy_out.forward(x.clone()),
            self.value_out.forward(x),
        )
    }
}
