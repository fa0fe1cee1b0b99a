//! The network a run starts from: seeded random weights, or for an `abnet` run its
//! `abnet.start`: `student` (the shipped MLP 64-32 that `abnet` plays by default,
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

/// The first network of a run of `config` whose network is `network`, on `device`.
pub(crate) fn start_network(
    config: &RunConfig,
    network: &NetworkConfig,
    device: &Device,
) -> Result<PolicyValueNet, TrainError> {
    let start = config.abnet.as_ref().map_or(FRESH, |a| a.start.as_str());
    let label = Path::new(if start == STUDENT {
        "the shipped student"
    } else {
        start
    });
    let loaded: LoadedPolicy = match start {
        FRESH => {
            return PolicyValueNet::init_seeded(network, device, config.run.seed)
                .map_err(|e| RunConfigError::Invalid(e.to_string()).into());
        }
        STUDENT => ShippedModel::Student.load_on(device)?,
        _ => load_policy_on(label, device)?,
    };
    loaded.meta.check_game(label, config.game)?;
    if loaded.net.config() != network {
        return Err(RunConfigError::Invalid(format!(
            "abnet.start = {start:?} holds a network of {} ({} inputs), the run's network is {} \
             ({} inputs)",
            loaded.net.config().architecture.describe(),
            loaded.net.config().observation_len(),
            network.architecture.describe(),
            network.observation_len()
        ))
        .into());
    }
    Ok(loaded.net)
}
