//! Tests of the prover: agreement with the exact solver on every sampled position of 5x3,
//! 3x5, 7x3 and 3x7 (won, lost and drawn), with the endgame tables on 9x5 positions one piece
//! beyond them that must capture into them, the status of each turn, certificates that fail
//! their check when tampered with, proof files that resume and refuse damage.

use std::path::Path;

use fanorona_env::{Board, Color, Position, Rules};
use fanorona_exact::prover::{
    Outcome, ProofFile, ProveOptions, ProverError, TurnStatus, Verdict, check_file, prove,
};
use fanorona_exact::solver::{Solution, SolveOptions, Value};
use fanorona_exact::tables::{BuildOptions, ClassIndex, EndgameTables, build};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Options with a node budget, reporting nowhere.
fn options(
    max_nodes: u64,
    turns: bool,
    progress: &mut dyn FnMut(&fanorona_exact::prover::Progress),
) -> ProveOptions<'_> {
    ProveOptions {
        max_nodes,
        max_seconds: None,
        max_entries: 10_000_000,
        turns,
        progress,
    }
}

/// The value the prover proves for `pos`, with the status of each turn.
fn proven(
    pos: &Position,
    tables: Option<&EndgameTables>,
    turns: bool,
) -> (Option<Verdict>, Vec<TurnStatus>) {
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    let (report, _) = prove(
        pos,
        tables,
        ProofFile::new(pos.board()),
        options(5_000_000, turns, &mut quiet),
    )
    .unwrap();
    (report.value, report.turns.iter().map(|&(_, s)| s).collect())
}

fn verdict(value: Value) -> Verdict {
    match value {
        Value::Win(_) => Verdict::Win,
        Value::Loss(_) => Verdict::Loss,
        Value::Draw => Verdict::Draw,
    }
}

/// Compares the prover with the solver on every `stride`-th position of `solution` (whose
/// side not to move has a piece); returns how many were compared and how many were drawn.
fn compare(solution: &Solution, stride: usize, tables: Option<&EndgameTables>) -> (usize, usize) {
    let (mut compared, mut drawn) = (0, 0);
    for (pos, value) in solution.positions().step_by(stride) {
        if pos.pieces(pos.side_to_move().other()) == 0 {
            continue;
        }
        let with_turns = compared % 4 == 0;
        let (proved, statuses) = proven(&pos, tables, with_turns);
        assert_eq!(proved, Some(verdict(value)), "{}", pos.to_fen());
        if with_turns && value != Value::Loss(0) {
            // A turn keeps the value exactly where the solver gives it the same value.
            let turns = solution.turn_values(&pos).unwrap();
            assert_eq!(turns.len(), statuses.len(), "{}", pos.to_fen());
            for ((turn, v), status) in turns.iter().zip(&statuses) {
                let keeps = verdict(*v) == verdict(value);
                let wanted = if keeps {
                    TurnStatus::Keeps
                } else {
                    TurnStatus::Spoils
                };
                assert_eq!(
                    *status,
                    wanted,
                    "{} {}",
                    pos.to_fen(),
                    turn.notation(pos.board())
                );
            }
        }
        compared += 1;
        drawn += usize::from(value == Value::Draw);
    }
    (compared, drawn)
}

#[test]
fn the_prover_agrees_with_the_solver_on_5x3_and_3x5() {
    for (w, h) in [(5, 3), (3, 5)] {
        let board = Board::new(w, h).unwrap();
        let solution = Solution::solve(board).unwrap();
        let stride = (solution.len() / 700).max(1);
        let (compared, drawn) = compare(&solution, stride, None);
        assert!(compared >= 600, "{w}x{h}: {compared} compared");
        assert!(
            drawn >= 10 && drawn < compared,
            "{w}x{h}: {drawn} of {compared} drawn"
        );
    }
}

#[test]
fn the_prover_with_tables_agrees_with_the_solver_on_7x3_and_3x7_endings() {
    for (w, h) in [(7, 3), (3, 7)] {
        let board = Board::new(w, h).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (tables, _) = build(board, 3, dir.path(), &BuildOptions::default()).unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        let roots: Vec<Position> = (0..30)
            .map(|i| {
                let (m, o) = [(3, 3), (4, 2), (2, 4), (3, 2), (2, 3)][i % 5];
                let class = ClassIndex::new(board, m, o).unwrap();
                let (mover, opponent) = class.unrank(rng.random_range(0..class.len()));
                Position::from_pieces(board, [mover, opponent], Color::White, Rules::pure())
                    .unwrap()
            })
            .collect();
        let solve = SolveOptions {
            max_positions: 20_000_000,
            ..SolveOptions::default()
        };
        let (solution, _) = Solution::solve_from(&roots, &solve).unwrap();
        let stride = (solution.len() / 500).max(1);
        let (compared, drawn) = compare(&solution, stride, Some(&tables));
        assert!(compared >= 400, "{w}x{h}: {compared} compared");
        assert!(
            drawn >= 10 && drawn < compared,
            "{w}x{h}: {drawn} of {compared} drawn"
        );
    }
}

