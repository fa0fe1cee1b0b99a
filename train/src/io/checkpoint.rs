//! Checkpoints: the network, the optimiser state, the learner step, the run's RNG state and the
//! replay window's position, in one file written atomically (temporary file + rename); a run
//! directory names, lists and prunes them with the replay window of the same step beside each
//! (`RunDir::checkpoint`). Resuming loads the latest one.
//!
//! File layout: the magic `FNRCKPT\0`, a little-endian u32 format version, then
//! length-prefixed (u64) sections: the JSON header ([`CheckpointMeta`]), the network's burnpack
//! record, the optimiser's burnpack record and (version 2) the burnpack record of the moving
//! average of the weights, empty when the run keeps none; then a CRC-32 of everything before
//! it. Version 1 files (three sections) are still read.

use std::path::Path;

use burn::module::Module;
use burn::optim::{ModuleOptimizer, OptimizerRecord};
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};
use fanorona_env::{GameId, GameIdError};
use serde::{Deserialize, Serialize};

use crate::config::{NetworkConfig, OptimizerConfig, TrainerConfig};
use crate::model::{PolicyValueNet, flush_denormals};
use crate::model::{Trainer, init_optimizer};
use crate::rng::RngState;

use super::envelope::{FileError, FileKind, FileRef};

/// The first bytes of every checkpoint file.
pub(crate) const MAGIC: &[u8; 8] = b"FNRCKPT\0";
const FORMAT_VERSION: u32 = 2;
/// The first version, without the averaged weights.
const FIRST_VERSION: u32 = 1;

/// A checkpoint that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A problem with the file itself (missing, unreadable, damaged, another version).
    #[error(transparent)]
    File(#[from] FileError),
    /// A checkpoint of another network, board or game than the one asked for.
    #[error(
        "checkpoint {path} does not match this run: it has {field} {found}, expected {expected}"
    )]
    Mismatch {
        /// The file.
        path: std::path::PathBuf,
        /// What differs.
        field: &'static str,
        /// The run's value.
        expected: String,
        /// The checkpoint's value.
        found: String,
    },
}

/// Everything in a checkpoint besides the tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// The game and board as [`GameId`] writes them, e.g. `fanorona 9x5`.
    pub game: String,
    /// The network's configuration.
    pub network: NetworkConfig,
    /// The optimiser, to rebuild its state.
    pub optimizer: OptimizerConfig,
    /// Learner steps taken.
    pub step: u64,
    /// Self-play iterations completed.
    pub iteration: u64,
    /// Games added to the replay buffer so far.
    pub replay_games_added: u64,
    /// The run's random generator.
    pub rng: RngState,
    /// Where a learner fed by shards stands (absent in checkpoints of `fanorona train`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<LearnerProgress>,
    /// Of an `abnet` run, the iteration whose network is the best so far (0: the network the
    /// run started from), saved beside the checkpoint (`RunDir::best_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_iteration: Option<u64>,
}

/// Where a learner fed by self-play shards stands, saved in its checkpoints (whose
/// `iteration` is then the latest model version published): every shard it has consumed, so
/// that a resumed learner counts no shard twice and loses none written while it was down.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerProgress {
    /// The names of the shards consumed (`WORKER-SEQUENCE.shard`), in order of name.
    pub consumed: std::collections::BTreeSet<String>,
    /// Positions ingested from shards.
    pub positions_ingested: u64,
    /// Learner steps earned by ingested positions and not yet taken (the replay ratio's
    /// remainder).
    pub step_credit: f64,
}

impl CheckpointMeta {
    /// The game the checkpoint was trained on.
    pub fn game_id(&self) -> Result<GameId, GameIdError> {
        self.game.parse()
    }
}

/// A loaded checkpoint.
pub struct Checkpoint {
    /// The metadata.
    pub meta: CheckpointMeta,
    /// The network, on the device it was loaded to (no autodiff).
    pub network: PolicyValueNet,
    /// The optimiser with its restored state.
    pub optimizer: ModuleOptimizer,
    /// The moving average of the weights, if the run keeps one (`ema_decay` > 0).
    pub averaged: Option<PolicyValueNet>,
}

