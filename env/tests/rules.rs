//! One test (or more) for every rule of docs/rules.md: captures, the choice between them, chains and
//! their restrictions, compulsory capture, the end of the game, and each variant.

use fanorona_env::{
    Board, Color, DrawReason, FenField, History, MoveError, Outcome, Position, Rules, Step,
    StepKind, WinReason,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn pos_with(fen: &str, rules: &str) -> Position {
    Position::from_fen_with_rules(fen, Rules::parse(rules).unwrap()).unwrap()
}

fn after(fen: &str, turn: &str) -> String {
    let mut p = pos(fen);
    p.play_turn(turn).unwrap();
    p.to_fen()
}

#[test]
fn worked_example_1_withdrawal_sweeps_the_line_up_to_the_gap() {
    // White f5, black a5 c5 d5 e5: f5-g5 withdraws from e5 and takes e5, d5, c5; a5 stays.
    let fen = "B1BBBW3/9/9/9/9 w";
    assert_eq!(pos(fen).legal_turn_names(), vec!["f5g5W"]);
    assert_eq!(after(fen, "f5g5W"), "B5W2/9/9/9/9 b 0 1");
}

#[test]
fn worked_example_2_diagonal_approach_from_a_strong_point() {
    // Black a5, white c3 d2 e1: a5-b4 approaches c3 and takes c3, d2, e1.
    let fen = "B8/9/2W6/3W5/4W4 b";
    assert_eq!(after(fen, "a5b4A"), "9/1B7/9/9/9 w 0 2");
}

#[test]
fn weak_points_have_no_diagonal_moves() {
    // b1 is weak: a lone white piece there has only orthogonal moves.
    let p = pos("8B/9/9/9/1W7 w");
    assert_eq!(p.legal_turn_names(), vec!["b1a1", "b1b2", "b1c1"]);
    // c1 is strong: diagonals too.
    let p = pos("8B/9/9/9/2W6 w");
    assert_eq!(
        p.legal_turn_names(),
        vec!["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]
    );
}

#[test]
fn a_step_that_can_approach_or_withdraw_offers_both_but_never_both_at_once() {
    // White d3 between black c3 and f3 (e3 empty): d3-e3 approaches f3 or withdraws from c3.
    let fen = "9/9/2BW1B3/9/9 w";
    let p = pos(fen);
    assert_eq!(p.legal_turn_names(), vec!["d3e3A", "d3e3W"]);
    assert_eq!(after(fen, "d3e3A"), "9/9/2B1W4/9/9 b 0 1");
    assert_eq!(after(fen, "d3e3W"), "9/9/4WB3/9/9 b 0 1");
    // Without a marker the move is ambiguous, and the position does not change.
    let mut q = p;
    match q.play_turn("d3e3") {
        Err(MoveError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 2),
        other => panic!("expected an ambiguity error, got {other:?}"),
    }
    assert_eq!(q, p);
    let steps = p.legal_steps();
    assert!(steps.iter().any(|s| matches!(
        s,
        Step::Move {
            kind: StepKind::Approach,
            ..
        }
    )));
    assert!(steps.iter().any(|s| matches!(
        s,
        Step::Move {
            kind: StepKind::Withdrawal,
            ..
        }
    )));
}

#[test]
fn chain_may_not_enter_a_point_visited_this_turn() {
    // After d3-e3 (either capture), moving back to d3 would withdraw from f3 or approach c3,
    // but d3 was visited this turn: no continuation.
    let p = pos("9/9/2BW1B3/9/9 w");
    assert!(p.legal_turn_names().iter().all(|t| t.len() == 5));
}

#[test]
fn chain_may_not_repeat_its_last_direction() {
    // White c1 withdraws east from b1 to d1; going on east to e1 would approach f1, but it is
    // the same direction as the step before.
    let p = pos("9/9/9/9/1BW2B3 w");
    assert_eq!(p.legal_turn_names(), vec!["c1d1W"]);
    // The same approach is fine as a first step.
    let q = pos("9/9/9/9/3W1B3 w");
    assert_eq!(q.legal_turn_names(), vec!["d1e1A"]);
}

#[test]
fn chain_continues_with_captures_only_and_may_stop() {
    // Third reference position: d3-e3 approach can go on with e2 (withdrawal) or f4.
    let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2";
    let mut p = pos(fen);
    p.play_step(p.parse_step("d3e3A").unwrap()).unwrap();
    assert_eq!(
        p.side_to_move(),
        Color::White,
        "the chain keeps the same player"
    );
    let chain = *p.chain().expect("a chain is in progress");
    assert_eq!(p.board().point_name(chain.piece), "e3");
    let steps = p.legal_steps();
    assert!(steps.contains(&Step::Stop));
    for s in &steps {
        if let Step::Move { from, kind, .. } = s {
            assert_eq!(*from, chain.piece, "only the chain's piece moves");
            assert!(kind.is_capture(), "only capturing steps continue a chain");
        }
    }
    let before = p;
    p.play_step(Step::Stop).unwrap();
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.no_capture_turns(), 0);
    assert_eq!(p.pieces(Color::White), before.pieces(Color::White));
}

#[test]
fn chain_ends_by_itself_without_a_continuation() {
    let mut p = pos("9/9/2BW1B3/9/9 w");
    p.play_step(p.parse_step("d3e3W").unwrap()).unwrap();
    assert!(p.is_turn_start());
    assert_eq!(p.side_to_move(), Color::Black);
}

#[test]
fn capture_is_compulsory() {
    // White a1 can capture c1 by approach; i1 could step to i2 but must not.
    let p = pos("8B/9/9/9/W1B5W w");
    assert_eq!(p.legal_turn_names(), vec!["a1b1A"]);
    assert!(p.must_capture());
    assert!(
        p.legal_steps()
            .iter()
            .all(|s| matches!(s, Step::Move { kind, .. } if kind.is_capture()))
    );
    // Without the capture, paika is allowed.
    let q = pos("8B/9/9/9/W7W w");
    assert!(!q.must_capture());
    assert!(q.legal_turn_names().contains(&"i1i2".to_string()));
}

#[test]
fn a_side_without_pieces_has_lost() {
    let white_wins = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::NoPieces,
    });
    assert_eq!(pos("9/9/9/9/W8 b").outcome(1), white_wins);
}

