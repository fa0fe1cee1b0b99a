//! Playing matches: N games between a first and a second agent, in parallel on a rayon pool,
//! colours alternating (the first agent is white in even-numbered games), each pair of games
//! from the same opening, adjudicated by the rules (no pieces or moves, no-capture limit,
//! repetition) plus a turn cap that scores as a draw. An agent that fails or plays an illegal
//! action forfeits the game. Agents are built per game from factories, with a seed derived
//! from the match seed and the game number, so a match with depth-limited agents is
//! reproducible whatever the number of threads.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fanorona_env::denormals;
use fanorona_env::{
    Agent, Color, DrawReason, Fanorona, Game, Outcome, Position, Step, Turn, WinReason,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::elo::Tally;
use super::opening::{Opening, Openings};
use super::sprt::{Sprt, SprtDecision};
use crate::agents::complete_turn::turn_of_steps;
use crate::atomic_write::write_atomic;
use crate::record::GameRecord;

/// Builds an agent for one game from a seed.
pub type AgentFactory<'a> = dyn Fn(u64) -> Result<Box<dyn Agent<Fanorona>>, String> + Sync + 'a;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games to play (fewer if the SPRT stops early).
    pub games: usize,
    /// Games played at once.
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
    /// Whether to show a progress bar (on standard error).
    pub progress: bool,
}

/// A match that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An agent could not be built.
    #[error("cannot create agent {which}: {reason}")]
    Agent {
        /// `first` or `second`.
        which: &'static str,
        /// Why.
        reason: String,
    },
    /// Impossible settings.
    #[error("bad match settings: {0}")]
    Settings(String),
    /// Results cannot be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Game number in the match, from 0.
    pub index: usize,
    /// Whether the first agent had white.
    pub first_is_white: bool,
    /// The first agent's score: 1, ½ or 0.
    pub first_score: f64,
    /// How the game ended.
    pub outcome: Outcome,
    /// Why it ended, in words.
    pub termination: String,
    /// The record.
    pub record: GameRecord,
}

/// A played game: its turns, how it ended, and why.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Every turn from the opening's start, the opening's included.
    pub turns: Vec<Turn>,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended, in words.
    pub termination: String,
}

/// Plays one game from an opening: the opening turns, then the agents step by step until the
/// rules end the game or `max_turns` turns have been played (a draw).
pub fn play_game(
    white: &mut dyn Agent<Fanorona>,
    black: &mut dyn Agent<Fanorona>,
    opening: &Opening,
    max_turns: usize,
) -> PlayedGame {
    white.reset();
    black.reset();
    let mut game = Fanorona::new(opening.start);
    for turn in &opening.turns {
        for step in game.position().turn_steps(turn) {
            game.play_step_unchecked(step);
        }
    }
    let mut turns = opening.turns.clone();
    let mut turn_start = *game.position();
    let mut steps: Vec<Step> = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            return PlayedGame {
                turns,
                outcome,
                termination: outcome.to_string(),
            };
        }
        if game.position().is_turn_start() && turns.len() >= max_turns {
            let outcome = Outcome::Draw(DrawReason::TurnLimit);
            return PlayedGame {
                turns,
                termination: format!("draw (turn limit of {max_turns})"),
                outcome,
            };
        }
        let mover = game.current_player();
        let chosen = match mover {
            Color::White => white.act(&game),
            Color::Black => black.act(&game),
        };
        let played = chosen.map_err(|e| e.to_string()).and_then(|a| {
            let step = game.action_to_step(a);
            game.apply(a).map_err(|e| e.to_string())?;
            step.ok_or_else(|| "no step".to_string())
        });
        match played {
            Ok(step) => steps.push(step),
            Err(reason) => {
                return PlayedGame {
                    turns,
                    outcome: Outcome::Win {
                        winner: mover.other(),
                        reason: WinReason::Resignation,
                    },
                    termination: format!("{mover} forfeits: {reason}"),
                };
            }
        }
        if game.position().is_turn_start() {
            let turn = turn_of_steps(&turn_start, &steps).expect("legal steps make a legal turn");
            turns.push(turn);
            steps.clear();
            turn_start = *game.position();
        }
    }
}

