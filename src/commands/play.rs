//! `fanorona play`: a game in the terminal against an agent. The board is drawn after each
//! turn with the last one marked; the human types turns in notation or a command (`help`).
//! Input is read line by line, so a script can play too.

use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;

use anyhow::{Context, Result, bail};
use fanorona_env::{Agent, Color, Fanorona, Game, MoveError, Outcome, SearchInfo, WinReason};
use fanorona_eval::protocol::read_line;
use fanorona_eval::{GameSession, Player, agent_turn};

use super::agent_help::{DEFAULT_AGENT, agent_help, default_agent_help};
use super::position_args::PositionArgs;

/// Arguments of `fanorona play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The opponent, e.g. minimax:depth=6, mcts:sims=400 or agent.safetensors [default:
    /// abnet:ms=1000, over the shipped student, which the binary carries].
    #[arg(long, long_help = agent_help(&format!("The opponent; {}.", default_agent_help())))]
    pub agent: Option<String>,
    /// The side the human plays.
    #[arg(long, default_value = "white")]
    pub human: Color,
    /// Simulations per decision for searching agents (sets the spec's `sims` option).
    #[arg(long)]
    pub sims: Option<u32>,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub position: PositionArgs,
}

const HELP: &str = "enter a turn in notation (e2e3, d3e3W, c1d1Ad2A), or: moves|? (legal turns), \
undo (take back your last turn), hint (the agent's suggestion), eval (the agent's last \
evaluation), resign, help, quit";

/// The agent's evaluation in words: value and score for the side that searched.
fn describe(info: &SearchInfo, side: Color) -> String {
    let mut parts = Vec::new();
    if let Some(value) = info.value {
        parts.push(format!("value {value:+.2} for {side}"));
    }
    if let Some(mate) = info.mate_in {
        let (who, n) = if mate > 0 {
            ("wins", mate)
        } else {
            ("loses", -mate)
        };
        parts.push(format!("{side} {who} in {n}"));
    } else if let Some(cp) = info.centipieces {
        parts.push(format!("{:+.2} pieces", cp as f64 / 100.0));
    }
    if let Some(depth) = info.depth {
        parts.push(format!("depth {depth}"));
    }
    parts.push(format!(
        "{} nodes, {} ms",
        info.nodes,
        info.time.as_millis()
    ));
    let mut text = parts.join(", ");
    if !info.pv.is_empty() {
        text.push_str(&format!("; line {}", info.pv.join(" ")));
    }
    text
}

