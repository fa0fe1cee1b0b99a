//! The configuration of a training run: game and board, network, search, self-play, replay,
//! learner and the run's schedule (checkpoints, evaluation), each section a settings type of
//! this layer. Read from TOML, with embedded presets (`tiny`, `small`, `default`, `long`,
//! `full`, `abnet`), and written resolved into the run directory as `config.toml`. A configuration with an `[abnet]` section trains the
//! network of the `abnet` agent by its own self-play (expert iteration); without one, the
//! network of an MCTS (AlphaZero), which a `[distill]` section teaches at the end of the run
//! to the smaller MLP `abnet` searches with (the run's agent).

use std::path::{Path, PathBuf};

use fanorona_env::{Board, Excerpt, GameId};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    AlphaBetaConfig, Architecture, ComputeDevice, DistillSettings, LrSchedule, MctsConfig,
    NetworkConfig, NetworkConfigError, NetworkSection, OptimizerConfig, ReplayConfig,
    SelfPlayConfig, TrainerConfig,
};
use fanorona_search::options::{FPU_MAX, FPU_MIN};
use fanorona_util::input_file::read_text_limited;

/// The names of the embedded presets.
pub const PRESETS: [&str; 7] = ["tiny", "small", "default", "long", "full", "abnet", "5x5"];

/// A run configuration that cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum RunConfigError {
    /// No preset of that name.
    #[error(
        "unknown preset {}: expected one of tiny, small, default, long, full, abnet",
        Excerpt(.0)
    )]
    UnknownPreset(String),
    /// The file cannot be read or written.
    #[error("cannot {action} run configuration {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Not valid TOML for a run configuration.
    #[error("run configuration {origin} is not valid: {message}")]
    Parse {
        /// The file or preset.
        origin: String,
        /// What is wrong, with its place.
        message: String,
    },
    /// A value that cannot be used (a board, a network's sizes).
    #[error("run configuration: {0}")]
    Invalid(String),
    /// A part of the run that plays Fanorona alone, asked of another game.
    #[error("run configuration: {}", .0.refusal())]
    FanoronaOnly(FanoronaPart),
    /// A key's value out of its range.
    #[error("run configuration: {key} = {found}: expected {expected}")]
    OutOfRange {
        /// The key, with its section, e.g. `training.trainer.schedule.lr`.
        key: &'static str,
        /// What the key takes.
        expected: &'static str,
        /// The value found.
        found: String,
    },
}

impl From<NetworkConfigError> for RunConfigError {
    fn from(e: NetworkConfigError) -> Self {
        RunConfigError::Invalid(e.to_string())
    }
}

/// A part of a run that plays Fanorona alone (the engines written for its rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FanoronaPart {
    /// `selfplay.tables`: exact value targets from endgame tables or a solved board.
    Tables,
    /// `selfplay.prover`: exact targets from the prover.
    Prover,
    /// `[abnet]`: self-play by the `abnet` agent.
    Abnet,
    /// `[distill]`: the student `abnet` searches with.
    Distill,
}

impl FanoronaPart {
    /// Why another game cannot have it.
    fn refusal(self) -> &'static str {
        match self {
            FanoronaPart::Tables => "selfplay.tables: endgame tables hold Fanorona positions only",
            FanoronaPart::Prover => "selfplay.prover: the prover settles Fanorona positions only",
            FanoronaPart::Abnet => "[abnet] self-play plays fanorona only",
            FanoronaPart::Distill => {
                "[distill] teaches fanorona networks only (abnet plays fanorona)"
            }
        }
    }
}

/// The `[game]` table as TOML writes it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameTable {
    /// `fanorona` (any odd board) or `telo` (Fanoron-Telo, 3x3).
    name: String,
    /// The board, `WxH` (e.g. `9x5`, `5x3`).
    board: String,
}

/// A run's game as its `[game]` table (`name`, `board`), checked when it is read.
mod game_table {
    use super::*;

    /// Writes `game` as its table.
    pub fn serialize<S: Serializer>(game: &GameId, serializer: S) -> Result<S::Ok, S::Error> {
        let table = GameTable {
            name: game.name().to_string(),
            board: game.board().to_string(),
        };
        table.serialize(serializer)
    }

