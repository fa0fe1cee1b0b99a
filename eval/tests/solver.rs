//! Tests of the exact solver: agreement with an independent search on 3x3, consistency of the
//! values on 3x3, 5x3 and 3x5, perfect play of the solver agent, table files and errors.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use fanorona_env::action::step_to_action;
use fanorona_env::{Agent, Board, Color, Fanorona, Game, Position, Rules, Turn};
use fanorona_eval::SolverAgent;
use fanorona_exact::solver::{Solution, SolveOptions, SolverError, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Each small board is solved once for all tests.
fn solved(width: usize, height: usize) -> &'static Arc<Solution> {
    static TABLES: OnceLock<[Arc<Solution>; 3]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [(3, 3), (5, 3), (3, 5)]
            .map(|(w, h)| Arc::new(Solution::solve(Board::new(w, h).unwrap()).unwrap()))
    });
    match (width, height) {
        (3, 3) => &tables[0],
        (5, 3) => &tables[1],
        (3, 5) => &tables[2],
        _ => panic!("only 3x3, 5x3 and 3x5 are solved in tests"),
    }
}

type Key = (u64, u64, Color);

fn key(pos: &Position) -> Key {
    (
        pos.pieces(Color::White),
        pos.pieces(Color::Black),
        pos.side_to_move(),
    )
}

fn successors(pos: &Position) -> Vec<Position> {
    pos.legal_turns()
        .iter()
        .map(|t| {
            let mut next = *pos;
            next.play_turn_unchecked(t);
            next
        })
        .collect()
}

/// An independent solver: all positions reachable by a plain depth-first search, then a
/// depth-limited search that proves wins and losses within `d` turns, computed for d = 0, 1,
/// 2, ... until no value changes; what no depth proves is a draw.
fn exhaustive_values(root: Position) -> HashMap<Key, Value> {
    let mut positions: Vec<Position> = vec![root];
    let mut number: HashMap<Key, usize> = HashMap::from([(key(&root), 0)]);
    let mut i = 0;
    while i < positions.len() {
        for next in successors(&positions[i]) {
            if let std::collections::hash_map::Entry::Vacant(e) = number.entry(key(&next)) {
                e.insert(positions.len());
                positions.push(next);
            }
        }
        i += 1;
    }
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| successors(p).iter().map(|c| number[&key(c)]).collect())
        .collect();
    // proven[i]: the value of position i if provable within the current depth.
    let mut proven: Vec<Option<Value>> = vec![None; positions.len()];
    loop {
        let deeper: Vec<Option<Value>> = children
            .iter()
            .map(|kids| {
                if kids.is_empty() {
                    return Some(Value::Loss(0));
                }
                let child: Vec<Option<Value>> = kids.iter().map(|&c| proven[c]).collect();
                let fastest_win = child
                    .iter()
                    .filter_map(|v| match v {
                        Some(Value::Loss(n)) => Some(n + 1),
                        _ => None,
                    })
                    .min();
                if let Some(n) = fastest_win {
                    return Some(Value::Win(n));
                }
                let mut slowest_loss = 0;
                for v in child {
                    match v {
                        Some(Value::Win(n)) => slowest_loss = slowest_loss.max(n + 1),
                        _ => return None,
                    }
                }
                Some(Value::Loss(slowest_loss))
            })
            .collect();
        if deeper == proven {
            break;
        }
        proven = deeper;
    }
    number
        .into_iter()
        .map(|(k, i)| (k, proven[i].unwrap_or(Value::Draw)))
        .collect()
}

#[test]
fn solver_agrees_with_exhaustive_search_on_3x3() {
    let board = Board::new(3, 3).unwrap();
    let solution = solved(3, 3);
    let expected = exhaustive_values(Position::initial(board).with_rules(Rules::pure()));
    assert_eq!(solution.len(), expected.len());
    let mut seen = 0;
    for (pos, value) in solution.positions() {
        assert_eq!(
            expected.get(&key(&pos)),
            Some(&value),
            "position {}",
            pos.to_fen()
        );
        seen += 1;
    }
    assert_eq!(seen, expected.len());
    // All three outcomes occur, so the comparison covers each kind.
    let counts = solution.counts();
    assert!(counts.wins > 0 && counts.losses > 0 && counts.draws > 0);
}

