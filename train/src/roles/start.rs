//! The network a run starts from: seeded random weights, the policy file of its `run.init`,
//! or for an `abnet` run its `abnet.start`: `student` (the shipped MLP 64-32 that `abnet` plays by default,
//! [`ShippedModel::Student`]), `fresh` (seeded random weights) or a policy file's
//! path. A network loaded from a file must have the run's architecture and game.

use std::path::Path;

use burn::tensor::Device;

use crate::config::{NetworkConfig, RunConfig, RunConfigError};
use crate::error::TrainError;
use crate::io::{LoadedPolicy, ShippedModel, load_policy_on};
use crate::model::PolicyValueNet;

/// The `abnet.start` value naming [`ShippedModel::Student`].
const STUDENT: &str = "student";
/// The `abnet.start` value asking for seeded random weights.
const FRESH: &str = "fresh";

/// Where a run's first network comes from.
enum Start<'a> {
    /// Seeded random weights.
    Fresh,
    /// The shipped student.
    Student,
    /// A policy file, named by the configuration key (`run.init`, `abnet.start`).
    File(&'a Path, &'static str),
}

impl<'a> Start<'a> {
    /// The start `config` asks for.
    fn of(config: &'a RunConfig) -> Start<'a> {
        match (&config.abnet, &config.run.init) {
            (Some(abnet), _) => match abnet.start.as_str() {
                FRESH => Start::Fresh,
                STUDENT => Start::Student,
                path => Start::File(Path::new(path), "abnet.start"),
            },
            (None, Some(path)) => Start::File(path, "run.init"),
            (None, None) => Start::Fresh,
        }
    }
}

/// Checks, before a new run makes its directory, that the network it starts from can be
/// loaded and fits (`network`): a policy file that is missing, damaged or of another game or
/// network is refused with nothing made.
pub(crate) fn check_start_network(
    config: &RunConfig,
    network: &NetworkConfig,
) -> Result<(), TrainError> {
    match Start::of(config) {
        Start::Fresh => Ok(()),
        Start::Student | Start::File(..) => {
            start_network(config, network, &Device::flex()).map(drop)
        }
    }
}

/// The first network of a run of `config` whose network is `network`, on `device`.
pub(crate) fn start_network(
    config: &RunConfig,
    network: &NetworkConfig,
    device: &Device,
) -> Result<PolicyValueNet, TrainError> {
    let (loaded, label, key): (LoadedPolicy, &Path, &str) = match Start::of(config) {
        Start::Fresh => {
            return PolicyValueNet::init_seeded(network, device, config.run.seed)
                .map_err(|e| RunConfigError::Invalid(e.to_string()).into());
        }
        Start::Student => (
            ShippedModel::Student.load_on(device)?,
            Path::new("the shipped student"),
            "abnet.start",
        ),
        Start::File(path, key) => (load_policy_on(path, device)?, path, key),
    };
    loaded.meta.check_game(label, config.game)?;
    if loaded.net.config() != network {
        return Err(RunConfigError::Invalid(format!(
            "{key} = {} holds a network of {} ({} inputs), the run's network is {} ({} inputs)",
            label.display(),
            loaded.net.config().architecture.describe(),
            loaded.net.config().observation_len(),
            network.architecture.describe(),
            network.observation_len()
        ))
        .into());
    }
    Ok(loaded.net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Architecture;
    use crate::io::{PolicyMeta, export_policy};
    use fanorona_env::{Fanorona, Game};

    /// The policy of `net` on the initial position's observation.
    fn outputs(net: &PolicyValueNet, config: &RunConfig) -> Vec<f32> {
        let game = Fanorona::new(fanorona_env::Position::initial(
            config.game.fanorona_board().unwrap(),
        ));
        let mut observation = vec![0.0; net.config().observation_len()];
        game.write_observation(&mut observation);
        let mut policy = vec![0.0; game.num_actions()];
        let mut value = [0.0];
        net.infer(&observation, &mut policy, &mut value);
        policy.push(value[0]);
        policy
    }

    #[test]
    fn run_init_starts_from_the_file_and_a_file_of_another_network_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = RunConfig::preset("tiny").unwrap();
        let game = Fanorona::new(fanorona_env::Position::initial(
            config.game.fanorona_board().unwrap(),
        ));
        let network = config.network.config_for(&game);
        let device = Device::flex();
        // A network of other weights than the run's seed gives.
        let file_net = PolicyValueNet::init_seeded(&network, &device, config.run.seed + 7).unwrap();
        let path = dir.path().join("start.safetensors");
        let meta = PolicyMeta::trained(config.game, network.clone(), 0);
        export_policy(&file_net, &meta, &path).unwrap();

        let fresh = start_network(&config, &network, &device).unwrap();
        config.run.init = Some(path.clone());
        config.validate().unwrap();
        let started = start_network(&config, &network, &device).unwrap();
        assert_eq!(outputs(&started, &config), outputs(&file_net, &config));
        assert_ne!(outputs(&fresh, &config), outputs(&file_net, &config));

        let other = NetworkConfig {
            architecture: Architecture::mlp(&[8]),
            ..network.clone()
        };
        let wrong = PolicyValueNet::init_seeded(&other, &device, 1).unwrap();
        export_policy(&wrong, &PolicyMeta::trained(config.game, other, 0), &path).unwrap();
        let error = start_network(&config, &network, &device).unwrap_err();
        assert!(error.to_string().contains("run.init = "), "{error}");
        assert!(error.to_string().contains("mlp 8"), "{error}");

        config.abnet = RunConfig::preset("abnet").unwrap().abnet;
        let error = config.validate().unwrap_err();
        assert!(error.to_string().contains("abnet.start"), "{error}");
    }
}
