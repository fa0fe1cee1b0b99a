//! External engines as agents: [`EngineAgent`] spawns a program that speaks the engine
//! protocol (`crate::protocol`), does the handshake, and for each turn sends the game
//! (`position fen START moves ...`) and `go`, reads `bestmove`, and hands the turn's steps
//! out one by one. The program is killed when the agent is dropped.
//!
//! The agent follows the game itself: when asked to move it looks for the opponent's turn that
//! leads from the position after its own last turn to the one it is shown, so the engine sees
//! the whole game (for repetitions); if there is none (a new game, an opening), the game
//! starts over from the position shown.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use fanorona_env::{
    Agent, AgentError, Board, Budget, Fanorona, Game, Position, Rules, SearchInfo, SearchLimits,
    Turn,
};

use crate::protocol::go_command;
use crate::protocol::info::parse_info;

/// How an engine is started and asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The budget each `go` asks for.
    pub budget: Budget,
    /// Longest wait for any answer, on top of the budget's time.
    pub timeout: Duration,
}

/// A program speaking the engine protocol, as a player.
pub struct EngineAgent {
    name: String,
    config: EngineConfig,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Board and rules last sent with `setoption`.
    sent: Option<(&'static Board, Rules)>,
    /// The game as the engine is told it: start position and turns in notation.
    start: Option<Position>,
    moves: Vec<String>,
    /// The position after the last turn in `moves` (or `start`).
    current: Option<Position>,
    /// A new game was announced (`reset`) and `ucinewgame` is still to be sent.
    new_game: bool,
    /// The planned steps: the position each is to be played in, and its action.
    plan: Vec<(Position, usize)>,
    next: usize,
    info: Option<SearchInfo>,
    /// Set once the program failed; every later call fails with it.
    broken: Option<String>,
    /// The caller's stop flag ([`SearchLimits::stop`]): once set, the search is sent `stop`.
    stop: Option<Arc<AtomicBool>>,
}

/// How often a search waiting for the engine looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

impl EngineAgent {
    /// Starts the program and does the handshake (`uci`/`uciok`, `isready`/`readyok`).
    pub fn spawn(name: impl Into<String>, config: EngineConfig) -> Result<EngineAgent, AgentError> {
        let name = name.into();
        let fail = |reason: String| AgentError {
            agent: name.clone(),
            reason,
        };
        let mut child = Command::new(&config.command)
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| fail(format!("cannot start {:?}: {e}", config.command)))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut agent = EngineAgent {
            name,
            config,
            child,
            stdin,
            lines,
            sent: None,
            start: None,
            moves: Vec::new(),
            current: None,
            new_game: true,
            plan: Vec::new(),
            next: 0,
            info: None,
            broken: None,
            stop: None,
        };
        agent.send("uci")?;
        agent.wait_for("uciok", agent.config.timeout)?;
        agent.send("isready")?;
        agent.wait_for("readyok", agent.config.timeout)?;
        Ok(agent)
    }

    /// The error `reason`, naming this agent.
    fn error(&self, reason: impl Into<String>) -> AgentError {
        AgentError {
            agent: self.name.clone(),
            reason: reason.into(),
        }
    }

    /// Marks the engine as failed (and kills it): every later call gives this error.
    fn fail(&mut self, reason: String) -> AgentError {
        let _ = self.child.kill();
        self.broken = Some(reason.clone());
        self.error(reason)
    }

