//! Search against perfect play: on solved small boards, MCTS with the random-rollout evaluator
//! picks a winning move wherever the solver says the side to move wins (quick wins, a fixed
//! sample of positions), with PUCT and with the Gumbel root.

use fanorona_env::{Board, Fanorona, Step};
use fanorona_eval::solver::{Solution, Value};
use fanorona_train::mcts::{RolloutEvaluator, SearchConfig, SearchDriver};

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
