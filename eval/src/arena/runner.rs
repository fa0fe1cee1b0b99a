//! Playing matches: N games between a first and a second agent, in parallel on a rayon pool,
//! colours alternating (the first agent is white in even-numbered games), each pair of games
//! from the same opening. Agents are built per game from factories, with a seed derived from
//! the match seed and the game number, so a match with depth-limited agents is reproducible
//! whatever the number of threads. An optional SPRT stops the match once it has decided.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use fanorona_env::{Agent, AgentSpec, Fanorona, Position, Registry, SpecError};
use fanorona_util::denormals;
use fanorona_util::progress::ProgressBar;

use super::elo::Tally;
use super::error::ArenaError;
use super::game::{GameResult, RecordHeader, play_game};
use super::opening::Openings;
use super::report::MatchReport;
use super::sprt::{Sprt, SprtDecision};

/// An agent built for one game, or why it cannot be (the registry's refusal of its
/// specification).
pub type Built = Result<Box<dyn Agent<Fanorona>>, SpecError>;

/// Builds an agent for one game from a seed.
pub type AgentFactory<'a> = dyn Fn(u64) -> Built + Sync + 'a;

/// The factory of the agent `spec` describes: each game's agent is built by `registry` with
/// the game's seed.
pub fn spec_factory<'a>(
    registry: &'a Registry,
    spec: &'a AgentSpec,
) -> impl Fn(u64) -> Built + Sync + 'a {
    move |seed| registry.create(spec, seed)
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games to play (fewer if the SPRT stops early).
    pub games: usize,
    /// Games played at once; at most the number of games and [`MatchConfig::max_threads`]
    /// are used.
    pub threads: usize,
    /// The start position (board and rules) openings begin from.
    pub start: Position,
    /// Where each pair of games starts.
    pub openings: Openings,
    /// A game still going after this many turns (opening included) is a draw.
    pub max_turns: usize,
    /// The match seed (openings and agents' seeds derive from it).
    pub seed: u64,
    /// An optional SPRT that stops the match once decided.
    pub sprt: Option<Sprt>,
    /// The event name in the records.
    pub event: String,
    /// The bar counting finished games (its length is set to the games; the caller chooses
    /// whether it is drawn: `ProgressBar::hidden()` for none).
    pub progress: ProgressBar,
}

impl MatchConfig {
    /// Refuses settings under which no match can be played.
    fn check(&self) -> Result<(), ArenaError> {
        let refuse = |reason: &str| Err(ArenaError::Settings(reason.into()));
        if self.games == 0 {
            return refuse("at least one game is needed");
        }
        if self.threads == 0 {
            return refuse("at least one thread is needed");
        }
        if self.max_turns == 0 {
            return refuse("the turn cap must be at least 1");
        }
        Ok(())
    }

    /// The most games played at once: four per CPU core (more would only add threads).
    pub fn max_threads() -> usize {
        4 * std::thread::available_parallelism().map_or(1, usize::from)
    }

    /// The number of games played at once: `threads`, but no more than the games or
    /// [`MatchConfig::max_threads`].
    fn pool_threads(&self) -> usize {
        self.threads.min(self.games).min(MatchConfig::max_threads())
    }
}

