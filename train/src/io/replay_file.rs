//! Saving and loading the replay window, so a resumed run continues with the same window.
//!
//! Layout: safetensors with one array per field (`Columns`) and the games' metadata as JSON
//! in the header entry `fanorona_replay`. Version 2 files are sealed (metadata `format` =
//! `fanorona-replay`, `format_version`, `data_crc32`); version 1 files (unsealed, no checksum)
//! are still read. The array `root_values` (the search's root value of each position) is
//! optional: files written before it existed are read with the results in its place.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use fanorona_env::Game;
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
use serde::{Deserialize, Serialize};

use super::envelope::{FileError, FileKind, FileRef};
use super::safetensors_seal::{SafetensorsFormat, is_sealed, read_metadata};
use crate::config::ReplayConfig;
use crate::replay::{ReplayBuffer, Trajectory, TrajectoryMeta};

/// The version written.
const FORMAT_VERSION: u32 = 2;
/// The first version, unsealed.
const UNSEALED_VERSION: u32 = 1;
/// The versions read.
const READS: &[u32] = &[UNSEALED_VERSION, FORMAT_VERSION];
/// The seal of replay files.
const SEAL: SafetensorsFormat = SafetensorsFormat {
    name: "fanorona-replay",
    version: FORMAT_VERSION,
    reads: READS,
    covers_metadata: false,
};
/// The metadata entry holding the JSON [`Header`].
const HEADER_KEY: &str = "fanorona_replay";

/// A replay file that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReplayFileError {
    /// A problem with the file itself (missing, unreadable, damaged, another version, not a
    /// replay file).
    #[error(transparent)]
    File(#[from] FileError),
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
    games: Vec<TrajectoryMeta>,
}

/// The window's positions as the file's arrays, game after game.
#[derive(Default)]
struct Columns {
    /// Per position and plane, 1 if the plane is stored as one value.
    plane_constant: Vec<u8>,
    /// The stored plane values.
    obs_values: Vec<f32>,
    /// Per position, its number of legal actions.
    action_counts: Vec<u32>,
    /// The legal mover-frame actions.
    actions: Vec<u16>,
    /// Their target probabilities.
    targets: Vec<f32>,
    /// Per position, the game's result for the mover.
    values: Vec<f32>,
    /// Per position, the search's root value for the mover.
    root_values: Vec<f32>,
    /// Per position, the policy weight.
    policy_weights: Vec<f32>,
}

/// The sizes of a game's positions, to rebuild its games from [`Columns`].
#[derive(Clone, Copy)]
pub(super) struct Sizes {
    /// Observation planes.
    pub planes: usize,
    /// Cells of a plane.
    pub cells: usize,
    /// The size of the action space.
    pub num_actions: usize,
}

/// Where the next position starts in each of the [`Columns`].
#[derive(Default)]
struct Cursor {
    position: usize,
    obs_value: usize,
    action: usize,
}

/// `values` as little-endian bytes (`to` gives one value's).
fn le_bytes<const N: usize, T: Copy>(values: &[T], to: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| to(v)).collect()
}

/// The values of the little-endian bytes `data` (`from` reads one value).
fn from_le_bytes<const N: usize, T>(data: &[u8], from: impl Fn([u8; N]) -> T) -> Vec<T> {
    data.chunks_exact(N)
        .map(|b| from(b.try_into().expect("N bytes")))
        .collect()
}

