//! The batched search driver: advances many independent searches (self-play games, arena
//! games) together. Each round, every unfinished search walks its tree in parallel (rayon) for
//! up to `batch_size / active searches` new leaves, spread by virtual loss; the leaves of all
//! searches go to the evaluator in ONE call; the answers are expanded and backed up in
//! parallel again. Buffers are kept between rounds and searches.

use fanorona_env::{ActionError, Game};
use rayon::prelude::*;

use crate::Evaluator;
use crate::config::SearchConfig;
use crate::search::{Search, SearchResult};

/// Batch sizes the evaluator was actually given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// Evaluator calls.
    pub calls: u64,
    /// States evaluated, all calls together.
    pub states: u64,
    /// The largest batch.
    pub largest: usize,
}

impl BatchStats {
    /// The mean batch size (0 before any call).
    pub fn mean(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.states as f64 / self.calls as f64
        }
    }

    /// Counts one evaluator call of `batch` states.
    fn record(&mut self, batch: usize) {
        self.calls += 1;
        self.states += batch as u64;
        self.largest = self.largest.max(batch);
    }
}

/// Many searches driven together, one per game.
#[derive(Debug)]
pub struct SearchDriver<G: Game> {
    config: SearchConfig,
    batch_size: usize,
    searches: Vec<Search<G>>,
    /// Leaf slots: search `i` writes its leaves at `i * per_search..`, then the leaves are
    /// moved (swapped) to the front to form the batch.
    states: Vec<G>,
    policy: Vec<f32>,
    values: Vec<f32>,
    /// Per search: where its leaves start in the batch, and how many there are.
    spans: Vec<(usize, usize)>,
    stats: BatchStats,
}

impl<G: Game> SearchDriver<G> {
    /// One search per root state; at most `batch_size` (at least 1) states per evaluator call.
    /// Search `i` draws its random numbers from a seed derived from `config.seed` and `i`.
    pub fn new(config: SearchConfig, batch_size: usize, roots: &[G]) -> SearchDriver<G> {
        let searches = roots
            .iter()
            .enumerate()
            .map(|(i, root)| Search::new(root.clone(), search_seed(config.seed, i)))
            .collect();
        SearchDriver {
            config,
            batch_size: batch_size.max(1),
            searches,
            states: Vec::new(),
            policy: Vec::new(),
            values: Vec::new(),
            spans: vec![(0, 0); roots.len()],
            stats: BatchStats::default(),
        }
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The search settings, to change between searches (temperature, noise, budget).
    pub fn config_mut(&mut self) -> &mut SearchConfig {
        &mut self.config
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.searches.len()
    }

    /// Whether the driver has no game.
    pub fn is_empty(&self) -> bool {
        self.searches.is_empty()
    }

    /// The search of game `game`.
    pub fn search_of(&self, game: usize) -> &Search<G> {
        &self.searches[game]
    }

    /// The current state of game `game`.
    pub fn state(&self, game: usize) -> &G {
        self.searches[game].state()
    }

    /// The result of game `game`'s last search (`None` if its game is over or moved on).
    pub fn result(&self, game: usize) -> Option<&SearchResult> {
        self.searches[game].result()
    }

    /// The batch sizes given to the evaluator so far.
    pub fn stats(&self) -> BatchStats {
        self.stats
    }

    /// Starts game `game` over at `state`, dropping its tree.
    pub fn reset(&mut self, game: usize, state: &G) {
        self.searches[game].reset(state);
    }

    /// Moves game `game` to `state` if its tree holds it behind actions of the player to act
    /// (see [`Search::advance_to`]); `false` (nothing changed) if not.
    pub fn advance_to(&mut self, game: usize, state: &G) -> bool {
        self.searches[game].advance_to(state)
    }

    /// Plays `action` in game `game`, keeping the subtree under it for the next search.
    pub fn play(&mut self, game: usize, action: usize) -> Result<(), ActionError> {
        self.searches[game].play(action)
    }

    /// Runs one search in every game that is not over, with `evaluator` for the leaves.
    /// Afterwards [`SearchDriver::result`] holds each game's move and policy targets.
    pub fn search<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &mut E) {
        self.search_until(evaluator, || false);
    }

