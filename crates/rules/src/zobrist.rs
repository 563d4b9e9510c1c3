//! Zobrist keys: fixed pseudo-random numbers whose XOR identifies a position.

/// Bit indices a board layout can use (13 words of 64 bits).
pub(crate) const MAX_BITS: usize = 13 * 64;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [u64; 2 * MAX_BITS + 1] {
    let mut keys = [0; 2 * MAX_BITS + 1];
    let mut state = 0x4550_414D_494E_4F4E; // "EPAMINON"
    let mut i = 0;
    while i < keys.len() {
        let (next, value) = splitmix64(state);
        state = next;
        keys[i] = value;
        i += 1;
    }
    keys
}

static KEYS: [u64; 2 * MAX_BITS + 1] = make_keys();

/// The key of a piece of side `color_index` on bit `index`.
#[inline(always)]
pub(crate) fn piece(color_index: usize, index: usize) -> u64 {
    KEYS[color_index * MAX_BITS + index]
}

/// The key XORed in when Black is to move.
#[inline(always)]
pub(crate) fn black_to_move() -> u64 {
    KEYS[2 * MAX_BITS]
}

/// The key of a neutral stone (Stumbling Blocks) on bit `index`: made from
/// the two piece keys of the square, so that the pieces' keys stay as they
/// were before stones existed.
#[inline(always)]
pub(crate) fn stone(index: usize) -> u64 {
    piece(0, index).rotate_left(21) ^ piece(1, index).rotate_left(42)
}