/// Checks every position's value against the values of its turns.
fn assert_consistent(solution: &Solution) {
    for (pos, value) in solution.positions() {
        let turns = solution
            .turn_values(&pos)
            .expect("every successor of a solved position is solved");
        let best = turns.iter().map(|&(_, v)| v).max();
        match value {
            Value::Loss(0) => assert!(turns.is_empty(), "{} lost but has turns", pos.to_fen()),
            // A win has a turn to an opponent's loss in n - 1, and none faster.
            Value::Win(n) => assert_eq!(best, Some(Value::Win(n)), "{}", pos.to_fen()),
            // A loss has only turns to opponent's wins, the slowest one in n - 1.
            Value::Loss(n) => {
                assert!(turns.iter().all(|(_, v)| matches!(v, Value::Loss(_))));
                assert_eq!(best, Some(Value::Loss(n)), "{}", pos.to_fen());
            }
            Value::Draw => assert_eq!(best, Some(Value::Draw), "{}", pos.to_fen()),
        }
        assert_eq!(solution.value(&pos), Some(value));
    }
}

#[test]
fn values_are_consistent_on_3x3_5x3_and_3x5() {
    for (w, h) in [(3, 3), (5, 3), (3, 5)] {
        let solution = solved(w, h);
        assert_consistent(solution);
        let root = solution.roots()[0];
        assert_eq!(
            key(&root),
            key(&Position::initial(Board::new(w, h).unwrap()))
        );
    }
}

/// A seeded opponent: random turns, or a greedy one that maximises its capture minus the
/// opponent's best reply capture (winning at once beats everything).
enum Opponent {
    Random(StdRng),
    Greedy(StdRng),
}

impl Opponent {
    fn choose(&mut self, pos: &Position) -> Turn {
        let turns = pos.legal_turns();
        match self {
            Opponent::Random(rng) => turns[rng.random_range(0..turns.len())],
            Opponent::Greedy(rng) => {
                let score = |t: &Turn| {
                    let mut next = *pos;
                    next.play_turn_unchecked(t);
                    let replies = next.legal_turns();
                    if replies.is_empty() {
                        return i32::MAX;
                    }
                    let reply = replies
                        .iter()
                        .map(|r| r.captured().count_ones() as i32)
                        .max()
                        .unwrap_or(0);
                    t.captured().count_ones() as i32 - reply
                };
                let scores: Vec<i32> = turns.iter().map(score).collect();
                let best = *scores.iter().max().unwrap();
                let best: Vec<&Turn> = turns
                    .iter()
                    .zip(&scores)
                    .filter(|&(_, &s)| s == best)
                    .map(|(t, _)| t)
                    .collect();
                *best[rng.random_range(0..best.len())]
            }
        }
    }
}

/// Plays the solver (to move in `start`) against `opponent` for at most `max_turns` turns,
/// checking at each of the solver's turns that its value never gets worse; returns the
/// winner, if any, and the number of turns played.
fn play(
    solution: &Arc<Solution>,
    start: Position,
    opponent: &mut Opponent,
    seed: u64,
    max_turns: u32,
) -> (Option<Color>, u32) {
    let solver_side = start.side_to_move();
    let mut agent = SolverAgent::new(solution.clone(), seed);
    agent.reset();
    let mut game = Fanorona::new(start);
    let mut turns = 0;
    let mut last: Option<Value> = None;
    while !game.is_terminal() && turns < max_turns {
        let pos = *game.position();
        if pos.side_to_move() == solver_side {
            let value = solution.value(&pos).expect("reachable position");
            if let Some(before) = last {
                // Two turns later: a win comes closer (or faster), a draw is kept.
                match (before, value) {
                    (Value::Win(n), Value::Win(m)) => {
                        assert!(m + 2 <= n, "{} lost time", pos.to_fen())
                    }
                    (Value::Win(_), v) => panic!("won position became {v} at {}", pos.to_fen()),
                    (Value::Draw, Value::Loss(_)) => {
                        panic!("drawn position lost at {}", pos.to_fen())
                    }
                    _ => {}
                }
            }
            last = Some(value);
            while game.position().side_to_move() == solver_side && !game.is_terminal() {
                let action = agent.act(&game).expect("the solver acts");
                game.apply(action).expect("the solver plays legal actions");
            }
        } else {
            let turn = opponent.choose(&pos);
            for step in pos.turn_steps(&turn) {
                game.apply(step_to_action(pos.board(), step)).unwrap();
            }
        }
        turns += 1;
    }
    (game.outcome().and_then(|o| o.winner()), turns)
}

