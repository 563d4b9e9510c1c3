//! Fixed-width bit sets: the bitboards behind [`crate::Position`].
//!
//! A board of `F` files and `R` ranks is laid out rank by rank with a
//! power-of-two stride of at least `F + 1` bits per rank. The bits past the
//! last file of each rank are always zero, so a shift by a direction's delta
//! never wraps a piece from one edge onto the other: it lands in the padding
//! and is removed by masking with the board.
//!
//! Where the build targets AVX2, four-word sets live in one vector register
//! (see `wide`), which is why the standard board's layout takes four words.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// Four-word sets held in one AVX2 register: each set operation is one
/// vector instruction, and a shift a few, instead of a loop over the words.
/// [`Bits`] uses these for `N == 4` when the build targets AVX2.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod wide {
    use std::arch::x86_64::*;

    // SAFETY (every `unsafe` block below): the intrinsics only need AVX2,
    // which this module is compiled only for.

    #[inline(always)]
    fn load(w: [u64; 4]) -> __m256i {
        // SAFETY: both types are 32 bytes of plain integers.
        unsafe { std::mem::transmute::<[u64; 4], __m256i>(w) }
    }

    #[inline(always)]
    fn store(v: __m256i) -> [u64; 4] {
        // SAFETY: as in `load`.
        unsafe { std::mem::transmute::<__m256i, [u64; 4]>(v) }
    }

    #[inline(always)]
    pub(super) fn is_empty(w: [u64; 4]) -> bool {
        let v = load(w);
        unsafe { _mm256_testz_si256(v, v) != 0 }
    }

    #[inline(always)]
    pub(super) fn and(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        store(unsafe { _mm256_and_si256(load(a), load(b)) })
    }

    #[inline(always)]
    pub(super) fn or(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        store(unsafe { _mm256_or_si256(load(a), load(b)) })
    }

    #[inline(always)]
    pub(super) fn xor(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        store(unsafe { _mm256_xor_si256(load(a), load(b)) })
    }

    /// `a` without the bits of `b`.
    #[inline(always)]
    pub(super) fn and_not(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        store(unsafe { _mm256_andnot_si256(load(b), load(a)) })
    }

    /// Up (`UP`) or down by `s` bits (0 < s < 64): each word shifted, or'ed
    /// with the bits carried out of the word below (up) or above (down); the
    /// carry out of the end word is lost.
    #[inline(always)]
    pub(super) fn shift<const UP: bool>(w: [u64; 4], s: u32) -> [u64; 4] {
        let v = load(w);
        unsafe {
            let (by, back) = (
                _mm_cvtsi32_si128(s as i32),
                _mm_cvtsi32_si128(64 - s as i32),
            );
            let zero = _mm256_setzero_si256();
            let (shifted, carried) = if UP {
                let carried = _mm256_srl_epi64(v, back);
                // Word i takes word i - 1's carry, word 0 none.
                let carried = _mm256_permute4x64_epi64::<0b10_01_00_11>(carried);
                let carried = _mm256_blend_epi32::<0b0000_0011>(carried, zero);
                (_mm256_sll_epi64(v, by), carried)
            } else {
                let carried = _mm256_sll_epi64(v, back);
                // Word i takes word i + 1's carry, the top word none.
                let carried = _mm256_permute4x64_epi64::<0b00_11_10_01>(carried);
                let carried = _mm256_blend_epi32::<0b1100_0000>(carried, zero);
                (_mm256_srl_epi64(v, by), carried)
            };
            store(_mm256_or_si256(shifted, carried))
        }
    }

    /// `[u64; N]` as `[u64; 4]` (for `N == 4`, where it is a plain copy).
    #[inline(always)]
    pub(super) fn widen<const N: usize>(w: [u64; N]) -> [u64; 4] {
        let mut out = [0; 4];
        out[..N.min(4)].copy_from_slice(&w[..N.min(4)]);
        out
    }

    /// `[u64; 4]` as `[u64; N]` (for `N == 4`, where it is a plain copy).
    #[inline(always)]
    pub(super) fn narrow<const N: usize>(w: [u64; 4]) -> [u64; N] {
        let mut out = [0; N];
        out[..N.min(4)].copy_from_slice(&w[..N.min(4)]);
        out
    }
}

/// In a method of `Bits<N>`: returns `$wide` (an expression using the
/// `wide` module's functions) when the set has four words and the build
/// targets AVX2; the scalar code after it is the general case.
macro_rules! wide_when_four {
    ($n:expr, $wide:expr) => {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        if $n == 4 {
            return $wide;
        }
    };
}

