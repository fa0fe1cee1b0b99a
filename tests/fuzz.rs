//! A bounded, seeded fuzz test of every reader of outside input: FEN text, move notation, game
//! records, engine protocol lines and damaged training files (checkpoints, policy files,
//! replay windows). Inputs are valid texts and files from seeded random games, damaged at
//! random, and random text; every reader must answer with a value or an error, never panic,
//! and what it accepts must be consistent (a FEN read back writes the same FEN, a move read is
//! legal, an accepted record replays). Fixed seeds and counts: the same inputs on every run,
//! about 20 seconds of processor time in release mode.

use std::path::Path;
use std::sync::Arc;

use fanorona_env::{AgentSpec, Board, Fanorona, Game, GameId, History, Position, Rules};
use fanorona_eval::GameRecord;
use fanorona_eval::protocol::Server;
use fanorona_train::config::{
    Architecture, ComputeDevice, LrSchedule, NetworkConfig, OptimizerConfig, ReplayConfig,
    TrainerConfig,
};
use fanorona_train::io::{Checkpoint, CheckpointMeta, export_checkpoint, load_policy};
use fanorona_train::model::{PolicyValueNet, Trainer};
use fanorona_train::replay::{ReplayBuffer, TrajectoryMeta, TrajectoryRecorder};
use fanorona_train::run_dir::RunDir;
use fanorona_train::{RngState, TrainRng};
use fanorona_util::shared_output::SharedOutput;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The boards the inputs are drawn on.
const BOARDS: [(usize, usize); 6] = [(9, 5), (5, 5), (7, 3), (3, 3), (5, 3), (3, 7)];

/// Characters damaged texts are made of: those of FENs, moves, records and commands, and
/// some others.
const CHARS: &[u8] = b"abcdefghijWBwb0123456789/ ;:-x.AWNSEx[]\"\\*=,\n\t#e3?\xc3\xa9";

fn random_board(rng: &mut StdRng) -> &'static Board {
    let (w, h) = BOARDS[rng.random_range(0..BOARDS.len())];
    Board::new(w, h).unwrap()
}

/// A seeded random game of up to `max_turns` turns from the initial position of `board`.
fn random_game(rng: &mut StdRng, board: &'static Board, max_turns: usize) -> History {
    let mut history = History::new(Position::initial(board));
    for _ in 0..max_turns {
        if history.outcome().is_some() {
            break;
        }
        let turns = history.position().legal_turns();
        history.play_unchecked(&turns[rng.random_range(0..turns.len())]);
    }
    history
}

/// A random character of [`CHARS`] (the bytes above 127 make up `é`, kept whole).
fn random_char(rng: &mut StdRng) -> char {
    let text = std::str::from_utf8(CHARS).unwrap();
    let chars: Vec<char> = text.chars().collect();
    chars[rng.random_range(0..chars.len())]
}

/// `text` with a few random edits: characters replaced, inserted or deleted, or a piece
/// repeated or cut off.
fn damage_text(rng: &mut StdRng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=chars.len());
        match rng.random_range(0..5) {
            0 if at < chars.len() => chars[at] = random_char(rng),
            1 => chars.insert(at, random_char(rng)),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 => chars.truncate(at),
            _ => {
                let piece: Vec<char> = chars[at..].iter().take(8).copied().collect();
                chars.splice(at..at, piece);
            }
        }
    }
    chars.into_iter().collect()
}

/// A random text of up to `len` characters of [`CHARS`].
fn random_text(rng: &mut StdRng, len: usize) -> String {
    (0..rng.random_range(0..=len))
        .map(|_| random_char(rng))
        .collect()
}

