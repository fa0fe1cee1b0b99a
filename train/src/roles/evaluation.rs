//! Arena matches of a network (searching with [`network_agent`]) against any agent
//! specification (`fanorona eval`), and a run's periodic evaluation ([`Evaluation`]): the
//! strength of the agent it names with its interval, and the exact exam.

use fanorona_env::{AgentSpec, Board, Budget, Position};
use fanorona_eval::minimax::MinimaxChooser;
use fanorona_eval::{
    AgentFactory, ArenaError, Built, Match, MatchConfig, MatchReport, Openings, Tally, TurnAgent,
    spec_factory,
};
use fanorona_search::SearchConfig;
use fanorona_util::progress::ProgressBar;

use crate::config::RunConfig;
use crate::error::TrainError;
use crate::exam::{ExactScores, builtin_exact_exam};
use crate::model::PolicyValueNet;
use crate::players::{NetValue, network_agent};
use crate::run_dir::MetricsRow;

/// How a network is matched against an opponent.
#[derive(Clone, Debug)]
pub struct NetworkMatch {
    /// The board played on.
    pub board: &'static Board,
    /// Games to play (colours alternate).
    pub games: usize,
    /// The network's search (its seed comes from the match, one per game).
    pub search: SearchConfig,
    /// Games played at once.
    pub threads: usize,
    /// Random opening turns before the players take over (pairs share an opening).
    pub opening_turns: u32,
    /// A game still going after this many turns is a draw.
    pub max_turns: usize,
    /// The match seed.
    pub seed: u64,
    /// The arena's bar of finished games (the caller chooses whether it is drawn).
    pub progress: ProgressBar,
}

impl NetworkMatch {
    /// Plays `net` (the first agent, named `name`) against `opponent`.
    pub fn run(
        &self,
        net: &PolicyValueNet,
        name: &str,
        opponent: &AgentSpec,
    ) -> Result<MatchReport, ArenaError> {
        let first =
            |seed| -> Built { Ok(network_agent(net, &self.search, seed, name.to_string())) };
        self.run_agent(&first, opponent)
    }

    /// Plays the agents of `first` against `opponent`.
    pub fn run_agent(
        &self,
        first: &AgentFactory,
        opponent: &AgentSpec,
    ) -> Result<MatchReport, ArenaError> {
        let registry = crate::players::registry();
        registry
            .create(opponent, 0)
            .map_err(|reason| ArenaError::Agent {
                which: "second",
                reason,
            })?;
        let config = MatchConfig {
            games: self.games,
            threads: self.threads,
            start: Position::initial(self.board),
            openings: Openings::Random {
                plies: self.opening_turns,
            },
            max_turns: self.max_turns,
            seed: self.seed,
            sprt: None,
            event: format!("evaluation vs {opponent}"),
            progress: self.progress.clone(),
        };
        let second = spec_factory(&registry, opponent);
        Match::new(config, first, &second).run()
    }
}

/// Transposition table of the named agent's search in the strength match, in MiB (the
/// `abnet` kind's default).
const ABNET_HASH_MB: usize = 16;

/// Depth of the named `abnet` agent in the strength match (the `abnet` kind's default).
const ABNET_DEPTH: u32 = 4;

/// A periodic evaluation of a run's network: the strength of the agent the run names, with
/// its interval, and its exact exam.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The opponent of the strength match.
    pub opponent: &'static str,
    /// The named agent's wins, draws and losses against it (`None` where the evaluation
    /// played no strength match: see `strength_every_iterations`).
    pub strength: Option<Tally>,
    /// The network on the built-in exact set of its board (`None` on boards without one).
    pub exact: Option<ExactScores>,
}

impl Evaluation {
    /// The strength score and its 95% interval, where a strength match was played.
    pub fn score_with_interval(&self) -> Option<(f64, f64, f64)> {
        self.strength.map(|tally| {
            let (low, high) = tally.score_interval();
            (tally.score(), low, high)
        })
    }

