//! The minimax player: a [`Searcher`] behind the [`TurnChooser`] interface.

use fanorona_env::{AgentError, Fanorona, Turn};

use super::search::{Limits, SearchResult, Searcher};
use crate::agents::turn_agent::TurnChooser;

/// Chooses turns by alpha-beta search.
#[derive(Debug)]
pub struct MinimaxChooser {
    name: String,
    searcher: Searcher,
    last: Option<SearchResult>,
}

impl MinimaxChooser {
    /// A minimax player called `name` with these limits, a `hash_mb` MiB table and a seed.
    pub fn new(name: impl Into<String>, limits: Limits, hash_mb: usize, seed: u64) -> Self {
        MinimaxChooser {
            name: name.into(),
            searcher: Searcher::new(limits, hash_mb, seed),
            last: None,
        }
    }

    /// The result of the last search.
    pub fn last_result(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }
}

impl TurnChooser for MinimaxChooser {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
        self.last = self.searcher.search(game);
        self.last.map(|r| r.turn).ok_or_else(|| AgentError {
            agent: self.name.clone(),
            reason: "no legal turn in this position".into(),
        })
    }

    fn reset(&mut self) {
        self.searcher.clear();
        self.last = None;
    }
}
