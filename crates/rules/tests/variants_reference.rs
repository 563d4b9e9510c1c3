//! The reference generator of the variants (RULES.md section 7), pinned to
//! hand-counted positions and to the standard reference, so that it can
//! judge the library's variants when they come.

mod reference;

use epaminondas_rules::{Position, Symmetry};
use reference::Grid;
use reference::variants::{Board, Cell, Game};

fn keys(board: &Board, symmetry: Symmetry) -> Vec<String> {
    board.moves(symmetry).into_iter().map(|m| m.key).collect()
}

#[test]
fn the_standard_game_agrees_with_the_standard_reference() {
    for (files, ranks) in [(5, 5), (6, 6), (8, 6)] {
        let board = Board::start(Game::Epaminondas, files, ranks);
        let grid = Grid::from_position(&Position::new(
            epaminondas_rules::BoardSize::new(files as u8, ranks as u8).unwrap(),
            Symmetry::Mirror,
        ));
        for depth in 1..=3 {
            assert_eq!(
                board.perft(Symmetry::Mirror, depth),
                grid.perft(Symmetry::Mirror, depth),
                "{files}x{ranks} depth {depth}"
            );
        }
    }
}

#[test]
fn crossings_takes_one_piece_and_freezes_crossed_ones() {
    // c1-c3 moves up onto c4: Epaminondas takes c4 and c5, Crossings c4 only.
    let text = "2b2/2b2/2w2/2w2/2w2 w";
    for (game, left) in [(Game::Epaminondas, 0), (Game::Crossings, 1)] {
        let board = Board::parse(game, text);
        let step = board
            .moves(Symmetry::Off)
            .into_iter()
            .find(|m| m.key == "c1-North-1")
            .unwrap();
        let black = step
            .after
            .cells
            .iter()
            .filter(|&&c| c == Cell::Piece(epaminondas_rules::Color::Black))
            .count();
        assert_eq!(black, left, "{game:?}");
    }
    // a5 has crossed (and e1 for Black, so nobody has won): in Crossings
    // a5 cannot move and e1 cannot be taken by the pair c1,d1.
    let text = "w4/5/5/5/2wwb w";
    let standard = keys(&Board::parse(Game::Epaminondas, text), Symmetry::Off);
    let crossings = keys(&Board::parse(Game::Crossings, text), Symmetry::Off);
    assert!(standard.contains(&"c1-East-1".to_string()), "{standard:?}");
    assert!(
        !crossings.contains(&"c1-East-1".to_string()),
        "{crossings:?}"
    );
    assert!(standard.iter().any(|k| k.starts_with("a5-")));
    assert!(
        !crossings.iter().any(|k| k.starts_with("a5-")),
        "{crossings:?}"
    );
    assert_eq!(
        standard.len() - crossings.len(),
        4,
        "a5's 3 moves and the capture"
    );
}

#[test]
fn abanondas_runs_sidestep() {
    // From a1,b1: north (a1,b1-b2) and north-east (b1,a1-b2), besides the
    // 8 phalanx moves.
    let board = Board::parse(Game::Abanondas, "3b/4/4/ww2 w");
    let moves = keys(&board, Symmetry::Mirror);
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.contains(&"a1..b1~North".to_string()));
    assert!(moves.contains(&"a1..b1~NorthEast".to_string()));
    assert_eq!(
        keys(
            &Board::parse(Game::Epaminondas, "3b/4/4/ww2 w"),
            Symmetry::Mirror
        )
        .len(),
        8
    );
    // A diagonal run steps orthogonally only: a1,b2 north and east.
    let diagonal = keys(
        &Board::parse(Game::Abanondas, "3b/4/1w2/w3 w"),
        Symmetry::Mirror,
    );
    let steps: Vec<&String> = diagonal.iter().filter(|k| k.contains('~')).collect();
    assert_eq!(steps, ["a1..b2~North", "a1..b2~East"], "{diagonal:?}");
    // A run inside a longer line steps too: a1-c1 has the runs a1-b1,
    // b1-c1 and a1-c1, each stepping north, north-east and north-west
    // where the squares allow.
    let line = keys(
        &Board::parse(Game::Abanondas, "3b/4/4/www1 w"),
        Symmetry::Mirror,
    );
    let steps = line.iter().filter(|k| k.contains('~')).count();
    assert_eq!(steps, 2 + 3 + 2, "{line:?}");
}

