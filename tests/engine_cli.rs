//! End-to-end: `fanorona engine` driven as a separate process plays a whole game with legal
//! turns only, answers bad lines with an error and goes on, stops a long search at once, and
//! serves as an `engine:` agent in `fanorona match`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, command, fanorona};
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
        let mut child = command(["engine", "--agent", agent])
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