/// The seed of agent `which` (0 first, 1 second) in game `index`.
fn agent_seed(seed: u64, index: usize, which: u64) -> u64 {
    seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (which + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// A match's result.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The first agent's name.
    pub first: String,
    /// The second agent's name.
    pub second: String,
    /// The first agent's wins, draws and losses.
    pub tally: Tally,
    /// The SPRT settings and its final decision, if one ran.
    pub sprt: Option<(Sprt, SprtDecision)>,
    /// Whether the SPRT stopped the match before all games were played.
    pub stopped_early: bool,
    /// The finished games, by game number.
    pub games: Vec<GameResult>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// The JSON summary of a match.
#[derive(Serialize)]
struct Summary<'a> {
    first: &'a str,
    second: &'a str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: f64,
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    los: f64,
    sprt: Option<SprtSummary>,
    stopped_early: bool,
    first_as_white: Tally,
    first_as_black: Tally,
    draw_reasons: std::collections::BTreeMap<String, u32>,
    mean_turns: f64,
    seconds: f64,
}

#[derive(Serialize)]
struct SprtSummary {
    settings: Sprt,
    llr: f64,
    lower: f64,
    upper: f64,
    decision: SprtDecision,
}

/// One line of `games.jsonl`.
#[derive(Serialize)]
struct GameLine<'a> {
    game: usize,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    first_score: f64,
    turns: usize,
    termination: &'a str,
}

impl MatchReport {
    /// The first agent's tally with one colour.
    pub fn tally_as(&self, color: Color) -> Tally {
        let mut t = Tally::default();
        for g in &self.games {
            if g.first_is_white == (color == Color::White) {
                t.add(g.first_score);
            }
        }
        t
    }

    /// The summary as pretty JSON.
    pub fn summary_json(&self) -> String {
        let (elo_low, elo_high) = self.tally.elo_interval();
        let mut draw_reasons = std::collections::BTreeMap::new();
        for g in &self.games {
            if let Outcome::Draw(reason) = g.outcome {
                *draw_reasons.entry(format!("{reason:?}")).or_insert(0) += 1;
            }
        }
        let mean_turns = self
            .games
            .iter()
            .map(|g| g.record.moves.len() as f64)
            .sum::<f64>()
            / self.games.len().max(1) as f64;
        let summary = Summary {
            first: &self.first,
            second: &self.second,
            games: self.tally.games(),
            wins: self.tally.wins,
            draws: self.tally.draws,
            losses: self.tally.losses,
            score: self.tally.score(),
            elo: self.tally.elo(),
            elo_low,
            elo_high,
            los: self.tally.los(),
            sprt: self.sprt.map(|(settings, decision)| {
                let (lower, upper) = settings.bounds();
                SprtSummary {
                    settings,
                    llr: settings.llr(&self.tally),
                    lower,
                    upper,
                    decision,
                }
            }),
            stopped_early: self.stopped_early,
            first_as_white: self.tally_as(Color::White),
            first_as_black: self.tally_as(Color::Black),
            draw_reasons,
            mean_turns,
            seconds: self.elapsed.as_secs_f64(),
        };
        serde_json::to_string_pretty(&summary).expect("the summary serialises")
    }