#[test]
fn fen_text_is_read_or_refused_and_what_is_read_writes_back() {
    let mut rng = StdRng::seed_from_u64(1);
    for i in 0..300_000 {
        let text = if i % 4 == 0 {
            random_text(&mut rng, 40)
        } else {
            let board = random_board(&mut rng);
            let turns = rng.random_range(0..30);
            let fen = random_game(&mut rng, board, turns).position().to_fen();
            damage_text(&mut rng, &fen)
        };
        let Ok(pos) = Position::from_fen(&text) else {
            continue;
        };
        let fen = pos.to_fen();
        assert_eq!(Position::from_fen(&fen), Ok(pos), "{text:?} -> {fen:?}");
        let names = pos.legal_turn_names();
        let outcome = pos.outcome(1);
        assert!(
            outcome.is_some() || !names.is_empty(),
            "{fen}: an open game has moves"
        );
        assert!(
            !names.is_empty() || outcome.is_some_and(|o| o.winner().is_some()),
            "{fen}: a side without moves has lost"
        );
        for name in names {
            assert!(pos.parse_turn(&name).is_ok(), "{fen}: {name}");
        }
    }
}

#[test]
fn move_notation_is_read_or_refused_and_what_is_read_is_legal() {
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..20_000 {
        let board = random_board(&mut rng);
        let turns = rng.random_range(0..20);
        let pos = *random_game(&mut rng, board, turns).position();
        let legal = pos.legal_turns();
        let names = pos.legal_turn_names();
        for _ in 0..20 {
            let text = match (names.is_empty(), rng.random_range(0..3)) {
                (false, 0) => names[rng.random_range(0..names.len())].clone(),
                (false, 1) => {
                    let name = &names[rng.random_range(0..names.len())];
                    damage_text(&mut rng, name)
                }
                _ => random_text(&mut rng, 12),
            };
            if let Ok(turn) = pos.parse_turn(&text) {
                assert!(legal.contains(&turn), "{}: {text:?}", pos.to_fen());
            }
            let _ = pos.parse_step(&text);
        }
    }
}

/// The record of a seeded random game (ended by the rules or not, then with result `*`).
fn random_record(rng: &mut StdRng) -> GameRecord {
    let board = random_board(rng);
    let turns = rng.random_range(0..60);
    let history = random_game(rng, board, turns);
    GameRecord {
        event: "fuzz".into(),
        date: "2025.01.01".into(),
        white: "random".into(),
        black: "random".into(),
        result: history
            .outcome()
            .map_or("*", |o| o.result_string())
            .to_string(),
        start: *history.start(),
        moves: history.notation(),
        extra: vec![("Round".into(), "1".into())],
    }
}

#[test]
fn game_records_are_read_or_refused_and_what_is_read_replays() {
    let mut rng = StdRng::seed_from_u64(3);
    for i in 0..40_000 {
        let record = random_record(&mut rng);
        let text = record.to_text();
        if i % 8 == 0 {
            assert_eq!(GameRecord::parse(&text).as_ref(), Ok(&record), "{text}");
        }
        let damaged = if i % 5 == 0 {
            random_text(&mut rng, 200)
        } else {
            damage_text(&mut rng, &text)
        };
        if let Ok(read) = GameRecord::parse(&damaged) {
            assert!(read.history().is_ok(), "{damaged}");
            assert_eq!(
                GameRecord::parse(&read.to_text()).as_ref(),
                Ok(&read),
                "{damaged}"
            );
        }
    }
}

/// A random protocol line: a command with random or damaged arguments, or random text, on
/// one line. Searches are kept short (fast agents, small limits).
fn protocol_line(rng: &mut StdRng) -> String {
    protocol_text(rng).replace('\n', " ")
}