impl Columns {
    /// The arrays of `games`.
    fn of<'a>(games: impl Iterator<Item = &'a Trajectory>) -> Columns {
        let mut columns = Columns::default();
        for g in games {
            columns.plane_constant.extend_from_slice(&g.plane_constant);
            columns.obs_values.extend_from_slice(&g.obs_values);
            let counts = g.action_offsets.windows(2).map(|w| w[1] - w[0]);
            columns.action_counts.extend(counts);
            columns.actions.extend_from_slice(&g.actions);
            columns.targets.extend_from_slice(&g.targets);
            columns.values.extend_from_slice(&g.values);
            columns.root_values.extend_from_slice(&g.root_values);
            columns.policy_weights.extend_from_slice(&g.policy_weights);
        }
        columns
    }

    /// The arrays as named little-endian byte arrays with their types and lengths.
    fn encode(&self) -> Vec<(&'static str, Dtype, Vec<u8>, usize)> {
        let f32s = |v: &[f32]| le_bytes(v, f32::to_le_bytes);
        vec![
            (
                "plane_constant",
                Dtype::U8,
                self.plane_constant.clone(),
                self.plane_constant.len(),
            ),
            (
                "obs_values",
                Dtype::F32,
                f32s(&self.obs_values),
                self.obs_values.len(),
            ),
            (
                "action_counts",
                Dtype::U32,
                le_bytes(&self.action_counts, u32::to_le_bytes),
                self.action_counts.len(),
            ),
            (
                "actions",
                Dtype::U16,
                le_bytes(&self.actions, u16::to_le_bytes),
                self.actions.len(),
            ),
            (
                "targets",
                Dtype::F32,
                f32s(&self.targets),
                self.targets.len(),
            ),
            ("values", Dtype::F32, f32s(&self.values), self.values.len()),
            (
                "root_values",
                Dtype::F32,
                f32s(&self.root_values),
                self.root_values.len(),
            ),
            (
                "policy_weights",
                Dtype::F32,
                f32s(&self.policy_weights),
                self.policy_weights.len(),
            ),
        ]
    }

    /// The arrays of the file `tensors`.
    fn read(file: FileRef, tensors: &SafeTensors) -> Result<Columns, FileError> {
        let array = |name: &str, dtype: Dtype| {
            let view = tensors
                .tensor(name)
                .map_err(|e| file.corrupt(format!("array {name}: {e}")))?;
            if view.dtype() != dtype {
                return Err(file.corrupt(format!(
                    "array {name} has type {:?}, expected {dtype:?}",
                    view.dtype()
                )));
            }
            Ok(view.data())
        };
        let f32s = |name| Ok(from_le_bytes(array(name, Dtype::F32)?, f32::from_le_bytes));
        let values = f32s("values")?;
        let root_values = if tensors.names().contains(&"root_values") {
            f32s("root_values")?
        } else {
            values.clone()
        };
        Ok(Columns {
            plane_constant: array("plane_constant", Dtype::U8)?.to_vec(),
            obs_values: f32s("obs_values")?,
            action_counts: from_le_bytes(array("action_counts", Dtype::U32)?, u32::from_le_bytes),
            actions: from_le_bytes(array("actions", Dtype::U16)?, u16::from_le_bytes),
            targets: f32s("targets")?,
            values,
            root_values,
            policy_weights: f32s("policy_weights")?,
        })
    }

    /// An error unless the arrays' lengths agree with each other and with `games`.
    fn check_lengths(
        &self,
        file: FileRef,
        games: &[TrajectoryMeta],
        planes: usize,
    ) -> Result<(), FileError> {
        let positions = self.values.len();
        let counted: usize = self.action_counts.iter().map(|&c| c as usize).sum();
        if self.action_counts.len() != positions
            || self.policy_weights.len() != positions
            || self.root_values.len() != positions
            || self.plane_constant.len() != positions * planes
            || self.actions.len() != self.targets.len()
            || counted != self.actions.len()
            || games.iter().map(|g| g.length).sum::<usize>() != positions
        {
            return Err(file.corrupt("the lengths of its arrays do not agree"));
        }
        Ok(())
    }

    /// The next game, of `meta.length` positions from `at`.
    fn game(
        &self,
        file: FileRef,
        meta: TrajectoryMeta,
        sizes: Sizes,
        at: &mut Cursor,
    ) -> Result<Trajectory, FileError> {
        let mut game = Trajectory {
            meta,
            obs_offsets: vec![0],
            action_offsets: vec![0],
            ..Trajectory::default()
        };
        for _ in 0..game.meta.length {
            let flags = &self.plane_constant[at.position * sizes.planes..][..sizes.planes];
            let len: usize = flags
                .iter()
                .map(|&f| if f == 1 { 1 } else { sizes.cells })
                .sum();
            let obs = self
                .obs_values
                .get(at.obs_value..at.obs_value + len)
                .ok_or_else(|| file.corrupt("the observation values end early"))?;
            game.plane_constant.extend_from_slice(flags);
            game.obs_values.extend_from_slice(obs);
            game.obs_offsets.push(game.obs_values.len() as u32);
            at.obs_value += len;
            let actions = at.action..at.action + self.action_counts[at.position] as usize;
            if self.actions[actions.clone()]
                .iter()
                .any(|&a| a as usize >= sizes.num_actions)
            {
                return Err(file.corrupt("an action is outside the action space"));
            }
            game.actions
                .extend_from_slice(&self.actions[actions.clone()]);
            game.targets
                .extend_from_slice(&self.targets[actions.clone()]);
            game.action_offsets.push(game.actions.len() as u32);
            at.action = actions.end;
            game.values.push(self.values[at.position]);
            game.root_values.push(self.root_values[at.position]);
            game.policy_weights.push(self.policy_weights[at.position]);
            at.position += 1;
        }
        Ok(game)
    }
}

