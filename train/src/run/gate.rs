//! The gate of an `abnet` run: a new generation (the learner's network) plays the best network
//! so far, both searching with `abnet` for `abnet.gate_nodes` nodes a turn, in an arena match of
//! `abnet.gate_games` games (colours alternate, each pair from the same two random opening
//! turns), seeded from the run's seed and the iteration; it replaces the best only with a
//! score above `abnet.gate_threshold`.

use fanorona_env::{Agent, Board, Budget, Fanorona, Position};
use fanorona_eval::minimax::MinimaxChooser;
use fanorona_eval::{Built, Match, MatchConfig, Openings, TurnAgent};
use fanorona_util::progress::ProgressBar;

use crate::config::{AlphaBetaConfig, RunConfig};
use crate::error::TrainError;
use crate::model::PolicyValueNet;
use crate::players::NetValue;

/// Transposition table of each gate player's search, in MiB.
const HASH_MB: usize = 4;

/// The score of `candidate` against `best` in the gate match after iteration `iteration` of
/// the run `config` (which has an `[abnet]` section) on `board`.
pub(crate) fn gate_score(
    candidate: &PolicyValueNet,
    best: &PolicyValueNet,
    config: &RunConfig,
    abnet: &AlphaBetaConfig,
    board: &'static Board,
    iteration: u64,
) -> Result<f64, TrainError> {
    let start = Position::initial(board);
    let player = |net: &PolicyValueNet| {
        let mlp = net.mlp_inference().expect("an abnet run trains an MLP");
        NetValue::new(&mlp, &start, 0.0)
    };
    let (candidate, best) = (player(candidate), player(best));
    let budget = Budget::node_count(abnet.gate_nodes);
    let agent = |value: &NetValue, name: &str, seed: u64| -> Box<dyn Agent<Fanorona>> {
        let chooser = MinimaxChooser::with_evaluation(name, budget, HASH_MB, seed, value.clone());
        Box::new(TurnAgent::new(chooser))
    };
    let first = |seed| -> Built { Ok(agent(&candidate, "candidate", seed)) };
    let second = |seed| -> Built { Ok(agent(&best, "best", seed)) };
    let match_config = MatchConfig {
        games: abnet.gate_games,
        threads: rayon::current_num_threads().max(1),
        start,
        openings: Openings::Random { plies: 2 },
        max_turns: config.selfplay.max_actions,
        seed: config.run.seed ^ iteration.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ GATE_SEED,
        sprt: None,
        event: format!("gate after iteration {iteration}"),
        progress: ProgressBar::hidden(),
    };
    Ok(Match::new(match_config, &first, &second)
        .run()?
        .tally
        .score())
}

/// Set apart the gate's seeds from the evaluation matches' of the same iteration.
const GATE_SEED: u64 = 0x6A7E;
