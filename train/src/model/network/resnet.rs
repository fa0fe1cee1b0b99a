//! The residual CNN: a 3x3 convolutional stem, residual blocks of two 3x3 convolutions with
//! batch norm, and separate policy and value heads (AlphaZero's layout, scaled down).

use burn::module::{Module, ParamId, RunningState};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

/// A convolution without bias followed by batch norm.
#[derive(Module, Debug)]
pub struct ConvBn {
    conv: Conv2d,
    norm: BatchNorm,
}

impl ConvBn {
    fn new(inputs: usize, outputs: usize, kernel: usize, device: &Device) -> ConvBn {
        ConvBn {
            conv: Conv2dConfig::new([inputs, outputs], [kernel, kernel])
                .with_padding(PaddingConfig2d::Same)
                .with_bias(false)
                .init(device),
            norm: BatchNormConfig::new(outputs).init(device),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.norm.forward(self.conv.forward(x))
    }

    /// The same layer with its batch norm's running statistics under ids from `next_id`.
    fn with_running_state_ids(mut self, next_id: &mut impl FnMut() -> ParamId) -> ConvBn {
        let norm = &mut self.norm;
        norm.running_mean = RunningState::with_id(next_id(), norm.running_mean.value());
        norm.running_var = RunningState::with_id(next_id(), norm.running_var.value());
        self
    }
}

/// One residual block: `relu(x + bn(conv(relu(bn(conv(x))))))`.
#[derive(Module, Debug)]
pub struct ConvResidualBlock {
    first: ConvBn,
    second: ConvBn,
}

impl ConvResidualBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.first.forward(x.clone()));
        relu(self.second.forward(y) + x)
    }
}

/// The residual network with its two heads.
#[derive(Module, Debug)]
pub struct ResNet {
    stem: ConvBn,
    blocks: Vec<ConvResidualBlock>,
    policy_conv: ConvBn,
    policy_out: Linear,
    value_conv: ConvBn,
    value_hidden: Linear,
    value_out: Linear,
}

/// The sizes a [`ResNet`] is built from.
pub struct ResNetShape {
    /// Input planes.
    pub planes: usize,
    /// Cells per plane (height * width).
    pub cells: usize,
    /// Outputs of the policy head.
    pub num_actions: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Trunk channels.
    pub channels: usize,
    /// Policy head channels.
    pub policy_channels: usize,
    /// Value head channels.
    pub value_channels: usize,
    /// Value head hidden width.
    pub value_hidden: usize,
    /// Outputs of the value head (1 for a scalar, 3 for win/draw/loss).
    pub value_outputs: usize,
}

impl ResNet {
    /// A freshly initialised network.
    pub fn new(shape: &ResNetShape, device: &Device) -> ResNet {
        let c = shape.channels;
        ResNet {
            stem: ConvBn::new(shape.planes, c, 3, device),
            blocks: (0..shape.blocks)
                .map(|_| ConvResidualBlock {
                    first: ConvBn::new(c, c, 3, device),
                    second: ConvBn::new(c, c, 3, device),
                })
                .collect(),
            policy_conv: ConvBn::new(c, shape.policy_channels, 1, device),
            policy_out: LinearConfig::new(shape.policy_channels * shape.cells, shape.num_actions)
                .init(device),
            value_conv: ConvBn::new(c, shape.value_channels, 1, device),
            value_hidden: LinearConfig::new(shape.value_channels * shape.cells, shape.value_hidden)
                .init(device),
            value_out: LinearConfig::new(shape.value_hidden, shape.value_outputs).init(device),
        }
    }

    /// The same network with the running statistics of its batch norms under ids from
    /// `next_id`, in the order of the layers (running statistics are buffers, which
    /// [`Module::map`] cannot renumber).
    pub fn with_running_state_ids(mut self, next_id: &mut impl FnMut() -> ParamId) -> ResNet {
        self.stem = self.stem.with_running_state_ids(next_id);
        self.blocks = self
            .blocks
            .into_iter()
            .map(|block| ConvResidualBlock {
                first: block.first.with_running_state_ids(next_id),
                second: block.second.with_running_state_ids(next_id),
            })
            .collect();
        self.policy_conv = self.policy_conv.with_running_state_ids(next_id);
        self.value_conv = self.value_conv.with_running_state_ids(next_id);
        self
    }

    /// Policy logits `[batch, actions]` and the value head's raw outputs `[batch, outputs]`
    /// for observations `[batch, planes, height, width]`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = relu(self.stem.forward(input));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let policy = relu(self.policy_conv.forward(x.clone())).flatten::<2>(1, 3);
        let policy = self.policy_out.forward(policy);
        let value = relu(self.value_conv.forward(x)).flatten::<2>(1, 3);
        let value = relu(self.value_hidden.forward(value));
        let value = self.value_out.forward(value);
        (policy, value)
    }
}
