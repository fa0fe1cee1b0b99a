//! The engine side of the protocol: a [`Server`] reads commands line by line, keeps the game
//! the GUI describes, and answers `go` with `info` lines and a `bestmove`. The search runs on
//! a worker thread, so `isready` and `stop` are answered while it thinks; any other command
//! waits for the search to end first (during `go infinite`, which ends only when stopped, it
//! is refused instead). A bad line, one that is not UTF-8 included, is answered `info string
//! error: ...` and the session goes on.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use fanorona_env::{
    Agent, AgentSpec, Board, Excerpt, Fanorona, Position, Registry, Rules, SpecError, Turn,
};

use super::command::{Command, GoLimits, Start};
use super::input::read_line;
use super::output::{Output, error_line};
use super::search::{BoxedAgent, Search, failure};
use fanorona_exact::tables::shared_tables;

/// The value of the Tables option that means no endgame tables.
const NO_TABLES: &str = "<empty>";

/// An engine session: settings, the current game, the agent, and the search in progress.
pub struct Server<W: Write + Send + 'static> {
    out: Output<W>,
    registry: Arc<Registry>,
    spec: AgentSpec,
    seed: u64,
    board: &'static Board,
    rules: Rules,
    /// The agent, `None` while a search has it.
    agent: Option<BoxedAgent>,
    game: Fanorona,
    last_turn: Option<Turn>,
    search: Option<Search>,
}