#[test]
fn stumbling_blocks_places_three_stones_then_black_moves() {
    // 8x8: stones go on ranks 4 and 5, 16 squares.
    let start = Board::start(Game::StumblingBlocks, 8, 8);
    assert_eq!(start.perft(Symmetry::Mirror, 1), 16);
    assert_eq!(start.perft(Symmetry::Mirror, 2), 16 * 15);
    assert_eq!(start.perft(Symmetry::Mirror, 3), 16 * 15 * 14);
    let placed = &start.moves(Symmetry::Mirror)[0].after;
    let placed = &placed.moves(Symmetry::Mirror)[0].after;
    let placed = &placed.moves(Symmetry::Mirror)[0].after;
    assert_eq!(
        placed.turn,
        epaminondas_rules::Color::Black,
        "Black moves first"
    );
    assert_eq!(
        placed.moves(Symmetry::Mirror).len(),
        Board::parse(
            Game::Epaminondas,
            "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww b"
        )
        .moves(Symmetry::Mirror)
        .len(),
        "stones on ranks 4-5 block nothing at the start"
    );
    // Fewer than 8 ranks: ranks 3 to R-2 (6x6: ranks 3 and 4).
    assert_eq!(
        Board::start(Game::StumblingBlocks, 6, 6).perft(Symmetry::Mirror, 1),
        12
    );
    // A stone blocks, and ends a line: a2-a4 takes a5 and a6 (2 < 3) up to
    // the stone on a7, and cannot go further.
    let board = Board::parse(Game::StumblingBlocks, "1b6/s7/b7/b7/w7/w7/w7/sss4b w");
    let moves = board.moves(Symmetry::Off);
    let capture = moves
        .iter()
        .find(|m| m.key == "a2-North-1")
        .expect("the capture");
    assert_eq!(capture.after.look(0, 5), Some(Cell::Empty), "a6 is taken");
    assert_eq!(
        capture.after.look(0, 6),
        Some(Cell::Stone),
        "the stone stays"
    );
    assert!(!moves.iter().any(|m| m.key.starts_with("a2-North-2")));
    let walled = keys(
        &Board::parse(Game::StumblingBlocks, "1b6/8/8/8/8/8/s7/w6s w"),
        Symmetry::Off,
    );
    assert!(!walled.iter().any(|k| k == "a1-North-1"), "{walled:?}");
}

#[test]
fn stones_are_part_of_the_mirror_pattern() {
    // White's d4-d5 onto its goal would leave White's d5 facing Black's d1;
    // with the stones b2, c3, b4 (a mirror image of themselves) the
    // position is symmetric and the move refused; with e4 instead of b4 it
    // is not, and the move stands.
    let mirrored = Board::parse(Game::StumblingBlocks, "5/1s1w1/2s2/1s3/3b1 w");
    let refused = keys(&mirrored, Symmetry::Mirror);
    assert!(!refused.contains(&"d4-North-1".to_string()), "{refused:?}");
    assert!(keys(&mirrored, Symmetry::Off).contains(&"d4-North-1".to_string()));
    let unmirrored = Board::parse(Game::StumblingBlocks, "5/3ws/2s2/1s3/3b1 w");
    assert!(keys(&unmirrored, Symmetry::Mirror).contains(&"d4-North-1".to_string()));
}

#[test]
#[ignore = "prints the reference perft of each variant's start (for the README)"]
fn print_reference_perft() {
    for (game, files, ranks, symmetry) in [
        (Game::Crossings, 8, 8, Symmetry::Off),
        (Game::Abanondas, 14, 12, Symmetry::Mirror),
        (Game::StumblingBlocks, 14, 12, Symmetry::Mirror),
        (Game::Abanondas, 8, 8, Symmetry::Mirror),
        (Game::StumblingBlocks, 8, 8, Symmetry::Mirror),
    ] {
        let board = Board::start(game, files, ranks);
        let counts: Vec<u64> = (1..=3).map(|d| board.perft(symmetry, d)).collect();
        println!("{game:?} {files}x{ranks} {symmetry:?}: {counts:?}");
    }
}