/// A set of bit indices `0..64 * N`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Bits<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> Bits<N> {
    /// The empty set.
    pub(crate) const EMPTY: Self = Bits([0; N]);

    /// The indices `start..end` (clipped to the set's width).
    #[inline(always)]
    pub(crate) fn range(start: usize, end: usize) -> Self {
        let mut out = [0; N];
        for (i, word) in out.iter_mut().enumerate() {
            let (lo, hi) = (
                start.clamp(64 * i, 64 * i + 64) - 64 * i,
                end.clamp(64 * i, 64 * i + 64) - 64 * i,
            );
            if hi > lo {
                *word = (u64::MAX >> (64 - (hi - lo))) << lo;
            }
        }
        Bits(out)
    }

    /// Whether no bit is set.
    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        wide_when_four!(N, wide::is_empty(wide::widen(self.0)));
        self.0.iter().fold(0, |acc, &w| acc | w) == 0
    }

    /// Whether at least one bit is set.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        !self.is_empty()
    }

    /// Number of set bits.
    #[inline(always)]
    pub(crate) fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether bit `i` is set. Indices past the end read as unset.
    #[inline(always)]
    pub(crate) fn contains(self, i: usize) -> bool {
        i < 64 * N && (self.0[i / 64] >> (i % 64)) & 1 != 0
    }

    /// Sets bit `i`.
    #[inline(always)]
    pub(crate) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Flips bit `i`.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }

    /// `self` without the bits of `other`.
    #[inline(always)]
    pub(crate) fn and_not(self, other: Self) -> Self {
        wide_when_four!(
            N,
            Bits(wide::narrow(wide::and_not(
                wide::widen(self.0),
                wide::widen(other.0)
            )))
        );
        let mut out = self.0;
        for (o, w) in out.iter_mut().zip(other.0) {
            *o &= !w;
        }
        Bits(out)
    }

    /// Every index moved up by `s` (`0 < s < 64`); bits pushed past the end are lost.
    #[inline(always)]
    pub(crate) fn shl(self, s: u32) -> Self {
        debug_assert!(s > 0 && s < 64);
        wide_when_four!(
            N,
            Bits(wide::narrow(wide::shift::<true>(wide::widen(self.0), s)))
        );
        let w = self.0;
        let mut out = [0; N];
        out[0] = w[0] << s;
        for i in 1..N {
            out[i] = (w[i] << s) | (w[i - 1] >> (64 - s));
        }
        Bits(out)
    }

    /// Every index moved down by `s` (`0 < s < 64`); bits pushed below zero are lost.
    #[inline(always)]
    pub(crate) fn shr(self, s: u32) -> Self {
        debug_assert!(s > 0 && s < 64);
        wide_when_four!(
            N,
            Bits(wide::narrow(wide::shift::<false>(wide::widen(self.0), s)))
        );
        let w = self.0;
        let mut out = [0; N];
        for i in 0..N - 1 {
            out[i] = (w[i] >> s) | (w[i + 1] << (64 - s));
        }
        out[N - 1] = w[N - 1] >> s;
        Bits(out)
    }

    /// Every index moved by `delta` (positive: up), `0 < |delta| < 64`.
    #[inline(always)]
    pub(crate) fn shift(self, delta: i32) -> Self {
        if delta > 0 {
            self.shl(delta as u32)
        } else {
            self.shr(delta.unsigned_abs())
        }
    }

    /// The set indices in increasing order.
    #[inline(always)]
    pub(crate) fn iter(self) -> BitIter<N> {
        BitIter {
            words: self.0,
            word: 0,
        }
    }

    /// The `len` bits starting at index `start`, as the low bits of a word (`len <= 32`).
    pub(crate) fn extract(self, start: usize, len: usize) -> u64 {
        debug_assert!(len <= 32);
        let (word, offset) = (start / 64, start % 64);
        let mut v = self.0[word] >> offset;
        if offset + len > 64 && word + 1 < N {
            v |= self.0[word + 1] << (64 - offset);
        }
        v & ((1u64 << len) - 1)
    }

    /// Sets the bits `start..start + len` from the low bits of `value` (`len <= 32`);
    /// the target bits must be zero.
    pub(crate) fn deposit(&mut self, start: usize, len: usize, value: u64) {
        debug_assert!(len <= 32);
        let value = value & ((1u64 << len) - 1);
        let (word, offset) = (start / 64, start % 64);
        self.0[word] |= value << offset;
        if offset + len > 64 {
            self.0[word + 1] |= value >> (64 - offset);
        }
    }
}