impl<W: Write + Send + 'static> Server<W> {
    /// A session playing with the agent of `spec` (seed 0) on its board (a network agent's),
    /// or the standard board for agents that play any, writing to `out`; `registry` builds it
    /// and any agent `setoption name Agent` asks for. Fails if the agent cannot be built.
    pub fn new(registry: Arc<Registry>, spec: AgentSpec, out: W) -> Result<Self, SpecError> {
        let agent = registry.create(&spec, 0)?;
        let board = agent
            .game()
            .and_then(|game| game.fanorona_board())
            .unwrap_or_else(Board::standard);
        Ok(Server {
            out: Output::new(out),
            registry,
            spec,
            seed: 0,
            board,
            rules: Rules::default(),
            agent: Some(agent),
            game: Fanorona::new(Position::initial(board)),
            last_turn: None,
            search: None,
        })
    }

    /// Reads and answers commands until `quit` or the end of the input. At the end of the
    /// input a search still going is finished (`go infinite` is stopped) and its best move
    /// written; `quit` stops it first.
    pub fn run<R: BufRead>(&mut self, mut input: R) -> io::Result<()> {
        while let Some(line) = read_line(&mut input)? {
            let go_on = match line {
                Ok(line) => self.handle(&line)?,
                Err(e) => {
                    self.error(&e.to_string())?;
                    true
                }
            };
            if !go_on {
                return Ok(());
            }
        }
        match &self.search {
            Some(search) if search.is_infinite() => self.stop_search(),
            _ => self.wait_for_search(),
        }
        Ok(())
    }

    /// Answers one line; `false` once the session should end (`quit`).
    pub fn handle(&mut self, line: &str) -> io::Result<bool> {
        let command = match Command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(true),
            Err(e) => {
                self.error(&e.to_string())?;
                return Ok(true);
            }
        };
        match command {
            Command::IsReady => self.out.send("readyok")?,
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.stop_search();
                return Ok(false);
            }
            _ if self.search.as_ref().is_some_and(Search::is_infinite) => {
                self.error("go infinite is searching until stop; send stop first")?;
            }
            other => {
                self.wait_for_search();
                self.answer(other)?;
            }
        }
        Ok(true)
    }

    /// Sends `message` as one `info string error:` line.
    fn error(&self, message: &str) -> io::Result<()> {
        self.out.send(&error_line(message))
    }

    /// Answers a command that needs no search running.
    fn answer(&mut self, command: Command) -> io::Result<()> {
        match command {
            Command::Uci => self.identify(),
            Command::NewGame => {
                if let Some(agent) = &mut self.agent {
                    agent.reset();
                }
                self.game = Fanorona::new(self.start_position());
                self.last_turn = None;
                Ok(())
            }
            Command::SetOption { name, value } => match self.set_option(&name, &value) {
                Ok(None) => Ok(()),
                Ok(Some(note)) => self.out.send(&note),
                Err(message) => self.error(&message),
            },
            Command::Position { start, moves } => match self.set_position(&start, &moves) {
                Ok(()) => Ok(()),
                Err(message) => self.error(&message),
            },
            Command::Go(limits) => self.go(limits),
            Command::Show => {
                let pos = self.game.position();
                for line in pos.render(self.last_turn.as_ref()).lines() {
                    self.out.send(line)?;
                }
                self.out.send(&format!("Fen: {}", pos.to_fen()))?;
                if let Some(outcome) = self.game.outcome() {
                    self.out.send(&format!("Result: {outcome}"))?;
                }
                Ok(())
            }
            Command::Moves => {
                let names = if self.game.outcome().is_some() {
                    Vec::new()
                } else {
                    self.game.position().legal_turn_names()
                };
                self.out
                    .send(format!("moves {}", names.join(" ")).trim_end())
            }
            Command::IsReady | Command::Stop | Command::Quit => Ok(()),
        }
    }

    fn identify(&self) -> io::Result<()> {
        self.out.send(&format!(
            "id name fanorona {} ({})",
            env!("CARGO_PKG_VERSION"),
            self.spec
        ))?;
        self.out.send("id author the fanorona-rl authors")?;
        self.out.send(&format!(
            "option name Agent type string default {}",
            self.spec
        ))?;
        self.out.send(&format!(
            "option name Board type string default {}x{}",
            self.board.width(),
            self.board.height()
        ))?;
        self.out.send(&format!(
            "option name Rules type string default {}",
            self.rules
        ))?;
        self.out.send(&format!(
            "option name Tables type string default {}",
            self.spec.option("tables").unwrap_or(NO_TABLES)
        ))?;
        self.out.send(&format!(
            "option name Seed type spin default {} min 0 max {}",
            self.seed,
            i64::MAX
        ))?;
        self.out.send("uciok")
    }

    fn start_position(&self) -> Position {
        Position::initial(self.board).with_rules(self.rules)
    }

    /// Whether the agent kind of `spec` probes endgame tables (declares a `tables` option).
    fn takes_tables(&self, spec: &AgentSpec) -> bool {
        self.registry
            .kind(&spec.kind)
            .is_some_and(|kind| kind.option("tables").is_some())
    }

    /// Applies `setoption`, returning an `info string` line to send where the change drops
    /// something the GUI set; on error nothing changes.
    fn set_option(&mut self, name: &str, value: &str) -> Result<Option<String>, String> {
        let mut note = None;
        match name.to_ascii_lowercase().as_str() {
            "agent" => {
                let mut spec = self.registry.parse(value).map_err(|e| e.to_string())?;
                // The tables set before stay with an agent that probes tables; another agent
                // drops them, and the GUI is told.
                if let Some(dir) = self.spec.option("tables")
                    && spec.option("tables").is_none()
                {
                    if self.takes_tables(&spec) {
                        spec = spec.with_option("tables", Some(dir));
                    } else {
                        note = Some(format!(
                            "info string Tables {NO_TABLES}: agent {} probes no endgame tables, \
                             so the tables {} are dropped",
                            Excerpt(&spec.kind),
                            Excerpt(dir)
                        ));
                    }
                }
                self.agent = Some(
                    self.registry
                        .create(&spec, self.seed)
                        .map_err(|e| e.to_string())?,
                );
                self.spec = spec;
            }
            "tables" => {
                let dir = match value.trim() {
                    "" => {
                        return Err(format!(
                            "Tables: empty; give a folder of endgame tables, or {NO_TABLES} for \
                             none (the tables are unchanged)"
                        ));
                    }
                    NO_TABLES => None,
                    dir => Some(dir),
                };
                if let Some(dir) = dir {
                    if dir.contains(',') {
                        return Err(format!(
                            "Tables {}: a folder name with ',' cannot be an agent option",
                            Excerpt(dir)
                        ));
                    }
                    if !self.takes_tables(&self.spec) {
                        return Err(format!(
                            "Tables {}: agent {} probes no endgame tables (the tables are \
                             unchanged)",
                            Excerpt(dir),
                            Excerpt(&self.spec.kind)
                        ));
                    }
                    // Opened and checked for the board first: a folder that cannot serve is
                    // refused and the tables in use stay.
                    // (The folder's name, echoed once and cut short, is not repeated whole.)
                    shared_tables(Path::new(dir), self.board).map_err(|e| {
                        format!(
                            "Tables {}: {}; the tables are unchanged",
                            Excerpt(dir),
                            e.to_string().replace(dir, "the folder")
                        )
                    })?;
                }
                let spec = self.spec.with_option("tables", dir);
                self.agent = Some(
                    self.registry
                        .create(&spec, self.seed)
                        .map_err(|e| e.to_string())?,
                );
                self.spec = spec;
            }
            "seed" => {
                let seed = value.parse::<u64>().map_err(|_| {
                    format!(
                        "Seed {}: expected a whole number from 0 to {}",
                        Excerpt(value),
                        u64::MAX
                    )
                })?;
                self.agent = Some(
                    self.registry
                        .create(&self.spec, seed)
                        .map_err(|e| e.to_string())?,
                );
                self.seed = seed;
            }
            "board" => {
                let board = Board::parse(value).map_err(|e| e.to_string())?;
                // Tables set for the old board stay only if their folder serves the new one
                // too; otherwise they are dropped (every search would fail), and the GUI told.
                if let Some(dir) = self.spec.option("tables")
                    && !std::ptr::eq(board, self.board)
                    && shared_tables(Path::new(dir), board).is_err()
                {
                    let spec = self.spec.with_option("tables", None);
                    self.agent = Some(
                        self.registry
                            .create(&spec, self.seed)
                            .map_err(|e| e.to_string())?,
                    );
                    note = Some(format!(
                        "info string Tables {NO_TABLES}: the tables {} hold no tables of {}x{}, \
                         so they are dropped",
                        Excerpt(dir),
                        board.width(),
                        board.height()
                    ));
                    self.spec = spec;
                }
                self.board = board;
                self.game = Fanorona::new(self.start_position());
                self.last_turn = None;
            }
            "rules" => {
                self.rules = Rules::parse(value).map_err(|e| e.to_string())?;
                self.game = Fanorona::new(self.start_position());
                self.last_turn = None;
            }
            _ => {
                return Err(format!(
                    "unknown option {}; options: Agent, Board, Rules, Seed, Tables",
                    Excerpt(name)
                ));
            }
        }
        Ok(note)
    }

    /// Applies `position`; on error the game is unchanged.
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let start = match start {
            Start::Initial => self.start_position(),
            Start::Fen(fen) => {
                Position::from_fen_with_rules(fen, self.rules).map_err(|e| e.to_string())?
            }
        };
        let mut game = Fanorona::new(start);
        let mut last = None;
        for (i, text) in moves.iter().enumerate() {
            if let Some(outcome) = game.outcome() {
                return Err(format!(
                    "move {} ({text}): the game is already over ({outcome})",
                    i + 1
                ));
            }
            let turn = game
                .position()
                .parse_turn(text)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play_turn_unchecked(&turn);
            last = Some(turn);
        }
        self.game = game;
        self.last_turn = last;
        Ok(())
    }

    /// Starts a search on the worker thread, or answers `bestmove (none)` at once when the
    /// game is over (and `bestmove (error)` when there is no agent to search).
    fn go(&mut self, limits: GoLimits) -> io::Result<()> {
        if let Some(outcome) = self.game.outcome() {
            self.out
                .send(&format!("info string game over: {outcome}"))?;
            return self.out.send("bestmove (none)");
        }
        let agent = match self.agent.take() {
            Some(agent) => agent,
            None => match self.registry.create(&self.spec, self.seed) {
                Ok(agent) => agent,
                Err(e) => return self.out.send_all(&failure(&e.to_string())),
            },
        };
        self.search = Some(Search::start(agent, self.game.clone(), &limits, &self.out));
        Ok(())
    }

    /// Waits for the search in progress (if any) to end and takes the agent back.
    fn wait_for_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.agent = search.finish(&self.out);
        }
    }

    /// Asks the search in progress (if any) to stop and waits for its best move.
    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.agent = search.stop(&self.out);
        }
    }
}