    /// Sends one line; a failed write breaks the engine.
    fn send(&mut self, line: &str) -> Result<(), AgentError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|e| {
            let status = self.exit_status();
            self.fail(format!("cannot write to the engine ({e}){status}"))
        })
    }

    /// "; it exited with STATUS" if the program has exited, else nothing.
    fn exit_status(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("; it exited with {status}"),
            _ => String::new(),
        }
    }

    /// The next line, waiting until `deadline`.
    fn read_line(&mut self, deadline: Instant) -> Result<String, AgentError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(self.fail(format!(
                "no answer within {} ms; the engine was stopped",
                self.config.timeout.as_millis()
                    + self.config.budget.time.map_or(0, |t| t.as_millis())
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                // Give the process a moment to be reaped so that its status can be told.
                std::thread::sleep(Duration::from_millis(20));
                let status = self.exit_status();
                Err(self.fail(format!("the engine closed its output{status}")))
            }
        }
    }

    /// Reads lines until one equals `expected`.
    fn wait_for(&mut self, expected: &str, within: Duration) -> Result<(), AgentError> {
        let deadline = Instant::now() + within;
        while self.read_line(deadline)?.trim() != expected {}
        Ok(())
    }

    /// Brings the engine's game up to `pos`: the opponent's turn since our last one is added,
    /// or the game starts over at `pos`.
    fn follow(&mut self, pos: &Position) {
        if let Some(current) = self.current
            && current != *pos
            && let Some(turn) = current.legal_turns().into_iter().find(|t| {
                let mut after = current;
                after.play_turn_unchecked(t);
                after == *pos
            })
        {
            self.moves.push(turn.notation(current.board()));
            self.current = Some(*pos);
            return;
        }
        if self.current != Some(*pos) {
            self.start = Some(*pos);
            self.moves.clear();
            self.current = Some(*pos);
        }
    }

    /// Asks the engine for a turn in `game` and plans its steps.
    fn plan_turn(&mut self, game: &Fanorona) -> Result<(), AgentError> {
        let pos = *game.position();
        self.follow(&pos);
        self.send_setup(&pos)?;
        self.send_position()?;
        self.send_go()?;
        let (best, complaint) = self.read_bestmove()?;
        if best == "(none)" || best.is_empty() {
            return Err(self.error(format!(
                "the engine found no move in {}{complaint}",
                pos.to_fen()
            )));
        }
        let turn = pos
            .parse_turn(&best)
            .map_err(|e| self.error(format!("the engine sent an illegal move: {e}{complaint}")))?;
        self.moves.push(turn.notation(pos.board()));
        self.plan_steps(game, pos, &turn);
        Ok(())
    }

    /// Sends `ucinewgame` if a new game was announced, and the board and rules of `pos` if
    /// they are not the ones last sent.
    fn send_setup(&mut self, pos: &Position) -> Result<(), AgentError> {
        if self.new_game {
            self.send("ucinewgame")?;
            self.new_game = false;
        }
        let settings = (pos.board(), *pos.rules());
        if self
            .sent
            .is_none_or(|(b, r)| !std::ptr::eq(b, settings.0) || r != settings.1)
        {
            self.send(&format!(
                "setoption name Board value {}x{}",
                pos.board().width(),
                pos.board().height()
            ))?;
            self.send(&format!("setoption name Rules value {}", pos.rules()))?;
            self.sent = Some(settings);
        }
        Ok(())
    }

    /// Sends the game as followed: `position fen START moves ...`.
    fn send_position(&mut self) -> Result<(), AgentError> {
        let start = self.start.expect("followed").to_fen();
        let mut position = format!("position fen {start}");
        if !self.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&self.moves.join(" "));
        }
        self.send(&position)
    }

    /// Sends `go` with the configured budget.
    fn send_go(&mut self) -> Result<(), AgentError> {
        self.send(&go_command(&self.config.budget))
    }

    /// Reads the engine's lines until `bestmove`, keeping the last `info` line of the search;
    /// the move sent and, if the engine reported an error, a note quoting it.
    fn read_bestmove(&mut self) -> Result<(String, String), AgentError> {
        let deadline =
            Instant::now() + self.config.timeout + self.config.budget.time.unwrap_or_default();
        self.info = None;
        let mut complaint = String::new();
        let mut stop_sent = false;
        loop {
            let line = self.read_search_line(deadline, &mut stop_sent)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return Ok((words.next().unwrap_or("").to_string(), complaint));
                }
                Some("info") if line.contains("string error") => {
                    complaint = format!(" (it said: {})", line.trim());
                }
                Some("info") => {
                    if let Some(info) = parse_info(&line) {
                        self.info = Some(info);
                    }
                }
                _ => {}
            }
        }
    }

    /// The next line of a search, waiting until `deadline`; once the caller's stop flag is
    /// set, the engine is sent `stop` (once) and its answer awaited.
    fn read_search_line(
        &mut self,
        deadline: Instant,
        stop_sent: &mut bool,
    ) -> Result<String, AgentError> {
        loop {
            let Some(stop) = self.stop.clone().filter(|_| !*stop_sent) else {
                return self.read_line(deadline);
            };
            if stop.load(Ordering::Relaxed) {
                self.send("stop")?;
                *stop_sent = true;
                continue;
            }
            let slice = (Instant::now() + STOP_POLL).min(deadline);
            match self
                .lines
                .recv_timeout(slice.saturating_duration_since(Instant::now()))
            {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                // The deadline passed or the engine closed its output: said as always.
                Err(_) => return self.read_line(deadline),
            }
        }
    }

    /// Plans the steps of `turn` from `pos`, each with the position it is played in, and
    /// follows the game to the position after it.
    fn plan_steps(&mut self, game: &Fanorona, pos: Position, turn: &Turn) {
        let mut at = pos;
        self.plan.clear();
        for step in pos.turn_steps(turn) {
            self.plan.push((at, game.step_to_action(step)));
            at.play_step_unchecked(step);
        }
        self.current = Some(at);
        self.next = 0;
    }
}