/// The header of the file `bytes` with `metadata`, after checking its seal (or, unsealed,
/// that it is of version 1).
fn read_header(
    file: FileRef,
    bytes: &[u8],
    metadata: &HashMap<String, String>,
) -> Result<Header, FileError> {
    let sealed = is_sealed(metadata)
        .then(|| SEAL.check(file, bytes, metadata))
        .transpose()?;
    let json = metadata.get(HEADER_KEY).ok_or_else(|| {
        file.wrong_kind(format!(
            "its metadata has neither a `format` entry nor a `{HEADER_KEY}` header"
        ))
    })?;
    let header: Header =
        serde_json::from_str(json).map_err(|e| file.corrupt(format!("header: {e}")))?;
    let found = header.format_version;
    match sealed {
        Some(version) if version != found => Err(file.corrupt(format!(
            "its header says format version {found}, its metadata {version}"
        ))),
        None if found != UNSEALED_VERSION => {
            file.check_version(found, READS)?;
            Err(file.corrupt(format!(
                "format version {found} must be sealed, and it has no `format` metadata entry"
            )))
        }
        _ => Ok(header),
    }
}

/// The sealed safetensors bytes of `games` (their arrays, `header` as a metadata entry and the
/// seal of `format`): the encoding replay files and shards share.
pub(super) fn encode_games<'a>(
    file: FileRef,
    format: &SafetensorsFormat,
    header: (&'static str, String),
    games: impl Iterator<Item = &'a Trajectory>,
) -> Result<Vec<u8>, FileError> {
    let arrays = Columns::of(games).encode();
    let views = arrays
        .iter()
        .map(|(name, dtype, data, len)| {
            TensorView::new(*dtype, vec![*len], data).map(|view| (name.to_string(), view))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| file.encode(e.to_string()))?;
    let serialize = |entries: &[(&'static str, String)]| {
        let metadata: HashMap<String, String> = entries
            .iter()
            .map(|(key, value)| (key.to_string(), value.clone()))
            .collect();
        safetensors::serialize(views.iter().map(|(n, v)| (n, v)), Some(metadata))
            .map_err(|e| e.to_string())
    };
    format
        .seal(vec![header], serialize)
        .map_err(|reason| file.encode(reason))
}

/// The games of the safetensors file `bytes` (encoded by [`encode_games`]) whose metadata is
/// `metas`, for positions of `sizes`.
pub(super) fn decode_games(
    file: FileRef,
    bytes: &[u8],
    metas: Vec<TrajectoryMeta>,
    sizes: Sizes,
) -> Result<Vec<Trajectory>, FileError> {
    let tensors = SafeTensors::deserialize(bytes)
        .map_err(|e| file.corrupt(format!("not a readable safetensors file: {e}")))?;
    let columns = Columns::read(file, &tensors)?;
    columns.check_lengths(file, &metas, sizes.planes)?;
    let mut at = Cursor::default();
    let games = metas
        .into_iter()
        .map(|meta| columns.game(file, meta, sizes, &mut at))
        .collect::<Result<Vec<_>, _>>()?;
    if at.obs_value != columns.obs_values.len() {
        return Err(file.corrupt("observation values are left over"));
    }
    Ok(games)
}

impl<G: Game> ReplayBuffer<G> {
    /// Writes the window into `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), ReplayFileError> {
        let file = FileRef::new(FileKind::Replay, path);
        let header = Header {
            format_version: FORMAT_VERSION,
            observation_shape: self.prototype.observation_shape(),
            num_actions: self.num_actions,
            games_added: self.games_added,
            games: self.games.iter().map(|g| g.meta.clone()).collect(),
        };
        let header = serde_json::to_string(&header).map_err(|e| file.encode(e.to_string()))?;
        let bytes = encode_games(file, &SEAL, (HEADER_KEY, header), self.games.iter())?;
        Ok(file.write(&bytes)?)
    }

    /// Reads a window saved by [`save`](Self::save) (of this or an earlier format version) for
    /// games like `prototype`; the last `config.window_games` games are kept.
    pub fn load(
        path: &Path,
        config: ReplayConfig,
        prototype: G,
    ) -> Result<ReplayBuffer<G>, ReplayFileError> {
        let file = FileRef::new(FileKind::Replay, path);
        let bytes = file.read()?;
        let metadata = read_metadata(file, &bytes)?;
        let header = read_header(file, &bytes, &metadata)?;
        let mut buffer = ReplayBuffer::new(config, prototype);
        buffer.check_sizes(path, &header)?;
        let sizes = Sizes {
            planes: buffer.planes,
            cells: buffer.cells,
            num_actions: buffer.num_actions,
        };
        for game in decode_games(file, &bytes, header.games, sizes)? {
            buffer.add_game(game);
        }
        buffer.games_added = header.games_added;
        Ok(buffer)
    }

    /// An error unless the file at `path` with `header` holds games of this buffer's
    /// observation shape and action space.
    fn check_sizes(&self, path: &Path, header: &Header) -> Result<(), ReplayFileError> {
        let shape = self.prototype.observation_shape();
        if header.observation_shape == shape && header.num_actions == self.num_actions {
            return Ok(());
        }
        let describe = |s: [usize; 3], a: usize| format!("observation {s:?} and {a} actions");
        Err(ReplayFileError::Mismatch {
            path: path.to_path_buf(),
            expected: describe(shape, self.num_actions),
            found: describe(header.observation_shape, header.num_actions),
        })
    }
}