#[test]
fn a_side_without_pieces_has_lost_whoever_is_to_move() {
    // White to move still has moves, but black has nothing left to play with.
    let p = pos("W8/9/9/9/9 w");
    assert_eq!(
        p.outcome(1),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoPieces
        })
    );
    assert_eq!(
        pos("9/9/9/9/8B b 500 1").outcome(1),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        }),
        "a loss comes before the no-capture draw"
    );
}

#[test]
fn a_side_without_legal_moves_has_lost() {
    // Black a5 is walled in by white a4, b4, b5 (a capture needs an empty point to step to).
    let p = pos("BW7/WW7/9/9/9 b");
    assert!(p.legal_turns().is_empty());
    assert_eq!(
        p.outcome(1),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoMoves
        })
    );
}

#[test]
fn no_capture_limit_draws_and_is_configurable() {
    let fen = "8B/9/9/9/W8 w 99 60";
    let mut h = History::new(pos(fen));
    assert_eq!(h.outcome(), None);
    h.play("a1a2").unwrap();
    assert_eq!(h.outcome(), Some(Outcome::Draw(DrawReason::NoCaptureLimit)));
    assert!(matches!(h.play("i5i4"), Err(MoveError::NotPlayable(_))));
    let mut free = History::new(pos_with(fen, "no-capture=off"));
    free.play("a1a2").unwrap();
    assert_eq!(free.outcome(), None);
    let mut short = History::new(pos_with("8B/9/9/9/W8 w 9 60", "no-capture=10"));
    short.play("a1a2").unwrap();
    assert_eq!(
        short.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
}

#[test]
fn threefold_repetition_draws_and_is_configurable() {
    let shuffle = ["a1a2", "i5i4", "a2a1", "i4i5"];
    let mut h = History::new(pos("8B/9/9/9/W8 w"));
    for turn in shuffle {
        h.play(turn).unwrap();
    }
    assert_eq!(h.occurrences(), 2);
    assert_eq!(h.outcome(), None);
    for turn in shuffle {
        h.play(turn).unwrap();
    }
    assert_eq!(h.occurrences(), 3);
    assert_eq!(h.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    // Undo goes back before the repetition.
    h.undo();
    assert_eq!(h.outcome(), None);
    let mut off = History::new(pos_with("8B/9/9/9/W8 w", "repetition=off"));
    for _ in 0..3 {
        for turn in shuffle {
            off.play(turn).unwrap();
        }
    }
    assert_eq!(off.outcome(), None);
}

#[test]
fn mandatory_continuation_forbids_stopping() {
    let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2";
    let free = pos(fen);
    let forced = pos_with(fen, "mandatory");
    let turns = forced.legal_turn_names();
    assert!(!turns.contains(&"d3e3A".to_string()));
    assert!(turns.contains(&"d3e3Af4Af3Wg3A".to_string()));
    // Exactly the free turns that no other free turn extends.
    let all = free.legal_turn_names();
    let maximal: Vec<String> = all
        .iter()
        .filter(|t| {
            !all.iter()
                .any(|u| u.len() > t.len() && u.starts_with(t.as_str()))
        })
        .cloned()
        .collect();
    assert_eq!(turns, maximal);
    let mut p = forced;
    p.play_step(p.parse_step("d3e3A").unwrap()).unwrap();
    assert!(!p.legal_steps().contains(&Step::Stop));
    assert!(matches!(
        p.play_step(Step::Stop),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn first_turn_rule_allows_one_capture_per_side_on_its_first_turn() {
    let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 1";
    let limited = pos_with(fen, "first-turn");
    assert!(limited.legal_turns().iter().all(|t| t.len() == 1));
    // From turn 2 on, chains are back.
    let later = pos_with(&fen.replace(" 0 1", " 0 2"), "first-turn");
    assert!(later.legal_turns().iter().any(|t| t.len() > 1));
    assert!(pos(fen).legal_turns().iter().any(|t| t.len() > 1));
}

#[test]
fn vela_favoured_side_captures_exactly_the_nearest_piece() {
    // White d3 approaches f3 g3 h3: under Vela only f3 goes.
    let p = pos_with("BBBBBB3/9/3W1BBB1/9/9 w", "vela=white");
    assert!(p.vela_active());
    assert_eq!(after_with(&p, "d3e3A"), "BBBBBB3/9/4W1BB1/9/9 b 0 1");
    assert!(
        p.legal_turns()
            .iter()
            .all(|t| t.captured().count_ones() == 1 && t.len() == 1)
    );
}

fn after_with(p: &Position, turn: &str) -> String {
    let mut q = *p;
    q.play_turn(turn).unwrap();
    q.to_fen()
}

#[test]
fn vela_other_side_may_only_make_paika_moves() {
    // Black could capture d3 by approach (f3-e3), but in the Vela phase it may only paika.
    let p = pos_with("BBBBBB3/9/3W1B3/9/9 b", "vela=white");
    let turns = p.legal_turns();
    assert!(!turns.is_empty());
    assert!(turns.iter().all(|t| !t.is_capture()));
    // Normal rules for black would capture.
    assert!(pos("BBBBBB3/9/3W1B3/9/9 b").must_capture());
}

#[test]
fn vela_favoured_side_loses_when_it_cannot_capture() {
    let p = pos_with("BBBBBB3/9/9/9/W8 w", "vela=white");
    assert_eq!(
        p.outcome(1),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoMoves
        })
    );
}

#[test]
fn vela_ends_when_the_other_side_is_down_to_five() {
    let p = pos_with("BB7/9/3W1BBB1/9/9 w", "vela=white");
    assert!(!p.vela_active());
    // Normal rules: the whole line goes.
    assert_eq!(after_with(&p, "d3e3A"), "BB7/9/4W4/9/9 b 0 1");
}

#[test]
fn initial_positions_of_every_board() {
    assert_eq!(
        Position::standard().to_fen(),
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 1"
    );
    let p = |w, h| Position::initial(Board::new(w, h).unwrap()).to_fen();
    assert_eq!(p(5, 5), "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1");
    assert_eq!(p(7, 3), "BBBBBBB/BWB1WBW/WWWWWWW w 0 1");
    assert_eq!(p(3, 3), "BBB/B1W/WWW w 0 1");
    assert_eq!(p(3, 5), "BBB/BBB/B1W/WWW/WWW w 0 1");
    for (w, h) in [(3, 3), (5, 3), (9, 5), (7, 9), (3, 21), (21, 3)] {
        let board = Board::new(w, h).unwrap();
        let start = Position::initial(board);
        let n = board.points() as u32;
        assert_eq!(start.pieces(Color::White).count_ones(), (n - 1) / 2);
        assert_eq!(start.pieces(Color::Black).count_ones(), (n - 1) / 2);
        // Rotation with colours swapped maps the start to itself.
        for p in 0..n as u8 {
            let q = board.rotate_point(p);
            assert_eq!(start.piece_at(p), start.piece_at(q).map(Color::other));
        }
    }
}

#[test]
fn malformed_fen_says_which_field_and_why() {
    let field = |fen: &str| Position::from_fen(fen).unwrap_err().field;
    assert_eq!(field(""), FenField::Board);
    assert_eq!(field("9/9/9/9/9"), FenField::SideToMove);
    assert_eq!(field("9/9/9/9/9 x"), FenField::SideToMove);
    assert_eq!(field("9/9/9/9/8 w"), FenField::Board);
    assert_eq!(field("8/8/8 w"), FenField::Board);
    assert_eq!(field("9/9/9/9/9Q w"), FenField::Board);
    assert_eq!(field("9/9/9/9/9 w -1"), FenField::NoCaptureCounter);
    assert_eq!(field("9/9/9/9/9 w 0 0"), FenField::TurnNumber);
    assert_eq!(field("9/9/9/9/9 w 0 1 e3"), FenField::Chain);
    assert_eq!(field("9/9/9/9/9 w 0 1 e3:d3,e3:E"), FenField::Chain);
    let err = Position::from_fen("9/9/9/9/8 w").unwrap_err().to_string();
    assert!(err.contains("row 5") && err.contains("8 points"), "{err}");
    let err = Position::from_fen("8/8/8 w").unwrap_err().to_string();
    assert!(err.contains("odd"), "{err}");
}

#[test]
fn chain_field_round_trips() {
    let fen = "BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2";
    let mut p = pos(fen);
    p.play_step(p.parse_step("d3e3A").unwrap()).unwrap();
    let text = p.to_fen();
    assert!(text.ends_with(" e3:d3,e3:E"), "{text}");
    assert_eq!(pos(&text), p);
    assert_eq!(
        Position::from_fen(&format!("{text} more"))
            .unwrap_err()
            .field,
        FenField::Extra
    );
    // A chain field that leaves no continuation is refused.
    assert_eq!(
        Position::from_fen("9/9/9/9/4W4 w 0 1 e1:d1,e1:E")
            .unwrap_err()
            .field,
        FenField::Chain
    );
}

#[test]
fn illegal_moves_list_the_legal_ones_and_change_nothing() {
    let mut p = Position::standard();
    let before = p;
    match p.play_turn("e2e4") {
        Err(MoveError::Illegal { legal, .. }) => {
            assert_eq!(legal, vec!["d2e3A", "d3e3A", "d3e3W", "e2e3A", "f2e3A"])
        }
        other => panic!("expected an illegal-move error, got {other:?}"),
    }
    assert!(matches!(p.play_turn("e9e3"), Err(MoveError::Syntax { .. })));
    assert!(matches!(
        p.play_turn("hello"),
        Err(MoveError::Syntax { .. })
    ));
    assert!(matches!(
        p.play_turn("d3e3Q"),
        Err(MoveError::Syntax { .. })
    ));
    // `x` is a separator, so this is d3e3 without a marker: ambiguous.
    assert!(matches!(
        p.play_turn("d3xe3"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(p, before);
    // Leaving out an unambiguous marker, and writing with separators and case, is fine.
    let t = p.parse_turn("E2-E3").unwrap();
    assert_eq!(t.notation(p.board()), "e2e3A");
}

#[test]
fn turn_notation_accepts_other_paths_to_the_same_result() {
    // Every path of every legal turn parses to a turn with the same result.
    let p = pos("BBBB1BBBB/BBBBB1BBB/BWBW1B1BW/WWWW1WW1W/WWWWWWWW1 w 0 2");
    p.for_each_turn_path(|t| {
        let parsed = p.parse_turn(&t.notation(p.board())).unwrap();
        assert!(parsed.same_result(t));
    });
}
