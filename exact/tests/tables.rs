//! Tests of the endgame tables: agreement with the exact solver on 5x3, 3x5 and 7x3, equal
//! values of symmetric positions, agreement with a depth-limited exhaustive search on random
//! 9x5 endings, resumable builds, refusal of damaged or foreign files and of a folder missing
//! a piece count, files truncated under a running process, and the shared cache's re-checks.
//! (Agents playing from the tables are tested in `fanorona-eval`.)

use std::path::Path;

use fanorona_env::{Board, Color, Point, Position, Rules};
use fanorona_exact::solver::{Solution, SolveOptions, Value};
use fanorona_exact::tables::{
    BuildOptions, ClassIndex, EndgameTables, TablesError, build, class_file_name, shared_tables,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Builds the tables of `board` up to `pieces` pieces into `dir`.
fn built(board: &'static Board, pieces: usize, dir: &Path) -> EndgameTables {
    build(board, pieces, dir, &BuildOptions::default())
        .unwrap()
        .0
}

/// A random position of `board` with `white` and `black` pieces and `side` to move.
fn random_position(
    board: &'static Board,
    white: usize,
    black: usize,
    side: Color,
    rng: &mut StdRng,
) -> Position {
    let mut sets = [0u64; 2];
    for (c, count) in [white, black].into_iter().enumerate() {
        while (sets[c].count_ones() as usize) < count {
            let p = rng.random_range(0..board.points());
            if (sets[0] | sets[1]) & (1 << p) == 0 {
                sets[c] |= 1 << p;
            }
        }
    }
    Position::from_pieces(board, sets, side, Rules::pure()).unwrap()
}

/// Every position the solver solved from `roots` with at most `pieces` pieces, and a side
/// not to move that has a piece, agrees with the tables; returns how many were compared.
fn compare_with_solver(tables: &EndgameTables, roots: &[Position], pieces: usize) -> usize {
    let options = SolveOptions {
        max_positions: 50_000_000,
        ..SolveOptions::default()
    };
    let (solution, _) = Solution::solve_from(roots, &options).unwrap();
    let mut compared = 0;
    for (pos, value) in solution.positions() {
        let count = (pos.pieces(Color::White) | pos.pieces(Color::Black)).count_ones() as usize;
        if count > pieces || pos.pieces(pos.side_to_move().other()) == 0 {
            continue;
        }
        assert_eq!(tables.value(&pos), Some(value), "{}", pos.to_fen());
        compared += 1;
    }
    compared
}

#[test]
fn tables_agree_with_the_solver_on_5x3_and_3x5() {
    for (w, h) in [(5, 3), (3, 5)] {
        let board = Board::new(w, h).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let tables = built(board, 6, dir.path());
        assert_eq!(tables.pieces(), 6);
        let compared = compare_with_solver(&tables, &[Position::initial(board)], 6);
        assert!(
            compared > 1000,
            "{w}x{h}: only {compared} positions compared"
        );
    }
}

#[test]
fn tables_agree_with_the_solver_on_7x3_endings() {
    let board = Board::new(7, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 5, dir.path());
    let mut rng = StdRng::seed_from_u64(7);
    let roots: Vec<Position> = (0..40)
        .map(|i| {
            let white = rng.random_range(1..=4);
            let black = rng.random_range(1..=5 - white);
            let side = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            random_position(board, white, black, side, &mut rng)
        })
        .collect();
    let compared = compare_with_solver(&tables, &roots, 5);
    assert!(compared > 10_000, "only {compared} positions compared");
}

/// The images of a point set under the board's four symmetries.
fn images(board: &Board, set: u64) -> [u64; 4] {
    let map = |f: &dyn Fn(Point) -> Point| {
        (0..board.points() as Point)
            .filter(|&p| set & (1 << p) != 0)
            .fold(0u64, |acc, p| acc | 1 << f(p))
    };
    [
        set,
        map(&|p| board.mirror_point_horizontal(p)),
        map(&|p| board.mirror_point_vertical(p)),
        map(&|p| board.rotate_point(p)),
    ]
}

#[test]
fn symmetric_positions_have_equal_values() {
    // Every position of every class on 5x3, and random ones on 9x5.
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 5, dir.path());
    for n in 2..=5 {
        for m in 1..n {
            let class = ClassIndex::new(board, m, n - m).unwrap();
            for i in 0..class.len() {
                let (mover, opponent) = class.unrank(i);
                let value = tables.lookup(mover, opponent);
                let (a, b) = (images(board, mover), images(board, opponent));
                for k in 1..4 {
                    assert_eq!(tables.lookup(a[k], b[k]), value, "{m}v{} #{i}", n - m);
                }
                // The same with colours swapped: the side to move is what counts.
                let black =
                    Position::from_pieces(board, [opponent, mover], Color::Black, Rules::pure())
                        .unwrap();
                assert_eq!(tables.value(&black), value);
            }
        }
    }
    let board = Board::standard();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 4, dir.path());
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..20_000 {
        let white = rng.random_range(1..=3);
        let black = rng.random_range(1..=4 - white);
        let pos = random_position(board, white, black, Color::White, &mut rng);
        let (a, b) = (
            images(board, pos.pieces(Color::White)),
            images(board, pos.pieces(Color::Black)),
        );
        let value = tables.lookup(a[0], b[0]);
        assert!(value.is_some());
        for k in 1..4 {
            assert_eq!(tables.lookup(a[k], b[k]), value, "{}", pos.to_fen());
        }
    }
}