    /// Reads the table, refusing a name or board that makes no game.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
        let table = GameTable::deserialize(deserializer)?;
        GameId::from_parts(&table.name, &table.board).map_err(serde::de::Error::custom)
    }
}

/// Training with minibatches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainingConfig {
    /// Positions per minibatch.
    pub batch_size: usize,
    /// Learner steps per iteration.
    pub steps_per_iteration: usize,
    /// Positions needed in the replay window before training starts.
    pub min_replay_positions: usize,
    /// The optimiser, schedule and loss weights of the trainer (the section's name before
    /// 2026-12-06, `[training.learner]`, is read too).
    #[serde(alias = "learner")]
    pub trainer: TrainerConfig,
}

/// The run's length, seed, device and bookkeeping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoopConfig {
    /// Self-play + training iterations.
    pub iterations: u64,
    /// Seed of the run's random generator.
    pub seed: u64,
    /// Where the network runs (checked when the run starts: a GPU preset names a device a CPU
    /// build lacks).
    #[serde(default)]
    pub device: ComputeDevice,
    /// Learner steps between checkpoints (and a checkpoint at the end).
    pub checkpoint_every_steps: u64,
    /// Checkpoints kept in the run directory.
    pub keep_checkpoints: usize,
    /// Iterations between evaluations (0 = never): the exact exam of the network (a second
    /// or less) and, where due, the strength match.
    pub eval_every_iterations: u64,
    /// Iterations between the evaluations that also play the strength match (a multiple of
    /// `eval_every_iterations`; the run's last iteration plays it too where it is evaluated);
    /// left out: every evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength_every_iterations: Option<u64>,
    /// Games per evaluation match.
    pub eval_games: usize,
    /// Simulations of the network's search in evaluation matches.
    pub eval_simulations: usize,
    /// A policy file whose network the run starts from, instead of seeded random weights
    /// (`fanorona export`, `fit`, `distill`): of the run's game, architecture and value head.
    /// Read when the run starts; a resumed run goes on from its checkpoint. An `abnet` run
    /// names its start in `abnet.start` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<PathBuf>,
}

impl LoopConfig {
    /// Whether the evaluation after iteration (or model version) `iteration` plays the
    /// strength match: every `strength_every_iterations` iterations and at the run's last,
    /// or at every evaluation where that is left out.
    pub fn strength_due(&self, iteration: u64) -> bool {
        match self.strength_every_iterations {
            None => true,
            Some(every) => {
                iteration == self.iterations || (every > 0 && iteration.is_multiple_of(every))
            }
        }
    }
}

/// A whole training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The game.
    #[serde(with = "game_table")]
    pub game: GameId,
    /// The network architecture and value head (sizes of input and output come from the
    /// game).
    pub network: NetworkSection,
    /// Tree search (not used by a run with an `[abnet]` section, which may leave it out).
    #[serde(default)]
    pub mcts: MctsConfig,
    /// Self-play.
    pub selfplay: SelfPlayConfig,
    /// Self-play by the `abnet` agent instead of the tree search, and the gate (expert
    /// iteration); `None` for an MCTS run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abnet: Option<AlphaBetaConfig>,
    /// The replay window.
    pub replay: ReplayConfig,
    /// The learner.
    pub training: TrainingConfig,
    /// Length, seed, device, checkpoints and evaluation.
    pub run: LoopConfig,
    /// Of a Fanorona MCTS run, the student the finished run's network is taught to (seeded by
    /// the run's seed): the run's agent, `abnet` over it; `None`: no agent file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distill: Option<DistillSettings>,
}

