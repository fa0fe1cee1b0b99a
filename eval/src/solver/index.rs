//! The compact index of solved positions. A turn-start position is determined, under the
//! solver's rules, by its pieces and side to move, packed into one `u64` key: white's
//! bitboard, black's shifted by the number of points, then the side to move. Keys are grouped
//! by material class (the piece count of each side; captures only ever lower it), sorted
//! within a class; a position's number is its class's offset plus its rank in the class, and
//! a lookup is one binary search within one class. Eight bytes a position.

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

/// The material class (white and black piece counts) of a key.
#[inline]
pub(crate) fn material(board: &Board, key: u64) -> (u8, u8) {
    let (pieces, _) = unpack_parts(board, key);
    (pieces[0].count_ones() as u8, pieces[1].count_ones() as u8)
}

/// The positions of one material class, sorted by key.
#[derive(Debug)]
pub(crate) struct MaterialClass {
    /// White's piece count.
    pub white: u8,
    /// Black's piece count.
    pub black: u8,
    /// The number of the class's first position.
    pub offset: usize,
    /// The keys, sorted, without duplicates.
    pub keys: Vec<u64>,
}

impl MaterialClass {
    /// The rank of `key` within the class.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        self.keys.binary_search(&key).ok()
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
    /// Builds the index from classes given as (white, black, sorted keys), in the order
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
                let class = MaterialClass {
                    white,
                    black,
                    offset,
                    keys,
                };
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
        let index = PositionIndex::new(board, vec![(7, 7, vec![key, other])]);
        assert_eq!(index.find(key), Some(0));
        assert_eq!(index.find(other), Some(1));
        assert_eq!(index.find(key ^ 1), None);
    }

    #[test]
    fn large_boards_are_refused() {
        assert!(check_board(Board::new(9, 3).unwrap()).is_ok());
        let err = check_board(Board::new(9, 5).unwrap()).unwrap_err();
        assert!(err.to_string().contains("at most 31 points"), "{err}");
    }
}