#[test]
fn one_piece_beyond_the_tables_the_prover_agrees_with_bigger_tables() {
    // Positions of 4 pieces that must capture into the 3-piece tables: the prover with 3
    // pieces at its leaves agrees with the 4-piece tables.
    let board = Board::standard();
    let small = tempfile::tempdir().unwrap();
    let (three, _) = build(board, 3, small.path(), &BuildOptions::default()).unwrap();
    let big = tempfile::tempdir().unwrap();
    let (four, _) = build(board, 4, big.path(), &BuildOptions::default()).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    let mut compared = 0;
    let mut seen = [0; 3];
    while compared < 300 {
        let m = rng.random_range(1..=3);
        let class = ClassIndex::new(board, m, 4 - m).unwrap();
        let (mover, opponent) = class.unrank(rng.random_range(0..class.len()));
        let pos =
            Position::from_pieces(board, [mover, opponent], Color::White, Rules::pure()).unwrap();
        if !pos.must_capture() {
            continue;
        }
        let exact = verdict(four.value(&pos).unwrap());
        let (proved, _) = proven(&pos, Some(&three), false);
        assert_eq!(proved, Some(exact), "{}", pos.to_fen());
        seen[exact as usize] += 1;
        compared += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "wins, draws, losses: {seen:?}");
}

fn save_and_load(file: &ProofFile, path: &Path) -> ProofFile {
    file.save(path).unwrap();
    ProofFile::load(path).unwrap()
}

#[test]
fn proofs_resume_from_their_file_check_again_and_refuse_damage() {
    let board = Board::new(5, 3).unwrap();
    let solution = Solution::solve(board).unwrap();
    let start = Position::initial(board);
    let value = verdict(solution.value(&start).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("start.proof");
    // A budget too small to finish: unproven, saved, continued run after run.
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    let (first, mut file) = prove(
        &start,
        None,
        ProofFile::new(board),
        options(50, false, &mut quiet),
    )
    .unwrap();
    assert_eq!(first.value, None);
    assert_eq!(first.questions[0].outcome, Outcome::Unproven);
    let mut runs = 1;
    let last = loop {
        file = save_and_load(&file, &path);
        let (report, next) = prove(&start, None, file, options(200, true, &mut quiet)).unwrap();
        file = next;
        runs += 1;
        if report.value.is_some() || runs > 10_000 {
            break report;
        }
    };
    assert!(runs > 2, "one small run should not finish");
    assert_eq!(last.value, Some(value));
    let total: u64 = last.questions.iter().map(|q| q.nodes).sum();
    assert!(total > 50);
    // The finished file checks again, from the rules alone.
    let file = save_and_load(&file, &path);
    assert!(check_file(&file, None).unwrap() > 0);
    // A certificate missing one of its positions fails its check.
    let bytes = std::fs::read(&path).unwrap();
    let certificates = file.certificates(None).unwrap();
    assert!(certificates.iter().all(|c| c.check(board, None).is_ok()));
    let mut tampered = certificates.into_iter().find(|c| c.len() > 1).unwrap();
    tampered.nodes.remove(tampered.len() / 2);
    assert!(matches!(
        tampered.check(board, None),
        Err(ProverError::Refuted(_))
    ));
    // Damaged and foreign files are refused with the reason.
    let refused = |data: &[u8]| {
        std::fs::write(&path, data).unwrap();
        match ProofFile::load(&path) {
            Err(ProverError::BadFile { reason, .. }) => reason,
            other => panic!("expected a bad-file error, got {other:?}"),
        }
    };
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x20;
    assert!(refused(&flipped).contains("checksum"));
    assert!(refused(&bytes[..5]).contains("too short"));
    assert!(refused(b"FANOEGTB\x02\0\0\0xxxxxxxx").contains("magic"));
    // A proof file of another board is refused for this position.
    let other = ProofFile::new(Board::new(3, 5).unwrap());
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    let err = prove(&start, None, other, options(10, false, &mut quiet)).unwrap_err();
    assert!(err.to_string().contains("proof file of 3x5"), "{err}");
}

#[test]
fn the_5x5_start_is_a_draw_and_its_shipped_proof_checks() {
    let board = Board::new(5, 5).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = build(board, 6, dir.path(), &BuildOptions::default()).unwrap();
    let start = Position::initial(board);
    let (value, statuses) = proven(&start, Some(&tables), true);
    assert_eq!(value, Some(Verdict::Draw));
    // Of white's five first turns only b2c3A keeps the draw; the others lose.
    let names: Vec<String> = start
        .legal_turns()
        .iter()
        .map(|t| t.notation(board))
        .collect();
    let keeping: Vec<&str> = names
        .iter()
        .zip(&statuses)
        .filter(|&(_, &s)| s == TurnStatus::Keeps)
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(keeping, ["b2c3A"]);
    assert!(statuses.iter().all(|&s| s != TurnStatus::Unknown));
    // The proof kept in the repository (`fanorona prove --board 5x5 --tables T --turns
    // --proof data/proofs/5x5-start.proof`, T the 5x5 tables of up to 6 pieces) checks
    // again from the rules and the tables.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/proofs/5x5-start.proof");
    let file = ProofFile::load(&shipped).unwrap();
    assert!(check_file(&file, Some(&tables)).unwrap() > 1000);
    let certificates = file.certificates(Some(&tables)).unwrap();
    assert_eq!(certificates.len(), 2 + names.len());
    assert!(certificates.iter().all(|c| c.outcome != Outcome::Unproven));
}
