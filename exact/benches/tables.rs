//! Endgame table speed: probing the value of 9x5 positions (`EndgameTables::value`, a turn
//! start: its class, its combinatorial rank and one byte), and building the 5x3 tables of up
//! to 5 pieces. The 9x5 tables are built up to 4 pieces into a temporary folder, or opened
//! from the folder `FANORONA_TABLES` names (e.g. a 5-piece build: then probes have 5 pieces).

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_main};
use fanorona_env::{Board, Color, Position, Rules};
use fanorona_exact::tables::{BuildOptions, EndgameTables, build};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions probed per iteration.
const PROBES: usize = 1000;

/// The 9x5 tables and the piece count of the positions to probe.
fn tables() -> (EndgameTables, usize, Option<tempfile::TempDir>) {
    let board = Board::standard();
    if let Some(dir) = std::env::var_os("FANORONA_TABLES") {
        let tables = EndgameTables::open(&PathBuf::from(dir), board).expect("tables to open");
        let pieces = tables.pieces();
        return (tables, pieces, None);
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (tables, _) = build(board, 4, dir.path(), &BuildOptions::default()).expect("a build");
    (tables, 4, Some(dir))
}

/// Random turn starts of `pieces` pieces (at least one a side), white to move.
fn positions(board: &'static Board, pieces: usize, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(1);
    (0..count)
        .map(|_| {
            let white = rng.random_range(1..pieces);
            let mut sets = [0u64; 2];
            for (c, n) in [white, pieces - white].into_iter().enumerate() {
                while (sets[c].count_ones() as usize) < n {
                    let p = rng.random_range(0..board.points());
                    if (sets[0] | sets[1]) & (1 << p) == 0 {
                        sets[c] |= 1 << p;
                    }
                }
            }
            Position::from_pieces(board, sets, Color::White, Rules::default()).expect("disjoint")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (tables, pieces, _dir) = tables();
    let probes = positions(Board::standard(), pieces, PROBES);
    let mut group = c.benchmark_group("tables");
    group.throughput(Throughput::Elements(PROBES as u64));
    group.bench_function(format!("probe 9x5 {pieces} pieces (per {PROBES})"), |b| {
        b.iter(|| probes.iter().filter(|p| tables.value(p).is_some()).count())
    });
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    let board = Board::new(5, 3).expect("5x3");
    group.bench_function("build 5x3 up to 5 pieces", |b| {
        b.iter(|| {
            let dir = tempfile::tempdir().expect("a temporary folder");
            build(board, 5, dir.path(), &BuildOptions::default()).expect("a build")
        })
    });
    group.finish();
}

/// The benchmarks, grouped in a module of their own: `criterion_group!` defines a public
/// function it cannot document.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
