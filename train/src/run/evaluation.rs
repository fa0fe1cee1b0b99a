//! Arena matches of a network (searching with [`network_agent`]) against any agent
//! specification: the run's periodic evaluation against [`EVAL_OPPONENTS`], and `fanorona
//! eval`.

use fanorona_env::{AgentSpec, Board, Position};
use fanorona_eval::{ArenaError, Built, Match, MatchConfig, MatchReport, Openings, spec_factory};
use fanorona_search::SearchConfig;
use fanorona_util::progress::ProgressBar;

use super::{RunConfig, TrainError};
use crate::model::PolicyValueNet;
use crate::players::network_agent;

/// The opponents of the periodic evaluation matches.
pub const EVAL_OPPONENTS: [&str; 2] = ["minimax:depth=1", "minimax:depth=2"];

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
            event: format!("{name} vs {opponent}"),
            progress: self.progress.clone(),
        };
        let first =
            |seed| -> Built { Ok(network_agent(net, &self.search, seed, name.to_string())) };
        let second = spec_factory(&registry, opponent);
        Match::new(config, &first, &second).run()
    }
}

/// The network's scores against [`EVAL_OPPONENTS`] in quick arena matches on `board` after
/// iteration `iteration`, as `config.run` sets them; the matches' seed derives from the run's.
pub(crate) fn evaluate(
    net: &PolicyValueNet,
    config: &RunConfig,
    board: &'static Board,
    iteration: u64,
) -> Result<[f64; 2], TrainError> {
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
    let mut scores = [0.0; 2];
    for (score, opponent) in scores.iter_mut().zip(EVAL_OPPONENTS) {
        let spec = AgentSpec::parse(opponent).expect("the evaluation opponents parse");
        *score = arena.run(net, "network", &spec)?.tally.score();
    }
    Ok(scores)
}
