//! A match's result: the tally, the SPRT decision and every game; a summary for people and
//! one in JSON, and the files a match writes (`summary.json`, `games.jsonl`, one PGN-like
//! record per game).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use fanorona_env::{Color, Outcome};
use serde::Serialize;

use super::elo::Tally;
use super::error::ArenaError;
use super::game::{GameResult, Seat};
use super::output::{GAMES_DIR, GAMES_FILE, SUMMARY_FILE, game_file_name, remove_stale_games};
use super::sprt::{Sprt, SprtDecision};
use fanorona_util::atomic_write::write_atomic;

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
    draw_reasons: BTreeMap<String, u32>,
    first_forfeits: usize,
    second_forfeits: usize,
    mean_turns: f64,
    seconds: f64,
}

/// The SPRT's settings, its log-likelihood ratio with the bounds, and its decision.
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

    /// The agent `seat`'s name.
    pub fn name(&self, seat: Seat) -> &str {
        match seat {
            Seat::First => &self.first,
            Seat::Second => &self.second,
        }
    }

    /// The games the agent `seat` forfeited, by game number, with their reasons.
    pub fn forfeits(&self, seat: Seat) -> impl Iterator<Item = (&GameResult, &str)> {
        self.games
            .iter()
            .filter_map(move |g| match g.forfeited_by() {
                Some((by, reason)) if by == seat => Some((g, reason)),
                _ => None,
            })
    }

    /// The agent that forfeited every game of the match (at least one was played), with the
    /// reason of its first forfeit: such a match measured nothing.
    pub fn forfeited_every_game(&self) -> Option<(Seat, &str)> {
        [Seat::First, Seat::Second].into_iter().find_map(|seat| {
            let (_, reason) = self.forfeits(seat).next()?;
            (self.forfeits(seat).count() == self.games.len()).then_some((seat, reason))
        })
    }

    /// How many games were drawn for each reason.
    fn draw_reasons(&self) -> BTreeMap<String, u32> {
        let mut reasons = BTreeMap::new();
        for g in &self.games {
            if let Outcome::Draw(reason) = g.outcome {
                *reasons.entry(format!("{reason:?}")).or_insert(0) += 1;
            }
        }
        reasons
    }

    /// The mean number of turns a game lasted.
    fn mean_turns(&self) -> f64 {
        self.games
            .iter()
            .map(|g| g.record.moves.len() as f64)
            .sum::<f64>()
            / self.games.len().max(1) as f64
    }

    /// The SPRT's part of the summary, if one ran.
    fn sprt_summary(&self) -> Option<SprtSummary> {
        self.sprt.map(|(settings, decision)| {
            let (lower, upper) = settings.bounds();
            SprtSummary {
                settings,
                llr: settings.llr(&self.tally),
                lower,
                upper,
                decision,
            }
        })
    }

    /// The summary as pretty JSON.
    pub fn summary_json(&self) -> String {
        let (elo_low, elo_high) = self.tally.elo_interval();
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
            sprt: self.sprt_summary(),
            stopped_early: self.stopped_early,
            first_as_white: self.tally_as(Color::White),
            first_as_black: self.tally_as(Color::Black),
            draw_reasons: self.draw_reasons(),
            first_forfeits: self.forfeits(Seat::First).count(),
            second_forfeits: self.forfeits(Seat::Second).count(),
            mean_turns: self.mean_turns(),
            seconds: self.elapsed.as_secs_f64(),
        };
        serde_json::to_string_pretty(&summary).expect("the summary serialises")
    }

    /// A few lines for people: results, score, Elo with interval, LOS, forfeits, SPRT.
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
        for seat in [Seat::First, Seat::Second] {
            out.push_str(&self.forfeit_text(seat));
        }
        if let Some(line) = self.sprt_text() {
            out.push_str(&line);
        }
        out
    }

    /// The forfeits line of [`MatchReport::text`] for the agent `seat`: how many games it
    /// forfeited and why it forfeited the first (empty if none).
    fn forfeit_text(&self, seat: Seat) -> String {
        let mut forfeits = self.forfeits(seat);
        let Some((first, reason)) = forfeits.next() else {
            return String::new();
        };
        format!(
            "  {} forfeited {} of {} games; the first, game {}: {reason}\n",
            self.name(seat),
            1 + forfeits.count(),
            self.games.len(),
            first.index + 1
        )
    }

    /// The SPRT's line of [`MatchReport::text`], if one ran.
    fn sprt_text(&self) -> Option<String> {
        let (sprt, decision) = self.sprt?;
        let (lower, upper) = sprt.bounds();
        Some(format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} in [{:.3}, {:.3}] -> {:?}{}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&self.tally),
            lower,
            upper,
            decision,
            if self.stopped_early {
                " (stopped early)"
            } else {
                ""
            }
        ))
    }

    /// Writes `summary.json`, `games.jsonl` (one line per game) and every game record as
    /// `games/game-NNNN.pgn` into `dir` (created if needed), each file atomically, then removes
    /// the game records of an earlier match there that were not replaced (see
    /// [`check_out_dir`](super::output::check_out_dir), which checks `dir` before a match).
    pub fn write(&self, dir: &Path) -> Result<(), ArenaError> {
        let games_dir = dir.join(GAMES_DIR);
        std::fs::create_dir_all(&games_dir).map_err(io_error(&games_dir))?;
        let mut lines = String::new();
        let mut written = Vec::with_capacity(self.games.len());
        for g in &self.games {
            let name = game_file_name(g.index);
            write_file(&games_dir.join(&name), &g.record.to_text())?;
            written.push(name);
            lines.push_str(&game_line(g));
            lines.push('\n');
        }
        write_file(&dir.join(GAMES_FILE), &lines)?;
        write_file(&dir.join(SUMMARY_FILE), &self.summary_json())?;
        remove_stale_games(&games_dir, &written).map_err(io_error(&games_dir))
    }
}

/// The line of `games.jsonl` for one game.
fn game_line(g: &GameResult) -> String {
    let line = GameLine {
        game: g.index + 1,
        white: &g.record.white,
        black: &g.record.black,
        result: &g.record.result,
        first_score: g.first_score,
        turns: g.record.moves.len(),
        termination: &g.termination,
    };
    serde_json::to_string(&line).expect("a game line serialises")
}

/// Writes `text` to `path` atomically.
fn write_file(path: &Path, text: &str) -> Result<(), ArenaError> {
    write_atomic(path, text.as_bytes()).map_err(io_error(path))
}

/// Turns an I/O error on `path` into an [`ArenaError`].
fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ArenaError {
    let path = path.display().to_string();
    move |source| ArenaError::Io { path, source }
}