fn check_games(width: usize, height: usize, starts: usize, seed: u64) {
    let solution = solved(width, height);
    let mut rng = StdRng::seed_from_u64(seed);
    let all: Vec<(Position, Value)> = solution
        .positions()
        .filter(|(p, _)| !p.legal_turns().is_empty())
        .collect();
    let mut picks: Vec<(Position, Value)> = vec![(
        solution.roots()[0],
        solution.value(&solution.roots()[0]).unwrap(),
    )];
    picks.extend((0..starts).map(|_| all[rng.random_range(0..all.len())]));
    let mut decided = 0;
    for (i, &(start, value)) in picks.iter().enumerate() {
        for mut opponent in [
            Opponent::Random(StdRng::seed_from_u64(seed + i as u64)),
            Opponent::Greedy(StdRng::seed_from_u64(seed + i as u64)),
        ] {
            let (winner, turns) = play(solution, start, &mut opponent, i as u64, 200);
            let solver = start.side_to_move();
            match value {
                Value::Win(n) => {
                    assert_eq!(winner, Some(solver), "won start {} not won", start.to_fen());
                    assert!(turns <= n as u32, "won in {turns} turns, not within {n}");
                    decided += 1;
                }
                Value::Draw => assert_ne!(winner, Some(solver.other()), "{}", start.to_fen()),
                Value::Loss(n) => {
                    if winner == Some(solver.other()) {
                        assert!(turns >= n as u32, "lost faster than {n} turns");
                    }
                }
            }
        }
    }
    assert!(decided > 0, "no won start was tested");
}

#[test]
fn solver_agent_keeps_won_and_drawn_positions_against_random_and_greedy() {
    check_games(3, 3, 150, 1);
    check_games(5, 3, 60, 2);
    check_games(3, 5, 60, 3);
}

#[test]
fn solver_against_itself_takes_exactly_the_distance() {
    for (w, h) in [(3, 3), (5, 3)] {
        let solution = solved(w, h);
        let mut checked = 0;
        let stride = (solution.len() / 150).max(1);
        for (start, value) in solution.positions().step_by(stride) {
            let Some(n) = value.distance() else { continue };
            let mut agents = [
                SolverAgent::new(solution.clone(), 7),
                SolverAgent::new(solution.clone(), 8),
            ];
            let mut game = Fanorona::new(start);
            let mut turns = 0;
            while !game.is_terminal() {
                let side = game.position().side_to_move();
                while !game.is_terminal() && game.position().side_to_move() == side {
                    let action = agents[side.index()].act(&game).unwrap();
                    game.apply(action).unwrap();
                }
                turns += 1;
            }
            assert_eq!(turns, n as u32, "from {} ({value})", start.to_fen());
            let winner = game.outcome().and_then(|o| o.winner());
            let mover = start.side_to_move();
            let expected = if matches!(value, Value::Win(_)) {
                mover
            } else {
                mover.other()
            };
            assert_eq!(winner, Some(expected));
            checked += 1;
        }
        assert!(checked > 100, "only {checked} decided starts");
    }
}

#[test]
fn agent_finishes_a_chain_it_did_not_start() {
    let solution = solved(5, 3);
    // A position whose best turn is a multi-capture chain; play its first step ourselves.
    let (pos, turn) = solution
        .positions()
        .find_map(|(p, _)| {
            let (_, turns) = solution.best_turns(&p)?;
            turns.into_iter().find(|t| t.len() >= 2).map(|t| (p, t))
        })
        .expect("some best turn on 5x3 is a chain");
    let mut game = Fanorona::new(pos);
    let first = pos.turn_steps(&turn)[0];
    game.apply(step_to_action(pos.board(), first)).unwrap();
    let mid = *game.position();
    assert!(!mid.is_turn_start());
    let best = solution.value(&mid).unwrap();
    let mut agent = SolverAgent::new(solution.clone(), 3);
    let mover = mid.side_to_move();
    while game.position().side_to_move() == mover && !game.is_terminal() {
        let action = agent.act(&game).unwrap();
        game.apply(action).unwrap();
    }
    let after = solution.value(game.position()).unwrap();
    assert_eq!(after.before_turn(), best);
}

