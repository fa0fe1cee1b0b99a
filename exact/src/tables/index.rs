//! Combinatorial indexing of the positions of one material class.
//!
//! The game does not depend on colour (only on who is to move), so a table position is seen
//! from its side to move: the *mover*'s point set and the *opponent*'s. Class `m`v`o` holds
//! every placement of `m` mover pieces and `o` opponent pieces (both at least 1) on the board's
//! `N` points. A position's number is `rank(mover) * C(N - m, o) + rank(opponent)`, where
//! `rank(mover)` is the colexicographic rank of the mover's points among all `k`-subsets of the
//! `N` points (`sum C(p_i, i)` over its points `p_1 < p_2 < ...`, `i` from 1), and
//! `rank(opponent)` the same rank of the opponent's points renumbered among the `N - m` points
//! the mover leaves free. Every number below the class size is a position, so nothing is
//! wasted and no key has to be stored.

use fanorona_env::Board;

use super::error::TablesError;

/// The most pieces (of both sides together) a table class may hold.
pub const MAX_TABLE_PIECES: usize = 12;

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

/// The numbering of one material class on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassIndex {
    points: usize,
    all: u64,
    mover: usize,
    opponent: usize,
    /// `C(points - mover, opponent)`: opponent placements per mover placement.
    stride: u64,
    len: u64,
}

impl ClassIndex {
    /// The class of `mover` and `opponent` pieces on `board`: both at least 1, at most
    /// [`MAX_TABLE_PIECES`] together, and fewer than the board's points.
    pub fn new(board: &Board, mover: usize, opponent: usize) -> Result<ClassIndex, TablesError> {
        let points = board.points();
        if mover == 0
            || opponent == 0
            || mover + opponent > MAX_TABLE_PIECES
            || mover + opponent >= points
        {
            return Err(TablesError::BadClass {
                mover,
                opponent,
                board: board.to_string(),
                max: MAX_TABLE_PIECES.min(points - 1),
            });
        }
        let stride = binomial(points - mover, opponent);
        Ok(ClassIndex {
            points,
            all: board.all(),
            mover,
            opponent,
            stride,
            len: binomial(points, mover) * stride,
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

    /// Number of positions of the class.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the class is empty (never: every class has a position).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of the position with these point sets (of this class's counts, disjoint).
    #[inline]
    pub fn rank(&self, mover: u64, opponent: u64) -> u64 {
        debug_assert_eq!(mover.count_ones() as usize, self.mover);
        debug_assert_eq!(opponent.count_ones() as usize, self.opponent);
        debug_assert_eq!(mover & opponent, 0);
        rank_set(mover) * self.stride + rank_set(compress(opponent, self.all & !mover))
    }

    /// The point sets (mover, opponent) of position number `i` (`i < len`).
    #[inline]
    pub fn unrank(&self, i: u64) -> (u64, u64) {
        let mover = unrank_set(i / self.stride, self.mover, self.points);
        let opponent = unrank_set(i % self.stride, self.opponent, self.points - self.mover);
        (mover, expand(opponent, self.all & !mover))
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

    #[test]
    fn every_number_round_trips() {
        let board = Board::new(5, 3).unwrap();
        let class = ClassIndex::new(board, 2, 3).unwrap();
        assert_eq!(class.len(), binomial(15, 2) * binomial(13, 3));
        for i in 0..class.len() {
            let (m, o) = class.unrank(i);
            assert_eq!((m.count_ones(), o.count_ones()), (2, 3));
            assert_eq!(m & o, 0);
            assert_eq!((m | o) & !board.all(), 0);
            assert_eq!(class.rank(m, o), i);
        }
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