/// The value of `pos` if the game is decided within `depth` turns under best play (wins as
/// fast, losses as slow as possible), by plain minimax over complete turns; `None` if not.
fn search(pos: &Position, depth: u16) -> Option<Value> {
    let us = pos.side_to_move();
    if pos.pieces(us) == 0 {
        return Some(Value::Loss(0));
    }
    let turns = pos.legal_turns();
    if turns.is_empty() {
        return Some(Value::Loss(0));
    }
    if depth == 0 {
        return None;
    }
    let mut best_win: Option<u16> = None;
    let mut longest_loss = Some(0u16);
    for turn in &turns {
        let mut next = *pos;
        next.play_turn_unchecked(turn);
        match search(&next, depth - 1) {
            Some(Value::Loss(n)) => best_win = Some(best_win.map_or(n + 1, |b| b.min(n + 1))),
            Some(Value::Win(n)) => longest_loss = longest_loss.map(|l| l.max(n + 1)),
            _ => longest_loss = None,
        }
    }
    match (best_win, longest_loss) {
        (Some(n), _) => Some(Value::Win(n)),
        (None, Some(n)) => Some(Value::Loss(n)),
        (None, None) => None,
    }
}

#[test]
fn random_9x5_endings_agree_with_exhaustive_search() {
    let board = Board::standard();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 3, dir.path());
    let mut rng = StdRng::seed_from_u64(11);
    let (mut decided, mut undecided) = (0, 0);
    for _ in 0..300 {
        let white = rng.random_range(1..=2);
        let black = 3 - white;
        let pos = random_position(board, white, black, Color::White, &mut rng);
        let value = tables.value(&pos).unwrap();
        let depth = 5;
        let found = search(&pos, depth);
        match value.distance() {
            Some(d) if d <= depth => {
                assert_eq!(found, Some(value), "{}", pos.to_fen());
                decided += 1;
            }
            _ => {
                assert_eq!(found, None, "{}: tables {value}", pos.to_fen());
                undecided += 1;
            }
        }
    }
    assert!(decided > 20 && undecided > 20, "{decided} {undecided}");
}

#[test]
fn best_turns_make_progress_and_values_are_consistent() {
    let board = Board::new(7, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 4, dir.path());
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..500 {
        let white = rng.random_range(1..=3);
        let black = rng.random_range(1..=4 - white);
        let pos = random_position(board, white, black, Color::White, &mut rng);
        let value = tables.value(&pos).unwrap();
        match tables.best_turns(&pos) {
            None => assert_eq!(value, Value::Loss(0)),
            Some((best, turns)) => {
                assert_eq!(best, value);
                for turn in turns {
                    let mut next = pos;
                    next.play_turn_unchecked(&turn);
                    let after = tables.value(&next).unwrap_or(Value::Loss(0));
                    assert_eq!(after.before_turn(), value);
                }
            }
        }
    }
}