impl RunConfig {
    /// The TOML text of an embedded preset.
    pub fn preset_text(name: &str) -> Result<&'static str, RunConfigError> {
        Ok(match name {
            "tiny" => include_str!("../../presets/tiny.toml"),
            "small" => include_str!("../../presets/small.toml"),
            "default" => include_str!("../../presets/default.toml"),
            "long" => include_str!("../../presets/long.toml"),
            "full" => include_str!("../../presets/full.toml"),
            "abnet" => include_str!("../../presets/abnet.toml"),
            "5x5" => include_str!("../../presets/5x5.toml"),
            other => return Err(RunConfigError::UnknownPreset(other.to_string())),
        })
    }

    /// An embedded preset.
    pub fn preset(name: &str) -> Result<RunConfig, RunConfigError> {
        RunConfig::from_toml(RunConfig::preset_text(name)?, &format!("preset {name}"))
    }

    /// Reads and checks a configuration from TOML text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<RunConfig, RunConfigError> {
        let config: RunConfig = toml::from_str(text).map_err(|e| RunConfigError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Reads and checks a configuration file (of at most [`MAX_CONFIG_BYTES`]).
    pub fn load(path: &Path) -> Result<RunConfig, RunConfigError> {
        let text =
            read_text_limited(path, MAX_CONFIG_BYTES, "a run configuration").map_err(|source| {
                RunConfigError::Io {
                    action: "read",
                    path: path.display().to_string(),
                    source,
                }
            })?;
        RunConfig::from_toml(&text, &path.display().to_string())
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a run configuration serialises")
    }

    /// The network configuration for a game with this observation shape and action count.
    pub fn network_config(
        &self,
        observation_shape: [usize; 3],
        num_actions: usize,
    ) -> NetworkConfig {
        let [planes, height, width] = observation_shape;
        NetworkConfig {
            planes,
            height,
            width,
            num_actions,
            architecture: self.network.architecture.clone(),
            value_head: self.network.value_head,
        }
    }

    /// Checks values are in range: every float finite, rates and sizes positive, weights and
    /// temperatures not negative, probabilities in `[0, 1]`, counts at least 1. The error
    /// names the first key out of range and what it expects.
    pub fn validate(&self) -> Result<(), RunConfigError> {
        if self.selfplay.tables.is_some() {
            self.fanorona_board(FanoronaPart::Tables)?;
        }
        if self.run.init.is_some() && self.abnet.is_some() {
            return Err(RunConfigError::Invalid(
                "run.init and [abnet] both name the network the run starts from: an abnet run \
                 takes abnet.start"
                    .into(),
            ));
        }
        // Sizes of the network do not depend on the game's input size.
        self.network_config([1, 1, 1], 1).validate()?;
        validate_mcts(&self.mcts)?;
        let s = &self.selfplay;
        count(
            "selfplay.games_per_iteration",
            s.games_per_iteration as u64,
            MAX_GAMES,
        )?;
        count(
            "selfplay.parallel_games",
            s.parallel_games as u64,
            MAX_PARALLEL_GAMES,
        )?;
        count("selfplay.max_actions", s.max_actions as u64, MAX_ACTIONS)?;
        probability("selfplay.score_weight", s.score_weight.into())?;
        if s.random_opening > MAX_RANDOM_OPENING {
            return Err(RunConfigError::OutOfRange {
                key: "selfplay.random_opening",
                expected: "random turns from 0 up to its limit",
                found: format!("{} (the limit is {MAX_RANDOM_OPENING})", s.random_opening),
            });
        }
        if let Some(prover) = &s.prover {
            self.fanorona_board(FanoronaPart::Prover)?;
            count("selfplay.prover.nodes", prover.nodes, MAX_PROVER_NODES)?;
            require(
                prover.share > 0.0 && prover.share <= 1.0,
                "selfplay.prover.share",
                "a share in (0, 1]",
                prover.share,
            )?;
        }
        count(
            "replay.window_games",
            self.replay.window_games as u64,
            MAX_WINDOW_GAMES,
        )?;
        let mix = self.replay.root_value_weight.into();
        probability("replay.root_value_weight", mix)?;
        let t = &self.training;
        count("training.batch_size", t.batch_size as u64, MAX_BATCH as u64)?;
        count(
            "training.steps_per_iteration",
            t.steps_per_iteration as u64,
            MAX_STEPS,
        )?;
        validate_trainer(&t.trainer)?;
        if let Some(abnet) = &self.abnet {
            self.validate_abnet(abnet)?;
        }
        if let Some(distill) = &self.distill {
            self.validate_distill(distill)?;
        }
        validate_loop(&self.run)
    }
}

impl RunConfig {
    /// An error for a run with an `[abnet]` section: only `fanorona train` trains those (the
    /// distributed roles play and learn MCTS runs).
    pub fn refuse_abnet(&self) -> Result<(), RunConfigError> {
        if self.abnet.is_none() {
            return Ok(());
        }
        let why = "an [abnet] run is trained by `fanorona train` only; the distributed roles \
                   (selfplay, learn, Ray) play and learn MCTS runs";
        Err(RunConfigError::Invalid(why.into()))
    }