impl Agent<Fanorona> for EngineAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &Fanorona) -> Result<usize, AgentError> {
        if let Some(reason) = &self.broken {
            return Err(self.error(format!("unusable after an earlier failure: {reason}")));
        }
        if state.is_terminal() {
            return Err(self.error("asked to move in a finished game"));
        }
        if self.plan.get(self.next).map(|(pos, _)| pos) != Some(state.position()) {
            self.plan_turn(state)?;
        }
        let (_, action) = self.plan[self.next];
        self.next += 1;
        Ok(action)
    }

    fn reset(&mut self) {
        self.plan.clear();
        self.next = 0;
        self.start = None;
        self.current = None;
        self.moves.clear();
        self.new_game = true;
        self.info = None;
    }

    /// A caller's time, nodes or depth replace the configured budget (see [`Budget::under`]);
    /// the stop flag, when set during a search, sends the engine `stop`.
    fn set_limits(&mut self, limits: &SearchLimits) {
        self.stop = limits.stop.clone();
        self.config.budget = self.config.budget.under(&limits.budget, true);
    }

    /// The last `info` line of the engine's last search.
    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

impl Drop for EngineAgent {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(command: &str, args: &[&str]) -> EngineConfig {
        EngineConfig {
            command: command.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            budget: Budget::default(),
            timeout: Duration::from_millis(500),
        }
    }

    #[test]
    fn a_missing_program_or_one_that_does_not_answer_is_a_clear_error() {
        let e = EngineAgent::spawn("engine", config("/nonexistent/engine", &[]))
            .err()
            .unwrap();
        assert!(e.reason.contains("cannot start"), "{e}");
        // `true` exits at once without a word: writing or reading fails, whichever comes first.
        let e = EngineAgent::spawn("engine", config("true", &[]))
            .err()
            .unwrap();
        assert!(
            e.reason.contains("closed its output") || e.reason.contains("cannot write"),
            "{e}"
        );
        // `sleep` never answers.
        let e = EngineAgent::spawn("engine", config("sleep", &["5"]))
            .err()
            .unwrap();
        assert!(e.reason.contains("no answer within 500 ms"), "{e}");
    }

    #[test]
    fn the_callers_stop_flag_is_passed_on_as_stop() {
        // A script that answers `go` only when told `stop` (with a move that is refused).
        let script = "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; \
                      stop) echo bestmove a1a2;; quit) exit;; esac; done";
        let mut slow = config("sh", &["-c", script]);
        slow.timeout = Duration::from_secs(20);
        let mut agent = EngineAgent::spawn("sh", slow).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        agent.set_limits(&SearchLimits {
            stop: Some(Arc::clone(&stop)),
            ..SearchLimits::default()
        });
        let setter = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let started = Instant::now();
        let err = agent.act(&Fanorona::standard()).unwrap_err();
        setter.join().unwrap();
        assert!(err.reason.contains("illegal move"), "{err}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_scripted_engine_that_sends_an_illegal_move_is_refused() {
        // A shell script that answers the handshake and always plays a1a2.
        let script = "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; \
                      go*) echo 'info depth 1 score cp 5 nodes 1 time 0 pv a1a2'; echo bestmove a1a2;; quit) exit;; esac; done";
        let mut agent = EngineAgent::spawn("sh", config("sh", &["-c", script])).unwrap();
        let err = agent.act(&Fanorona::standard()).unwrap_err();
        assert!(err.reason.contains("illegal move"), "{err}");
        assert_eq!(agent.last_info().unwrap().centipieces, Some(5));
    }
}