#[cfg(test)]
mod tests {
    use fanorona_util::shared_output::SharedOutput;

    use super::*;

    fn server(spec: &str) -> (Server<SharedOutput>, SharedOutput) {
        let out = SharedOutput::default();
        let server = Server::new(
            Arc::new(crate::registry()),
            AgentSpec::parse(spec).unwrap(),
            out.clone(),
        )
        .unwrap();
        (server, out)
    }

    fn session(server: &mut Server<SharedOutput>, out: &SharedOutput, script: &str) -> Vec<String> {
        server.run(script.as_bytes()).unwrap();
        out.take_lines().unwrap()
    }

    #[test]
    fn handshake_lists_the_options() {
        let (mut s, out) = server("minimax:depth=2");
        let lines = session(&mut s, &out, "uci\nisready\n");
        assert!(lines[0].starts_with("id name fanorona") && lines[0].contains("minimax:depth=2"));
        for option in ["Agent", "Board", "Rules", "Seed", "Tables"] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} "))),
                "{lines:?}"
            );
        }
        assert_eq!(&lines[lines.len() - 2..], ["uciok", "readyok"]);
    }

    #[test]
    fn go_answers_a_legal_complete_turn_with_info() {
        let (mut s, out) = server("minimax:depth=2");
        // White must take: c1d1Ad2A wins at once.
        let lines = session(&mut s, &out, "position fen 9/9/3B5/9/2W1B4 w\ngo\n");
        assert_eq!(lines.last().unwrap(), "bestmove c1d1Ad2A", "{lines:?}");
        let info = &lines[lines.len() - 2];
        assert!(
            info.starts_with("info depth") && info.contains("score mate 1"),
            "{info}"
        );

        let mut pos = Position::standard();
        let first = pos.legal_turn_names()[0].clone();
        pos.play_turn(&first).unwrap();
        let second = pos.legal_turn_names()[0].clone();
        pos.play_turn(&second).unwrap();
        let script = format!("position startpos moves {first} {second}\ngo depth 1\n");
        let lines = session(&mut s, &out, &script);
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        pos.parse_turn(best).unwrap();
        assert!(lines[lines.len() - 2].contains("depth 1"), "{lines:?}");
    }

    #[test]
    fn bad_lines_get_an_error_and_the_session_goes_on() {
        let (mut s, out) = server("random");
        let script = "hello\nposition startpos moves e2e3 z9z8\ngo depth x\n\
                      setoption name Agent value alphabeta\nsetoption name Colour value red\n\
                      position fen 9/9 w\nisready\n";
        let lines = session(&mut s, &out, script);
        assert_eq!(lines.len(), 7, "{lines:?}");
        for line in &lines[..6] {
            assert!(line.starts_with("info string error: "), "{line}");
        }
        assert!(lines[1].contains("move 2"), "{}", lines[1]);
        assert!(
            lines[3].contains("known kinds: | random: ") && lines[3].contains(" | minimax: "),
            "{}",
            lines[3]
        );
        assert_eq!(lines[6], "readyok");
        // The failed position changed nothing: still the initial position.
        let lines = session(&mut s, &out, "d\n");
        assert!(
            lines.contains(&format!("Fen: {}", Position::standard().to_fen())),
            "{lines:?}"
        );
    }

    #[test]
    fn finished_games_have_no_best_move_and_options_apply() {
        let (mut s, out) = server("random");
        let lines = session(
            &mut s,
            &out,
            "position fen 9/9/3B5/9/2W1B4 w moves c1d1Ad2A\ngo\nmoves\n",
        );
        assert_eq!(
            lines,
            [
                "info string game over: white wins (black has no pieces left)",
                "bestmove (none)",
                "moves"
            ]
        );
        let lines = session(
            &mut s,
            &out,
            "setoption name Board value 5x5\nsetoption name Rules value no-capture=off\n\
             setoption name Agent value greedy\nsetoption name Seed value 4\nposition startpos\nmoves\nuci\n",
        );
        let moves = lines[0].strip_prefix("moves ").unwrap();
        let pos = Position::initial(Board::new(5, 5).unwrap());
        assert_eq!(moves, pos.legal_turn_names().join(" "));
        assert!(lines.contains(&"option name Board type string default 5x5".to_string()));
        assert!(
            lines.iter().any(|l| l.contains("no-capture=off")),
            "{lines:?}"
        );
        assert!(lines[1].contains("(greedy)"), "{lines:?}");
    }

    /// A random player made for Fanorona 5x3 only, as a network agent is.
    struct MadeFor5x3(fanorona_env::RandomAgent);

    impl Agent<Fanorona> for MadeFor5x3 {
        fn name(&self) -> String {
            "five-by-three".into()
        }
        fn act(&mut self, state: &Fanorona) -> Result<usize, fanorona_env::AgentError> {
            self.0.act(state)
        }
        fn game(&self) -> Option<fanorona_env::GameId> {
            Some(fanorona_env::GameId::Fanorona(Board::new(5, 3).unwrap()))
        }
    }

    #[test]
    fn the_session_starts_on_the_board_its_agent_was_made_for() {
        let mut registry = crate::registry();
        registry.register(fanorona_env::AgentKind {
            name: "fivebythree",
            summary: "a test agent made for 5x3",
            options: &[],
            path_extensions: &[],
            factory: |_, seed| Ok(Box::new(MadeFor5x3(fanorona_env::RandomAgent::new(seed)))),
        });
        let out = SharedOutput::default();
        let spec = registry.parse("fivebythree").unwrap();
        let mut s = Server::new(Arc::new(registry), spec, out.clone()).unwrap();
        let lines = session(
            &mut s,
            &out,
            "uci
position startpos
go
",
        );
        assert!(
            lines.contains(&"option name Board type string default 5x3".to_string()),
            "{lines:?}"
        );
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        let turn = best.strip_prefix("bestmove ").unwrap();
        let start = Position::initial(Board::new(5, 3).unwrap());
        assert!(start.parse_turn(turn).is_ok(), "{lines:?}");
        // Agents that play any board start on the standard one.
        let (mut s, out) = server("random");
        let lines = session(
            &mut s, &out, "uci
",
        );
        assert!(lines.contains(&"option name Board type string default 9x5".to_string()));
    }

    #[test]
    fn tables_of_the_old_board_are_dropped_when_the_board_changes() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good");
        fanorona_exact::tables::build(Board::new(5, 3).unwrap(), 3, &good, &Default::default())
            .unwrap();
        let good = good.display().to_string();
        let (mut s, out) = server("minimax:depth=2");
        let lines = session(
            &mut s,
            &out,
            &format!(
                "setoption name Board value 5x3
setoption name Tables value {good}
                 setoption name Board value 5x3
uci
"
            ),
        );
        let set = format!("option name Tables type string default {good}");
        assert!(lines.contains(&set), "the same board keeps them: {lines:?}");
        let lines = session(
            &mut s,
            &out,
            "setoption name Board value 9x5
uci
position startpos
go depth 1
",
        );
        assert!(
            lines[0].starts_with("info string Tables <empty>: the tables")
                && lines[0].contains("hold no tables of 9x5, so they are dropped"),
            "{lines:?}"
        );
        let empty = "option name Tables type string default <empty>".to_string();
        assert!(lines.contains(&empty), "{lines:?}");
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert!(!best.contains("error"), "{lines:?}");
        let turn = best.strip_prefix("bestmove ").unwrap();
        assert!(
            Position::initial(Board::standard())
                .parse_turn(turn)
                .is_ok()
        );
    }

    #[test]
    fn tables_are_checked_before_they_replace_and_kept_across_agents() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good");
        let board = Board::new(5, 3).unwrap();
        fanorona_exact::tables::build(board, 3, &good, &Default::default()).unwrap();
        let good = good.display().to_string();
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let (mut s, out) = server("minimax:depth=2");
        let tables_line = |lines: &[String]| {
            lines
                .iter()
                .find(|l| l.starts_with("option name Tables"))
                .cloned()
                .unwrap()
        };
        let lines = session(
            &mut s,
            &out,
            &format!("setoption name Board value 5x3\nsetoption name Tables value {good}\nuci\n"),
        );
        let set = format!("option name Tables type string default {good}");
        assert_eq!(tables_line(&lines), set, "{lines:?}");
        // Folders that cannot serve, and an empty value, are refused; the tables stay.
        let long = "x".repeat(5000);
        for bad in ["/etc", empty.to_str().unwrap(), "", &long] {
            let lines = session(
                &mut s,
                &out,
                &format!("setoption name Tables value {bad}\nuci\n"),
            );
            assert!(
                lines[0].starts_with("info string error: Tables"),
                "{lines:?}"
            );
            assert!(lines[0].contains("unchanged"), "{lines:?}");
            assert!(lines[0].len() < 400, "{}", lines[0].len());
            assert_eq!(tables_line(&lines), set);
        }
        // Another agent that probes tables keeps them; one that does not says it drops them.
        let lines = session(
            &mut s,
            &out,
            "setoption name Agent value minimax:depth=3\nuci\n",
        );
        assert_eq!(tables_line(&lines), set, "{lines:?}");
        let lines = session(&mut s, &out, "setoption name Agent value random\nuci\n");
        assert!(
            lines[0].starts_with("info string Tables <empty>: agent \"random\" probes no"),
            "{lines:?}"
        );
        let empty_default = "option name Tables type string default <empty>";
        assert_eq!(tables_line(&lines), empty_default);
        let lines = session(
            &mut s,
            &out,
            &format!(
                "setoption name Agent value minimax\nsetoption name Tables value {good}\n\
                 setoption name Tables value <empty>\nuci\n"
            ),
        );
        assert_eq!(tables_line(&lines), empty_default, "{lines:?}");
    }

    #[test]
    fn stop_and_isready_are_answered_during_a_long_search() {
        let (mut s, out) = server("minimax:depth=64");
        s.handle("position startpos").unwrap();
        s.handle("go").unwrap();
        s.handle("isready").unwrap();
        let start = std::time::Instant::now();
        s.handle("stop").unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let lines = out.take_lines().unwrap();
        assert_eq!(lines[0], "readyok", "{lines:?}");
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        Position::standard().parse_turn(best).unwrap();
        assert!(!s.handle("quit").unwrap());
    }
}