impl Checkpoint {
    /// Writes the trainer's network and optimiser with `meta` (whose `step`, `network` and
    /// `optimizer` are taken from the trainer) to `path`, atomically.
    pub fn save(
        path: &Path,
        trainer: &Trainer,
        mut meta: CheckpointMeta,
    ) -> Result<(), CheckpointError> {
        meta.step = trainer.step();
        meta.network = trainer.network().config().clone();
        meta.optimizer = trainer.config().optimizer.clone();
        let file = FileRef::new(FileKind::Checkpoint, path);
        let header = serde_json::to_vec_pretty(&meta).map_err(|e| file.encode(e.to_string()))?;
        let record = |net: PolicyValueNet, what: &str| {
            net.into_record()
                .into_bytes()
                .map_err(|e| file.encode(format!("{what} record: {e}")))
        };
        let model = record(trainer.inference_network(), "network")?;
        let averaged = match trainer.averaged_network() {
            Some(net) => record(net.clone(), "averaged network")?.to_vec(),
            None => Vec::new(),
        };
        // burn encodes the optimiser's tensors in hash order, which changes from one process
        // to the next; read back they come in name order, so encoding them again gives the
        // same bytes for the same state.
        let optimizer = trainer
            .optimizer()
            .into_bytes()
            .and_then(OptimizerRecord::from_bytes)
            .and_then(OptimizerRecord::into_bytes)
            .map_err(|e| file.encode(format!("optimiser record: {e}")))?;
        let sections = [&header[..], &model[..], &optimizer[..], &averaged[..]];
        let size: usize = sections.iter().map(|s| s.len() + 8).sum();
        let mut data = Vec::with_capacity(size + 16);
        data.extend_from_slice(MAGIC);
        data.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for section in sections {
            data.extend_from_slice(&(section.len() as u64).to_le_bytes());
            data.extend_from_slice(section);
        }
        let crc = crc32fast::hash(&data);
        data.extend_from_slice(&crc.to_le_bytes());
        file.write(&data)?;
        Ok(())
    }

    /// Reads the checkpoint at `path` onto `device`.
    pub fn load(path: &Path, device: &Device) -> Result<Checkpoint, CheckpointError> {
        let data = FileRef::new(FileKind::Checkpoint, path).read()?;
        Checkpoint::from_bytes(path, &data, device)
    }

