//! The network's configuration: the input and output sizes of a game and the architecture,
//! serialisable (serde: TOML in run configs, JSON in checkpoints and exported files), so a saved
//! network can be rebuilt exactly and a file for another board or architecture refused. The
//! network itself is built from it in the model layer (`PolicyValueNet::init`).

use fanorona_env::Game;
use serde::{Deserialize, Serialize};

/// A network configuration that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid network configuration: {0}")]
pub struct NetworkConfigError(pub String);

/// The widest layer (units or channels) a network may have.
pub const MAX_WIDTH: usize = 16_384;
/// The most hidden layers or residual blocks a network may have.
pub const MAX_LAYERS: usize = 256;
/// The most parameters a network may have (about 1 GB of training state with Adam).
pub const MAX_PARAMETERS: u64 = 64_000_000;

/// The trunk of the network and its sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Architecture {
    /// A residual CNN: a 3x3 stem, `blocks` residual blocks of two 3x3 convolutions with batch
    /// norm, a policy head (1x1 convolution, then linear) and a value head (1x1 convolution,
    /// linear, ReLU, linear, tanh).
    ResNet {
        /// Residual blocks.
        blocks: usize,
        /// Channels of the trunk.
        channels: usize,
        /// Channels of the policy head's 1x1 convolution.
        #[serde(default = "default_policy_channels")]
        policy_channels: usize,
        /// Channels of the value head's 1x1 convolution.
        #[serde(default = "default_value_channels")]
        value_channels: usize,
        /// Width of the value head's hidden layer.
        #[serde(default = "default_value_hidden")]
        value_hidden: usize,
    },
    /// A multi-layer perceptron over the flattened planes: hidden layers with ReLU, then a
    /// linear policy head and a linear value head with tanh.
    Mlp {
        /// Widths of the hidden layers (at least one).
        hidden: Vec<usize>,
    },
    /// A residual MLP (`kind = "resmlp"`): a linear projection to `width`, `blocks` pre-norm
    /// residual blocks (layer norm, linear, ReLU, linear, added to the input), a final layer
    /// norm and ReLU, then the MLP's heads.
    #[serde(rename = "resmlp")]
    ResidualMlp {
        /// Width of the trunk.
        width: usize,
        /// Residual blocks (0: one projection and the heads).
        blocks: usize,
    },
}

fn default_policy_channels() -> usize {
    4
}

fn default_value_channels() -> usize {
    2
}

fn default_value_hidden() -> usize {
    64
}

impl Architecture {
    /// A residual CNN with default head sizes.
    pub fn resnet(blocks: usize, channels: usize) -> Architecture {
        Architecture::ResNet {
            blocks,
            channels,
            policy_channels: default_policy_channels(),
            value_channels: default_value_channels(),
            value_hidden: default_value_hidden(),
        }
    }

    /// An MLP with the given hidden widths.
    pub fn mlp(hidden: &[usize]) -> Architecture {
        Architecture::Mlp {
            hidden: hidden.to_vec(),
        }
    }

    /// A residual MLP of `blocks` blocks of `width`.
    pub fn residual_mlp(width: usize, blocks: usize) -> Architecture {
        Architecture::ResidualMlp { width, blocks }
    }

    /// A short description, e.g. `resnet 4x32`, `mlp 512-256` or `resmlp 2x256`.
    pub fn describe(&self) -> String {
        match self {
            Architecture::ResNet {
                blocks, channels, ..
            } => format!("resnet {blocks}x{channels}"),
            Architecture::Mlp { hidden } => {
                let widths: Vec<String> = hidden.iter().map(|h| h.to_string()).collect();
                format!("mlp {}", widths.join("-"))
            }
            Architecture::ResidualMlp { width, blocks } => format!("resmlp {blocks}x{width}"),
        }
    }
}

impl std::str::FromStr for Architecture {
    type Err = NetworkConfigError;

