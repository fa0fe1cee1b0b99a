//! The legal-action mask and the action encoding of Fanorona against the rules engine, on
//! thousands of random positions of several boards and rule sets: the mask marks exactly the
//! legal steps, every legal action round-trips through step and notation, and capture chains
//! keep the player until "stop" or until no continuation exists.

mod common;

use common::{SIZES, mask_of, random_states, rule_sets};
use fanorona_env::action::{action_to_step, num_actions, step_to_action, stop_action};
use fanorona_env::{
    Board, Color, Direction, Env, Fanorona, Game, Point, Position, Rules, Step, StepKind,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[test]
fn the_mask_marks_exactly_the_legal_steps() {
    let mut checked = 0;
    for (size, &(w, h)) in SIZES.iter().enumerate() {
        let board = Board::new(w, h).unwrap();
        for (r, rules) in rule_sets().into_iter().enumerate() {
            let states = random_states(board, rules, 400, (size * 10 + r) as u64);
            for (i, game) in states.iter().enumerate() {
                let pos = game.position();
                let mask = mask_of(game);
                assert_eq!(mask.len(), num_actions(board));
                let mut expected = vec![false; mask.len()];
                if !game.is_terminal() {
                    for step in pos.legal_steps() {
                        expected[step_to_action(board, step)] = true;
                    }
                }
                assert_eq!(mask, expected, "{w}x{h} {}", pos.to_fen());
                let mut legal = Vec::new();
                game.legal_actions(&mut legal);
                let from_mask: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
                assert_eq!(legal, from_mask, "legal_actions is the mask, increasing");
                let stop_legal = pos.chain().is_some() && !rules.mandatory_continuation;
                assert_eq!(mask[stop_action(board)], stop_legal && !game.is_terminal());
                if i % 16 == 0 {
                    for (a, &m) in mask.iter().enumerate() {
                        assert_eq!(game.is_legal(a), m, "is_legal({a}) at {}", pos.to_fen());
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, SIZES.len() * rule_sets().len() * 400);
}

#[test]
fn every_legal_action_round_trips_through_step_and_notation() {
    for &(w, h) in &SIZES {
        let board = Board::new(w, h).unwrap();
        for game in random_states(board, Rules::default(), 600, 7) {
            let mut legal = Vec::new();
            game.legal_actions(&mut legal);
            for &a in &legal {
                let step = action_to_step(board, a).unwrap();
                assert_eq!(step_to_action(board, step), a);
                assert_eq!(game.step_to_action(step), a);
                let name = game.action_name(a);
                assert_eq!(
                    game.parse_action(&name),
                    Ok(a),
                    "{name} at {}",
                    game.to_text()
                );
                assert_eq!(
                    game.parse_action(&name.to_uppercase()),
                    Ok(a),
                    "case is ignored"
                );
                // Through the environment: the action plays like the step on the position.
                let mut env = Env::new(game.clone());
                env.step(a).unwrap();
                let mut pos = *game.position();
                pos.play_step(step).unwrap();
                assert_eq!(env.state().position(), &pos);
            }
        }
    }
    // Every index of the action space decodes to a step that encodes back to it.
    let board = Board::standard();
    for a in 0..num_actions(board) {
        let step = action_to_step(board, a).unwrap();
        assert_eq!(step_to_action(board, step), a);
    }
    assert_eq!(action_to_step(board, num_actions(board)), None);
    assert_eq!(num_actions(board), 1081);
}

/// Whether the piece just arrived on `at` (moving in `last`) could capture again: an
/// independent reading of docs/rules.md's chain rules (no revisit, no repeated direction).
fn can_continue(pos: &Position, mover: Color, at: Point, visited: u64, last: Direction) -> bool {
    let board = pos.board();
    let them = pos.pieces(mover.other());
    let empty = pos.empty();
    Direction::ALL.into_iter().filter(|&d| d != last).any(|d| {
        let Some(to) = board.neighbour(at, d) else {
            return false;
        };
        if empty & (1 << to) == 0 || visited & (1 << to) != 0 {
            return false;
        }
        let enemy = |p: Option<Point>| p.is_some_and(|p| them & (1 << p) != 0);
        enemy(board.neighbour(to, d)) || enemy(board.neighbour(at, d.opposite()))
    })
}

#[test]
fn chains_keep_the_player_and_end_on_stop_or_when_nothing_is_left() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (mut stops, mut natural_ends, mut continued) = (0, 0, 0);
    for &(w, h) in &SIZES {
        for rules in [Rules::default(), Rules::parse("mandatory").unwrap()] {
            let start =
                Fanorona::new(Position::initial(Board::new(w, h).unwrap()).with_rules(rules));
            for _ in 0..60 {
                let mut game = start.clone();
                let mut legal = Vec::new();
                let mut visited = 0u64;
                while !game.is_terminal() {
                    game.legal_actions(&mut legal);
                    let action = legal[rng.random_range(0..legal.len())];
                    let before = game.clone();
                    let mover = before.current_player();
                    game.apply_unchecked(action);
                    let step = before.action_to_step(action).unwrap();
                    let ended = game.position().chain().is_none();
                    match step {
                        Step::Stop => {
                            assert!(before.position().chain().is_some());
                            assert!(ended, "stop ends the turn");
                            stops += 1;
                        }
                        Step::Move {
                            kind: StepKind::Paika,
                            ..
                        } => {
                            assert!(before.position().chain().is_none());
                            assert!(ended, "a paika step is a whole turn");
                        }
                        Step::Move { from, dir, .. } => {
                            if before.position().chain().is_none() {
                                visited = 1 << from;
                            }
                            let to = before.board().neighbour(from, dir).unwrap();
                            visited |= 1 << to;
                            let more = can_continue(game.position(), mover, to, visited, dir);
                            if game.is_terminal() {
                                continue;
                            }
                            assert_eq!(
                                !ended,
                                more,
                                "{} then {}",
                                before.to_text(),
                                game.to_text()
                            );
                            if ended {
                                natural_ends += 1;
                            } else {
                                continued += 1;
                                let chain = game.position().chain().unwrap();
                                assert_eq!(
                                    (chain.piece, chain.visited, chain.last_dir),
                                    (to, visited, dir)
                                );
                            }
                        }
                    }
                    if !game.is_terminal() {
                        let expected = if ended { mover.other() } else { mover };
                        assert_eq!(game.current_player(), expected);
                    }
                }
            }
        }
    }
    assert!(
        stops > 50 && natural_ends > 50 && continued > 50,
        "{stops} {natural_ends} {continued}"
    );
}

#[test]
fn chain_rules_on_a_known_position() {
    // White c2 takes e2 by approach (c2d2A); from d2 it may go on to take b4 (d2c3A) or stop.
    let pos = Position::from_fen("5/1B3/5/2W1B/5 w 0 1").unwrap();
    let start = Fanorona::new(pos);
    let board = start.board();
    let names = |game: &Fanorona| {
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        legal
            .iter()
            .map(|&a| game.action_name(a))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&start), ["c2d2A"]);
    assert!(!mask_of(&start)[stop_action(board)]);
    let mut game = start.clone();
    game.apply(game.parse_action("c2d2").unwrap()).unwrap();
    assert_eq!(game.current_player(), Color::White, "the chain goes on");
    assert_eq!(names(&game), ["d2c3A", "stop"]);
    let mut stopped = game.clone();
    stopped.apply(stop_action(board)).unwrap();
    assert_eq!(stopped.current_player(), Color::Black);
    assert!(!stopped.is_terminal());
    game.apply(game.parse_action("d2c3A").unwrap()).unwrap();
    assert!(game.is_terminal());
    assert_eq!(game.returns(), [1.0, -1.0]);
}
