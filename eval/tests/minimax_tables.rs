//! Minimax with endgame tables: it converts won endings within their distance and keeps
//! drawn ones, against a deeper search without tables.

use fanorona_env::{Board, Budget, Color, Fanorona, Outcome, Position, Rules};
use fanorona_eval::TurnChooser;
use fanorona_eval::minimax::MinimaxChooser;
use fanorona_exact::solver::Value;
use fanorona_exact::tables::{BuildOptions, ClassIndex, build};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays `first` (to move in `start`) against `second` until the game ends; the outcome and
/// the number of turns played.
fn play_out(
    start: Position,
    first: &mut MinimaxChooser,
    second: &mut MinimaxChooser,
) -> (Outcome, usize) {
    let mut game = Fanorona::new(start);
    let mut turns = 0;
    loop {
        if let Some(outcome) = game.outcome() {
            return (outcome, turns);
        }
        let chooser = if turns % 2 == 0 {
            &mut *first
        } else {
            &mut *second
        };
        let turn = chooser.choose_turn(&game).unwrap();
        game.play_turn_unchecked(&turn);
        turns += 1;
    }
}

#[test]
fn minimax_with_tables_converts_won_endings_and_keeps_draws() {
    let board = Board::standard();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = build(board, 4, dir.path(), &BuildOptions::default()).unwrap();
    let mut rng = StdRng::seed_from_u64(21);
    let (mut wins, mut draws) = (0, 0);
    while wins < 12 || draws < 4 {
        let white = rng.random_range(1..=3);
        let class = ClassIndex::new(board, white, 4 - white).unwrap();
        let (mover, opponent) = class.unrank(rng.random_range(0..class.len()));
        let pos = Position::from_pieces(board, [mover, opponent], Color::White, Rules::default())
            .unwrap();
        let value = tables.value(&pos).unwrap();
        let wanted = match value {
            Value::Win(_) => wins < 12,
            Value::Draw => draws < 4,
            Value::Loss(_) => false,
        };
        if !wanted {
            continue;
        }
        // Without the tables, this player takes 11 turns for a win in 7 (seed 21).
        let mut with = MinimaxChooser::new("with", Budget::fixed_depth(1), 1, 1)
            .with_tables(Some(dir.path().to_path_buf()));
        let mut without = MinimaxChooser::new("without", Budget::fixed_depth(4), 1, 2);
        let (outcome, turns) = play_out(pos, &mut with, &mut without);
        match value {
            Value::Win(n) => {
                // A win in at most its distance, whatever the opponent does.
                assert!(
                    matches!(
                        outcome,
                        Outcome::Win {
                            winner: Color::White,
                            ..
                        }
                    ),
                    "{}: {outcome:?}",
                    pos.to_fen()
                );
                assert!(
                    turns <= n as usize,
                    "{}: {turns} turns for {value}",
                    pos.to_fen()
                );
                wins += 1;
            }
            _ => {
                assert!(
                    !matches!(
                        outcome,
                        Outcome::Win {
                            winner: Color::Black,
                            ..
                        }
                    ),
                    "{}: {outcome:?}",
                    pos.to_fen()
                );
                draws += 1;
            }
        }
    }
}
