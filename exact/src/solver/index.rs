//! The compact index of solved positions. A turn-start position is determined, under the
//! solver's rules, by its pieces and side to move, packed into one `u64` key: white's
//! bitboard, black's shifted by the number of points, then the side to move. Keys are grouped
//! by material class (the piece count of each side; captures only ever lower it). Within a
//! class the keys are sorted by a bijective hash of the key ([`mix`]), and a table of bucket
//! starts over the hash's top bits finds a key in one or two cache misses; a position's
//! number is its class's offset plus its rank in the class. About ten bytes a position.

use fanorona_env::{Board, Color, Position, Rules};

use super::error::SolverError;

/// The most points a board may have for the solver: two bitboards and the side to move
/// must fit one 64-bit key.
pub const MAX_SOLVER_POINTS: usize = 31;

/// Checks that the solver can handle `board`.
pub(crate) fn check_board(board: &Board) -> Result<(), SolverError> {
    if board.points() > MAX_SOLVER_POINTS {
        return Err(SolverError::BoardTooLarge {
            width: board.width(),
            height: board.height(),
            points: board.points(),
            max: MAX_SOLVER_POINTS,
        });
    }
    Ok(())
}

/// The key of pieces and side to move on a board of `points` points.
#[inline]
pub(crate) fn pack_parts(points: usize, pieces: [u64; 2], side: Color) -> u64 {
    pieces[0] | pieces[1] << points | (side.index() as u64) << (2 * points)
}

/// The key of a turn-start position (its chain, counters and rules are not part of it).
#[inline]
pub(crate) fn pack(pos: &Position) -> u64 {
    let pieces = [pos.pieces(Color::White), pos.pieces(Color::Black)];
    pack_parts(pos.board().points(), pieces, pos.side_to_move())
}

/// The pieces and side to move of a key.
#[inline]
pub(crate) fn unpack_parts(board: &Board, key: u64) -> ([u64; 2], Color) {
    let n = board.points();
    let mask = board.all();
    let side = if key >> (2 * n) & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    ([key & mask, key >> n & mask], side)
}

/// The position of a key, under the solver's rules.
#[inline]
pub(crate) fn unpack(board: &'static Board, key: u64) -> Position {
    let (pieces, side) = unpack_parts(board, key);
    Position::from_pieces(board, pieces, side, Rules::pure()).expect("keys hold disjoint pieces")
}

/// A bijective 64-bit hash (the SplitMix64 finaliser): the order of keys within a class.
#[inline]
pub(crate) fn mix(key: u64) -> u64 {
    let mut z = key;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Sorts keys into index order (by [`mix`]) and drops duplicates.
pub(crate) fn sort_keys(keys: &mut Vec<u64>) {
    use rayon::slice::ParallelSliceMut;
    keys.par_sort_unstable_by_key(|&k| mix(k));
    keys.dedup();
}

/// Whether keys are in index order without duplicates.
pub(crate) fn keys_sorted(keys: &[u64]) -> bool {
    keys.windows(2).all(|w| mix(w[0]) < mix(w[1]))
}

/// The material class (white and black piece counts) of a key.
#[inline]
pub(crate) fn material(board: &Board, key: u64) -> (u8, u8) {
    let (pieces, _) = unpack_parts(board, key);
    (pieces[0].count_ones() as u8, pieces[1].count_ones() as u8)
}

/// The positions of one material class, in index order.
#[derive(Debug)]
pub(crate) struct MaterialClass {
    /// White's piece count.
    pub white: u8,
    /// Black's piece count.
    pub black: u8,
    /// The number of the class's first position.
    pub offset: usize,
    /// The keys, sorted by [`mix`], without duplicates.
    pub keys: Vec<u64>,
    /// `buckets[b]`: the rank of the first key whose hash's top bits are at least `b`.
    buckets: Vec<u32>,
    /// The shift that leaves a hash's top bits (the bucket number).
    shift: u32,
}

impl MaterialClass {
    /// Indexes keys given in index order (see [`sort_keys`]); at most `u32::MAX` of them.
    fn new(white: u8, black: u8, offset: usize, keys: Vec<u64>) -> MaterialClass {
        assert!(
            keys.len() < u32::MAX as usize,
            "a class holds fewer than 2^32 keys"
        );
        // About two keys a bucket.
        let bits = (keys.len() / 2).max(2).next_power_of_two().trailing_zeros();
        let shift = 64 - bits;
        let mut buckets = Vec::with_capacity((1 << bits) + 1);
        let mut rank = 0;
        for b in 0..=(1u64 << bits) {
            while rank < keys.len() && mix(keys[rank]) >> shift < b {
                rank += 1;
            }
            buckets.push(rank as u32);
        }
        MaterialClass {
            white,
            black,
            offset,
            keys,
            buckets,
            shift,
        }
    }

    /// The rank of `key` within the class.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        let b = (mix(key) >> self.shift) as usize;
        let (start, end) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        self.keys[start..end]
            .iter()
            .position(|&k| k == key)
            .map(|i| start + i)
    }
}