    /// `mlp:256-256`, `resnet:4x32` (blocks x channels) or `resmlp:2x256` (blocks x width); a
    /// space may stand for the colon, so [`Architecture::describe`]'s text reads back.
    fn from_str(text: &str) -> Result<Architecture, NetworkConfigError> {
        let bad = || {
            NetworkConfigError(format!(
                "bad network {text:?}: expected mlp:W-W-..., resnet:BLOCKSxCHANNELS or \
                 resmlp:BLOCKSxWIDTH (e.g. mlp:256-256, resnet:4x32)"
            ))
        };
        let (kind, sizes) = text.split_once([':', ' ']).ok_or_else(bad)?;
        let numbers = |separator: char| -> Result<Vec<usize>, NetworkConfigError> {
            sizes
                .split(separator)
                .map(|n| n.trim().parse::<usize>().map_err(|_| bad()))
                .collect()
        };
        match (kind, numbers('x')) {
            ("mlp", _) => Ok(Architecture::mlp(&numbers('-')?)),
            ("resnet", Ok(n)) if n.len() == 2 => Ok(Architecture::resnet(n[0], n[1])),
            ("resmlp", Ok(n)) if n.len() == 2 => Ok(Architecture::residual_mlp(n[1], n[0])),
            _ => Err(bad()),
        }
    }
}

/// What a network's value head predicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueHead {
    /// One number in `[-1, 1]` (a tanh), trained by squared error: every network before
    /// 2026-12-07, and files that name no value head.
    #[default]
    Scalar,
    /// The probabilities of a win, a draw and a loss (a softmax of three logits), trained by
    /// cross-entropy; search uses `P(win) - P(loss)`.
    Wdl,
}

impl ValueHead {
    /// The head's outputs: 1 or 3.
    pub fn outputs(self) -> usize {
        match self {
            ValueHead::Scalar => 1,
            ValueHead::Wdl => 3,
        }
    }

    /// Whether this is the scalar head (the default, left out of serialised configurations).
    pub fn is_scalar(&self) -> bool {
        *self == ValueHead::Scalar
    }
}

/// A run configuration's `[network]` section: the architecture's keys (`kind = "mlp"`,
/// `hidden = [..]`, ...) and, optionally, `value = "wdl"` (the value head; scalar when left
/// out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetworkSection {
    /// The architecture.
    #[serde(flatten)]
    pub architecture: Architecture,
    /// The value head.
    #[serde(
        rename = "value",
        default,
        skip_serializing_if = "ValueHead::is_scalar"
    )]
    pub value_head: ValueHead,
}

impl NetworkSection {
    /// The network configuration for `game`'s observation and action space.
    pub fn config_for<G: Game>(&self, game: &G) -> NetworkConfig {
        NetworkConfig::for_game(game, self.architecture.clone()).with_value_head(self.value_head)
    }

    /// A short description: the architecture's (`mlp 256-256`), with `, wdl` for a
    /// win/draw/loss value head.
    pub fn describe(&self) -> String {
        match self.value_head {
            ValueHead::Scalar => self.architecture.describe(),
            ValueHead::Wdl => format!("{}, wdl", self.architecture.describe()),
        }
    }
}

/// Everything needed to build a network: input planes and board size, the action space, the
/// architecture and the value head.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// Observation planes.
    pub planes: usize,
    /// Board height (rows).
    pub height: usize,
    /// Board width (columns).
    pub width: usize,
    /// Size of the (mover-frame) action space.
    pub num_actions: usize,
    /// The architecture.
    pub architecture: Architecture,
    /// What the value head predicts (left out of files for the scalar head, so that files
    /// written before it existed read as scalar).
    #[serde(default, skip_serializing_if = "ValueHead::is_scalar")]
    pub value_head: ValueHead,
}

impl NetworkConfig {
    /// The configuration for `game`'s observation and action space.
    pub fn for_game<G: Game>(game: &G, architecture: Architecture) -> NetworkConfig {
        let [planes, height, width] = game.observation_shape();
        NetworkConfig {
            planes,
            height,
            width,
            num_actions: game.num_actions(),
            architecture,
            value_head: ValueHead::Scalar,
        }
    }

    /// This configuration with the value head `value_head`.
    pub fn with_value_head(self, value_head: ValueHead) -> NetworkConfig {
        NetworkConfig { value_head, ..self }
    }

