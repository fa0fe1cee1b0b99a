//! Invariants of the move generator over thousands of positions from seeded random games on
//! several boards: step-by-step play agrees with complete turns, deduplication is exact, perft
//! is the same for mirror images, FEN round-trips, keys are kept right, and no parser panics.

use std::collections::HashSet;

mod common;

use common::map_position;
use fanorona_env::{Board, Color, Direction, Position, perft};
use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

const BOARDS: [(usize, usize); 7] = [(9, 5), (5, 5), (3, 3), (5, 3), (7, 3), (3, 7), (7, 5)];

/// Positions from random games (turn starts), `per_board` from each board.
fn random_positions(per_board: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for (w, h) in BOARDS {
        let start = Position::initial(Board::new(w, h).unwrap());
        let mut p = start;
        let mut taken = 0;
        while taken < per_board {
            let turns = p.legal_turns();
            if turns.is_empty() || p.turn_number() > 150 {
                p = start;
                continue;
            }
            out.push(p);
            taken += 1;
            let t = turns[rng.random_range(0..turns.len())];
            p.play_turn_unchecked(&t);
        }
    }
    out
}

type Result = (u64, u64, Color, u16);

fn result_of(p: &Position) -> Result {
    (
        p.pieces(Color::White),
        p.pieces(Color::Black),
        p.side_to_move(),
        p.no_capture_turns(),
    )
}

/// Every distinct position reachable by playing steps until the turn passes.
fn step_results(p: &Position, out: &mut HashSet<Result>) {
    for step in p.legal_steps() {
        let mut q = *p;
        q.play_step_unchecked(step);
        if q.is_turn_start() {
            out.insert(result_of(&q));
        } else {
            assert_eq!(
                q.side_to_move(),
                p.side_to_move(),
                "a chain keeps the player"
            );
            step_results(&q, out);
        }
    }
}

#[test]
fn step_by_step_play_agrees_with_complete_turns() {
    for p in random_positions(400, 1) {
        let mut by_steps = HashSet::new();
        step_results(&p, &mut by_steps);
        let mut by_turns = HashSet::new();
        for t in p.legal_turns() {
            let mut q = p;
            q.play_turn_unchecked(&t);
            assert!(
                by_turns.insert(result_of(&q)),
                "a turn was listed twice: {}",
                p.to_fen()
            );
            // Playing the turn's own steps reaches exactly the same position.
            let mut r = p;
            for s in p.turn_steps(&t) {
                assert!(
                    r.legal_steps().contains(&s),
                    "step of {} illegal",
                    t.notation(p.board())
                );
                r.play_step_unchecked(s);
            }
            assert_eq!(r, q, "{} in {}", t.notation(p.board()), p.to_fen());
            assert_eq!(r.key(), q.key());
        }
        assert_eq!(by_steps, by_turns, "{}", p.to_fen());
        assert_eq!(p.count_turns() as usize, by_turns.len());
    }
}

#[test]
fn deduplication_keeps_exactly_one_turn_per_result() {
    for p in random_positions(300, 2) {
        let mut results = HashSet::new();
        p.for_each_turn_path(|t| {
            results.insert((t.from(), t.to(), t.captured()));
        });
        let listed: Vec<_> = p
            .legal_turns()
            .iter()
            .map(|t| (t.from(), t.to(), t.captured()))
            .collect();
        assert_eq!(listed.len(), results.len(), "{}", p.to_fen());
        assert_eq!(listed.into_iter().collect::<HashSet<_>>(), results);
    }
}

#[test]
fn perft_is_the_same_for_mirror_images() {
    for (i, p) in random_positions(12, 3).into_iter().enumerate() {
        let board = p.board();
        let depth = if i % 3 == 0 { 3 } else { 2 };
        let expected = perft(&p, depth);
        let images = [
            map_position(
                &p,
                |q| board.mirror_point_horizontal(q),
                Direction::mirror_horizontal,
                false,
            ),
            map_position(
                &p,
                |q| board.mirror_point_vertical(q),
                Direction::mirror_vertical,
                false,
            ),
            map_position(
                &p,
                |q| board.mirror_point_vertical(q),
                Direction::mirror_vertical,
                true,
            ),
            map_position(&p, |q| board.rotate_point(q), Direction::opposite, true),
            map_position(&p, |q| board.rotate_point(q), Direction::opposite, false),
        ];
        for image in images {
            assert_eq!(
                perft(&image, depth),
                expected,
                "{} vs {}",
                p.to_fen(),
                image.to_fen()
            );
        }
    }
}

#[test]
fn fen_round_trips_and_keys_are_kept_incrementally() {
    for p in random_positions(300, 4) {
        let fen = p.to_fen();
        let q = Position::from_fen(&fen).unwrap();
        assert_eq!(q, p, "{fen}");
        assert_eq!(
            q.key(),
            p.key(),
            "incremental key differs from a fresh one: {fen}"
        );
        assert_eq!(q.to_fen(), fen);
    }
}

#[test]
fn keys_tell_positions_apart() {
    let positions = random_positions(300, 5);
    let mut keys = std::collections::HashMap::new();
    for p in &positions {
        let id = (
            p.board().points(),
            p.pieces(Color::White),
            p.pieces(Color::Black),
            p.side_to_move(),
        );
        if let Some(other) = keys.insert((p.board().points(), p.key()), id) {
            assert_eq!(other, id, "two positions share a key");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,60}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[WB0-9/]{0,40} [wbx]( [0-9]{1,6}( [0-9]{1,6}( [a-i1-9:,NESW]{0,12})?)?)?") {
        if let Ok(p) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
        }
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,30}", notation in "[a-jAWxX1-9 -]{0,16}") {
        let p = Position::standard();
        let _ = p.parse_turn(&text);
        let _ = p.parse_step(&text);
        let _ = p.parse_turn(&notation);
        let _ = p.parse_step(&notation);
    }
}

#[test]
fn has_legal_move_agrees_with_step_generation() {
    for rules in ["", "vela=white", "vela=black", "mandatory"] {
        for p in random_positions(100, 6) {
            let p = p.with_rules(fanorona_env::Rules::parse(rules).unwrap());
            assert_eq!(
                p.has_legal_move(),
                !p.legal_steps().is_empty(),
                "{} {rules}",
                p.to_fen()
            );
        }
    }
}