/// All indexed positions of a board, class by class.
#[derive(Debug)]
pub(crate) struct PositionIndex {
    board: &'static Board,
    classes: Vec<MaterialClass>,
    /// `slot[white * (points + 1) + black]`: the class's place in `classes`, or `u32::MAX`.
    slot: Vec<u32>,
    len: usize,
}

impl PositionIndex {
    /// Builds the index from classes given as (white, black, keys in index order), in the order
    /// their positions are to be numbered. Each class must appear once.
    pub fn new(board: &'static Board, classes: Vec<(u8, u8, Vec<u64>)>) -> PositionIndex {
        let side = board.points() + 1;
        let mut slot = vec![u32::MAX; side * side];
        let mut offset = 0;
        let classes: Vec<MaterialClass> = classes
            .into_iter()
            .enumerate()
            .map(|(i, (white, black, keys))| {
                slot[white as usize * side + black as usize] = i as u32;
                let class = MaterialClass::new(white, black, offset, keys);
                offset += class.keys.len();
                class
            })
            .collect();
        PositionIndex {
            board,
            classes,
            slot,
            len: offset,
        }
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The classes, in numbering order.
    pub fn classes(&self) -> &[MaterialClass] {
        &self.classes
    }

    /// The class with the given piece counts.
    #[inline]
    pub fn class(&self, white: u8, black: u8) -> Option<&MaterialClass> {
        let side = self.board.points() + 1;
        let i = *self.slot.get(white as usize * side + black as usize)?;
        self.classes.get(i as usize)
    }

    /// The number of the position with `key`.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        let (white, black) = material(self.board, key);
        let class = self.class(white, black)?;
        class.find(key).map(|i| class.offset + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_index_finds_them() {
        let board = Board::new(5, 3).unwrap();
        let pos = Position::initial(board);
        let key = pack(&pos);
        let back = unpack(board, key);
        assert_eq!(back.pieces(Color::White), pos.pieces(Color::White));
        assert_eq!(back.pieces(Color::Black), pos.pieces(Color::Black));
        assert_eq!(back.side_to_move(), Color::White);
        assert_eq!(material(board, key), (7, 7));
        let other = key | 1 << (2 * board.points());
        let mut keys = vec![other, key, other];
        sort_keys(&mut keys);
        assert!(keys_sorted(&keys));
        let index = PositionIndex::new(board, vec![(7, 7, keys.clone())]);
        assert_eq!(index.find(keys[0]), Some(0));
        assert_eq!(index.find(keys[1]), Some(1));
        assert_eq!(index.find(key ^ 1), None);
    }

    #[test]
    fn every_key_of_a_large_class_is_found() {
        let board = Board::new(5, 5).unwrap();
        let mut keys: Vec<u64> = (0..10_000u64).map(|i| i * 7919 % (1 << 25)).collect();
        sort_keys(&mut keys);
        let index = PositionIndex::new(board, vec![(3, 4, keys.clone())]);
        let class = &index.classes()[0];
        for (rank, &k) in keys.iter().enumerate() {
            assert_eq!(class.find(k), Some(rank));
        }
        assert_eq!(class.find(1 << 40), None);
    }

    #[test]
    fn large_boards_are_refused() {
        assert!(check_board(Board::new(9, 3).unwrap()).is_ok());
        let err = check_board(Board::new(9, 5).unwrap()).unwrap_err();
        assert!(err.to_string().contains("at most 31 points"), "{err}");
    }
}
