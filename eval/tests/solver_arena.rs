//! The solver agent in arena games: from every won or drawn position it does not lose, and
//! it wins what is won, against minimax and random players (openings of random turns).

use fanorona_env::{AgentSpec, Board, Color, Position};
use fanorona_eval::{Openings, play_game, registry};
use fanorona_exact::solver::{TableSource, Value, shared_solution};

fn check_games(board: (usize, usize), opponent: &str, pairs: usize) {
    let (w, h) = board;
    let table = shared_solution(&TableSource::Solve(w, h)).unwrap();
    let start = Position::initial(Board::new(w, h).unwrap());
    let openings = Openings::Random { plies: 3 };
    let solver = AgentSpec::parse(&format!("solver:board={w}x{h}")).unwrap();
    let other = AgentSpec::parse(opponent).unwrap();
    let (mut won, mut kept) = (0, 0);
    for pair in 0..pairs {
        let opening = openings.opening(&start, pair, 11);
        let mut at = opening.start;
        for t in &opening.turns {
            at.play_turn_unchecked(t);
        }
        for solver_colour in Color::BOTH {
            let mut s = registry().create(&solver, pair as u64).unwrap();
            let mut o = registry().create(&other, pair as u64).unwrap();
            let game = if solver_colour == Color::White {
                play_game(s.as_mut(), o.as_mut(), &opening, 400)
            } else {
                play_game(o.as_mut(), s.as_mut(), &opening, 400)
            };
            // The solver's value at the end of the opening, from its own view.
            let value = table
                .value(&at)
                .expect("opening positions are in the table");
            let value = if at.side_to_move() == solver_colour {
                value
            } else {
                value.before_turn()
            };
            let score = game.outcome.score(solver_colour);
            match value {
                Value::Win(_) => {
                    assert_eq!(score, 1.0, "a won position was not won ({opponent})");
                    won += 1;
                }
                Value::Draw => {
                    assert!(score >= 0.5, "a drawn position was lost ({opponent})");
                    kept += 1;
                }
                Value::Loss(_) => {}
            }
        }
    }
    assert!(
        won + kept > 0,
        "no game started from a won or drawn position"
    );
}

#[test]
fn solver_never_loses_a_won_or_drawn_position_on_3x3() {
    check_games((3, 3), "minimax:depth=3", 6);
    check_games((3, 3), "random", 6);
}

#[test]
fn solver_never_loses_a_won_or_drawn_position_on_5x3() {
    check_games((5, 3), "minimax:depth=2", 4);
    check_games((5, 3), "greedy", 4);
}