    /// Floats in one observation (`planes * height * width`).
    pub fn observation_len(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Whether the network fits `game`'s observation and action space.
    pub fn fits<G: Game>(&self, game: &G) -> bool {
        game.observation_shape() == [self.planes, self.height, self.width]
            && game.num_actions() == self.num_actions
    }

    /// Checks that every size is positive.
    pub fn validate(&self) -> Result<(), NetworkConfigError> {
        let err = |what: &str| Err(NetworkConfigError(what.to_string()));
        if self.planes == 0 || self.height == 0 || self.width == 0 {
            return err("planes, height and width must be positive");
        }
        if self.num_actions == 0 {
            return err("the action space must not be empty");
        }
        let (widths, layers) = match &self.architecture {
            Architecture::ResNet {
                blocks,
                channels,
                policy_channels,
                value_channels,
                value_hidden,
            } => {
                let widths = [*channels, *policy_channels, *value_channels, *value_hidden];
                if widths.contains(&0) {
                    return err("resnet channels and head sizes must be positive");
                }
                (widths.to_vec(), *blocks)
            }
            Architecture::Mlp { hidden } => {
                if hidden.is_empty() || hidden.contains(&0) {
                    return err("an mlp needs at least one hidden layer, each of positive width");
                }
                (hidden.clone(), hidden.len())
            }
            Architecture::ResidualMlp { width, blocks } => {
                if *width == 0 {
                    return err("a residual mlp's width must be positive");
                }
                (vec![*width], *blocks)
            }
        };
        if let Some(width) = widths.iter().find(|&&w| w > MAX_WIDTH) {
            return Err(NetworkConfigError(format!(
                "a width or channel count of {width} is above the limit of {MAX_WIDTH}"
            )));
        }
        if layers > MAX_LAYERS {
            return Err(NetworkConfigError(format!(
                "{layers} layers or blocks are above the limit of {MAX_LAYERS}"
            )));
        }
        let parameters = self.parameters();
        if parameters > MAX_PARAMETERS {
            return Err(NetworkConfigError(format!(
                "about {parameters} parameters are above the limit of {MAX_PARAMETERS} \
                 (a smaller architecture is needed)"
            )));
        }
        Ok(())
    }

    /// The number of weights and biases (normalisation layers' few parameters left out),
    /// saturating at `u64::MAX`.
    pub fn parameters(&self) -> u64 {
        let n = |x: usize| x as u64;
        let dense =
            |inputs: u64, outputs: u64| inputs.saturating_mul(outputs).saturating_add(outputs);
        let cells = n(self.height).saturating_mul(n(self.width));
        let inputs = n(self.planes).saturating_mul(cells);
        let actions = n(self.num_actions);
        let values = n(self.value_head.outputs());
        let heads = |last: u64| dense(last, actions).saturating_add(dense(last, values));
        match &self.architecture {
            Architecture::ResNet {
                blocks,
                channels,
                policy_channels,
                value_channels,
                value_hidden,
            } => {
                let c = n(*channels);
                let conv3 = |from: u64| dense(from.saturating_mul(9), c);
                let trunk = conv3(n(self.planes))
                    .saturating_add(conv3(c).saturating_mul(2).saturating_mul(n(*blocks)));
                let (p, v, h) = (n(*policy_channels), n(*value_channels), n(*value_hidden));
                trunk
                    .saturating_add(dense(c, p))
                    .saturating_add(dense(p.saturating_mul(cells), actions))
                    .saturating_add(dense(c, v))
                    .saturating_add(dense(v.saturating_mul(cells), h))
                    .saturating_add(dense(h, values))
            }
            Architecture::Mlp { hidden } => {
                let (mut total, mut last) = (0u64, inputs);
                for &width in hidden {
                    total = total.saturating_add(dense(last, n(width)));
                    last = n(width);
                }
                total.saturating_add(heads(last))
            }
            Architecture::ResidualMlp { width, blocks } => {
                let w = n(*width);
                let block = dense(w, w).saturating_mul(2);
                dense(inputs, w)
                    .saturating_add(block.saturating_mul(n(*blocks)))
                    .saturating_add(heads(w))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Fanorona;

    #[test]
    fn architectures_read_from_their_short_text_and_back() {
        for architecture in [
            Architecture::mlp(&[256, 128, 64]),
            Architecture::resnet(4, 32),
            Architecture::residual_mlp(256, 2),
        ] {
            let text = architecture.describe();
            assert_eq!(
                text.parse::<Architecture>().unwrap(),
                architecture,
                "{text}"
            );
            let colon = text.replacen(' ', ":", 1);
            assert_eq!(colon.parse::<Architecture>().unwrap(), architecture);
        }
        for bad in [
            "mlp",
            "mlp:",
            "mlp:256-x",
            "resnet:4",
            "resnet:4x32x1",
            "cnn:4x32",
            "",
        ] {
            let error = bad.parse::<Architecture>().unwrap_err().to_string();
            assert!(
                error.contains("resnet:BLOCKSxCHANNELS or resmlp:BLOCKSxWIDTH"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn config_round_trips_through_toml_and_json_and_fits_its_game() {
        let game = Fanorona::standard();
        for arch in [
            Architecture::resnet(4, 32),
            Architecture::mlp(&[256, 128]),
            Architecture::residual_mlp(128, 2),
        ] {
            let config = NetworkConfig::for_game(&game, arch);
            assert!(config.fits(&game));
            assert_eq!(config.observation_len(), 18 * 45);
            let toml_text = toml::to_string(&config).unwrap();
            assert_eq!(toml::from_str::<NetworkConfig>(&toml_text).unwrap(), config);
            let json = serde_json::to_string(&config).unwrap();
            assert_eq!(
                serde_json::from_str::<NetworkConfig>(&json).unwrap(),
                config
            );
        }
    }

    #[test]
    fn oversized_networks_are_refused_before_anything_is_allocated() {
        let game = Fanorona::standard();
        let config = |arch| NetworkConfig::for_game(&game, arch);
        let huge = config(Architecture::mlp(&[100_000_000])).validate();
        assert!(
            huge.unwrap_err()
                .to_string()
                .contains("above the limit of 16384")
        );
        let deep = config(Architecture::residual_mlp(64, 100_000)).validate();
        assert!(
            deep.unwrap_err()
                .to_string()
                .contains("above the limit of 256")
        );
        let many = config(Architecture::mlp(&[16_000; 8])).validate();
        assert!(
            many.unwrap_err()
                .to_string()
                .contains("parameters are above")
        );
        assert!(config(Architecture::mlp(&[256, 256])).validate().is_ok());
        assert!(config(Architecture::resnet(10, 128)).validate().is_ok());
        // 810 inputs, two layers of 256, the policy head and the value head.
        let mlp = config(Architecture::mlp(&[256, 256]));
        let actions = game.num_actions() as u64;
        let expected = 810 * 256 + 256 + 256 * 256 + 256 + 256 * actions + actions + 257;
        assert_eq!(mlp.parameters(), expected);
    }

    #[test]
    fn the_value_head_reads_as_scalar_when_left_out_and_round_trips() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[8]));
        let json = serde_json::to_string(&config).unwrap();
        assert!(!json.contains("value_head"), "{json}");
        let wdl = config.clone().with_value_head(ValueHead::Wdl);
        let json = serde_json::to_string(&wdl).unwrap();
        assert!(json.contains("\"value_head\":\"wdl\""), "{json}");
        assert_eq!(serde_json::from_str::<NetworkConfig>(&json).unwrap(), wdl);
        // Three value outputs where the scalar head has one.
        assert_eq!(wdl.parameters(), config.parameters() + 2 * 8 + 2);

        let section: NetworkSection = toml::from_str("kind = \"mlp\"\nhidden = [8]").unwrap();
        assert_eq!(section.value_head, ValueHead::Scalar);
        let section: NetworkSection =
            toml::from_str("kind = \"mlp\"\nhidden = [8]\nvalue = \"wdl\"").unwrap();
        assert_eq!(section.value_head, ValueHead::Wdl);
        assert_eq!(section.architecture, Architecture::mlp(&[8]));
        let text = toml::to_string(&section).unwrap();
        assert_eq!(toml::from_str::<NetworkSection>(&text).unwrap(), section);
        assert!(
            toml::from_str::<NetworkSection>("kind = \"mlp\"\nhidden = [8]\nvalue = \"odds\"")
                .is_err()
        );
        assert!(
            toml::from_str::<NetworkSection>("kind = \"mlp\"\nhidden = [8]\nwidth = 3").is_err()
        );
    }

    #[test]
    fn resnet_head_sizes_default_and_bad_sizes_are_refused() {
        let arch: Architecture =
            toml::from_str("kind = \"resnet\"\nblocks = 2\nchannels = 16").unwrap();
        assert_eq!(arch, Architecture::resnet(2, 16));
        let game = Fanorona::standard();
        let mut config = NetworkConfig::for_game(&game, Architecture::mlp(&[]));
        assert!(
            config
                .validate()
                .unwrap_err()
                .to_string()
                .contains("hidden layer")
        );
        config.architecture = Architecture::resnet(1, 0);
        assert!(config.validate().is_err());
        assert!(toml::from_str::<Architecture>("kind = \"transformer\"").is_err());
        let arch: Architecture =
            toml::from_str("kind = \"resmlp\"\nwidth = 128\nblocks = 2").unwrap();
        assert_eq!(arch, Architecture::residual_mlp(128, 2));
        assert_eq!(arch.describe(), "resmlp 2x128");
        config.architecture = Architecture::residual_mlp(0, 2);
        assert!(config.validate().unwrap_err().to_string().contains("width"));
    }
}
