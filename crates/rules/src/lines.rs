//! Both sides' surveys (see [`crate::Position::survey`]) on boards of up to
//! 15 files and 12 ranks, read line by line from a table.
//!
//! A move runs along one line (a rank, a file or a diagonal) and depends on
//! nothing but what stands on that line. So the moves of both sides along a
//! file or a diagonal, and the largest capture among them, are a function of
//! the line's pattern of white, black and empty squares: the table holds
//! that function for every pattern of up to [`MAX_LEN`] squares, counted by
//! the generator's own rank code ([`line_survey`]). The files and diagonals
//! are gathered from the bit sets with PEXT, so a survey of both sides costs
//! a table read per line, where the generator walks six directions per
//! side. The ranks (up to 15 squares) are counted by the generator itself.

use std::sync::OnceLock;

use crate::core::line_survey;

/// The longest line the table covers.
pub(crate) const MAX_LEN: usize = 12;

/// Where a line's squares lie in the first three words of a bit set (stride 16: four ranks a word): the mask of each word and how far
/// each word's gathered bits are shifted up, so that the line's squares come
/// out in order, one bit each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    pub(crate) masks: [u64; 3],
    pub(crate) shifts: [u32; 3],
    /// The offset in [`LineTable::entries`] of the patterns of this line's length.
    pub(crate) offset: u32,
}

/// The table: for every line pattern, both sides' move counts and largest
/// captures along it.
pub(crate) struct LineTable {
    /// `ternary[x]`: the bits of `x` read as base-3 digits, so that a
    /// pattern's index is `ternary[white] + 2 * ternary[black]`.
    pub(crate) ternary: Vec<u32>,
    /// Per pattern: White's moves (bits 0-7), White's largest capture (8-15),
    /// Black's moves (16-23) and Black's largest capture (24-31).
    pub(crate) entries: Vec<u32>,
    /// The offset of the patterns of each length in `entries`.
    offsets: [u32; MAX_LEN + 1],
}

impl LineTable {
    /// The table, built on first use (about 800,000 patterns).
    pub(crate) fn get() -> &'static LineTable {
        static TABLE: OnceLock<LineTable> = OnceLock::new();
        TABLE.get_or_init(LineTable::build)
    }

    fn build() -> LineTable {
        let ternary = ternary_table();
        // The patterns of each length, one after the other.
        let mut offsets = [0u32; MAX_LEN + 1];
        let mut total = 0;
        for (len, offset) in offsets.iter_mut().enumerate() {
            *offset = total;
            total += 3u32.pow(len as u32);
        }
        let mut entries = vec![0u32; total as usize];
        for (len, &base) in offsets.iter().enumerate() {
            let base = base as usize;
            let count = 3usize.pow(len as u32);
            // White's moves and largest capture for each pattern; Black's
            // are White's on the pattern with the colours swapped.
            let mut white_side = vec![0u32; count];
            let mut swapped = vec![0usize; count];
            for index in 0..count {
                // Digit i of the index: 0 empty, 1 white, 2 black.
                let (mut white, mut black, mut rest) = (0u64, 0u64, index);
                for i in 0..len {
                    match rest % 3 {
                        1 => white |= 1 << i,
                        2 => black |= 1 << i,
                        _ => {}
                    }
                    rest /= 3;
                }
                let (moves, largest) = line_survey(white, black, len as u8);
                white_side[index] = moves as u32 | u32::from(largest) << 8;
                swapped[index] = (ternary[black as usize] + 2 * ternary[white as usize]) as usize;
            }
            for index in 0..count {
                entries[base + index] = white_side[index] | white_side[swapped[index]] << 16;
            }
        }
        LineTable {
            ternary,
            entries,
            offsets,
        }
    }

    /// The files and diagonals of a board of `files` x `ranks` (at most 15
    /// files, for the stride-16 layout, and [`MAX_LEN`] ranks), built on
    /// first use.
    pub(crate) fn lines(&self, files: u8, ranks: u8) -> &'static [Line] {
        const SIZES: usize = 16 * (MAX_LEN + 1);
        static LINES: [OnceLock<Vec<Line>>; SIZES] = [const { OnceLock::new() }; SIZES];
        debug_assert!(files < 16 && usize::from(ranks) <= MAX_LEN);
        LINES[usize::from(files) * (MAX_LEN + 1) + usize::from(ranks)].get_or_init(|| {
            board_lines(i32::from(files), i32::from(ranks))
                .into_iter()
                .map(|squares| line_masks(&squares, self.offsets[squares.len()]))
                .collect()
        })
    }
}

/// `ternary[x]`: the bits of `x` (up to [`MAX_LEN`]) read as base-3 digits.
fn ternary_table() -> Vec<u32> {
    (0..1u32 << MAX_LEN)
        .map(|bits| {
            (0..MAX_LEN as u32)
                .rev()
                .fold(0, |acc, i| acc * 3 + ((bits >> i) & 1))
        })
        .collect()
}

/// The squares (file, rank) of the files and diagonals of two squares or
/// more of a board of `files` x `ranks`, each in order along its line.
fn board_lines(files: i32, ranks: i32) -> Vec<Vec<(i32, i32)>> {
    let on_board = |(f, r): (i32, i32)| (0..files).contains(&f) && (0..ranks).contains(&r);
    let walk = |start: (i32, i32), step: (i32, i32)| {
        let mut squares = Vec::new();
        let mut square = start;
        while on_board(square) {
            squares.push(square);
            square = (square.0 + step.0, square.1 + step.1);
        }
        squares
    };
    let mut lines = Vec::new();
    for f in 0..files {
        lines.push(walk((f, 0), (0, 1)));
        lines.push(walk((f, 0), (1, 1)));
        lines.push(walk((f, 0), (-1, 1)));
    }
    for r in 1..ranks {
        lines.push(walk((0, r), (1, 1)));
        lines.push(walk((files - 1, r), (-1, 1)));
    }
    lines.retain(|line| line.len() >= 2);
    lines
}

/// The masks of a line's squares in the stride-16 layout. Along a file or
/// a diagonal the bit index grows square by square, so gathering each word
/// in turn keeps the line's order.
fn line_masks(squares: &[(i32, i32)], offset: u32) -> Line {
    let mut masks = [0u64; 3];
    for &(f, r) in squares {
        let bit = (r * 16 + f) as usize;
        masks[bit / 64] |= 1 << (bit % 64);
    }
    let shifts = [
        0,
        masks[0].count_ones(),
        masks[0].count_ones() + masks[1].count_ones(),
    ];
    Line {
        masks,
        shifts,
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_board_has_its_files_and_diagonals() {
        let lines = board_lines(14, 12);
        // 14 files, and 2 x 23 diagonals of two squares or more.
        assert_eq!(lines.len(), 14 + 2 * 23);
        assert!(lines.iter().all(|l| (2..=MAX_LEN).contains(&l.len())));
        // Every square lies on one file and two diagonals.
        let mut seen = std::collections::HashMap::new();
        for square in lines.iter().flatten() {
            *seen.entry(*square).or_insert(0) += 1;
        }
        // The corners' diagonals have one square and are left out.
        assert_eq!(seen[&(5, 5)], 3);
        assert_eq!(seen[&(0, 0)], 2);
    }

    #[test]
    fn ternary_digits_follow_the_bits() {
        let ternary = ternary_table();
        assert_eq!(ternary[0b101], 1 + 9);
        assert_eq!(ternary[0b10], 3);
        assert_eq!(
            ternary[(1 << MAX_LEN) - 1],
            (3u32.pow(MAX_LEN as u32) - 1) / 2
        );
    }
}