/// Picks among the turns an ambiguous input could mean: `a`/`w` (the marker where they first
/// differ) or a number from the list.
fn resolve(candidates: &[String], answer: &str) -> Option<String> {
    let answer = answer.trim().to_ascii_lowercase();
    if let Ok(n) = answer.parse::<usize>() {
        return candidates.get(n.checked_sub(1)?).cloned();
    }
    let marker = match answer.as_str() {
        "a" | "approach" => 'A',
        "w" | "withdrawal" => 'W',
        _ => return None,
    };
    let first = candidates.first()?;
    let differ = (0..first.len()).find(|&i| {
        candidates
            .iter()
            .any(|c| c.as_bytes().get(i) != first.as_bytes().get(i))
    })?;
    let chosen: Vec<&String> = candidates
        .iter()
        .filter(|c| c.as_bytes().get(differ) == Some(&(marker as u8)))
        .collect();
    match chosen[..] {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// A game between the human (on `input`/`output`) and an agent, kept in a [`GameSession`]
/// (the agent's turns are played at once with the one agent built for the game).
struct Session<R, W> {
    input: R,
    out: W,
    agent: Box<dyn Agent<Fanorona>>,
    human: Color,
    game: GameSession<()>,
    /// The agent's evaluation of its last turn (for its side), which a hint's search (for the
    /// human's side) does not replace.
    evaluation: Option<SearchInfo>,
}

impl<R: BufRead, W: Write> Session<R, W> {
    /// The next input line, after a prompt; `None` at the end of the input. A line that is
    /// not UTF-8 is refused with a message and the prompt is repeated.
    fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        loop {
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            match read_line(&mut self.input)? {
                Some(Ok(line)) => return Ok(Some(line.trim().to_string())),
                Some(Err(e)) => writeln!(self.out, "error: {e}")?,
                None => {
                    writeln!(self.out)?;
                    return Ok(None);
                }
            }
        }
    }

    /// The last turn played, in notation.
    fn last_move(&self) -> String {
        self.game.moves().last().cloned().unwrap_or_default()
    }

    /// Draws the board with the last turn marked.
    fn show(&mut self) -> Result<()> {
        let last = self.game.turns().last().map(|(_, turn)| turn);
        write!(self.out, "\n{}", self.game.game().position().render(last))?;
        Ok(())
    }

    /// Writes the result and why the game ended.
    fn result(&mut self, outcome: Outcome) -> Result<()> {
        let text = match outcome {
            Outcome::Win {
                winner,
                reason: WinReason::Resignation,
            } => format!("{} resigns", winner.other()),
            other => other.to_string(),
        };
        writeln!(self.out, "Result: {} ({text})", outcome.result_string())?;
        Ok(())
    }

    /// Plays the game until the rules end it, the human resigns or quits, or the input ends.
    fn play(&mut self) -> Result<()> {
        writeln!(
            self.out,
            "You play {} against {}. {HELP}.",
            self.human,
            self.agent.name()
        )?;
        self.show()?;
        loop {
            if let Some(outcome) = self.game.game().outcome() {
                return self.result(outcome);
            }
            let side = self.game.game().current_player();
            if side != self.human {
                self.agent_plays(side)?;
                continue;
            }
            let Some(line) = self.ask(&format!("{side}> "))? else {
                writeln!(self.out, "game abandoned")?;
                return Ok(());
            };
            if self.answer(&line, side)?.is_break() {
                return Ok(());
            }
        }
    }

    /// The agent plays its turn as `side`; the board and its evaluation are shown.
    fn agent_plays(&mut self, side: Color) -> Result<()> {
        // A failed turn changes nothing and ends the game with its error.
        self.game.play_agent_turn(&mut self.agent)?;
        let (name, turn) = (self.agent.name(), self.last_move());
        writeln!(self.out, "{name} plays {turn}")?;
        self.show()?;
        self.evaluation = self.agent.last_info();
        if let Some(info) = &self.evaluation {
            writeln!(self.out, "eval: {}", describe(info, side))?;
        }
        Ok(())
    }

    /// Answers a line the human typed as `side`: a command or a turn. Breaks once the game
    /// ends there (the human resigns or quits).
    fn answer(&mut self, line: &str, side: Color) -> Result<ControlFlow<()>> {
        match line.to_ascii_lowercase().as_str() {
            "" => {}
            "help" => writeln!(self.out, "{HELP}")?,
            "moves" | "?" => {
                let names = self.game.game().position().legal_turn_names();
                writeln!(self.out, "legal turns: {}", names.join(" "))?;
            }
            "undo" => self.take_back()?,
            "hint" => self.hint(side)?,
            "eval" => match &self.evaluation {
                Some(info) => writeln!(self.out, "eval: {}", describe(info, side.other()))?,
                None => writeln!(self.out, "no evaluation yet")?,
            },
            "resign" => {
                self.result(Outcome::Win {
                    winner: side.other(),
                    reason: WinReason::Resignation,
                })?;
                return Ok(ControlFlow::Break(()));
            }
            "quit" => {
                writeln!(self.out, "game abandoned")?;
                return Ok(ControlFlow::Break(()));
            }
            _ => self.human_turn(line)?,
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Takes back the human's last turn and the agent's reply, if there is one.
    fn take_back(&mut self) -> Result<()> {
        let human = self.human;
        if !self.game.turns().iter().any(|&(side, _)| side == human) {
            return Ok(writeln!(self.out, "nothing to undo")?);
        }
        self.game.undo()?;
        writeln!(self.out, "took back your last turn and the reply")?;
        self.show()
    }

    /// Shows the turn the agent would play for the human (`side`), with its evaluation, without
    /// playing it.
    fn hint(&mut self, side: Color) -> Result<()> {
        let mut trial = self.game.game().clone();
        let board = trial.board();
        let turn = agent_turn(&mut self.agent, &mut trial)?;
        write!(self.out, "hint: {}", turn.notation(board))?;
        match self.agent.last_info() {
            Some(info) => writeln!(self.out, " ({})", describe(&info, side))?,
            None => writeln!(self.out)?,
        }
        Ok(())
    }

    /// Plays the human's turn written as `text`, asking which one is meant if it is ambiguous.
    fn human_turn(&mut self, text: &str) -> Result<()> {
        let pos = *self.game.game().position();
        let text = match pos.parse_turn(text) {
            Ok(_) => text.to_string(),
            Err(MoveError::Ambiguous { candidates, .. }) => {
                let list: Vec<String> = candidates
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{}) {c}", i + 1))
                    .collect();
                let prompt = format!("approach or withdrawal? [a/w] ({}) ", list.join(" "));
                let Some(answer) = self.ask(&prompt)? else {
                    return Ok(());
                };
                match resolve(&candidates, &answer) {
                    Some(candidate) => candidate,
                    None => {
                        writeln!(self.out, "not understood; enter the turn again")?;
                        return Ok(());
                    }
                }
            }
            Err(e) => {
                writeln!(self.out, "error: {e}")?;
                return Ok(());
            }
        };
        if let Err(e) = self.game.play_turn(&text) {
            writeln!(self.out, "error: {e}")?;
            return Ok(());
        }
        let turn = self.last_move();
        writeln!(self.out, "you play {turn}")?;
        self.show()
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let registry = fanorona_train::players::registry();
    let mut spec = registry
        .parse(args.agent.as_deref().unwrap_or(DEFAULT_AGENT))
        .context("bad --agent")?;
    if let Some(sims) = args.sims {
        if sims == 0 {
            bail!("--sims must be at least 1");
        }
        spec.options.retain(|(k, _)| k != "sims");
        spec.options.push(("sims".into(), sims.to_string()));
    }
    let agent = registry
        .create(&spec, args.seed)
        .context("bad --agent (or --sims)")?;
    let start = args.position.position()?;
    let name = agent.name();
    let player = |side: Color| {
        if side == args.human {
            Player::Human
        } else {
            Player::Agent {
                name: name.clone(),
                choice: (),
                seed: args.seed,
            }
        }
    };
    let stdin = io::stdin();
    let mut session = Session {
        input: stdin.lock(),
        out: io::stdout().lock(),
        agent,
        human: args.human,
        game: GameSession::new(start, player(Color::White), player(Color::Black)),
        evaluation: None,
    };
    session.play()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ambiguous_inputs_are_resolved_by_marker_or_number() {
        let two = ["d3e3A".to_string(), "d3e3W".to_string()];
        assert_eq!(resolve(&two, "w"), Some("d3e3W".into()));
        assert_eq!(resolve(&two, "Approach"), Some("d3e3A".into()));
        assert_eq!(resolve(&two, "2"), Some("d3e3W".into()));
        assert_eq!(resolve(&two, "3"), None);
        assert_eq!(resolve(&two, "x"), None);
        let chains = ["c1d1Ad2A".to_string(), "c1d1Wd2A".to_string()];
        assert_eq!(resolve(&chains, "w"), Some("c1d1Wd2A".into()));
    }
}
