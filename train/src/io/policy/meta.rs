//! What an exported policy is for ([`PolicyMeta`]) and its metadata entries.

use std::collections::HashMap;
use std::path::Path;

use fanorona_env::action::ENCODING_VERSION;
use fanorona_env::{Excerpt, GameId, GameIdError, Rules};

use super::PolicyFileError;
use crate::config::NetworkConfig;
use crate::io::checkpoint::{CheckpointError, CheckpointMeta};
use crate::io::envelope::{FileKind, FileRef};

/// What an exported policy is for, besides its tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyMeta {
    /// The game and board (metadata keys `game` and `board`).
    pub game: GameId,
    /// The rules it was trained under, as `--rules` reads them.
    pub rules: String,
    /// The action and observation encoding version it was trained on.
    pub encoding_version: u32,
    /// The network's configuration.
    pub network: NetworkConfig,
    /// Learner steps it was trained for.
    pub step: u64,
}

impl PolicyMeta {
    /// The metadata of `network` for `game` after `step` learner steps, trained under the
    /// default rules and this build's encoding.
    pub fn trained(game: GameId, network: NetworkConfig, step: u64) -> PolicyMeta {
        PolicyMeta {
            game,
            rules: Rules::default().to_string(),
            encoding_version: ENCODING_VERSION,
            network,
            step,
        }
    }

    /// The metadata of the network in the training checkpoint at `path` (trained under the
    /// default rules and this build's encoding).
    pub fn of_checkpoint(
        meta: &CheckpointMeta,
        path: &Path,
    ) -> Result<PolicyMeta, PolicyFileError> {
        let game = meta.game_id().map_err(|e| {
            CheckpointError::from(FileRef::new(FileKind::Checkpoint, path).corrupt(e.to_string()))
        })?;
        Ok(PolicyMeta::trained(game, meta.network.clone(), meta.step))
    }

    /// An error unless the policy was made for `game`.
    pub fn check_game(&self, path: &Path, game: GameId) -> Result<(), PolicyFileError> {
        if self.game == game {
            return Ok(());
        }
        Err(PolicyFileError::WrongGame {
            path: path.to_path_buf(),
            expected: game.to_string(),
            found: self.game.to_string(),
        })
    }

    fn observation_shape(&self) -> String {
        let n = &self.network;
        format!("{}x{}x{}", n.planes, n.height, n.width)
    }

    /// The metadata entries (besides the seal's `format`, `format_version` and `data_crc32`).
    pub(super) fn entries(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "producer",
                format!("fanorona {}", env!("CARGO_PKG_VERSION")),
            ),
            ("game", self.game.name().to_string()),
            ("board", self.game.board().to_string()),
            ("rules", self.rules.clone()),
            ("encoding_version", self.encoding_version.to_string()),
            ("observation_shape", self.observation_shape()),
            ("num_actions", self.network.num_actions.to_string()),
            ("architecture", self.network.architecture.describe()),
            (
                "network",
                serde_json::to_string(&self.network).expect("a network config serialises"),
            ),
            ("training_step", self.step.to_string()),
        ]
    }

    /// Reads and checks the metadata entries `map` of the (sealed) file at `path`.
    pub(super) fn from_entries(
        map: &HashMap<String, String>,
        path: &Path,
    ) -> Result<PolicyMeta, PolicyFileError> {
        let bad = |key: &'static str, reason: String| PolicyFileError::BadMetadata {
            path: path.to_path_buf(),
            key,
            reason,
        };
        let get = |key: &'static str| {
            map.get(key)
                .map(String::as_str)
                .ok_or_else(|| bad(key, "missing".into()))
        };
        let number = |key: &'static str| -> Result<u64, PolicyFileError> {
            let value = get(key)?;
            value
                .parse()
                .map_err(|_| bad(key, format!("{} is not a whole number", Excerpt(value))))
        };
        let encoding_version = number("encoding_version")? as u32;
        if encoding_version != ENCODING_VERSION {
            return Err(PolicyFileError::EncodingMismatch {
                path: path.to_path_buf(),
                found: encoding_version,
            });
        }
        let network: NetworkConfig =
            serde_json::from_str(get("network")?).map_err(|e| bad("network", e.to_string()))?;
        network
            .validate()
            .map_err(|e| bad("network", e.to_string()))?;
        let game = GameId::from_parts(get("game")?, get("board")?).map_err(|e| match e {
            GameIdError::Unknown(_) | GameIdError::MissingBoard => bad("game", e.to_string()),
            GameIdError::Board(_) | GameIdError::TeloBoard(_) => bad("board", e.to_string()),
        })?;
        let meta = PolicyMeta {
            game,
            rules: get("rules")?.to_string(),
            encoding_version,
            network,
            step: number("training_step")?,
        };
        meta.check_consistent(get("observation_shape")?, number("num_actions")?)
            .map_err(|(key, reason)| bad(key, reason))?;
        Ok(meta)
    }

    /// An error (the key and what is wrong) unless the entries `observation_shape`,
    /// `num_actions` and `board` agree with the network.
    fn check_consistent(
        &self,
        observation_shape: &str,
        num_actions: u64,
    ) -> Result<(), (&'static str, String)> {
        if observation_shape != self.observation_shape() {
            return Err((
                "observation_shape",
                format!(
                    "{observation_shape} disagrees with the network's {}",
                    self.observation_shape()
                ),
            ));
        }
        if num_actions != self.network.num_actions as u64 {
            return Err((
                "num_actions",
                format!(
                    "{num_actions} disagrees with the network's {}",
                    self.network.num_actions
                ),
            ));
        }
        let board = self.game.board();
        if (board.width(), board.height()) != (self.network.width, self.network.height) {
            return Err((
                "board",
                format!(
                    "{board} disagrees with the network's {}x{}",
                    self.network.width, self.network.height
                ),
            ));
        }
        Ok(())
    }
}