    /// The run's board for `part`, which plays Fanorona alone; refused for another game.
    pub fn fanorona_board(&self, part: FanoronaPart) -> Result<&'static Board, RunConfigError> {
        self.game
            .fanorona_board()
            .ok_or(RunConfigError::FanoronaOnly(part))
    }

    /// Whether `abnet` can play this run's networks: a game alpha-beta plays and an MLP.
    pub fn searched_by_abnet(&self) -> bool {
        self.game.has_alpha_beta() && matches!(self.network.architecture, Architecture::Mlp { .. })
    }

    /// Checks the `[abnet]` section: a Fanorona game, an MLP, node budgets, chances and counts.
    fn validate_abnet(&self, abnet: &AlphaBetaConfig) -> Result<(), RunConfigError> {
        self.fanorona_board(FanoronaPart::Abnet)?;
        if !matches!(self.network.architecture, Architecture::Mlp { .. }) {
            let why =
                "[abnet] trains the MLP that abnet searches with: network.kind must be \"mlp\"";
            return Err(RunConfigError::Invalid(why.into()));
        }
        if self.selfplay.score_weight != 0.0 {
            let why = "selfplay.score_weight mixes the score into MCTS self-play's targets; \
                       [abnet] self-play mixes its search scores (replay.root_value_weight)";
            return Err(RunConfigError::Invalid(why.into()));
        }
        if self.selfplay.random_opening != 0 || self.selfplay.prover.is_some() {
            let why = "selfplay.random_opening and selfplay.prover shape MCTS self-play; \
                       [abnet] self-play opens with abnet.random_opening";
            return Err(RunConfigError::Invalid(why.into()));
        }
        count("abnet.nodes", abnet.nodes, MAX_NODES)?;
        count("abnet.gate_nodes", abnet.gate_nodes, MAX_NODES)?;
        probability("abnet.random_turn", abnet.random_turn)?;
        count("abnet.gate_games", abnet.gate_games as u64, MAX_GAMES)?;
        probability("abnet.gate_threshold", abnet.gate_threshold)
    }

    /// Checks the `[distill]` section: a Fanorona MCTS run, settings in range.
    fn validate_distill(&self, distill: &DistillSettings) -> Result<(), RunConfigError> {
        self.fanorona_board(FanoronaPart::Distill)?;
        let why = if self.abnet.is_some() {
            Some("[distill] is for MCTS runs: an [abnet] run trains abnet's network itself".into())
        } else {
            distill.validate().err().map(|e| format!("distill: {e}"))
        };
        why.map_or(Ok(()), |why| Err(RunConfigError::Invalid(why)))
    }
}

/// The most bytes of a configuration file (a few kB in practice).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The most simulations a search may be given (per turn).
pub const MAX_SIMULATIONS: u64 = 1_000_000;
/// The most nodes an `abnet` search of a run may be given (per turn).
pub const MAX_NODES: u64 = 1_000_000_000;
/// The most games an iteration or an evaluation may play.
pub const MAX_GAMES: u64 = 1_000_000;
/// The most games self-play may keep in flight at once (each holds a search tree).
pub const MAX_PARALLEL_GAMES: u64 = 4_096;
/// The most actions a self-play game may last.
pub const MAX_ACTIONS: u64 = 100_000;
/// The most games the replay window may hold.
pub const MAX_WINDOW_GAMES: u64 = 10_000_000;
/// The most positions a learner batch (or a distillation step) may hold.
pub const MAX_BATCH: usize = 65_536;
/// The most learner steps an iteration may take.
pub const MAX_STEPS: u64 = 1_000_000;
/// The most random turns that open a self-play game.
pub const MAX_RANDOM_OPENING: u32 = 1_000;
/// The largest node budget of the prover on one self-play position.
pub const MAX_PROVER_NODES: u64 = 100_000_000;