    /// [`SearchDriver::search`], ended early once `stop` says so: it is asked after each
    /// evaluator call, once every root is evaluated (a time limit, a stop flag).
    pub fn search_until<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        mut stop: impl FnMut() -> bool,
    ) {
        for search in &mut self.searches {
            search.begin(&self.config);
        }
        loop {
            let active = self
                .searches
                .iter()
                .filter(|s| !s.is_done(&self.config))
                .count();
            if active == 0 {
                break;
            }
            let per_search = (self.batch_size / active).max(1);
            self.gather_leaves(per_search);
            let total = self.move_leaves_to_front(per_search);
            if total > 0 {
                self.evaluate_leaves(evaluator, total);
            }
            if stop() && self.searches.iter().all(Search::root_ready) {
                break;
            }
        }
        for search in &mut self.searches {
            search.finish(&self.config);
        }
    }

    /// Lets every unfinished search (in parallel if there are several) write up to
    /// `per_search` leaves into its slots, recording how many in its span.
    fn gather_leaves(&mut self, per_search: usize) {
        let needed = per_search * self.searches.len();
        while self.states.len() < needed {
            self.states.push(self.searches[0].state().clone());
        }
        let config = &self.config;
        let slots = &mut self.states[..needed];
        if self.searches.len() > 1 {
            self.searches
                .par_iter_mut()
                .zip(slots.par_chunks_mut(per_search))
                .zip(self.spans.par_iter_mut())
                .for_each(|((search, chunk), span)| gather(search, chunk, span, config));
        } else {
            self.searches
                .iter_mut()
                .zip(slots.chunks_mut(per_search))
                .zip(self.spans.iter_mut())
                .for_each(|((search, chunk), span)| gather(search, chunk, span, config));
        }
    }

    /// Moves the gathered leaves to the front of the slots, keeping their order, and sets
    /// where each search's leaves start; the number of leaves.
    fn move_leaves_to_front(&mut self, per_search: usize) -> usize {
        let mut total = 0;
        for (i, span) in self.spans.iter_mut().enumerate() {
            span.0 = total;
            for j in 0..span.1 {
                self.states.swap(total, i * per_search + j);
                total += 1;
            }
        }
        total
    }

    /// Evaluates the first `total` slots in one call to `evaluator`, and lets each search
    /// (in parallel if there are several) expand and back up its leaves with the answers.
    fn evaluate_leaves<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &mut E, total: usize) {
        let config = &self.config;
        let num_actions = self.states[0].num_actions();
        self.policy.resize(total * num_actions, 0.0);
        self.values.resize(total, 0.0);
        let (states, policy, values) = (
            &self.states[..total],
            &mut self.policy[..total * num_actions],
            &mut self.values[..total],
        );
        evaluator.evaluate(states, policy, values);
        self.stats.record(total);
        let (policy, values) = (&*policy, &*values);
        let complete = |(search, &(start, count)): (&mut Search<G>, &(usize, usize))| {
            if count > 0 {
                search.complete(
                    &states[start..start + count],
                    &policy[start * num_actions..(start + count) * num_actions],
                    &values[start..start + count],
                    config,
                );
            }
        };
        if self.searches.len() > 1 {
            self.searches
                .par_iter_mut()
                .zip(self.spans.par_iter())
                .for_each(complete);
        } else {
            self.searches
                .iter_mut()
                .zip(self.spans.iter())
                .for_each(complete);
        }
    }
}

/// Lets an unfinished search fill its slots with leaves; records how many in `span`.
fn gather<G: Game>(
    search: &mut Search<G>,
    slots: &mut [G],
    span: &mut (usize, usize),
    config: &SearchConfig,
) {
    span.1 = if search.is_done(config) {
        0
    } else {
        search.gather(slots, config)
    };
}

/// The seed of search `index` under the driver seed `seed`.
fn search_seed(seed: u64, index: usize) -> u64 {
    seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