    /// A few lines for people: results, score, Elo with interval, LOS, SPRT.
    pub fn text(&self) -> String {
        let t = &self.tally;
        let (lo, hi) = t.elo_interval();
        let mut out = format!(
            "{} vs {}: {} games, +{} ={} -{}, score {:.3}\nElo {:+.1} (95% CI {:+.1} .. {:+.1}), LOS {:.1}%\n",
            self.first,
            self.second,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score(),
            t.elo(),
            lo,
            hi,
            100.0 * t.los()
        );
        for color in Color::BOTH {
            let c = self.tally_as(color);
            out.push_str(&format!(
                "  {} as {color}: +{} ={} -{}\n",
                self.first, c.wins, c.draws, c.losses
            ));
        }
        if let Some((sprt, decision)) = self.sprt {
            let (lower, upper) = sprt.bounds();
            out.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} in [{:.3}, {:.3}] -> {:?}{}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt.llr(t),
                lower,
                upper,
                decision,
                if self.stopped_early {
                    " (stopped early)"
                } else {
                    ""
                }
            ));
        }
        out
    }

    /// Writes `summary.json`, `games.jsonl` (one line per game) and every game record as
    /// `games/game-NNNN.pgn` into `dir` (created if needed), each file atomically.
    pub fn write(&self, dir: &Path) -> Result<(), ArenaError> {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |source| ArenaError::Io { path, source }
        };
        let games_dir = dir.join("games");
        std::fs::create_dir_all(&games_dir).map_err(io(&games_dir))?;
        let mut lines = String::new();
        for g in &self.games {
            let path = games_dir.join(format!("game-{:04}.pgn", g.index + 1));
            write_atomic(&path, g.record.to_text().as_bytes()).map_err(io(&path))?;
            let line = GameLine {
                game: g.index + 1,
                white: &g.record.white,
                black: &g.record.black,
                result: &g.record.result,
                first_score: g.first_score,
                turns: g.record.moves.len(),
                termination: &g.termination,
            };
            lines.push_str(&serde_json::to_string(&line).expect("a game line serialises"));
            lines.push('\n');
        }
        let path = dir.join("games.jsonl");
        write_atomic(&path, lines.as_bytes()).map_err(io(&path))?;
        let path = dir.join("summary.json");
        write_atomic(&path, self.summary_json().as_bytes()).map_err(io(&path))?;
        Ok(())
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
        if config.games == 0 {
            return Err(ArenaError::Settings("at least one game is needed".into()));
        }
        if config.threads == 0 {
            return Err(ArenaError::Settings("at least one thread is needed".into()));
        }
        if config.max_turns == 0 {
            return Err(ArenaError::Settings(
                "the turn cap must be at least 1".into(),
            ));
        }
        let make = |which: &'static str, factory: &AgentFactory, seed| {
            factory(seed).map_err(|reason| ArenaError::Agent { which, reason })
        };
        let first_name = make("first", self.first, 0)?.name();
        let second_name = make("second", self.second, 0)?.name();
        let date = chrono::Utc::now().format("%Y.%m.%d").to_string();

        let pool =
            denormals::build_pool(rayon::ThreadPoolBuilder::new().num_threads(config.threads))
                .map_err(|e| ArenaError::Settings(format!("cannot start threads: {e}")))?;
        let progress = if config.progress {
            let bar = ProgressBar::new(config.games as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}",
                )
                .expect("the progress template is valid")
                .progress_chars("=> "),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        let start = Instant::now();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let state = Mutex::new((Tally::default(), Vec::<GameResult>::new()));
        let failure: Mutex<Option<ArenaError>> = Mutex::new(None);
        pool.scope(|scope| {
            for _ in 0..config.threads {
                scope.spawn(|_| {
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= config.games {
                            break;
                        }
                        let result = self.play_one(index, &first_name, &second_name, &date);
                        let result = match result {
                            Ok(r) => r,
                            Err(e) => {
                                *failure.lock().expect("no panics while locked") = Some(e);
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                        };
                        let mut guard = state.lock().expect("no panics while locked");
                        let (tally, results) = &mut *guard;
                        tally.add(result.first_score);
                        results.push(result);
                        progress.inc(1);
                        progress.set_message(format!(
                            "+{} ={} -{} Elo {:+.0}",
                            tally.wins,
                            tally.draws,
                            tally.losses,
                            tally.elo()
                        ));
                        if let Some(sprt) = config.sprt
                            && sprt.decision(tally) != SprtDecision::Continue
                        {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        progress.finish_and_clear();
        if let Some(e) = failure.into_inner().expect("no panics while locked") {
            return Err(e);
        }
        let (tally, mut games) = state.into_inner().expect("no panics while locked");
        games.sort_by_key(|g| g.index);
        Ok(MatchReport {
            first: first_name,
            second: second_name,
            sprt: config.sprt.map(|s| (s, s.decision(&tally))),
            stopped_early: (tally.games() as usize) < config.games,
            tally,
            games,
            elapsed: start.elapsed(),
        })
    }

    /// Plays game `index`.
    fn play_one(
        &self,
        index: usize,
        first_name: &str,
        second_name: &str,
        date: &str,
    ) -> Result<GameResult, ArenaError> {
        let config = &self.config;
        let make = |which: &'static str, factory: &AgentFactory, seed| {
            factory(seed).map_err(|reason| ArenaError::Agent { which, reason })
        };
        let mut first = make("first", self.first, agent_seed(config.seed, index, 0))?;
        let mut second = make("second", self.second, agent_seed(config.seed, index, 1))?;
        let opening = config
            .openings
            .opening(&config.start, index / 2, config.seed);
        let first_is_white = index.is_multiple_of(2);
        let played = if first_is_white {
            play_game(&mut *first, &mut *second, &opening, config.max_turns)
        } else {
            play_game(&mut *second, &mut *first, &opening, config.max_turns)
        };
        let first_color = if first_is_white {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = opening.start;
        let moves = played
            .turns
            .iter()
            .map(|t| {
                let name = t.notation(pos.board());
                pos.play_turn_unchecked(t);
                name
            })
            .collect();
        let (white, black) = if first_is_white {
            (first_name, second_name)
        } else {
            (second_name, first_name)
        };
        let record = GameRecord {
            event: config.event.clone(),
            date: date.to_string(),
            white: white.to_string(),
            black: black.to_string(),
            result: played.outcome.result_string().to_string(),
            start: opening.start,
            moves,
            extra: vec![
                ("Round".into(), (index + 1).to_string()),
                ("Opening".into(), opening.turns.len().to_string()),
                ("Termination".into(), played.termination.clone()),
            ],
        };
        Ok(GameResult {
            index,
            first_is_white,
            first_score: played.outcome.score(first_color),
            outcome: played.outcome,
            termination: played.termination,
            record,
        })
    }
}