/// Checks the `[mcts]` section (see [`RunConfig::validate`]).
fn validate_mcts(m: &MctsConfig) -> Result<(), RunConfigError> {
    let search = &m.search;
    count(
        "mcts.simulations",
        search.simulations.into(),
        MAX_SIMULATIONS,
    )?;
    if search.gumbel {
        let considered = search.gumbel_considered;
        let key = "mcts.gumbel_considered";
        require(considered >= 2, key, "an integer at least 2", considered)?;
    }
    positive("mcts.c_puct", search.c_puct.into())?;
    let fpu = f64::from(search.fpu_reduction);
    let key = "mcts.fpu_reduction";
    let range = FPU_MIN..=FPU_MAX;
    require(
        range.contains(&fpu),
        key,
        "a number from 0 to 2 (as the agents' fpu)",
        fpu,
    )?;
    positive("mcts.dirichlet_alpha", search.dirichlet_alpha.into())?;
    probability("mcts.dirichlet_fraction", search.dirichlet_fraction.into())?;
    non_negative("mcts.temperature", search.temperature.into())?;
    non_negative("mcts.final_temperature", m.final_temperature.into())?;
    non_negative("mcts.c_visit", search.c_visit.into())?;
    non_negative("mcts.c_scale", search.c_scale.into())?;
    non_negative("mcts.virtual_loss", search.virtual_loss.into())?;
    non_negative("mcts.forced_playouts", search.forced_playouts.into())?;
    if let Some(cap) = &m.playout_cap {
        let fast = cap.fast_simulations;
        let ok = (1..=search.simulations).contains(&fast);
        let key = "mcts.playout_cap.fast_simulations";
        require(ok, key, "an integer in 1..=mcts.simulations", fast)?;
        probability("mcts.playout_cap.full_probability", cap.full_probability)?;
    }
    Ok(())
}

/// Checks the `[run]` section (see [`RunConfig::validate`]).
fn validate_loop(r: &LoopConfig) -> Result<(), RunConfigError> {
    count("run.iterations", r.iterations, u64::MAX)?;
    count(
        "run.checkpoint_every_steps",
        r.checkpoint_every_steps,
        u64::MAX,
    )?;
    count("run.keep_checkpoints", r.keep_checkpoints as u64, u64::MAX)?;
    if r.eval_every_iterations > 0 {
        count("run.eval_games", r.eval_games as u64, MAX_GAMES)?;
        count(
            "run.eval_simulations",
            r.eval_simulations as u64,
            MAX_SIMULATIONS,
        )?;
        if let Some(every) = r.strength_every_iterations {
            require(
                every > 0 && every.is_multiple_of(r.eval_every_iterations),
                "run.strength_every_iterations",
                "a positive multiple of run.eval_every_iterations",
                every,
            )?;
        }
    }
    Ok(())
}

/// Checks the `[training.trainer]` section.
fn validate_trainer(trainer: &TrainerConfig) -> Result<(), RunConfigError> {
    non_negative("training.trainer.value_weight", trainer.value_weight.into())?;
    let decay = trainer.ema_decay;
    let key = "training.trainer.ema_decay";
    require(
        (0.0..1.0).contains(&decay),
        key,
        "a number in [0, 1)",
        decay,
    )?;
    match trainer.optimizer {
        OptimizerConfig::Adam { weight_decay } => non_negative(
            "training.trainer.optimizer.weight_decay",
            weight_decay.into(),
        ),
        OptimizerConfig::Sgd {
            momentum,
            weight_decay,
        } => {
            probability("training.trainer.optimizer.momentum", momentum)?;
            non_negative(
                "training.trainer.optimizer.weight_decay",
                weight_decay.into(),
            )
        }
    }?;
    match trainer.schedule {
        LrSchedule::Constant { lr } => positive("training.trainer.schedule.lr", lr),
        LrSchedule::WarmupCosine {
            peak,
            final_fraction,
            ..
        } => {
            positive("training.trainer.schedule.peak", peak)?;
            probability("training.trainer.schedule.final_fraction", final_fraction)
        }
        LrSchedule::Step { lr, gamma, every } => {
            positive("training.trainer.schedule.lr", lr)?;
            positive("training.trainer.schedule.gamma", gamma)?;
            count("training.trainer.schedule.every", every, u64::MAX)
        }
    }
}

/// An error naming `key`, `expected` and the value `found` unless `ok`.
fn require(
    ok: bool,
    key: &'static str,
    expected: &'static str,
    found: impl ToString,
) -> Result<(), RunConfigError> {
    if ok {
        return Ok(());
    }
    Err(RunConfigError::OutOfRange {
        key,
        expected,
        found: found.to_string(),
    })
}

