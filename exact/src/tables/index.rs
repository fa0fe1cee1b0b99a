//! Combinatorial indexing of the positions of one material class, up to the board's
//! symmetries.
//!
//! The game does not depend on colour (only on who is to move), so a table position is seen
//! from its side to move: the *mover*'s point set and the *opponent*'s. Class `m`v`o` holds
//! every placement of `m` mover pieces and `o` opponent pieces (both at least 1) on the board's
//! `N` points, up to the board's four symmetries (identity, the left-right and top-bottom
//! mirrors, the half turn: [`Symmetry`]), which map every position to one of equal value.
//!
//! A position is numbered by its *canonical* form: the mover's point set is mapped to the
//! least (by colexicographic rank) of its images, and the opponent's by the same symmetry;
//! where several symmetries map the mover's set there (a symmetric set), the least of the
//! opponent's images is taken. The number is `canonical mover set * C(N - m, o) + rank(opponent)`,
//! the canonical mover sets numbered in rank order and the opponent's points renumbered among
//! the `N - m` points the mover leaves free. About a quarter of the unreduced count: only the
//! few symmetric mover sets leave numbers that no canonical position takes (their values are
//! kept equal to their canonical twin's, so every number is a valid position).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use fanorona_env::{Board, NUM_SYMMETRIES, Symmetry};

use super::error::TablesError;

/// The most pieces (of both sides together) a table class may hold.
pub const MAX_TABLE_PIECES: usize = 12;

/// The most mover placements a class may have (its canonical numbers take 28 bits).
const MAX_MOVER_SETS: u64 = 1 << 28;

/// The binomial coefficients `C(n, k)` for `n <= 64`, `k <= MAX_TABLE_PIECES`.
#[derive(Debug)]
struct Binomials([[u64; MAX_TABLE_PIECES + 1]; 65]);

impl Binomials {
    const fn new() -> Binomials {
        let mut c = [[0u64; MAX_TABLE_PIECES + 1]; 65];
        let mut n = 0;
        while n <= 64 {
            c[n][0] = 1;
            let mut k = 1;
            while k <= MAX_TABLE_PIECES && k <= n {
                c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
                k += 1;
            }
            n += 1;
        }
        Binomials(c)
    }
}

static BINOMIALS: Binomials = Binomials::new();

/// `C(n, k)` (0 where `k > n`).
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    BINOMIALS.0[n][k]
}

/// The colexicographic rank of a set of points.
#[inline]
fn rank_set(mut set: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += binomial(set.trailing_zeros() as usize, i);
        set &= set - 1;
        i += 1;
    }
    rank
}

/// The set of `k` points below `n` with colexicographic rank `rank` (`rank < C(n, k)`).
#[inline]
fn unrank_set(mut rank: u64, k: usize, n: usize) -> u64 {
    let mut set = 0;
    let mut p = n;
    for i in (1..=k).rev() {
        p -= 1;
        while binomial(p, i) > rank {
            p -= 1;
        }
        rank -= binomial(p, i);
        set |= 1 << p;
    }
    set
}

/// The points of `set` renumbered among the points of `free` (a point becomes the number of
/// points of `free` below it); every point of `set` must be in `free`.
#[inline]
fn compress(set: u64, free: u64) -> u64 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let p = rest.trailing_zeros();
        out |= 1 << (free & ((1u64 << p) - 1)).count_ones();
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`compress`]: the points of `free` whose numbers are in `set`.
#[inline]
fn expand(set: u64, mut free: u64) -> u64 {
    let mut out = 0;
    let mut number = 0;
    let mut rest = set;
    while rest != 0 {
        let wanted = rest.trailing_zeros();
        while number < wanted {
            free &= free - 1;
            number += 1;
        }
        out |= free & free.wrapping_neg();
        rest &= rest - 1;
    }
    out
}

/// The board's symmetries as point permutations, for mapping point sets fast.
#[derive(Debug)]
struct Symmetries {
    /// `images[s][byte][bits]`: the image under symmetry `s` of the points `bits` of byte
    /// `byte` of a set (points `8 * byte ..`).
    images: Vec<[[u64; 256]; 8]>,
}

impl Symmetries {
    fn new(board: &Board) -> Symmetries {
        let images = Symmetry::ALL
            .iter()
            .map(|&s| {
                let mut table = [[0u64; 256]; 8];
                for (byte, row) in table.iter_mut().enumerate() {
                    for (bits, image) in row.iter_mut().enumerate() {
                        let set = (bits as u64) << (8 * byte) & board.all();
                        *image = s.bitboard(board, set);
                    }
                }
                table
            })
            .collect();
        Symmetries { images }
    }

    /// The image of `set` under symmetry number `s`.
    #[inline]
    fn image(&self, s: usize, set: u64) -> u64 {
        let table = &self.images[s];
        let mut out = 0;
        let mut rest = set;
        let mut byte = 0;
        while rest != 0 {
            out |= table[byte][(rest & 0xff) as usize];
            rest >>= 8;
            byte += 1;
        }
        out
    }
}