/// The text of [`protocol_line`], which may still hold line breaks.
fn protocol_text(rng: &mut StdRng) -> String {
    const AGENTS: [&str; 5] = [
        "random",
        "greedy",
        "minimax:depth=1",
        "mcts:sims=8",
        "bogus",
    ];
    const OPTIONS: [&str; 5] = ["Board", "Rules", "Seed", "Agent", "Hash"];
    match rng.random_range(0..12) {
        0 => ["uci", "isready", "ucinewgame", "d", "moves", "stop"][rng.random_range(0..6)].into(),
        1 => {
            let board = random_board(rng);
            format!(
                "setoption name Board value {}x{}",
                board.width(),
                board.height()
            )
        }
        2 => {
            let rules = damage_text(rng, &Rules::default().to_string());
            format!("setoption name Rules value {rules}")
        }
        3 => format!(
            "setoption name Agent value {}",
            AGENTS[rng.random_range(0..AGENTS.len())]
        ),
        4 => format!(
            "setoption name {} value {}",
            OPTIONS[rng.random_range(0..OPTIONS.len())],
            random_text(rng, 10)
        ),
        5 | 6 => {
            let board = random_board(rng);
            let turns = rng.random_range(0..20);
            let history = random_game(rng, board, turns);
            let cut = rng.random_range(0..=history.turns().len());
            let moves = history.notation()[..cut].join(" ");
            let fen = history.start().to_fen();
            let line = if rng.random_bool(0.5) {
                format!("position startpos moves {moves}")
            } else {
                format!("position fen {fen} moves {moves}")
            };
            if rng.random_bool(0.3) {
                damage_text(rng, &line)
            } else {
                line
            }
        }
        7 | 8 => match rng.random_range(0..4) {
            0 => "go".into(),
            1 => format!("go depth {}", rng.random_range(1..3)),
            2 => format!("go nodes {}", rng.random_range(1..200)),
            _ => format!("go movetime {}", rng.random_range(1..5)),
        },
        9 => format!("go {}", random_text(rng, 6).replace(char::is_numeric, "")),
        10 => format!("position {}", random_text(rng, 30)),
        _ => random_text(rng, 30),
    }
}

#[test]
fn engine_protocol_lines_are_answered_or_refused() {
    let mut rng = StdRng::seed_from_u64(4);
    let registry = Arc::new(fanorona_train::players::registry());
    for _ in 0..500 {
        let out = SharedOutput::default();
        let mut server = Server::new(
            registry.clone(),
            AgentSpec::parse("random").unwrap(),
            out.clone(),
        )
        .unwrap();
        let lines: Vec<String> = (0..40).map(|_| protocol_line(&mut rng)).collect();
        let script = lines.join("\n") + "\nisready\n";
        server.run(script.as_bytes()).unwrap();
        let answer = out.take_text().unwrap();
        let gos = lines
            .iter()
            .filter(|l| l.split_whitespace().next() == Some("go"))
            .count();
        let bestmoves = answer
            .lines()
            .filter(|l| l.starts_with("bestmove "))
            .count();
        let refused = answer
            .lines()
            .filter(|l| l.starts_with("info string error: go:"))
            .count();
        assert_eq!(bestmoves + refused, gos, "{script}\n---\n{answer}");
        assert!(answer.contains("readyok\n"), "{script}\n---\n{answer}");
    }
}

/// A replay window of a few seeded random games on the standard board.
fn replay_window() -> ReplayBuffer<Fanorona> {
    let mut rng = StdRng::seed_from_u64(5);
    let proto = Fanorona::standard();
    let config = ReplayConfig {
        window_games: 4,
        augment: false,
        root_value_weight: 0.0,
    };
    let mut buffer = ReplayBuffer::new(config, proto.clone());
    let mut legal = Vec::new();
    for _ in 0..3 {
        let mut state = proto.clone();
        let mut recorder = TrajectoryRecorder::new(&state);
        for _ in 0..10 {
            if state.is_terminal() {
                break;
            }
            state.legal_actions(&mut legal);
            let mut target = vec![0.0; state.num_actions()];
            target[legal[0]] = 1.0;
            recorder.record(&state, &target, 0.0, true);
            state
                .apply(legal[rng.random_range(0..legal.len())])
                .unwrap();
        }
        let meta = TrajectoryMeta {
            final_state: state.to_text(),
            ..TrajectoryMeta::default()
        };
        buffer.add_game(recorder.finish(meta, state.returns()));
    }
    buffer
}

