//! End-to-end: `fanorona engine` driven as a separate process plays a whole game with legal
//! turns only, answers bad lines (not UTF-8 included) with an error and goes on, stops a long
//! search at once, finishes a search at the end of its input, searches `go infinite` until
//! `stop` and within a GUI's clocks, answers a failed search `bestmove (error)`, and serves as
//! an `engine:` agent in `fanorona match`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, command, fanorona, fanorona_with_stdin};
use fanorona_env::{AgentSpec, Color, Fanorona, Position};
use fanorona_eval::{agent_turn, registry};

/// A running `fanorona engine` with its pipes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(agent: &str) -> Engine {
        Engine::with_args(&["engine", "--agent", agent])
    }

    fn with_args(args: &[&str]) -> Engine {
        let mut child = command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "engine ended"
        );
        line.trim_end().to_string()
    }

    /// Reads lines up to one starting with `prefix`, returning it.
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let line = self.line();
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn an_engine_session_plays_a_whole_game_against_minimax() {
    let mut engine = Engine::start("minimax:depth=2");
    engine.send("uci");
    assert!(engine.line().starts_with("id name fanorona"));
    engine.until("uciok");
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.send("ucinewgame");

    let spec = AgentSpec::parse("minimax:depth=1,seed=3").unwrap();
    let mut opponent = registry().create(&spec, 0).unwrap();
    let mut game = Fanorona::standard();
    let mut moves: Vec<String> = Vec::new();
    let mut engine_turns = 0;
    while game.outcome().is_none() {
        assert!(moves.len() < 400, "the game does not end");
        let pos = *game.position();
        if pos.side_to_move() == Color::White {
            engine.send(&format!("position startpos moves {}", moves.join(" ")));
            engine.send("go");
            let best = engine.until("bestmove ");
            let text = best.strip_prefix("bestmove ").unwrap();
            let turn = pos
                .parse_turn(text)
                .unwrap_or_else(|e| panic!("illegal bestmove {text}: {e}"));
            game.play_turn_unchecked(&turn);
            moves.push(turn.notation(pos.board()));
            engine_turns += 1;
        } else {
            let turn = agent_turn(&mut opponent, &mut game).unwrap();
            moves.push(turn.notation(pos.board()));
        }
    }
    assert!(engine_turns > 0);
    // The finished game has no best move.
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go");
    assert_eq!(engine.until("bestmove"), "bestmove (none)");
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn bad_lines_are_answered_and_stop_ends_a_long_search() {
    let mut engine = Engine::start("minimax:depth=2");
    engine.send("bogus command");
    let line = engine.line();
    assert!(
        line.starts_with("info string error: unknown command"),
        "{line}"
    );
    engine.send("position startpos moves e2e2");
    assert!(engine.line().starts_with("info string error: move 1"));
    engine.send("isready");
    assert_eq!(engine.line(), "readyok");
    engine.send("moves");
    let moves = engine.line();
    assert_eq!(
        moves,
        format!(
            "moves {}",
            Position::standard().legal_turn_names().join(" ")
        )
    );

    engine.send("go depth 64");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    assert_eq!(engine.line(), "readyok", "answered during the search");
    let start = Instant::now();
    engine.send("stop");
    let best = engine.until("bestmove ");
    assert!(start.elapsed() < Duration::from_secs(5));
    Position::standard()
        .parse_turn(best.strip_prefix("bestmove ").unwrap())
        .unwrap();
}

/// The lines `fanorona engine --agent AGENT` writes for `script` (then the end of its input),
/// after it exited successfully.
fn session(agent: &str, script: impl AsRef<[u8]>) -> Vec<String> {
    let run = fanorona_with_stdin(["engine", "--agent", agent], script);
    run.assert_success().lines().map(str::to_string).collect()
}

/// The turn of a `bestmove` line, checked legal in `pos`.
#[track_caller]
fn legal_best(line: &str, pos: &Position) -> String {
    let best = line
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove: {line}"));
    pos.parse_turn(best)
        .unwrap_or_else(|e| panic!("illegal bestmove {best}: {e}"));
    best.to_string()
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() {
    let lines = session("random", b"isready\n\xff\xfe\nisready\nmoves\n");
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "readyok");
    assert!(
        lines[1].starts_with("info string error: the line is not valid UTF-8"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "readyok");
    assert!(lines[3].starts_with("moves "), "{}", lines[3]);
}

#[test]
fn the_end_of_the_input_finishes_the_search_and_quit_stops_it() {
    // The search asked for is finished, not cut at depth 1 (depth 3 takes a while on the
    // standard board: longer than the end of the input takes to arrive).
    let lines = session("minimax:depth=1", "position startpos\ngo depth 3\n");
    assert!(lines[0].starts_with("info depth 3 "), "{lines:?}");
    legal_best(&lines[1], &Position::standard());

    // quit stops a long search, which still answers its best move.
    let start = Instant::now();
    let lines = session("minimax:depth=2", "position startpos\ngo depth 64\nquit\n");
    assert!(start.elapsed() < Duration::from_secs(10));
    legal_best(lines.last().unwrap(), &Position::standard());
}

/// A shell script that does the handshake and dies when asked to search (run by `sh`, so it
/// need not be executable).
fn dying_engine() -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("fanorona-dying-engine-{}.sh", std::process::id()));
    let script = "while read -r line; do case \"$line\" in uci) echo uciok;; \
                  isready) echo readyok;; go*) exit 3;; esac; done\n";
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
fn a_failed_search_answers_an_error_and_no_move_then_the_session_goes_on() {
    let script = dying_engine();
    let lines = session(
        "random",
        format!(
            "setoption name Agent value engine:cmd=sh,args={}\nposition startpos\ngo\nmoves\n\
             setoption name Agent value random\ngo\n",
            script.display()
        ),
    );
    std::fs::remove_file(&script).unwrap();
    // random reports no info: the second search answers its move alone.
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: engine:cmd=sh")
            && lines[0].contains("closed its output"),
        "{}",
        lines[0]
    );
    // Not `bestmove (none)`: the game is not over.
    assert_eq!(lines[1], "bestmove (error)");
    assert!(lines[2].starts_with("moves "), "{}", lines[2]);
    legal_best(&lines[3], &Position::standard());
}