#[test]
fn builds_resume_and_damaged_or_foreign_files_are_refused() {
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (_, first) = build(board, 3, dir.path(), &BuildOptions::default()).unwrap();
    assert!(first.iter().all(|r| r.built));
    assert_eq!(first.len(), 3);
    let (again, second) = build(board, 4, dir.path(), &BuildOptions::default()).unwrap();
    assert_eq!(again.pieces(), 4);
    assert_eq!(second.iter().filter(|r| !r.built).count(), 3);
    assert_eq!(second.iter().filter(|r| r.built).count(), 3);

    let path = dir.path().join(class_file_name(board, 1, 2));
    let bytes = std::fs::read(&path).unwrap();
    let reason = |data: &[u8]| {
        std::fs::write(&path, data).unwrap();
        match EndgameTables::open(dir.path(), board) {
            Err(TablesError::BadFile { reason, .. }) => reason,
            other => panic!("expected a bad-file error, got {other:?}"),
        }
    };
    let mut flipped = bytes.clone();
    flipped[60] ^= 0x04;
    assert!(reason(&flipped).contains("checksum"));
    assert!(reason(&bytes[..10]).contains("too short"));
    assert!(reason(&[]).contains("too short"));
    assert!(reason(&bytes[..30]).contains("checksum"));
    // A file of the format before symmetry (version 1) is refused with what to do.
    let mut old = bytes[..bytes.len() - 4].to_vec();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32fast::hash(&old);
    old.extend_from_slice(&crc.to_le_bytes());
    assert!(
        reason(&old).contains("build them again"),
        "{}",
        reason(&old)
    );
    assert!(reason(&bytes[..bytes.len() - 9]).contains("checksum"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(reason(&magic).contains("magic"));
    let other = std::fs::read(dir.path().join(class_file_name(board, 2, 1))).unwrap();
    assert!(reason(&other).contains("holds class 2v1"));
    let other_board = tempfile::tempdir().unwrap();
    built(Board::new(3, 5).unwrap(), 3, other_board.path());
    let foreign = std::fs::read(other_board.path().join("3x5-1v2.egtb")).unwrap();
    assert!(reason(&foreign).contains("3x5"));
    // A build refuses the damaged file too, rebuilds nothing over it, and says to delete it
    // (a rerun would fail the same way).
    std::fs::write(&path, &flipped).unwrap();
    let refused = build(board, 3, dir.path(), &BuildOptions::default()).unwrap_err();
    assert!(
        matches!(refused, TablesError::DamagedInBuild { .. }),
        "{refused}"
    );
    assert!(
        refused.to_string().contains("delete this file"),
        "{refused}"
    );
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(EndgameTables::open(dir.path(), board).unwrap().pieces(), 4);
    // A piece count with a class missing is refused, naming the file, not used silently at
    // fewer pieces.
    let class_3v1 = dir.path().join(class_file_name(board, 3, 1));
    std::fs::rename(&class_3v1, dir.path().join("aside")).unwrap();
    let err = EndgameTables::open(dir.path(), board).unwrap_err();
    assert!(
        matches!(err, TablesError::Incomplete { pieces: 4, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("5x3-3v1.egtb"), "{err}");
    std::fs::rename(dir.path().join("aside"), &class_3v1).unwrap();

    let empty = tempfile::tempdir().unwrap();
    let err = EndgameTables::open(empty.path(), board).unwrap_err();
    assert!(
        err.to_string().contains("no endgame tables of 5x3"),
        "{err}"
    );
    let err = build(board, 1, dir.path(), &BuildOptions::default()).unwrap_err();
    assert!(err.to_string().contains("2 to 12 pieces"), "{err}");
}

#[test]
fn probing_refuses_what_the_tables_do_not_hold() {
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = built(board, 3, dir.path());
    let start = Position::initial(board);
    assert_eq!(tables.value(&start), None);
    let err = tables.try_turn_values(&start).unwrap_err();
    assert!(err.to_string().contains("at most 3"), "{err}");
    let pos = Position::from_fen("5/1W3/2B2 w").unwrap();
    assert!(tables.value(&pos).is_some());
    let vela = pos.with_rules(Rules::parse("vela=white").unwrap());
    assert_eq!(tables.value(&vela), None);
    let other = Position::from_fen("3/1W1/3/3/1B1 w").unwrap();
    assert_eq!(tables.value(&other), None);
    let over = Position::from_fen("5/1W3/5 b").unwrap();
    assert_eq!(tables.value(&over), Some(Value::Loss(0)));
    let over = Position::from_fen("5/1W3/5 w").unwrap();
    assert_eq!(tables.value(&over), None);
}

#[test]
fn a_missing_piece_count_is_named_not_used_silently_at_fewer_pieces() {
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    built(board, 4, dir.path());
    for (m, o) in [(1, 2), (2, 1)] {
        std::fs::remove_file(dir.path().join(class_file_name(board, m, o))).unwrap();
    }
    let err = EndgameTables::open(dir.path(), board).unwrap_err();
    assert!(
        matches!(
            err,
            TablesError::Gap {
                pieces: 3,
                largest: 4,
                ..
            }
        ),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("tables of 3 pieces are missing") && message.contains("--pieces 4"),
        "{message}"
    );
    // Building them (the command the error names) makes the folder whole again.
    built(board, 4, dir.path());
    assert_eq!(EndgameTables::open(dir.path(), board).unwrap().pieces(), 4);
}

/// A position of class `mover`v`opponent` of `board` that the tables hold, and its value.
fn held_position(tables: &EndgameTables, mover: usize, opponent: usize) -> (Position, Value) {
    let mut rng = StdRng::seed_from_u64(3);
    loop {
        let pos = random_position(tables.board(), mover, opponent, Color::White, &mut rng);
        if let Some(value) = tables.value(&pos) {
            return (pos, value);
        }
    }
}

#[test]
fn a_file_truncated_under_a_running_process_is_refused_not_a_crash() {
    let board = Board::new(5, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    built(board, 4, dir.path());
    let tables = EndgameTables::open(dir.path(), board).unwrap();
    let (pos, _) = held_position(&tables, 2, 2);
    let (small, small_value) = held_position(&tables, 1, 2);
    assert!(tables.damaged().is_empty());
    // Copying a file over the folder in place truncates it first: touching its map would
    // raise SIGBUS and end the process.
    let path = dir.path().join(class_file_name(board, 2, 2));
    std::fs::File::create(&path).unwrap();
    assert_eq!(
        tables.value(&pos),
        None,
        "a truncated class answers nothing"
    );
    assert_eq!(tables.damaged(), vec!["2v2".to_string()]);
    // The other classes still answer.
    assert_eq!(tables.value(&small), Some(small_value));
    // Opening the folder again refuses the truncated file with the reason.
    let err = EndgameTables::open(dir.path(), board).unwrap_err();
    assert!(matches!(err, TablesError::BadFile { .. }), "{err}");
    // The safe way, a new file renamed in, keeps the old inode for the old map.
    std::fs::remove_file(&path).unwrap();
    built(board, 4, dir.path());
    let fresh = EndgameTables::open(dir.path(), board).unwrap();
    let (pos, value) = held_position(&fresh, 2, 2);
    let rebuilt = tempfile::tempdir().unwrap();
    built(board, 4, rebuilt.path());
    std::fs::rename(rebuilt.path().join(class_file_name(board, 2, 2)), &path).unwrap();
    assert_eq!(fresh.value(&pos), Some(value));
    assert!(fresh.damaged().is_empty());
}

#[test]
fn the_shared_cache_knows_a_folder_by_its_canonical_path_and_reloads_it_when_changed() {
    let board = Board::new(5, 3).unwrap();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("t");
    built(board, 3, &dir);
    let first = shared_tables(&dir, board).unwrap();
    let spelled = root.path().join("t").join("..").join("./t/");
    let again = shared_tables(&spelled, board).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&first, &again),
        "another spelling shares the load"
    );
    assert_eq!(first.pieces(), 3);
    // Files added: loaded again, with them.
    built(board, 4, &dir);
    let grown = shared_tables(&dir, board).unwrap();
    assert_eq!(grown.pieces(), 4);
    assert!(std::sync::Arc::ptr_eq(
        &grown,
        &shared_tables(&dir, board).unwrap()
    ));
    // Files removed: no longer reported.
    for m in 1..4 {
        std::fs::remove_file(dir.join(class_file_name(board, m, 4 - m))).unwrap();
    }
    assert_eq!(shared_tables(&dir, board).unwrap().pieces(), 3);
    // A file damaged (replaced by a rename, as copying tools do): refused, not the old load.
    let path = dir.join(class_file_name(board, 1, 2));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[60] ^= 0x04;
    let aside = root.path().join("damaged");
    std::fs::write(&aside, &bytes).unwrap();
    std::fs::rename(&aside, &path).unwrap();
    let err = shared_tables(&dir, board).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
}
