//! A trained network as a player: tree search with the network's evaluations
//! ([`MctsAgent`] + [`NetworkEvaluator`]), and arena matches of it against any agent
//! specification (used by the trainer's periodic evaluation and by `fanorona eval`).

use fanorona_env::{Agent, AgentSpec, Board, Fanorona, Position};
use fanorona_eval::{ArenaError, Match, MatchConfig, MatchReport, Openings};
use fanorona_search::{MctsAgent, SearchConfig};

use crate::model::PolicyValueNet;
use crate::players::NetworkEvaluator;

/// Leaves a network player's search sends to the network at once.
const AGENT_BATCH: usize = 8;

/// The network's search player: searches with `search`, seeded by `seed`.
pub fn network_agent(
    net: &PolicyValueNet,
    search: &SearchConfig,
    seed: u64,
    name: String,
) -> Box<dyn Agent<Fanorona>> {
    let config = SearchConfig {
        seed,
        ..search.clone()
    };
    Box::new(MctsAgent::new(
        config,
        NetworkEvaluator::<Fanorona>::new(net),
        AGENT_BATCH,
        name,
    ))
}

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
    /// Whether to show the arena's progress bar.
    pub progress: bool,
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
            .map_err(|e| ArenaError::Agent {
                which: "second",
                reason: e.to_string(),
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
            progress: self.progress,
        };
        type Built = Result<Box<dyn Agent<Fanorona>>, String>;
        let first =
            |seed| -> Built { Ok(network_agent(net, &self.search, seed, name.to_string())) };
        let second = |seed| -> Built { registry.create(opponent, seed).map_err(|e| e.to_string()) };
        Match::new(config, &first, &second).run()
    }
}