/// A copy of `bytes` with damage: truncated (`true`), or one byte changed (`false`).
fn damage_bytes(rng: &mut StdRng, bytes: &[u8]) -> (Vec<u8>, bool) {
    let mut damaged = bytes.to_vec();
    if rng.random_bool(0.3) {
        damaged.truncate(rng.random_range(0..bytes.len()));
        (damaged, true)
    } else {
        let at = rng.random_range(0..bytes.len());
        damaged[at] ^= rng.random_range(1..=255u8);
        (damaged, false)
    }
}

/// The length of the header of a safetensors file (8 bytes of length, then the JSON
/// header): the part no checksum covers.
fn safetensors_header_len(bytes: &[u8]) -> usize {
    8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize
}

/// Damages the file at `path` (whose intact bytes are `bytes`) `count` times and loads it
/// with `load`, which must refuse it, except for a changed byte in the unchecked part
/// `bytes[..unchecked]`, which must still not panic.
fn check_damaged(
    rng: &mut StdRng,
    path: &Path,
    bytes: &[u8],
    unchecked: usize,
    count: usize,
    load: impl Fn(&Path) -> Result<(), String>,
) {
    for _ in 0..count {
        let (damaged, truncated) = damage_bytes(rng, bytes);
        std::fs::write(path, &damaged).unwrap();
        let changed_at = damaged.iter().zip(bytes).position(|(a, b)| a != b);
        let checked = truncated || changed_at.is_some_and(|at| at >= unchecked);
        if let Ok(()) = load(path) {
            assert!(
                !checked,
                "{}: damage at {changed_at:?} loaded",
                path.display()
            );
        }
    }
}

#[test]
fn damaged_training_files_are_refused() {
    let mut rng = StdRng::seed_from_u64(6);
    let dir = tempfile::tempdir().unwrap();
    let device = ComputeDevice::Flex.device().unwrap();
    let config = NetworkConfig::for_game(&Fanorona::standard(), Architecture::mlp(&[8]));
    let learner_config = TrainerConfig {
        optimizer: OptimizerConfig::Adam { weight_decay: 0.0 },
        schedule: LrSchedule::Constant { lr: 1e-3 },
        value_weight: 1.0,
        ema_decay: 0.0,
    };
    let learner = Trainer::new(
        learner_config,
        PolicyValueNet::init_seeded(&config, &device, 1).unwrap(),
        &device,
    );
    let meta = CheckpointMeta {
        game: GameId::standard().to_string(),
        network: config,
        optimizer: learner.config().optimizer.clone(),
        step: 0,
        iteration: 0,
        replay_games_added: 0,
        rng: RngState::of(&TrainRng::seed_from_u64(7)),
        learner: None,
        best_iteration: None,
    };
    let checkpoint = RunDir::new(dir.path())
        .save_checkpoint(&learner, meta)
        .unwrap();
    let policy = dir.path().join("policy.safetensors");
    export_checkpoint(&checkpoint, &policy).unwrap();
    let replay = dir.path().join("replay.safetensors");
    let window = replay_window();
    window.save(&replay).unwrap();

    let damaged = dir.path().join("damaged");
    let bytes = std::fs::read(&checkpoint).unwrap();
    check_damaged(&mut rng, &damaged, &bytes, 0, 400, |path| {
        Checkpoint::load(path, &device)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    let bytes = std::fs::read(&policy).unwrap();
    let header = safetensors_header_len(&bytes);
    check_damaged(&mut rng, &damaged, &bytes, header, 400, |path| {
        load_policy(path).map(drop).map_err(|e| e.to_string())
    });
    let bytes = std::fs::read(&replay).unwrap();
    let header = safetensors_header_len(&bytes);
    check_damaged(&mut rng, &damaged, &bytes, header, 400, |path| {
        ReplayBuffer::load(path, window.config().clone(), Fanorona::standard())
            .map(drop)
            .map_err(|e| e.to_string())
    });
}
