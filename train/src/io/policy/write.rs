//! Writing policy files: a network with its [`PolicyMeta`], or the network of a training
//! checkpoint.

use std::path::Path;

use burn::module::Module;
use burn::store::{ModuleSnapshot, SafetensorsStore};
use burn::tensor::Device;

use super::{PolicyFileError, PolicyMeta, SEAL};
use crate::io::checkpoint::Checkpoint;
use crate::io::envelope::{FileKind, FileRef};
use crate::model::{PolicyValueNet, flush_denormals};

/// The safetensors bytes of `net` with metadata `entries`.
fn serialize(net: &PolicyValueNet, entries: &[(&'static str, String)]) -> Result<Vec<u8>, String> {
    let mut store = SafetensorsStore::from_bytes(None).clear_metadata();
    for (key, value) in entries {
        store = store.metadata(*key, value.as_str());
    }
    net.save_into(&mut store).map_err(|e| e.to_string())?;
    store.get_bytes().map_err(|e| e.to_string())
}

/// Writes `net` (its inference copy) with `meta` to `out` atomically. `meta.network` is taken
/// from `net`.
pub fn export_policy(
    net: &PolicyValueNet,
    meta: &PolicyMeta,
    out: &Path,
) -> Result<(), PolicyFileError> {
    let bytes = policy_bytes(net, meta, out)?;
    Ok(FileRef::new(FileKind::Policy, out).write(&bytes)?)
}

/// The bytes of the policy file of `net` (its inference copy) with `meta` (`meta.network` is
/// taken from `net`); `label` names it in errors.
pub fn policy_bytes(
    net: &PolicyValueNet,
    meta: &PolicyMeta,
    label: &Path,
) -> Result<Vec<u8>, PolicyFileError> {
    // The inference copy has its batch-norm running statistics brought up to date; the
    // training module may still hold the last update aside. No denormal weight is written.
    let net = &flush_denormals(net.valid());
    let meta = PolicyMeta {
        network: net.config().clone(),
        ..meta.clone()
    };
    let file = FileRef::new(FileKind::Policy, label);
    SEAL.seal(meta.entries(), |entries| serialize(net, entries))
        .map_err(|reason| {
            file.encode(format!("cannot serialise the network: {reason}"))
                .into()
        })
}

/// Exports the network of the training checkpoint at `checkpoint` (the moving average of its
/// weights if it keeps one) to `out`; returns what was written.
pub fn export_checkpoint(checkpoint: &Path, out: &Path) -> Result<PolicyMeta, PolicyFileError> {
    let loaded = Checkpoint::load(checkpoint, &Device::flex())?;
    let meta = PolicyMeta::of_checkpoint(&loaded.meta, checkpoint)?;
    export_policy(&loaded.into_play_networks().0, &meta, out)?;
    Ok(meta)
}
