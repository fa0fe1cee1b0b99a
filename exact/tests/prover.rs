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
    progress: &mut (dyn FnMut(&fanorona_exact::prover::Progress) + Send),
) -> ProveOptions<'_> {
    ProveOptions {
        max_nodes,
        max_seconds: None,
        max_entries: 10_000_000,
        turns,
        progress,
        stop: None,
        parallel: false,
    }
}

/// The value the prover proves for `pos`, with the status of each turn; `parallel`: the
/// root's two questions at once.
fn proven(
    pos: &Position,
    tables: Option<&EndgameTables>,
    turns: bool,
    parallel: bool,
) -> (Option<Verdict>, Vec<TurnStatus>) {
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    let options = ProveOptions {
        parallel,
        ..options(5_000_000, turns, &mut quiet)
    };
    let (report, _) = prove(pos, tables, ProofFile::new(pos.board()), options).unwrap();
    (report.value, report.turns.iter().map(|&(_, s)| s).collect())
}

/// Compares the prover with the solver on every `stride`-th position of `solution` (whose
/// side not to move has a piece; every other one with the root's questions asked at once);
/// returns how many were compared and how many were drawn.
fn compare(solution: &Solution, stride: usize, tables: Option<&EndgameTables>) -> (usize, usize) {
    let (mut compared, mut drawn) = (0, 0);
    for (pos, value) in solution.positions().step_by(stride) {
        if pos.pieces(pos.side_to_move().other()) == 0 {
            continue;
        }
        let with_turns = compared % 4 == 0;
        let (proved, statuses) = proven(&pos, tables, with_turns, compared % 2 == 1);
        assert_eq!(proved, Some(Verdict::from(value)), "{}", pos.to_fen());
        if with_turns && value != Value::Loss(0) {
            // A turn keeps the value exactly where the solver gives it the same value.
            let turns = solution.turn_values(&pos).unwrap();
            assert_eq!(turns.len(), statuses.len(), "{}", pos.to_fen());
            for ((turn, v), status) in turns.iter().zip(&statuses) {
                let keeps = Verdict::from(*v) == Verdict::from(value);
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
        let exact = Verdict::from(four.value(&pos).unwrap());
        let (proved, _) = proven(&pos, Some(&three), false, false);
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
    let value = Verdict::from(solution.value(&start).unwrap());
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
        // Every other run asks the root's two questions at once.
        let options = ProveOptions {
            parallel: runs % 2 == 0,
            ..options(200, true, &mut quiet)
        };
        let (report, next) = prove(&start, None, file, options).unwrap();
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
    let certificates = file.certificates();
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
    let (value, statuses) = proven(&start, Some(&tables), true, true);
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
    let certificates = file.certificates();
    assert_eq!(certificates.len(), 2 + names.len());
    assert!(certificates.iter().all(|c| c.outcome != Outcome::Unproven));
}

/// Byte offsets in a proof file: the magic and version, the board, the tables; then the
/// records (compressed from version 3; [`plain`] inflates them, and these offsets count in
/// what it gives).
const RECORDS_COUNT: usize = 12 + 2 + 5;
/// Bytes of a position, of an entry, and of a record's head up to its entry count.
const KEY: usize = 17;
const ENTRY: usize = KEY + 9;
const RECORD_HEAD: usize = KEY + 2 + 16;

/// Where each record of a proof file's [`plain`] `bytes` starts, with its entry count.
fn records(bytes: &[u8]) -> Vec<(usize, u64)> {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let mut at = RECORDS_COUNT + 4;
    (0..u32_at(RECORDS_COUNT))
        .map(|_| {
            let entries = u64_at(at + RECORD_HEAD);
            let record = (at, entries);
            at += RECORD_HEAD + 8 + entries as usize * ENTRY;
            record
        })
        .collect()
}

/// A proof file's bytes with its records inflated, for a forger to edit (the checksum left
/// as it was).
fn plain(file: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = file[..RECORDS_COUNT].to_vec();
    flate2::read::ZlibDecoder::new(&file[RECORDS_COUNT..file.len() - 4])
        .read_to_end(&mut out)
        .unwrap();
    out.extend_from_slice(&file[file.len() - 4..]);
    out
}

/// Fixes the CRC-32 at the end of a proof file's `bytes`, as a forger would.
fn fix_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// A proof file from [`plain`] bytes a forger edited: the records compressed again and the
/// checksum fixed.
fn seal(plain: Vec<u8>) -> Vec<u8> {
    use std::io::Write;
    let mut records = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    records
        .write_all(&plain[RECORDS_COUNT..plain.len() - 4])
        .unwrap();
    let mut out = plain[..RECORDS_COUNT].to_vec();
    out.extend_from_slice(&records.finish().unwrap());
    out.extend_from_slice(&[0; 4]);
    fix_checksum(out)
}

#[test]
fn forged_proof_files_are_refused() {
    let board = Board::new(5, 3).unwrap();
    let start = Position::initial(board);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.proof");
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    // The 5x3 start is a win for white: its proof and one record per turn (keeps: proven,
    // spoils: disproven).
    let (report, file) = prove(
        &start,
        None,
        ProofFile::new(board),
        options(5_000_000, true, &mut quiet),
    )
    .unwrap();
    assert_eq!(report.value, Some(Verdict::Win));
    file.save(&path).unwrap();
    let genuine = plain(&std::fs::read(&path).unwrap());
    let at = records(&genuine);
    assert_eq!(at.len(), 1 + start.legal_turns().len());
    let outcome_of = |r: usize| genuine[at[r].0 + KEY + 1];
    let (keeps, spoils) = (
        (1..at.len()).find(|&r| outcome_of(r) == 1).unwrap(),
        (1..at.len()).find(|&r| outcome_of(r) == 2).unwrap(),
    );
    // A forged file is refused by loading it, or else by the run and by the check.
    let refused = |bytes: Vec<u8>| -> String {
        std::fs::write(&path, seal(bytes)).unwrap();
        let file = match ProofFile::load(&path) {
            Err(e @ ProverError::BadFile { .. }) => return e.to_string(),
            Err(e) => panic!("expected a bad-file error, got {e}"),
            Ok(file) => file,
        };
        let checked = check_file(&file, None).unwrap_err().to_string();
        let mut quiet = |_: &fanorona_exact::prover::Progress| {};
        match prove(&start, None, file, options(5_000_000, true, &mut quiet)) {
            Err(e @ ProverError::Untrusted(_)) => {
                assert_eq!(e.to_string(), checked);
                e.to_string()
            }
            Err(e) => panic!("expected an untrusted file, got {e}"),
            Ok((report, _)) => panic!("a forged file was used: {:?}", report.value),
        }
    };
    // The genuine file passes both.
    let file = ProofFile::load(&path).unwrap();
    assert!(check_file(&file, None).unwrap() > 0);
    // The root's outcome flipped, its entries made disproven to fit: a trap that is none.
    let mut flipped = genuine.clone();
    let (root, entries) = at[0];
    flipped[root + KEY + 1] = 2;
    for e in 0..entries as usize {
        let entry = root + RECORD_HEAD + 8 + e * ENTRY;
        flipped[entry + KEY] = 2;
        flipped[entry + KEY + 1..entry + ENTRY].fill(0);
    }
    let e = refused(flipped);
    assert!(e.contains("the record of white to win at"), "{e}");
    assert!(e.contains("does not hold"), "{e}");
    // The outcome byte alone flipped: a disproof holding proven entries.
    let mut flipped = genuine.clone();
    flipped[root + KEY + 1] = 2;
    assert!(refused(flipped).contains("is disproven but holds an entry of kind 1"));
    // A turn that spoils claimed to keep, with an emptied certificate.
    let mut emptied = genuine[..at[spoils].0].to_vec();
    emptied.extend_from_slice(&genuine[at[spoils].0..at[spoils].0 + RECORD_HEAD]);
    emptied[at[spoils].0 + KEY + 1] = 1;
    emptied.extend_from_slice(&0u64.to_le_bytes());
    let after = at[spoils].0 + RECORD_HEAD + 8 + at[spoils].1 as usize * ENTRY;
    emptied.extend_from_slice(&genuine[after..]);
    assert!(refused(emptied).contains("is not certified"));
    // Two turn records' roots swapped.
    let mut swapped = genuine.clone();
    let (a, b) = (at[keeps].0, at[spoils].0);
    swapped[a..a + KEY].copy_from_slice(&genuine[b..b + KEY]);
    swapped[b..b + KEY].copy_from_slice(&genuine[a..a + KEY]);
    assert!(refused(swapped).contains("does not check"));
    // Two entries of a record in the wrong order, and a record repeated.
    let mut reordered = genuine.clone();
    let first = root + RECORD_HEAD + 8;
    reordered[first..first + ENTRY].copy_from_slice(&genuine[first + ENTRY..first + 2 * ENTRY]);
    reordered[first + ENTRY..first + 2 * ENTRY].copy_from_slice(&genuine[first..first + ENTRY]);
    assert!(refused(reordered).contains("not in increasing order"));
    let mut repeated = genuine[..genuine.len() - 4].to_vec();
    let count = at.len() as u32 + 1;
    repeated[RECORDS_COUNT..RECORDS_COUNT + 4].copy_from_slice(&count.to_le_bytes());
    repeated.extend_from_slice(&genuine[at[1].0..at[2].0]);
    repeated.extend_from_slice(&[0; 4]);
    assert!(refused(repeated).contains("asks the question of an earlier record again"));

    // An unfinished search: open entries at impossible numbers, and a forged proof.
    let (_, file) = prove(
        &start,
        None,
        ProofFile::new(board),
        options(300, false, &mut quiet),
    )
    .unwrap();
    file.save(&path).unwrap();
    let unfinished = plain(&std::fs::read(&path).unwrap());
    let (record, entries) = records(&unfinished)[0];
    assert_eq!(unfinished[record + KEY + 1], 0, "unsettled");
    let entry = (0..entries as usize)
        .map(|e| record + RECORD_HEAD + 8 + e * ENTRY)
        .find(|&e| unfinished[e + KEY] == 0)
        .expect("an open entry");
    let mut insane = unfinished.clone();
    insane[entry + KEY + 1..entry + KEY + 5].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = refused(insane);
    assert!(
        e.contains("an open entry with proof number 4294967295"),
        "{e}"
    );
    let mut zero = unfinished.clone();
    zero[entry + KEY + 5..entry + ENTRY].fill(0);
    assert!(refused(zero).contains("disproof number 0"));
    // An open position claimed proven: the run would reuse it as a proof.
    let mut forged = unfinished.clone();
    forged[entry + KEY] = 1;
    forged[entry + KEY + 1..entry + ENTRY].fill(0);
    let e = refused(forged);
    assert!(e.contains("cannot be trusted"), "{e}");
}

#[test]
fn a_proof_file_made_with_tables_is_refused_without_them_and_files_of_versions_1_and_2_still_load()
{
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (three, _) = build(board, 3, &dir.path().join("t3"), &BuildOptions::default()).unwrap();
    let (two, _) = build(board, 2, &dir.path().join("t2"), &BuildOptions::default()).unwrap();
    let pos = Position::from_fen("W3B/5/B3W w").unwrap();
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    let (report, file) = prove(
        &pos,
        Some(&three),
        ProofFile::new(board),
        options(5_000_000, true, &mut quiet),
    )
    .unwrap();
    assert!(report.value.is_some());
    let path = dir.path().join("p.proof");
    let file = save_and_load(&file, &path);
    assert_eq!(file.made_with().unwrap().pieces, 3);
    assert!(check_file(&file, Some(&three)).is_ok());
    for (tables, given) in [
        (None, "no tables were given"),
        (Some(&two), "the tables given stop at 2 pieces"),
    ] {
        let e = check_file(&file, tables).unwrap_err();
        assert!(matches!(e, ProverError::WrongTables { .. }), "{e}");
        let e = e.to_string();
        assert!(
            e.contains("made with the endgame tables of 5x3 up to 3 pieces"),
            "{e}"
        );
        assert!(e.contains(given), "{e}");
    }
    let e = prove(&pos, None, file, options(10, false, &mut quiet)).unwrap_err();
    assert!(matches!(e, ProverError::WrongTables { .. }), "{e}");
    // The same file in format 2 (records not compressed) loads as it was.
    let v3 = plain(&std::fs::read(&path).unwrap());
    let mut v2 = v3.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&path, fix_checksum(v2)).unwrap();
    let old = ProofFile::load(&path).unwrap();
    assert_eq!(old.made_with().unwrap().pieces, 3);
    assert!(check_file(&old, Some(&three)).is_ok());
    // In format 1 (no tables recorded) it loads too, and checks with the tables.
    let mut v1 = b"FANOPROF".to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&v3[12..14]);
    v1.extend_from_slice(&v3[19..v3.len() - 4]);
    v1.extend_from_slice(&[0; 4]);
    std::fs::write(&path, fix_checksum(v1)).unwrap();
    let old = ProofFile::load(&path).unwrap();
    assert_eq!(old.made_with(), None);
    assert!(check_file(&old, Some(&three)).is_ok());
}

#[test]
fn budgets_of_seconds_out_of_range_are_refused_or_unlimited_never_a_panic() {
    let board = Board::new(5, 3).unwrap();
    let start = Position::initial(board);
    let mut quiet = |_: &fanorona_exact::prover::Progress| {};
    for seconds in [-1.0, f64::NAN, f64::INFINITY, 1e300, 1e19] {
        let mut options = options(100, false, &mut quiet);
        options.max_seconds = Some(seconds);
        let result = prove(&start, None, ProofFile::new(board), options);
        if seconds >= 0.0 {
            // Beyond what the clock holds: no limit of time; the nodes stop it.
            assert_eq!(result.unwrap().0.value, None);
        } else {
            let e = result.unwrap_err();
            assert!(matches!(e, ProverError::BadOptions(_)), "{e}");
        }
    }
    // A stop flag already set: nothing is searched, and the run says unproven.
    let stop = std::sync::atomic::AtomicBool::new(true);
    let mut options = options(5_000_000, true, &mut quiet);
    options.stop = Some(&stop);
    let (report, file) = prove(&start, None, ProofFile::new(board), options).unwrap();
    assert_eq!((report.value, report.nodes), (None, 0));
    assert!(file.certificates().is_empty());
}
