//! Reading policy files (or, for convenience, the network of a training checkpoint).

use std::path::Path;

use burn::store::{ApplyError, ApplyResult, ModuleSnapshot, SafetensorsStore};
use burn::tensor::Device;

use super::{PolicyFileError, PolicyMeta, SEAL};
use crate::io::checkpoint::{self, Checkpoint};
use crate::io::envelope::{FileKind, FileRef};
use crate::io::safetensors_seal::read_metadata;
use crate::model::{PolicyValueNet, flush_denormals};

/// A loaded policy: the network (inference, no autodiff) and what it is for.
pub struct LoadedPolicy {
    /// The network: from a checkpoint that keeps a moving average of the weights, the average.
    pub net: PolicyValueNet,
    /// The last trained weights of a checkpoint whose `net` is their moving average (`None`
    /// otherwise: `net` is then the only network of the file).
    pub last_weights: Option<PolicyValueNet>,
    /// Its metadata.
    pub meta: PolicyMeta,
    /// The kind of file it was read from: [`FileKind::Policy`] or [`FileKind::Checkpoint`].
    pub source: FileKind,
}

/// Loads an exported policy (or, for convenience, the network of a training checkpoint: the
/// moving average of its weights if it keeps one) onto burn's CPU device.
pub fn load_policy(path: &Path) -> Result<LoadedPolicy, PolicyFileError> {
    load_policy_on(path, &Device::flex())
}

/// Loads an exported policy (or the network of a training checkpoint) onto `device`; denormal
/// weights are set to zero.
pub fn load_policy_on(path: &Path, device: &Device) -> Result<LoadedPolicy, PolicyFileError> {
    let file = FileRef::new(FileKind::Policy, path);
    let bytes = file.read()?;
    if bytes.starts_with(checkpoint::MAGIC) {
        // Already read: parse it here rather than reading the file again.
        let loaded = Checkpoint::from_bytes(path, &bytes, device)?;
        let meta = PolicyMeta::of_checkpoint(&loaded.meta, path)?;
        let (net, last_weights) = loaded.into_play_networks();
        return Ok(LoadedPolicy {
            meta,
            net,
            last_weights,
            source: FileKind::Checkpoint,
        });
    }
    policy_from_bytes(path, bytes, device)
}

/// Reads the policy file `bytes` (`label` names it in errors) onto `device`; denormal weights
/// are set to zero.
pub fn policy_from_bytes(
    label: &Path,
    bytes: Vec<u8>,
    device: &Device,
) -> Result<LoadedPolicy, PolicyFileError> {
    let file = FileRef::new(FileKind::Policy, label);
    let entries = read_metadata(file, &bytes)?;
    SEAL.check(file, &bytes, &entries)?;
    let meta = PolicyMeta::from_entries(&entries, label)?;
    let mut net =
        PolicyValueNet::init(&meta.network, device).map_err(|e| file.corrupt(e.to_string()))?;
    let mut store = SafetensorsStore::from_bytes(Some(bytes))
        .allow_partial(true)
        .validate(false);
    let applied = net
        .load_from(&mut store)
        .map_err(|e| file.corrupt(e.to_string()))?;
    check_applied(file, &applied)?;
    // Files of older builds may hold denormal weights (slow on Intel): flush them.
    Ok(LoadedPolicy {
        net: flush_denormals(net),
        last_weights: None,
        meta,
        source: FileKind::Policy,
    })
}

/// An error unless the file's tensors fit the network exactly (every tensor present, none
/// extra, all of the right shapes).
fn check_applied(file: FileRef, applied: &ApplyResult) -> Result<(), PolicyFileError> {
    let path = file.path().to_path_buf();
    if let Some(error) = applied.errors.first() {
        return Err(match error {
            ApplyError::ShapeMismatch {
                path: tensor,
                expected,
                found,
            } => PolicyFileError::WrongShape {
                path,
                tensor: tensor.clone(),
                expected: expected.to_vec(),
                found: found.to_vec(),
            },
            other => file.corrupt(other.to_string()).into(),
        });
    }
    if !applied.missing.is_empty() {
        return Err(PolicyFileError::MissingTensors {
            path,
            tensors: applied.missing.iter().map(|(t, _)| t.clone()).collect(),
        });
    }
    if !applied.unused.is_empty() {
        return Err(PolicyFileError::UnexpectedTensors {
            path,
            tensors: applied.unused.clone(),
        });
    }
    Ok(())
}
