//! Search against perfect play: on solved small boards, MCTS with the random-rollout evaluator
//! picks a winning move wherever the solver says the side to move wins (quick wins, a fixed
//! sample of positions), with PUCT and with the Gumbel root; and in Fanoron-Telo, where an
//! exhaustive search written here says the player to act forces a win.

use fanorona_env::{Board, Color, Fanorona, Game, Step, Telo};
use fanorona_exact::solver::{Solution, Value};
use fanorona_search::{RolloutEvaluator, SearchConfig, SearchDriver};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Every tenth won position (win within `max_distance` turns) of a solved board, at most
/// `count` of them, in the table's order.
fn won_positions(
    solution: &Solution,
    max_distance: u16,
    count: usize,
) -> Vec<fanorona_env::Position> {
    solution
        .positions()
        .filter(|(_, v)| matches!(v, Value::Win(n) if *n <= max_distance))
        .step_by(10)
        .take(count)
        .map(|(p, _)| p)
        .collect()
}

fn check(board: (usize, usize), gumbel: bool, simulations: u32) {
    let solution = Solution::solve(Board::new(board.0, board.1).unwrap()).unwrap();
    let positions = won_positions(&solution, 3, 12);
    assert!(positions.len() >= 6, "too few won positions sampled");
    let games: Vec<Fanorona> = positions.iter().map(|&p| Fanorona::new(p)).collect();
    let config = SearchConfig {
        simulations,
        gumbel,
        seed: 3,
        ..SearchConfig::default()
    };
    let mut driver = SearchDriver::new(config, 16, &games);
    driver.search(&mut RolloutEvaluator::new(4, 200, 5));
    for (i, pos) in positions.iter().enumerate() {
        let action = driver.result(i).unwrap().action;
        let step = games[i].action_to_step(action).unwrap();
        // The step must begin some turn that the solver says wins.
        let turns = solution.turn_values(pos).unwrap();
        let wins = turns.iter().any(|(turn, value)| {
            matches!(value, Value::Win(_)) && pos.turn_steps(turn).first() == Some(&step)
        });
        assert!(
            wins,
            "{}: {step:?} starts no winning turn (gumbel {gumbel})",
            pos.to_fen()
        );
        assert_ne!(step, Step::Stop);
    }
}

#[test]
fn puct_finds_the_winning_moves_the_solver_knows() {
    check((3, 3), false, 800);
    check((5, 3), false, 800);
}

#[test]
fn gumbel_finds_the_winning_moves_the_solver_knows() {
    check((3, 3), true, 200);
    check((5, 3), true, 200);
}

/// Whether the player to act in Telo can force a win within `plies` of its own and the
/// opponent's moves (an exhaustive search, independent of the MCTS code).
fn telo_forced_win(state: &Telo, plies: u32) -> bool {
    let me = state.current_player();
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    actions.iter().any(|&a| telo_wins_with(state, a, me, plies))
}

/// Whether `action` wins for `me` within `plies` (the action included).
fn telo_wins_with(state: &Telo, action: usize, me: Color, plies: u32) -> bool {
    let mut next = *state;
    next.apply_unchecked(action);
    if next.is_terminal() {
        return next.returns()[me.index()] > 0.0;
    }
    if plies < 3 {
        return false;
    }
    let mut replies = Vec::new();
    next.legal_actions(&mut replies);
    replies.iter().all(|&b| {
        let mut after = next;
        after.apply_unchecked(b);
        if after.is_terminal() {
            return after.returns()[me.index()] > 0.0;
        }
        telo_forced_win(&after, plies - 2)
    })
}

/// Telo positions from seeded random games where the player to act forces a win in three
/// plies (not at once) with some actions but not with all.
fn telo_positions(count: usize) -> Vec<Telo> {
    let mut rng = SmallRng::seed_from_u64(8);
    let mut positions = Vec::new();
    let mut actions = Vec::new();
    while positions.len() < count {
        let mut game = Telo::new();
        for _ in 0..rng.random_range(3..14) {
            if game.is_terminal() {
                break;
            }
            game.legal_actions(&mut actions);
            game.apply_unchecked(actions[rng.random_range(0..actions.len())]);
        }
        if game.is_terminal() {
            continue;
        }
        game.legal_actions(&mut actions);
        let me = game.current_player();
        let winning = actions
            .iter()
            .filter(|&&a| telo_wins_with(&game, a, me, 3))
            .count();
        let immediate = actions.iter().any(|&a| telo_wins_with(&game, a, me, 1));
        if !immediate && winning > 0 && winning < actions.len() {
            positions.push(game);
        }
    }
    positions
}

const TELO_SIMULATIONS: u32 = 400;

#[test]
fn search_finds_forced_wins_in_telo() {
    let positions = telo_positions(12);
    for gumbel in [false, true] {
        let config = SearchConfig {
            simulations: TELO_SIMULATIONS,
            gumbel,
            seed: 2,
            ..SearchConfig::default()
        };
        let mut driver = SearchDriver::new(config, 8, &positions);
        driver.search(&mut RolloutEvaluator::new(4, 100, 3));
        for (i, game) in positions.iter().enumerate() {
            let action = driver.result(i).unwrap().action;
            assert!(
                telo_wins_with(game, action, game.current_player(), 3),
                "{}: {} does not force the win (gumbel {gumbel})",
                game.to_text(),
                game.action_name(action)
            );
        }
    }
}
