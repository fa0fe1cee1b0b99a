//! Symmetries, the mover's frame and the Markov property of the observation, on random
//! positions: a mapped position (built independently, through FEN) has the mapped mask and
//! observation and plays the mapped actions to the mapped results; black's view of a position
//! is white's view of the turned, colour-swapped one; equal observations mean equal masks.

mod common;

use std::collections::HashMap;

use common::{SIZES, map_position, mask_of, observation_of, random_states, rule_sets};
use fanorona_env::{Board, Color, Fanorona, Game, Symmetry, Telo};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The mask in the mover's frame: entry `to_mover_action(a)` is `mask[a]`.
fn mover_mask<G: Game>(game: &G) -> Vec<bool> {
    let mask = mask_of(game);
    let mut mover = vec![false; mask.len()];
    for (a, &m) in mask.iter().enumerate() {
        mover[game.to_mover_action(a)] = m;
    }
    mover
}

#[test]
fn symmetries_commute_with_masks_observations_and_apply() {
    for &(w, h) in &SIZES {
        let board = Board::new(w, h).unwrap();
        for rules in rule_sets() {
            for game in random_states(board, rules, 150, 3) {
                // A rebuilt position has no history: compare those without repetitions.
                if game.occurrences() > 1 {
                    continue;
                }
                let pos = game.position();
                let mask = mask_of(&game);
                let obs = observation_of(&game);
                let mut legal = Vec::new();
                game.legal_actions(&mut legal);
                for sym in Symmetry::ALL {
                    let s = sym as usize;
                    let mapped_pos =
                        map_position(pos, |p| sym.point(board, p), |d| sym.direction(d), false);
                    assert_eq!(
                        mapped_pos.pieces(Color::White),
                        sym.bitboard(board, pos.pieces(Color::White))
                    );
                    let mapped = Fanorona::new(mapped_pos);
                    // Masks: absolute actions map the same way as mover-frame ones, since the
                    // four maps commute with the half turn.
                    let mapped_mask = mask_of(&mapped);
                    for (a, &m) in mask.iter().enumerate() {
                        assert_eq!(mapped_mask[game.transform_action(s, a)], m);
                    }
                    let mut transformed = vec![0.0; obs.len()];
                    game.transform_observation(s, &obs, &mut transformed);
                    assert_eq!(
                        observation_of(&mapped),
                        transformed,
                        "{sym:?} {}",
                        game.to_text()
                    );
                    // Mover-frame masks map through the same action map.
                    let (mm, mapped_mm) = (mover_mask(&game), mover_mask(&mapped));
                    for (a, &m) in mm.iter().enumerate() {
                        assert_eq!(mapped_mm[game.transform_action(s, a)], m);
                    }
                    // Apply commutes with the map.
                    for &a in legal.iter().take(4) {
                        let mut after = game.clone();
                        after.apply(a).unwrap();
                        let mut mapped_after = mapped.clone();
                        mapped_after.apply(game.transform_action(s, a)).unwrap();
                        let expected = map_position(
                            after.position(),
                            |p| sym.point(board, p),
                            |d| sym.direction(d),
                            false,
                        );
                        assert_eq!(mapped_after.position(), &expected);
                        if after.occurrences() == 1 {
                            assert_eq!(mapped_after.is_terminal(), after.is_terminal());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn black_sees_what_white_sees_on_the_turned_colour_swapped_board() {
    let mut black_positions = 0;
    for &(w, h) in &SIZES {
        let board = Board::new(w, h).unwrap();
        for rules in rule_sets() {
            for game in random_states(board, rules, 200, 5) {
                for a in 0..game.num_actions() {
                    assert_eq!(game.mover_action_to_absolute(game.to_mover_action(a)), a);
                }
                if game.current_player() != Color::Black
                    || game.is_terminal()
                    || game.occurrences() > 1
                {
                    continue;
                }
                let turned = Fanorona::new(map_position(
                    game.position(),
                    |p| board.rotate_point(p),
                    |d| d.opposite(),
                    true,
                ));
                assert_eq!(turned.current_player(), Color::White);
                assert_eq!(mover_mask(&game), mask_of(&turned), "{}", game.to_text());
                assert_eq!(observation_of(&game), observation_of(&turned));
                black_positions += 1;
            }
        }
    }
    assert!(black_positions > 1000, "{black_positions}");
}

#[test]
fn equal_observations_have_equal_masks() {
    for &(w, h) in &SIZES {
        let board = Board::new(w, h).unwrap();
        for rules in rule_sets() {
            let mut seen: HashMap<Vec<u32>, Vec<bool>> = HashMap::new();
            let mut repeats = 0;
            for game in random_states(board, rules, 2000, 9) {
                let key: Vec<u32> = observation_of(&game).iter().map(|x| x.to_bits()).collect();
                let mask = mover_mask(&game);
                match seen.get(&key) {
                    Some(earlier) => {
                        assert_eq!(earlier, &mask, "{w}x{h} {}", game.to_text());
                        repeats += 1;
                    }
                    None => {
                        seen.insert(key, mask);
                    }
                }
            }
            // Openings repeat across games, so the check has cases to bite on.
            assert!(repeats > 0, "{w}x{h} {rules:?}");
        }
    }
}

#[test]
fn telo_symmetries_commute_with_masks_observations_and_apply() {
    let mut rng = SmallRng::seed_from_u64(2);
    let mut checked = 0;
    for _ in 0..300 {
        let mut game = Telo::new();
        let mut legal = Vec::new();
        while !game.is_terminal() && game.plies() < 30 {
            let mask = mask_of(&game);
            let obs = observation_of(&game);
            game.legal_actions(&mut legal);
            for s in 0..game.num_symmetries() {
                let map = |set: u16| {
                    let mut obs_plane = [0.0f32; 9];
                    for (p, cell) in obs_plane.iter_mut().enumerate() {
                        *cell = f32::from(set >> p & 1);
                    }
                    let mut out = vec![0.0; 36];
                    let mut full = vec![0.0; 36];
                    full[..9].copy_from_slice(&obs_plane);
                    game.transform_observation(s, &full, &mut out);
                    (0..9).fold(0u16, |acc, p| acc | u16::from(out[p] == 1.0) << p)
                };
                let mapped = Telo::from_parts(
                    map(game.pieces(Color::White)),
                    map(game.pieces(Color::Black)),
                    game.current_player(),
                    game.plies(),
                    game.max_plies(),
                )
                .unwrap();
                let mapped_mask = mask_of(&mapped);
                for (a, &m) in mask.iter().enumerate() {
                    assert_eq!(mapped_mask[game.transform_action(s, a)], m);
                }
                let mut transformed = vec![0.0; obs.len()];
                game.transform_observation(s, &obs, &mut transformed);
                assert_eq!(observation_of(&mapped), transformed);
                for &a in &legal {
                    let mut after = game;
                    after.apply(a).unwrap();
                    let mut mapped_after = mapped;
                    mapped_after.apply(game.transform_action(s, a)).unwrap();
                    assert_eq!(
                        mapped_after.pieces(Color::White),
                        map(after.pieces(Color::White))
                    );
                    assert_eq!(
                        mapped_after.pieces(Color::Black),
                        map(after.pieces(Color::Black))
                    );
                    assert_eq!(mapped_after.winner(), after.winner());
                }
                checked += 1;
            }
            game.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        }
    }
    assert!(checked > 5000, "{checked}");
}
