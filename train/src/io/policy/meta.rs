//! What an exported policy is for ([`PolicyMeta`]) and its metadata entries.

use std::collections::HashMap;
use std::path::Path;

use fanorona_env::Rules;
use fanorona_env::fanorona::action::ENCODING_VERSION;

use super::PolicyFileError;
use crate::io::checkpoint::CheckpointMeta;
use crate::model::NetworkConfig;

/// What an exported policy is for, besides its tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyMeta {
    /// `fanorona` or `telo`.
    pub game: String,
    /// The board, `WxH` (e.g. `9x5`).
    pub board: String,
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
    /// The metadata of the network in a training checkpoint (trained under the default rules
    /// and this build's encoding).
    pub fn of_checkpoint(meta: &CheckpointMeta) -> PolicyMeta {
        let (game, board) = meta.game.split_once(' ').unwrap_or((&meta.game, ""));
        PolicyMeta {
            game: game.to_string(),
            board: board.to_string(),
            rules: Rules::default().to_string(),
            encoding_version: ENCODING_VERSION,
            network: meta.network.clone(),
            step: meta.step,
        }
    }

    /// The game and board, e.g. `fanorona 9x5` (the label checkpoints use).
    pub fn label(&self) -> String {
        format!("{} {}", self.game, self.board)
    }

    /// An error unless the policy was made for `game` on `board` (`WxH`).
    pub fn check_game(&self, path: &Path, game: &str, board: &str) -> Result<(), PolicyFileError> {
        if self.game == game && self.board == board {
            return Ok(());
        }
        Err(PolicyFileError::WrongGame {
            path: path.to_path_buf(),
            expected: format!("{game} {board}"),
            found: self.label(),
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
            ("game", self.game.clone()),
            ("board", self.board.clone()),
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
                .map_err(|_| bad(key, format!("{value:?} is not a whole number")))
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
        let meta = PolicyMeta {
            game: get("game")?.to_string(),
            board: get("board")?.to_string(),
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
        let board_size = format!("{}x{}", self.network.width, self.network.height);
        if self.board != board_size {
            return Err((
                "board",
                format!("{} disagrees with the network's {board_size}", self.board),
            ));
        }
        Ok(())
    }
}
