//! Zobrist keys for positions, generated at compile time.

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn piece_keys() -> [[u64; 64]; 2] {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x5EED_FA40_0A0A_u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[c][p] = key;
            p += 1;
        }
        c += 1;
    }
    keys
}

/// `PIECE[colour][point]`: the key of a piece.
pub const PIECE: [[u64; 64]; 2] = piece_keys();

/// Toggled when black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0xB1AC_4000).1;

/// The key of all pieces of one colour.
#[inline]
pub fn pieces_key(color: usize, mut set: u64) -> u64 {
    let mut key = 0;
    while set != 0 {
        key ^= PIECE[color][set.trailing_zeros() as usize];
        set &= set - 1;
    }
    key
}