/// The canonical mover sets of `k` points on one board, shared by every class with `k`
/// mover pieces.
#[derive(Debug)]
struct MoverSets {
    symmetries: Symmetries,
    /// The canonical sets (the least-ranked of their images), in rank order.
    sets: Vec<u64>,
    /// For every set by rank: the number of its canonical image in `sets` (bits 4 and up) and
    /// the symmetries that map it there (bit `s` for symmetry `s`).
    canonical: Vec<u32>,
    /// Whether each canonical set is its own image under a symmetry other than the identity.
    symmetric: Vec<bool>,
}

impl MoverSets {
    /// The canonical sets of `k` of the points of `board`, computed once per process.
    fn shared(board: &'static Board, k: usize) -> Arc<MoverSets> {
        type Cache = Mutex<HashMap<(usize, usize, usize), Arc<MoverSets>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let key = (board.width(), board.height(), k);
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            cache
                .entry(key)
                .or_insert_with(|| Arc::new(MoverSets::new(board, k))),
        )
    }

    fn new(board: &Board, k: usize) -> MoverSets {
        let symmetries = Symmetries::new(board);
        let n = board.points();
        let total = binomial(n, k) as usize;
        let mut sets = Vec::new();
        let mut symmetric = Vec::new();
        let mut canonical = Vec::with_capacity(total);
        for rank in 0..total {
            let set = unrank_set(rank as u64, k, n);
            let ranks: [u64; NUM_SYMMETRIES] =
                std::array::from_fn(|s| rank_set(symmetries.image(s, set)));
            let least = *ranks.iter().min().expect("four symmetries");
            let mask = (0..NUM_SYMMETRIES)
                .filter(|&s| ranks[s] == least)
                .fold(0u32, |m, s| m | 1 << s);
            let number = if least == rank as u64 {
                sets.push(set);
                symmetric.push(mask.count_ones() > 1);
                sets.len() as u32 - 1
            } else {
                canonical[least as usize] >> 4
            };
            canonical.push(number << 4 | mask);
        }
        MoverSets {
            symmetries,
            sets,
            canonical,
            symmetric,
        }
    }
}

/// The numbering of one material class on one board.
#[derive(Clone, Debug)]
pub struct ClassIndex {
    all: u64,
    points: usize,
    mover: usize,
    opponent: usize,
    /// `C(points - mover, opponent)`: opponent placements per canonical mover set.
    stride: u64,
    len: u64,
    movers: Arc<MoverSets>,
}

impl PartialEq for ClassIndex {
    fn eq(&self, other: &ClassIndex) -> bool {
        (self.all, self.points, self.mover, self.opponent)
            == (other.all, other.points, other.mover, other.opponent)
    }
}

impl Eq for ClassIndex {}

impl ClassIndex {
    /// The class of `mover` and `opponent` pieces on `board`: both at least 1, at most
    /// [`MAX_TABLE_PIECES`] together, and fewer than the board's points.
    pub fn new(
        board: &'static Board,
        mover: usize,
        opponent: usize,
    ) -> Result<ClassIndex, TablesError> {
        let points = board.points();
        if mover == 0
            || opponent == 0
            || mover + opponent > MAX_TABLE_PIECES
            || mover + opponent >= points
            || binomial(points, mover) > MAX_MOVER_SETS
        {
            return Err(TablesError::BadClass {
                mover,
                opponent,
                board: board.to_string(),
                max: MAX_TABLE_PIECES.min(points - 1),
            });
        }
        let stride = binomial(points - mover, opponent);
        let movers = MoverSets::shared(board, mover);
        Ok(ClassIndex {
            all: board.all(),
            points,
            mover,
            opponent,
            stride,
            len: movers.sets.len() as u64 * stride,
            movers,
        })
    }

    /// The mover's piece count.
    pub fn mover(&self) -> usize {
        self.mover
    }

    /// The opponent's piece count.
    pub fn opponent(&self) -> usize {
        self.opponent
    }

    /// Number of positions of the class (numbers of canonical positions and of the few
    /// twins of symmetric mover sets).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the class is empty (never: every class has a position).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of the position with these point sets (of this class's counts, disjoint):
    /// that of its canonical form.
    #[inline]
    pub fn rank(&self, mover: u64, opponent: u64) -> u64 {
        self.canonical(mover, opponent).0
    }

    /// The number of the canonical form of the position with these point sets, and how many
    /// of the board's symmetries map the position onto it (the number of symmetries that
    /// leave the canonical form unchanged: 1 for most positions).
    #[inline]
    pub fn canonical(&self, mover: u64, opponent: u64) -> (u64, u32) {
        debug_assert_eq!(mover.count_ones() as usize, self.mover);
        debug_assert_eq!(opponent.count_ones() as usize, self.opponent);
        debug_assert_eq!(mover & opponent, 0);
        let entry = self.movers.canonical[rank_set(mover) as usize];
        let number = u64::from(entry >> 4);
        let free = self.all & !self.movers.sets[number as usize];
        let mut least = u64::MAX;
        let mut times = 0;
        let mut mask = entry & 0xf;
        while mask != 0 {
            let s = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let image = self.movers.symmetries.image(s, opponent);
            let rank = rank_set(compress(image, free));
            if rank < least {
                (least, times) = (rank, 1);
            } else if rank == least {
                times += 1;
            }
        }
        (number * self.stride + least, times)
    }