#[test]
fn go_infinite_answers_only_when_stopped() {
    // minimax finds the mate in one at once, and still waits for stop.
    let mut engine = Engine::start("minimax:depth=2");
    engine.send("position fen 9/9/3B5/9/2W1B4 w");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("isready");
    assert_eq!(engine.line(), "readyok", "no answer before stop");
    engine.send("d");
    assert_eq!(
        engine.line(),
        "info string error: go infinite is searching until stop; send stop first"
    );
    engine.send("stop");
    assert!(engine.line().starts_with("info depth "));
    assert_eq!(engine.line(), "bestmove c1d1Ad2A");

    // Every searching kind stops at stop, quit or the end of the input.
    engine.send("setoption name Agent value mcts");
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("stop");
    legal_best(&engine.until("bestmove"), &Position::standard());
    for agent in ["minimax", "mcts"] {
        for end in ["quit\n", ""] {
            let lines = session(agent, format!("position startpos\ngo infinite\n{end}"));
            legal_best(lines.last().unwrap(), &Position::standard());
        }
    }
}

#[test]
fn go_with_clocks_searches_within_a_share_of_the_movers_time() {
    // 1 s left, 40 turns to go: 25 ms for this turn, where depth 64 or ten million
    // simulations would never end.
    for agent in ["minimax:depth=64", "mcts:sims=10000000"] {
        let lines = session(
            agent,
            "position startpos\ngo wtime 1000 btime 1000 winc 0 binc 0 movestogo 40\n",
        );
        assert_eq!(lines.len(), 2, "{lines:?}");
        let time: u64 = lines[0]
            .split(" time ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|ms| ms.parse().ok())
            .unwrap_or_else(|| panic!("no time in {}", lines[0]));
        assert!(time < 1000, "{agent}: {}", lines[0]);
        legal_best(&lines[1], &Position::standard());
    }
}

#[test]
fn engine_agents_play_in_the_arena() {
    let engine = format!("engine:cmd={BIN},args=engine --agent minimax:depth=1");
    let run = fanorona([
        "match",
        "--white",
        &engine,
        "--black",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--board",
        "5x5",
        "--seed",
        "3",
        "--quiet",
    ]);
    let stdout = run.assert_success();
    assert!(stdout.contains("vs random: 2 games"), "{stdout}");

    // A program that does not speak the protocol is refused with a clear message.
    fanorona([
        "match",
        "--white",
        "engine:cmd=true",
        "--black",
        "random",
        "--games",
        "2",
        "--quiet",
    ])
    .assert_failure("engine:cmd=true cannot be used");
}

#[test]
fn without_an_agent_the_engine_plays_abnet_over_the_shipped_student() {
    let mut engine = Engine::with_args(&["engine"]);
    engine.send("uci");
    let id = engine.line();
    assert!(
        id.starts_with("id name fanorona ") && id.trim_end().ends_with(" (abnet:ms=1000)"),
        "{id}"
    );
    engine.until("uciok");
    engine.send("position startpos");
    engine.send("go depth 2");
    let info = engine.until("info");
    assert!(
        info.starts_with("info depth 2 ") && info.contains(" nodes "),
        "{info}"
    );
    legal_best(&engine.line(), &Position::standard());
    engine.send("quit");
}