    /// Fills the evaluation's columns of `row`.
    pub fn fill(&self, row: &mut MetricsRow) {
        if let Some((score, low, high)) = self.score_with_interval() {
            row.strength_score = Some(score);
            row.strength_low = Some(low);
            row.strength_high = Some(high);
        }
        if let Some(exact) = &self.exact {
            row.exact_keeps = Some(exact.keeps);
            [
                row.exact_keeps_few,
                row.exact_keeps_middle,
                row.exact_keeps_many,
            ] = exact.keeps_by_phase;
            row.exact_keeps_critical = exact.keeps_critical;
            row.exact_value_accuracy = Some(exact.value_accuracy);
            row.exact_value_brier = Some(exact.value_brier);
        }
    }

    /// One line: the strength with its interval and the exact exam.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some((score, low, high)) = self.score_with_interval() {
            parts.push(format!(
                "vs {} {score:.2} ({low:.2}-{high:.2})",
                self.opponent
            ));
        }
        if let Some(exact) = &self.exact {
            parts.push(format!(
                "exact exam keeps {:.1}%, values {:.1}% (Brier {:.3})",
                100.0 * exact.keeps,
                100.0 * exact.value_accuracy,
                exact.value_brier
            ));
        }
        parts.join(", ")
    }
}

/// The opponent of the strength match of a run: `minimax:depth=4` for the runs whose agent is
/// `abnet` (depth 4 against depth 4: above one half, the network judges positions better than
/// the hand-made evaluation), else `minimax:depth=2` (for the network's tree search at a few
/// dozen simulations).
pub fn strength_opponent(config: &RunConfig) -> &'static str {
    if config.searched_by_abnet() {
        "minimax:depth=4"
    } else {
        "minimax:depth=2"
    }
}

/// Evaluates `net` after iteration (or model version) `iteration` on `board`: the agent the
/// run names (`abnet` over the network, at the kind's default depth 4, where `abnet` plays
/// the run's networks, else the network's tree search at `eval_simulations`) plays
/// `eval_games` games against [`strength_opponent`], seeded from the run's seed and the
/// iteration, where the strength match is due ([`LoopConfig::strength_due`]); and the network
/// takes the exact exam.
///
/// [`LoopConfig::strength_due`]: crate::config::LoopConfig::strength_due
pub(crate) fn evaluate(
    net: &PolicyValueNet,
    config: &RunConfig,
    board: &'static Board,
    iteration: u64,
) -> Result<Evaluation, TrainError> {
    let opponent = strength_opponent(config);
    let exact = builtin_exact_exam(net).map_err(TrainError::Exam)?;
    if !config.run.strength_due(iteration) {
        return Ok(Evaluation {
            opponent,
            strength: None,
            exact,
        });
    }
    let spec = AgentSpec::parse(opponent).expect("the evaluation opponents parse");
    let arena = NetworkMatch {
        board,
        games: config.run.eval_games,
        search: SearchConfig {
            simulations: config.run.eval_simulations as u32,
            ..SearchConfig::default()
        },
        threads: rayon::current_num_threads().max(1),
        opening_turns: 2,
        max_turns: config.selfplay.max_actions,
        seed: config.run.seed ^ iteration.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        progress: ProgressBar::hidden(),
    };
    let report = match net.mlp_inference() {
        Some(mlp) if config.searched_by_abnet() => {
            let value = NetValue::new(&mlp, &Position::initial(board), 0.0);
            let named = |seed| -> Built {
                let chooser = MinimaxChooser::with_evaluation(
                    "abnet",
                    Budget::fixed_depth(ABNET_DEPTH),
                    ABNET_HASH_MB,
                    seed,
                    value.clone(),
                )
                .with_reductions(true);
                Ok(Box::new(TurnAgent::new(chooser)))
            };
            arena.run_agent(&named, &spec)?
        }
        _ => arena.run(net, "network", &spec)?,
    };
    Ok(Evaluation {
        opponent,
        strength: Some(report.tally),
        exact,
    })
}
