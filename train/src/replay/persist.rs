//! Saving and loading the replay window (safetensors: one array per field, the games'
//! metadata as JSON in the header), so a resumed run continues with the same window.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use fanorona_env::Game;
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
use serde::{Deserialize, Serialize};

use super::{GameMeta, ReplayBuffer, ReplayConfig, StoredGame};
use fanorona_eval::atomic_write::write_atomic;

const FORMAT_VERSION: u32 = 1;
const HEADER_KEY: &str = "fanorona_replay";

/// A replay file that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReplayFileError {
    /// Reading or writing failed.
    #[error("cannot {action} replay file {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not a replay file, or damaged.
    #[error("replay file {path} is corrupt: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Saved for a game with another observation shape or action space.
    #[error("replay file {path} is for another game: it has {found}, this run needs {expected}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// This run's sizes.
        expected: String,
        /// The file's sizes.
        found: String,
    },
}

/// The JSON header of a replay file.
#[derive(Serialize, Deserialize)]
struct Header {
    format_version: u32,
    observation_shape: [usize; 3],
    num_actions: usize,
    games_added: u64,
    games: Vec<GameMeta>,
}

fn bytes_f32(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn bytes_u32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn bytes_u16(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl<G: Game> ReplayBuffer<G> {
    /// Writes the window into `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), ReplayFileError> {
        let corrupt = |reason: String| ReplayFileError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let header = Header {
            format_version: FORMAT_VERSION,
            observation_shape: self.prototype.observation_shape(),
            num_actions: self.num_actions,
            games_added: self.games_added,
            games: self.games.iter().map(|g| g.meta.clone()).collect(),
        };
        let mut arrays: Vec<(&str, Dtype, Vec<u8>, usize)> = Vec::new();
        let mut push = |name, dtype, data: Vec<u8>, width: usize| {
            let len = data.len() / width;
            arrays.push((name, dtype, data, len));
        };
        let all = |f: &dyn Fn(&StoredGame) -> Vec<u8>| -> Vec<u8> {
            self.games.iter().flat_map(f).collect()
        };
        push(
            "plane_constant",
            Dtype::U8,
            all(&|g| g.plane_constant.clone()),
            1,
        );
        push(
            "obs_values",
            Dtype::F32,
            all(&|g| bytes_f32(&g.obs_values)),
            4,
        );
        push(
            "action_counts",
            Dtype::U32,
            all(&|g| {
                let counts: Vec<u32> = g.action_offsets.windows(2).map(|w| w[1] - w[0]).collect();
                bytes_u32(&counts)
            }),
            4,
        );
        push("actions", Dtype::U16, all(&|g| bytes_u16(&g.actions)), 2);
        push("targets", Dtype::F32, all(&|g| bytes_f32(&g.targets)), 4);
        push("values", Dtype::F32, all(&|g| bytes_f32(&g.values)), 4);
        push(
            "policy_weights",
            Dtype::F32,
            all(&|g| bytes_f32(&g.policy_weights)),
            4,
        );
        let views = arrays
            .iter()
            .map(|(name, dtype, data, len)| {
                TensorView::new(*dtype, vec![*len], data)
                    .map(|view| (name.to_string(), view))
                    .map_err(|e| corrupt(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let header = serde_json::to_string(&header).map_err(|e| corrupt(e.to_string()))?;
        let metadata = HashMap::from([(HEADER_KEY.to_string(), header)]);
        let data =
            safetensors::serialize(views, Some(metadata)).map_err(|e| corrupt(e.to_string()))?;
        write_atomic(path, &data).map_err(|source| ReplayFileError::Io {
            action: "write",
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a window saved by [`save`](Self::save) for games like `prototype`; the last
    /// `config.window_games` games are kept.
    pub fn load(
        path: &Path,
        config: ReplayConfig,
        prototype: G,
    ) -> Result<ReplayBuffer<G>, ReplayFileError> {
        let data = std::fs::read(path).map_err(|source| ReplayFileError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?;
        let corrupt = |reason: String| ReplayFileError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let tensors = SafeTensors::deserialize(&data).map_err(|e| corrupt(e.to_string()))?;
        let (_, metadata) =
            SafeTensors::read_metadata(&data).map_err(|e| corrupt(e.to_string()))?;
        let header = metadata
            .metadata()
            .as_ref()
            .and_then(|m| m.get(HEADER_KEY))
            .ok_or_else(|| corrupt("no replay header: not a replay file".into()))?;
        let header: Header =
            serde_json::from_str(header).map_err(|e| corrupt(format!("header: {e}")))?;
        if header.format_version != FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {}, this build reads {FORMAT_VERSION}",
                header.format_version
            )));
        }
        let mut buffer = ReplayBuffer::new(config, prototype);
        let shape = buffer.prototype.observation_shape();
        if header.observation_shape != shape || header.num_actions != buffer.num_actions {
            let describe = |s: [usize; 3], a: usize| format!("observation {s:?} and {a} actions");
            return Err(ReplayFileError::Mismatch {
                path: path.to_path_buf(),
                expected: describe(shape, buffer.num_actions),
                found: describe(header.observation_shape, header.num_actions),
            });
        }
        let array = |name: &str, dtype: Dtype| -> Result<&[u8], ReplayFileError> {
            let view = tensors
                .tensor(name)
                .map_err(|e| corrupt(format!("{name}: {e}")))?;
            if view.dtype() != dtype {
                return Err(corrupt(format!("{name} has type {:?}", view.dtype())));
            }
            Ok(view.data())
        };
        let f32s = |name| -> Result<Vec<f32>, ReplayFileError> {
            Ok(array(name, Dtype::F32)?
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect())
        };
        let flags = array("plane_constant", Dtype::U8)?;
        let obs_values = f32s("obs_values")?;
        let counts: Vec<u32> = array("action_counts", Dtype::U32)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        let actions: Vec<u16> = array("actions", Dtype::U16)?
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes(b.try_into().expect("2 bytes")))
            .collect();
        let targets = f32s("targets")?;
        let values = f32s("values")?;
        let weights = f32s("policy_weights")?;

        let (planes, cells) = (buffer.planes, buffer.cells);
        let positions = values.len();
        if counts.len() != positions
            || weights.len() != positions
            || flags.len() != positions * planes
            || actions.len() != targets.len()
            || counts.iter().map(|&c| c as usize).sum::<usize>() != actions.len()
            || header.games.iter().map(|g| g.length).sum::<usize>() != positions
        {
            return Err(corrupt("array lengths do not agree".into()));
        }
        let (mut pos, mut value_at, mut action_at) = (0, 0, 0);
        for meta in header.games {
            let mut game = StoredGame {
                meta,
                obs_offsets: vec![0],
                action_offsets: vec![0],
                ..StoredGame::default()
            };
            for _ in 0..game.meta.length {
                let game_flags = &flags[pos * planes..(pos + 1) * planes];
                let len: usize = game_flags
                    .iter()
                    .map(|&f| if f == 1 { 1 } else { cells })
                    .sum();
                let obs = obs_values
                    .get(value_at..value_at + len)
                    .ok_or_else(|| corrupt("observation values end early".into()))?;
                game.plane_constant.extend_from_slice(game_flags);
                game.obs_values.extend_from_slice(obs);
                game.obs_offsets.push(game.obs_values.len() as u32);
                value_at += len;
                let count = counts[pos] as usize;
                let game_actions = &actions[action_at..action_at + count];
                if game_actions
                    .iter()
                    .any(|&a| a as usize >= buffer.num_actions)
                {
                    return Err(corrupt("an action is outside the action space".into()));
                }
                game.actions.extend_from_slice(game_actions);
                game.targets
                    .extend_from_slice(&targets[action_at..action_at + count]);
                game.action_offsets.push(game.actions.len() as u32);
                action_at += count;
                game.values.push(values[pos]);
                game.policy_weights.push(weights[pos]);
                pos += 1;
            }
            buffer.add_game(game);
        }
        if value_at != obs_values.len() {
            return Err(corrupt("observation values are left over".into()));
        }
        buffer.games_added = header.games_added;
        Ok(buffer)
    }
}
