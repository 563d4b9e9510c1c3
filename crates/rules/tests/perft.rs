//! Perft facts of RULES.md section 6.

use epaminondas_rules::{BoardSize, Position, Symmetry};

fn start(files: u8, ranks: u8) -> Position {
    Position::new(BoardSize::new(files, ranks).unwrap(), Symmetry::Mirror)
}

fn check(pos: &Position, expected: &[u64]) {
    for (depth, &count) in expected.iter().enumerate() {
        let depth = depth as u32 + 1;
        assert_eq!(pos.perft(depth), count, "perft {depth} on {}", pos.size());
    }
}

#[test]
fn standard_board_to_depth_3() {
    check(&Position::standard(), &[114, 12_996, 1_787_292]);
}

#[test]
#[ignore = "takes about a second in release, much longer in debug"]
fn standard_board_depth_4() {
    assert_eq!(Position::standard().perft(4), 245_799_684);
}

#[test]
fn crossings_board() {
    check(&start(8, 8), &[60, 3_600, 269_278]);
}

#[test]
fn six_by_six() {
    check(&start(6, 6), &[42, 1_644, 77_708]);
}

#[test]
fn five_by_five() {
    check(&start(5, 5), &[26, 579, 15_043]);
}
