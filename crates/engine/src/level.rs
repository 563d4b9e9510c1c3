//! Playing strength levels for people: 1 (weakest) to 10 (full strength).
//!
//! Below 10 a level limits the nodes searched per move (never below what a
//! complete shallow search needs) and, at the lowest
//! levels, sometimes plays a random legal move instead of the best one, the
//! way a beginner overlooks things. The choice is seeded by the position, so
//! a level plays the same way in the same position.
//!
//! | level | nodes per move at most | random moves |
//! | --- | --- | --- |
//! | 1 | 1,000 | 1 in 2 |
//! | 2 | 1,000 | 1 in 3 |
//! | 3 | 1,500 | 1 in 5 |
//! | 4 | 2,500 | 1 in 8 |
//! | 5 | 3,000 | 1 in 10 |
//! | 6 | 6,000 | 1 in 20 |
//! | 7 | 12,000 | none |
//! | 8 | 30,000 | none |
//! | 9 | 100,000 | none |
//! | 10 | unlimited | none |
//!
//! docs/strength.md has the matches that place the levels against the
//! baselines and each other.

use epaminondas_rules::{Move, Position};

/// A strength level, 1 to 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

/// (node cap, one random move in N; 0 for none) for levels 1 to 9.
const TABLE: [(u64, u64); 9] = [
    (1_000, 2),
    (1_000, 3),
    (1_500, 5),
    (2_500, 8),
    (3_000, 10),
    (6_000, 20),
    (12_000, 0),
    (30_000, 0),
    (100_000, 0),
];

impl Level {
    /// Full strength.
    pub const MAX: Level = Level(10);

    /// The level `n`, if it is 1 to 10.
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }

    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The most nodes a search at this level may use per move.
    pub fn node_cap(self) -> Option<u64> {
        TABLE.get(usize::from(self.0) - 1).map(|&(nodes, _)| nodes)
    }

    /// The move to play at this level, given the search's `best` move: now
    /// and then a random legal move instead, chosen by the position's hash.
    pub fn choose(self, pos: &Position, best: Option<Move>) -> Option<Move> {
        let Some(&(_, one_in)) = TABLE.get(usize::from(self.0) - 1) else {
            return best;
        };
        let moves = pos.legal_moves();
        if one_in == 0 || moves.is_empty() {
            return best;
        }
        // A fixed mix of the position's hash: the same position, the same choice.
        let mut x = pos.zobrist_hash() ^ 0x9E37_79B9_7F4A_7C15;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        if x % one_in == 0 {
            Some(moves[((x >> 8) % moves.len() as u64) as usize])
        } else {
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
        assert_eq!(Level::MAX.node_cap(), None);
        assert_eq!(Level::new(1).unwrap().node_cap(), Some(1_000));
        let pos = Position::standard();
        let best = pos.legal_moves()[0];
        // Full strength keeps the best move; every level plays a legal move,
        // the same one each time.
        assert_eq!(Level::MAX.choose(&pos, Some(best)), Some(best));
        for n in 1..=10 {
            let level = Level::new(n).unwrap();
            let mv = level.choose(&pos, Some(best)).unwrap();
            assert!(pos.is_legal(mv));
            assert_eq!(level.choose(&pos, Some(best)), Some(mv));
        }
    }
}