#[test]
fn agent_solves_positions_outside_the_table_on_the_fly() {
    let solution = solved(3, 3);
    // Three white pieces against one black: not reachable from the 3x3 initial position.
    let pos = Position::from_fen("1B1/3/WWW w").unwrap();
    assert_eq!(solution.value(&pos), None);
    let (own, _) = Solution::solve_from(&[pos], &SolveOptions::default()).unwrap();
    let value = own.value(&pos).unwrap();
    let mut agent = SolverAgent::new(solution.clone(), 5);
    let game = Fanorona::new(pos);
    let action = agent.act(&game).unwrap();
    let mut after = game.clone();
    after.apply(action).unwrap();
    let mut position = *after.position();
    while !position.is_turn_start() {
        let action = agent.act(&after).unwrap();
        after.apply(action).unwrap();
        position = *after.position();
    }
    assert_eq!(own.value(&position).unwrap().before_turn(), value);
}

#[test]
fn agent_refuses_rule_variants() {
    let solution = solved(3, 3);
    let board = Board::new(3, 3).unwrap();
    let rules = Rules::parse("first-turn").unwrap();
    let mut agent = SolverAgent::new(solution.clone(), 1);
    let err = agent
        .act(&Fanorona::new(Position::initial(board).with_rules(rules)))
        .unwrap_err();
    assert!(err.reason.contains("first-turn"), "{err}");
    assert_eq!(err.agent, "solver:board=3x3");
}

#[test]
fn tables_round_trip_and_damage_is_detected() {
    let solution = solved(3, 5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x5.table");
    solution.save(&path).unwrap();
    let loaded = Solution::load(&path).unwrap();
    assert_eq!(loaded.len(), solution.len());
    assert_eq!(loaded.counts(), solution.counts());
    assert!(
        loaded
            .positions()
            .zip(solution.positions())
            .all(|((p, v), (q, w))| key(&p) == key(&q) && v == w)
    );
    assert_eq!(key(&loaded.roots()[0]), key(&solution.roots()[0]));

    let bytes = std::fs::read(&path).unwrap();
    let bad = |data: &[u8]| {
        let p = dir.path().join("bad.table");
        std::fs::write(&p, data).unwrap();
        match Solution::load(&p) {
            Err(SolverError::BadTable { reason, .. }) => reason,
            other => panic!("expected a bad-table error, got {other:?}"),
        }
    };
    let mut flipped = bytes.clone();
    let last_value = bytes.len() - 5;
    flipped[last_value] ^= 0x10;
    assert!(bad(&flipped).contains("checksum"));
    assert!(bad(&bytes[..bytes.len() / 2]).contains("ends inside"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(bad(&magic).contains("magic"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(bad(&version).contains("version"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(bad(&longer).contains("after the checksum"));
    assert!(matches!(
        Solution::load(&dir.path().join("missing.table")),
        Err(SolverError::Io { .. })
    ));
}

#[test]
fn bad_boards_rules_and_limits_give_clear_errors() {
    let err = Solution::solve(Board::standard()).unwrap_err();
    assert!(
        matches!(err, SolverError::BoardTooLarge { points: 45, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("9x5"));
    let board = Board::new(3, 3).unwrap();
    let vela = Position::initial(board).with_rules(Rules::parse("vela,mandatory").unwrap());
    let err = Solution::solve_from(&[vela], &SolveOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("mandatory continuation, vela"),
        "{err}"
    );
    let options = SolveOptions {
        max_positions: 100,
        ..SolveOptions::default()
    };
    let err = Solution::solve_from(&[Position::initial(board)], &options).unwrap_err();
    assert!(matches!(err, SolverError::TooManyPositions { limit: 100 }));
    assert!(matches!(
        Solution::solve_from(&[], &options),
        Err(SolverError::NoRoot)
    ));
}