    /// The point sets (mover, opponent) of position number `i` (`i < len`).
    #[inline]
    pub fn unrank(&self, i: u64) -> (u64, u64) {
        let mover = self.movers.sets[(i / self.stride) as usize];
        let opponent = unrank_set(i % self.stride, self.opponent, self.points - self.mover);
        (mover, expand(opponent, self.all & !mover))
    }

    /// Whether number `i` is a canonical position (false for the twins of symmetric mover
    /// sets, whose values are copied from their canonical form).
    #[inline]
    pub fn is_canonical(&self, i: u64) -> bool {
        if !self.movers.symmetric[(i / self.stride) as usize] {
            return true;
        }
        let (mover, opponent) = self.unrank(i);
        self.rank(mover, opponent) == i
    }

    /// The ranges of numbers whose mover set is symmetric: the only ones that hold twins.
    pub(crate) fn symmetric_ranges(&self) -> impl Iterator<Item = std::ops::Range<u64>> + '_ {
        self.movers
            .symmetric
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s)
            .map(|(id, _)| id as u64 * self.stride..(id as u64 + 1) * self.stride)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(binomial(45, 2), 990);
        assert_eq!(binomial(44, 3), 13244);
        assert_eq!(binomial(64, 12), 3_284_214_703_056);
        assert_eq!(binomial(3, 5), 0);
    }

    /// Every placement of a class, by brute force.
    fn placements(board: &Board, mover: usize, opponent: usize) -> Vec<(u64, u64)> {
        let n = board.points();
        let mut out = Vec::new();
        for m in 0..binomial(n, mover) {
            let ms = unrank_set(m, mover, n);
            for o in 0..binomial(n, opponent) {
                let os = unrank_set(o, opponent, n);
                if ms & os == 0 {
                    out.push((ms, os));
                }
            }
        }
        out
    }

    #[test]
    fn symmetric_positions_share_a_number_and_every_number_is_a_position() {
        for (w, h) in [(5, 3), (3, 3), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            for (m, o) in [(1, 1), (2, 1), (1, 3), (2, 2), (3, 2)] {
                let class = ClassIndex::new(board, m, o).unwrap();
                // Numbers: each unranks to a position of the class that ranks back to its
                // canonical number, which is canonical.
                for i in 0..class.len() {
                    let (ms, os) = class.unrank(i);
                    assert_eq!((ms.count_ones() as usize, os.count_ones() as usize), (m, o));
                    assert_eq!(ms & os, 0);
                    let c = class.rank(ms, os);
                    assert!(c < class.len());
                    assert!(class.is_canonical(c));
                    assert_eq!(class.is_canonical(i), c == i, "{w}x{h} {m}v{o} #{i}");
                }
                // Placements: the images of a position share its number, and the count of
                // symmetries fixing it is the size of its stabiliser.
                let mut canonical = std::collections::HashSet::new();
                for (ms, os) in placements(board, m, o) {
                    let (number, times) = class.canonical(ms, os);
                    canonical.insert(number);
                    let images: Vec<(u64, u64)> = Symmetry::ALL
                        .iter()
                        .map(|s| (s.bitboard(board, ms), s.bitboard(board, os)))
                        .collect();
                    for &(a, b) in &images {
                        assert_eq!(class.rank(a, b), number);
                    }
                    let fixed = images.iter().filter(|&&img| img == (ms, os)).count();
                    assert_eq!(times as usize, fixed, "{w}x{h} {m}v{o}");
                }
                // About a quarter of the placements (exactly the orbits) are numbered.
                let twins = (0..class.len()).filter(|&i| !class.is_canonical(i)).count();
                assert_eq!(canonical.len() + twins, class.len() as usize);
            }
        }
    }

    #[test]
    fn the_standard_board_stores_about_a_quarter() {
        let board = Board::standard();
        let class = ClassIndex::new(board, 3, 4).unwrap();
        let full = binomial(45, 3) * binomial(42, 4);
        assert!(
            class.len() * 4 < full + full / 20,
            "{} of {full}",
            class.len()
        );
        assert!(class.len() * 4 >= full);
    }

    #[test]
    fn bad_classes_are_refused() {
        let board = Board::new(3, 3).unwrap();
        assert!(ClassIndex::new(board, 0, 2).is_err());
        assert!(ClassIndex::new(board, 5, 4).is_err());
        let err = ClassIndex::new(Board::standard(), 7, 6).unwrap_err();
        assert!(err.to_string().contains("7v6"), "{err}");
    }
}