/// Iterator over the set indices of a [`Bits`], lowest first.
pub(crate) struct BitIter<const N: usize> {
    words: [u64; N],
    word: usize,
}

impl<const N: usize> Iterator for BitIter<N> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < N {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt, $wide:ident) => {
        impl<const N: usize> $assign_trait for Bits<N> {
            #[inline(always)]
            fn $assign(&mut self, rhs: Self) {
                wide_when_four!(
                    N,
                    self.0 = wide::narrow(wide::$wide(wide::widen(self.0), wide::widen(rhs.0)))
                );
                for (o, w) in self.0.iter_mut().zip(rhs.0) {
                    *o $op w;
                }
            }
        }
        impl<const N: usize> $trait for Bits<N> {
            type Output = Self;
            #[inline(always)]
            fn $method(mut self, rhs: Self) -> Self {
                self.$assign(rhs);
                self
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=, and);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=, or);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=, xor);

#[cfg(test)]
mod tests {
    use super::*;

    fn from(indices: &[usize]) -> Bits<3> {
        let mut b = Bits::EMPTY;
        for &i in indices {
            b.insert(i);
        }
        b
    }

    #[test]
    fn shifts_cross_word_boundaries() {
        let b = from(&[0, 63, 64, 130]);
        assert_eq!(b.shl(1), from(&[1, 64, 65, 131]));
        assert_eq!(b.shr(1), from(&[62, 63, 129]));
        assert_eq!(from(&[191]).shl(5), Bits::EMPTY);
        assert_eq!(b.shift(17), b.shl(17));
        assert_eq!(b.shift(-17), b.shr(17));
    }

    #[test]
    fn iteration_counting_and_membership() {
        let b = from(&[5, 70, 128, 191]);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![5, 70, 128, 191]);
        assert_eq!(b.count(), 4);
        assert!(b.contains(70) && !b.contains(71) && !b.contains(10_000));
        assert_eq!(b.and_not(from(&[70])), from(&[5, 128, 191]));
    }

    #[test]
    fn ranges_span_words_and_clip() {
        let expected = |start: usize, end: usize| from(&(start..end.min(192)).collect::<Vec<_>>());
        for (start, end) in [
            (0, 0),
            (0, 1),
            (5, 64),
            (60, 70),
            (63, 129),
            (0, 192),
            (100, 300),
            (10, 5),
        ] {
            assert_eq!(
                Bits::<3>::range(start, end),
                expected(start, end),
                "{start}..{end}"
            );
        }
    }

    /// A set of four words from a seed (xorshift), with some empty words.
    fn four_words(seed: u64) -> Bits<4> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut words = [next(), next(), next(), next()];
        words[(seed % 5) as usize % 4] = 0;
        Bits(words)
    }

    #[test]
    fn four_word_sets_agree_with_their_bits() {
        // Four-word sets take the vector code where the build has AVX2:
        // each result is checked bit by bit against the definition.
        for seed in 0..200 {
            let (a, b) = (four_words(seed), four_words(seed + 1000));
            for i in 0..256 {
                let (x, y) = (a.contains(i), b.contains(i));
                assert_eq!((a & b).contains(i), x && y);
                assert_eq!((a | b).contains(i), x || y);
                assert_eq!((a ^ b).contains(i), x != y);
                assert_eq!(a.and_not(b).contains(i), x && !y);
            }
            assert_eq!(a.is_empty(), (0..256).all(|i| !a.contains(i)));
            assert_eq!(
                a.count(),
                (0..256).filter(|&i| a.contains(i)).count() as u32
            );
            for s in [1, 15, 16, 17, 31, 63] {
                let (up, down) = (a.shl(s), a.shr(s));
                for i in 0..256 {
                    let s = s as usize;
                    assert_eq!(
                        up.contains(i),
                        i >= s && a.contains(i - s),
                        "shl {s} bit {i}"
                    );
                    assert_eq!(down.contains(i), a.contains(i + s), "shr {s} bit {i}");
                }
            }
        }
        assert!(Bits::<4>::EMPTY.is_empty());
        assert!(!Bits::<4>([0, 0, 0, 1 << 63]).is_empty());
    }

    #[test]
    fn extract_and_deposit_straddle_words() {
        let mut b = Bits::<3>::EMPTY;
        b.deposit(60, 10, 0b11_0110_0101);
        assert_eq!(b.extract(60, 10), 0b11_0110_0101);
        assert_eq!(b.extract(62, 4), 0b1001);
    }
}