/// The seed of agent `which` (0 first, 1 second) in game `index`.
fn agent_seed(seed: u64, index: usize, which: u64) -> u64 {
    seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (which + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// Builds agent `which` (`first` or `second`) from its factory.
fn build_agent(
    which: &'static str,
    factory: &AgentFactory,
    seed: u64,
) -> Result<Box<dyn Agent<Fanorona>>, ArenaError> {
    factory(seed).map_err(|reason| ArenaError::Agent { which, reason })
}

/// The agents' names and the date, the same in every game's record.
struct MatchLabels {
    first: String,
    second: String,
    date: String,
}

/// What the threads playing a match share: the next game to hand out, whether to stop, the
/// tally and results so far, the first failure, and the progress bar.
struct Scoreboard {
    next: AtomicUsize,
    stop: AtomicBool,
    results: Mutex<(Tally, Vec<GameResult>)>,
    failure: Mutex<Option<ArenaError>>,
    progress: ProgressBar,
}

impl Scoreboard {
    /// An empty scoreboard showing progress on `progress`.
    fn new(progress: ProgressBar) -> Scoreboard {
        Scoreboard {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            results: Mutex::new((Tally::default(), Vec::new())),
            failure: Mutex::new(None),
            progress,
        }
    }

    /// The next game to play, or `None` once the match is stopped or `games` are handed out.
    fn next_game(&self, games: usize) -> Option<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < games).then_some(index)
    }

    /// Adds a finished game, shows the score, and stops the match once `sprt` has decided.
    fn add(&self, result: GameResult, sprt: Option<Sprt>) {
        let mut guard = self.results.lock().expect("no panics while locked");
        let (tally, results) = &mut *guard;
        tally.add(result.first_score);
        results.push(result);
        self.progress.inc(1);
        self.progress.set_message(format!(
            "+{} ={} -{} Elo {:+.0}",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.elo()
        ));
        if let Some(sprt) = sprt
            && sprt.decision(tally) != SprtDecision::Continue
        {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Keeps `error` as the match's failure and stops the match.
    fn fail(&self, error: ArenaError) {
        *self.failure.lock().expect("no panics while locked") = Some(error);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Clears the progress bar and returns the tally and the games by number, or the failure.
    fn finish(self) -> Result<(Tally, Vec<GameResult>), ArenaError> {
        self.progress.finish_and_clear();
        if let Some(e) = self.failure.into_inner().expect("no panics while locked") {
            return Err(e);
        }
        let (tally, mut games) = self.results.into_inner().expect("no panics while locked");
        games.sort_by_key(|g| g.index);
        Ok((tally, games))
    }
}

/// A match between two agent factories.
pub struct Match<'a> {
    config: MatchConfig,
    first: &'a AgentFactory<'a>,
    second: &'a AgentFactory<'a>,
}

impl<'a> Match<'a> {
    /// A match; the first agent is white in games 0, 2, 4, ...
    pub fn new(
        config: MatchConfig,
        first: &'a AgentFactory<'a>,
        second: &'a AgentFactory<'a>,
    ) -> Match<'a> {
        Match {
            config,
            first,
            second,
        }
    }

    /// Plays the match.
    pub fn run(&self) -> Result<MatchReport, ArenaError> {
        let config = &self.config;
        config.check()?;
        let labels = MatchLabels {
            first: build_agent("first", self.first, 0)?.name(),
            second: build_agent("second", self.second, 0)?.name(),
            date: chrono::Utc::now().format("%Y.%m.%d").to_string(),
        };
        let threads = config.pool_threads();
        let pool = denormals::build_pool(rayon::ThreadPoolBuilder::new().num_threads(threads))
            .map_err(|e| ArenaError::Settings(format!("cannot start threads: {e}")))?;
        config.progress.set_length(config.games as u64);
        let scoreboard = Scoreboard::new(config.progress.clone());
        let start = Instant::now();
        pool.scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| self.play_games(&scoreboard, &labels));
            }
        });
        let (tally, games) = scoreboard.finish()?;
        Ok(MatchReport {
            first: labels.first,
            second: labels.second,
            sprt: config.sprt.map(|s| (s, s.decision(&tally))),
            stopped_early: (tally.games() as usize) < config.games,
            tally,
            games,
            elapsed: start.elapsed(),
        })
    }

    /// Plays the games `scoreboard` hands out until the match is over or stopped.
    fn play_games(&self, scoreboard: &Scoreboard, labels: &MatchLabels) {
        while let Some(index) = scoreboard.next_game(self.config.games) {
            match self.play_one(index, labels) {
                Ok(result) => scoreboard.add(result, self.config.sprt),
                Err(e) => {
                    scoreboard.fail(e);
                    break;
                }
            }
        }
    }

    /// Plays game `index`.
    fn play_one(&self, index: usize, labels: &MatchLabels) -> Result<GameResult, ArenaError> {
        let config = &self.config;
        let first = build_agent("first", self.first, agent_seed(config.seed, index, 0))?;
        let second = build_agent("second", self.second, agent_seed(config.seed, index, 1))?;
        let opening = config
            .openings
            .opening(&config.start, index / 2, config.seed);
        let first_is_white = index.is_multiple_of(2);
        let (mut white, mut black) = (first, second);
        let (mut white_name, mut black_name) = (&labels.first, &labels.second);
        if !first_is_white {
            std::mem::swap(&mut white, &mut black);
            std::mem::swap(&mut white_name, &mut black_name);
        }
        let played = play_game(&mut *white, &mut *black, &opening, config.max_turns);
        let header = RecordHeader {
            event: &config.event,
            date: &labels.date,
            white: white_name,
            black: black_name,
            round: index + 1,
        };
        let record = played.record(&opening, &header);
        Ok(GameResult::new(index, first_is_white, played, record))
    }
}

#[cfg(test)]
mod tests {
    use fanorona_env::Board;

    use super::*;

    #[test]
    fn no_more_threads_than_games_or_four_per_core() {
        let config = |games, threads| MatchConfig {
            games,
            threads,
            start: Position::initial(Board::standard()),
            openings: Openings::Random { plies: 0 },
            max_turns: 1,
            seed: 0,
            sprt: None,
            event: String::new(),
            progress: ProgressBar::hidden(),
        };
        assert_eq!(config(2, 100_000).pool_threads(), 2);
        assert_eq!(config(3, 2).pool_threads(), 2);
        let many = config(usize::MAX, usize::MAX).pool_threads();
        assert_eq!(many, MatchConfig::max_threads());
        assert!(many >= 4);
    }
}
