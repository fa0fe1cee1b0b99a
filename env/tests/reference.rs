//! The move generator against independent reference data: docs/rules.md's perft counts and the
//! legal complete turns of 556 positions computed by another engine.

use fanorona_env::{Board, Position, perft};

#[test]
fn perft_matches_the_rule_book() {
    let start = Position::standard();
    assert_eq!(perft(&start, 1), 5);
    assert_eq!(perft(&start, 2), 39);
    assert_eq!(perft(&start, 3), 724);
}

#[test]
fn legal_turns_match_an_independent_engine() {
    let data = include_str!("data/legal-turns.tsv");
    let mut checked = 0;
    for (line_no, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let board = Board::parse(fields[0]).unwrap();
        let pos = Position::from_fen(fields[1]).unwrap();
        assert_eq!(pos.board().points(), board.points(), "line {}", line_no + 1);
        let expected: Vec<&str> = fields[2].split_whitespace().collect();
        let got = pos.legal_turn_names();
        assert_eq!(got, expected, "line {}: {}", line_no + 1, fields[1]);
        assert_eq!(pos.count_turns() as usize, expected.len());
        checked += 1;
    }
    assert_eq!(checked, 556);
}