    /// Reads a checkpoint from the bytes of the file at `path` (named in errors) onto
    /// `device`.
    pub(crate) fn from_bytes(
        path: &Path,
        data: &[u8],
        device: &Device,
    ) -> Result<Checkpoint, CheckpointError> {
        let file = FileRef::new(FileKind::Checkpoint, path);
        let [header, network, optimizer, averaged] = sections(file, data)?;
        let meta: CheckpointMeta =
            serde_json::from_slice(header).map_err(|e| file.corrupt(format!("header: {e}")))?;
        let read_network = |bytes: &[u8], what: &str| {
            let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(bytes.to_vec()))
                .map_err(|e| file.corrupt(format!("{what} record: {e}")))?;
            let network = PolicyValueNet::init(&meta.network, device)
                .map_err(|e| file.corrupt(format!("header: {e}")))?
                .try_load_record(record)
                .map_err(|e| file.corrupt(format!("{what} record does not fit its header: {e}")))?;
            // Files written before the learner flushed denormals may hold some.
            Ok::<_, FileError>(flush_denormals(network))
        };
        let network = read_network(network, "network")?;
        let averaged = if averaged.is_empty() {
            None
        } else {
            Some(read_network(averaged, "averaged network")?)
        };
        let optimizer = init_optimizer(&meta.optimizer)
            .from_bytes(Bytes::from_bytes_vec(optimizer.to_vec()))
            .map_err(|e| file.corrupt(format!("optimiser record: {e}")))?;
        Ok(Checkpoint {
            meta,
            network,
            optimizer,
            averaged,
        })
    }

    /// Reads the checkpoint at `path` and checks it was made for `game` with `network`.
    pub fn load_matching(
        path: &Path,
        game: GameId,
        network: &NetworkConfig,
        device: &Device,
    ) -> Result<Checkpoint, CheckpointError> {
        let checkpoint = Checkpoint::load(path, device)?;
        checkpoint.check_matches(path, game, network)?;
        Ok(checkpoint)
    }

    /// An error unless the checkpoint was made for `game` with `network`.
    pub fn check_matches(
        &self,
        path: &Path,
        game: GameId,
        network: &NetworkConfig,
    ) -> Result<(), CheckpointError> {
        let found = &self.meta.network;
        let mismatch = |field, expected: String, found: String| {
            Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                field,
                expected,
                found,
            })
        };
        if self.meta.game_id() != Ok(game) {
            return mismatch("game", game.to_string(), self.meta.game.clone());
        }
        if [found.planes, found.height, found.width]
            != [network.planes, network.height, network.width]
        {
            return mismatch(
                "observation shape",
                format!("{}x{}x{}", network.planes, network.height, network.width),
                format!("{}x{}x{}", found.planes, found.height, found.width),
            );
        }
        if found.num_actions != network.num_actions {
            return mismatch(
                "action count",
                network.num_actions.to_string(),
                found.num_actions.to_string(),
            );
        }
        if found.architecture != network.architecture {
            return mismatch(
                "architecture",
                network.architecture.describe(),
                found.architecture.describe(),
            );
        }
        Ok(())
    }

    /// A learner continuing from this checkpoint (its step, network, optimiser state and
    /// averaged weights).
    pub fn into_trainer(self, config: TrainerConfig, device: &Device) -> Trainer {
        let step = self.meta.step;
        Trainer::resume(
            config,
            self.network,
            self.optimizer,
            self.averaged,
            step,
            device,
        )
    }

    /// The networks to play with: the moving average of the weights if the checkpoint has
    /// one, else the trained weights; and, beside an average, the last trained weights.
    pub fn into_play_networks(self) -> (PolicyValueNet, Option<PolicyValueNet>) {
        match self.averaged {
            Some(averaged) => (averaged, Some(self.network)),
            None => (self.network, None),
        }
    }
}

/// The header, network, optimiser and averaged-network sections of the checkpoint file `data`
/// (the last one empty in version 1 files), after checking its magic bytes, version, layout
/// and checksum.
fn sections<'a>(file: FileRef, data: &'a [u8]) -> Result<[&'a [u8]; 4], FileError> {
    let start = MAGIC.len() + 4;
    if data.len() < start || &data[..MAGIC.len()] != MAGIC {
        return Err(
            file.wrong_kind("it does not begin with the magic bytes FNRCKPT of a checkpoint")
        );
    }
    let version = u32::from_le_bytes(data[MAGIC.len()..start].try_into().expect("4 bytes"));
    file.check_version(version, &[FIRST_VERSION, FORMAT_VERSION])?;
    let (body, crc) = data.split_at(data.len().saturating_sub(4).max(start));
    let mut sections = [&body[..0]; 4];
    let names = ["header", "network", "optimiser", "averaged network"];
    let count = if version == FIRST_VERSION { 3 } else { 4 };
    let mut at = start;
    for (section, name) in sections.iter_mut().zip(names).take(count) {
        let len = body
            .get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
            .ok_or_else(|| file.corrupt(format!("the file ends before the {name} section")))?;
        *section = body
            .get(at + 8..(at + 8).saturating_add(len))
            .ok_or_else(|| file.corrupt(format!("the file ends inside the {name} section")))?;
        at += 8 + len;
    }
    if crc.len() != 4 || at != body.len() {
        return Err(
            file.corrupt("its length does not fit its sections and the 4-byte checksum after them")
        );
    }
    file.check_crc(
        "the contents",
        body,
        u32::from_le_bytes(crc.try_into().expect("4 bytes")),
    )?;
    Ok(sections)
}