/// `value` must be finite and above 0.
fn positive(key: &'static str, value: f64) -> Result<(), RunConfigError> {
    let ok = value.is_finite() && value > 0.0;
    require(ok, key, "a finite number above 0", value)
}

/// `value` must be finite and at least 0.
fn non_negative(key: &'static str, value: f64) -> Result<(), RunConfigError> {
    let ok = value.is_finite() && value >= 0.0;
    require(ok, key, "a finite number at least 0", value)
}

/// `value` must be in `[0, 1]`.
fn probability(key: &'static str, value: f64) -> Result<(), RunConfigError> {
    require(
        (0.0..=1.0).contains(&value),
        key,
        "a number in [0, 1]",
        value,
    )
}

/// `value` must be at least 1 and at most `max`.
fn count(key: &'static str, value: u64, max: u64) -> Result<(), RunConfigError> {
    if value > max {
        return Err(RunConfigError::OutOfRange {
            key,
            expected: "an integer at least 1 and at most its limit",
            found: format!("{value} (the limit is {max})"),
        });
    }
    require(value >= 1, key, "an integer at least 1", value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_validates_and_round_trips() {
        for name in PRESETS {
            let config = RunConfig::preset(name).unwrap();
            let again = RunConfig::from_toml(&config.to_toml(), "round trip").unwrap();
            assert_eq!(again, config, "preset {name}");
        }
        assert!(matches!(
            RunConfig::preset("huge"),
            Err(RunConfigError::UnknownPreset(_))
        ));
    }

    #[test]
    fn strength_matches_follow_their_schedule_and_the_schedule_is_checked() {
        let mut config = RunConfig::preset("tiny").unwrap();
        config.run.iterations = 100;
        config.run.eval_every_iterations = 10;
        assert!((1..=100).all(|i| config.run.strength_due(i)));
        config.run.strength_every_iterations = Some(40);
        let due: Vec<u64> = (1..=100).filter(|&i| config.run.strength_due(i)).collect();
        assert_eq!(due, [40, 80, 100]);
        config.validate().unwrap();
        let text = config.to_toml();
        assert!(text.contains("strength_every_iterations = 40"), "{text}");
        for bad in [0, 15] {
            config.run.strength_every_iterations = Some(bad);
            let e = config.validate().unwrap_err().to_string();
            assert!(e.contains("run.strength_every_iterations"), "{e}");
        }
    }

    #[test]
    fn the_trainer_section_is_read_by_its_old_name_too() {
        let text = RunConfig::preset_text("tiny").unwrap();
        let old = text.replace("[training.trainer]", "[training.learner]");
        assert_ne!(old, text);
        let config = RunConfig::from_toml(&old, "old").unwrap();
        assert_eq!(config, RunConfig::preset("tiny").unwrap());
        assert!(config.to_toml().contains("[training.trainer]"));
    }

    #[test]
    fn the_game_is_read_once_from_its_table_and_a_bad_one_is_refused_at_load() {
        let text = RunConfig::preset_text("tiny").unwrap();
        let config = RunConfig::from_toml(text, "tiny").unwrap();
        assert!(
            config
                .to_toml()
                .contains("[game]\nname = \"fanorona\"\nboard = \"5x3\"")
        );
        let telo = text.replace("name = \"fanorona\"", "name = \"telo\"");
        let telo = telo.replace("board = \"5x3\"", "board = \"3x3\"");
        assert_eq!(
            RunConfig::from_toml(&telo, "telo").unwrap().game,
            GameId::Telo
        );
        for (bad, expected) in [
            ("name = \"chess\"", "unknown game \"chess\""),
            ("board = \"4x4\"", "4x4"),
        ] {
            let key = bad.split(' ').next().unwrap();
            let line = text.lines().find(|l| l.starts_with(key)).unwrap();
            let error = RunConfig::from_toml(&text.replace(line, bad), "bad").unwrap_err();
            let message = error.to_string();
            assert!(matches!(error, RunConfigError::Parse { .. }), "{message}");
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn the_search_section_keeps_its_old_keys_and_refuses_unknown_ones() {
        let text = RunConfig::preset_text("small").unwrap();
        let old = text.replace("gumbel_considered = 8", "gumbel_actions = 8");
        assert_ne!(old, text);
        let config = RunConfig::from_toml(&old, "old").unwrap();
        assert_eq!(config, RunConfig::preset("small").unwrap());
        assert_eq!(config.mcts.search.gumbel_considered, 8);
        let written = config.to_toml();
        assert!(written.contains("gumbel_considered = 8") && !written.contains("gumbel_actions"));
        let typo = text.replace("c_puct =", "cpuct =");
        assert_ne!(typo, text);
        let err = RunConfig::from_toml(&typo, "x").unwrap_err();
        assert!(err.to_string().contains("cpuct"), "{err}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_file_is_refused_by_its_size() {
        let err = RunConfig::load(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("over 1048576 bytes, the most a run configuration may have"),
            "{err}"
        );
    }

    #[test]
    fn bad_values_are_refused_with_their_place() {
        let text = RunConfig::preset_text("tiny").unwrap();
        let bad_board = text.replace("board = \"5x3\"", "board = \"4x3\"");
        assert!(matches!(
            RunConfig::from_toml(&bad_board, "x"),
            Err(RunConfigError::Parse { message, .. }) if message.contains("4x3")
        ));
        let unknown_key = format!("{text}\n[extra]\nfoo = 1\n");
        let err = RunConfig::from_toml(&unknown_key, "x").unwrap_err();
        assert!(matches!(err, RunConfigError::Parse { .. }), "{err}");
        let zero_sims = text.replace("simulations = 16", "simulations = 0");
        assert_ne!(zero_sims, text);
        assert!(RunConfig::from_toml(&zero_sims, "x").is_err());
    }

    #[test]
    fn values_out_of_range_are_refused_with_their_key_and_range() {
        let text = RunConfig::preset_text("tiny").unwrap();
        let cases = [
            (
                "lr = 3e-3",
                "lr = nan",
                "training.trainer.schedule.lr = NaN: expected a finite number above 0",
            ),
            (
                "weight_decay = 1e-4",
                "weight_decay = -1.0",
                "training.trainer.optimizer.weight_decay = -1: expected a finite number at least 0",
            ),
            (
                "temperature = 1.0",
                "temperature = inf",
                "mcts.temperature = inf: expected a finite number at least 0",
            ),
            (
                "c_puct = 1.5",
                "c_puct = 0.0",
                "mcts.c_puct = 0: expected a finite number above 0",
            ),
            (
                "dirichlet_fraction = 0.25",
                "dirichlet_fraction = nan",
                "mcts.dirichlet_fraction = NaN: expected a number in [0, 1]",
            ),
            (
                "value_weight = 1.0",
                "value_weight = 1.0\nema_decay = 1.0",
                "training.trainer.ema_decay = 1: expected a number in [0, 1)",
            ),
            (
                "augment = true",
                "augment = true\nroot_value_weight = 1.5",
                "replay.root_value_weight = 1.5: expected a number in [0, 1]",
            ),
            (
                "parallel_games = 8",
                "parallel_games = 8\nscore_weight = -0.5",
                "selfplay.score_weight = -0.5: expected a number in [0, 1]",
            ),
            (
                "steps_per_iteration = 8",
                "steps_per_iteration = 0",
                "training.steps_per_iteration = 0: expected an integer at least 1",
            ),
            (
                "c_puct = 1.5",
                "c_puct = 1.5\nfpu_reduction = -1.0",
                "mcts.fpu_reduction = -1: expected a number from 0 to 2 (as the agents' fpu)",
            ),
            (
                "iterations = 3",
                "iterations = 0",
                "run.iterations = 0: expected an integer at least 1",
            ),
            (
                "parallel_games = 8",
                "parallel_games = 100000000",
                "selfplay.parallel_games = 100000000 (the limit is 4096): expected an integer at least 1 \
                 and at most its limit",
            ),
        ];
        for (old, new, message) in cases {
            let bad = text.replace(old, new);
            assert_ne!(bad, text, "{old}");
            let err = RunConfig::from_toml(&bad, "x").unwrap_err();
            assert!(matches!(err, RunConfigError::OutOfRange { .. }), "{err}");
            assert_eq!(err.to_string(), format!("run configuration: {message}"));
        }
    }
}
