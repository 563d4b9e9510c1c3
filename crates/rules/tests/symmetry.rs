//! Hand-built cases of the symmetry rule (RULES.md section 4) under each
//! option, `mirror`, `file` and `off`: a move that puts a mover's piece on
//! its goal rank (a move onto it, a slide along it, a capture landing on it)
//! is refused when the position after it is symmetric in the option's sense,
//! and allowed when it is not, or when the move does not touch the goal rank,
//! or under `off`.
//!
//! Boards are 6x6 unless said otherwise. In the comments `S` is the position
//! after the move; ranks are counted from 1, so on a 6x6 board White's goal
//! rank is 6 and Black's is 1. Under `mirror` a position is symmetric when a
//! White piece stands on (f, r) exactly when a Black piece stands on (f, 7-r);
//! under `file` when it equals its reflection a<->f, b<->e, c<->d.

mod reference;

use epaminondas_rules::{Move, Position, Symmetry};
use reference::Grid;

fn position(text: &str, symmetry: Symmetry) -> Position {
    let pos: Position = text.parse().expect("valid position text");
    pos.with_symmetry(symmetry)
}

fn find(pos: &Position, mv: &str) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == mv)
}

/// Whether the position after `mv` (played under `off`, where it is legal)
/// is symmetric under `symmetry`, by the reference's reading of the rule.
fn symmetric_after(text: &str, mv: &str, symmetry: Symmetry) -> bool {
    let mut pos = position(text, Symmetry::Off);
    let m = find(&pos, mv).unwrap_or_else(|| panic!("{mv} is not legal under off in {text}"));
    pos.play_unchecked(m);
    Grid::from_position(&pos).is_symmetric(symmetry)
}

/// `mv` is a move of the position (legal under `off`) that the symmetry rule
/// refuses under `symmetry`.
fn assert_refused(text: &str, mv: &str, symmetry: Symmetry) {
    assert!(
        symmetric_after(text, mv, symmetry),
        "test case is wrong: {mv} in {text} does not make a {symmetry}-symmetric position"
    );
    let off = position(text, Symmetry::Off);
    let m = find(&off, mv).expect("legal under off");
    let mut pos = position(text, symmetry);
    assert!(
        find(&pos, mv).is_none(),
        "{mv} should be refused under {symmetry} in {text}"
    );
    assert!(
        !pos.is_legal(m),
        "is_legal({mv}) under {symmetry} in {text}"
    );
    assert!(pos.play(m).is_err());
    assert_eq!(
        pos,
        position(text, symmetry),
        "a refused move changed nothing"
    );
    assert_eq!(pos.count_legal_moves(), pos.legal_moves().len() as u64);
    assert!(pos.count_legal_moves() < off.count_legal_moves());
    // The reference agrees.
    let reference = Grid::from_position(&pos).moves(symmetry);
    assert_eq!(reference.moves.len() as u64, pos.count_legal_moves());
    assert!(reference.refused_by_symmetry >= 1);
}

/// `mv` is legal under `symmetry`.
fn assert_allowed(text: &str, mv: &str, symmetry: Symmetry) {
    let mut pos = position(text, symmetry);
    let m =
        find(&pos, mv).unwrap_or_else(|| panic!("{mv} should be legal under {symmetry} in {text}"));
    assert!(pos.is_legal(m));
    pos.play(m).unwrap();
    assert_eq!(
        Grid::from_position(&position(text, symmetry))
            .moves(symmetry)
            .moves
            .len() as u64,
        position(text, symmetry).count_legal_moves(),
        "the reference disagrees in {text}"
    );
}

fn assert_allowed_except(text: &str, mv: &str, refused_under: Symmetry) {
    for symmetry in Symmetry::ALL {
        if symmetry != refused_under {
            assert_allowed(text, mv, symmetry);
        }
    }
}

// ---------------------------------------------------------------- mirror

/// White c5-c6 makes S: White c6 b2 e1, Black c1 b5 e6, each White piece
/// facing a Black one on the mirrored rank (c6/c1, b2/b5, e1/e6). Neither side
/// has crossed before (White 0 on rank 6, Black 1 on rank 1, White to move)
/// nor after (1 each, Black to move).
const MIRROR_ONTO_GOAL: &str = "4b1/1bw3/6/6/1w4/2b1w1 w";

#[test]
fn mirror_move_onto_goal_rank_making_symmetry_is_refused() {
    assert_refused(MIRROR_ONTO_GOAL, "c5-c6", Symmetry::Mirror);
    // S is not file-symmetric (c6 has no partner on d6), so only mirror refuses it.
    assert_allowed_except(MIRROR_ONTO_GOAL, "c5-c6", Symmetry::Mirror);
}

/// Black's version: Black c2-c1 makes the same S as above, with White to move.
#[test]
fn mirror_black_move_onto_goal_rank_making_symmetry_is_refused() {
    let text = "2w1b1/1b4/6/6/1wb3/4w1 b";
    assert_refused(text, "c2-c1", Symmetry::Mirror);
    assert_allowed_except(text, "c2-c1", Symmetry::Mirror);
}

/// The same move with an extra Black piece on a4 (and no White one on a3):
/// the position after it is not symmetric, so the move is allowed.
#[test]
fn mirror_same_move_without_symmetry_is_allowed() {
    let text = "4b1/1bw3/b5/6/1w4/2b1w1 w";
    assert!(!symmetric_after(text, "c5-c6", Symmetry::Mirror));
    for symmetry in Symmetry::ALL {
        assert_allowed(text, "c5-c6", symmetry);
    }
}

/// White b3-b2 makes the same symmetric S as above, but lands on rank 2,
/// not on White's goal rank: allowed. (White's c6 is already there, balanced
/// by Black's c1, so nobody has crossed.)
#[test]
fn mirror_symmetry_made_away_from_goal_rank_is_allowed() {
    let text = "2w1b1/1b4/6/1w4/6/2b1w1 w";
    assert!(symmetric_after(text, "b3-b2", Symmetry::Mirror));
    for symmetry in Symmetry::ALL {
        assert_allowed(text, "b3-b2", symmetry);
    }
}

/// White d6 slides along its goal rank to c6, making S: refused. (Before:
/// White 1 on rank 6, Black 1 on rank 1: no crossing win for White.)
#[test]
fn mirror_slide_along_goal_rank_making_symmetry_is_refused() {
    let text = "3wb1/1b4/6/6/1w4/2b1w1 w";
    assert_refused(text, "d6-c6", Symmetry::Mirror);
    assert_allowed_except(text, "d6-c6", Symmetry::Mirror);
    // With a Black piece added on a4 it no longer makes symmetry: allowed.
    let broken = "3wb1/1b4/b5/6/1w4/2b1w1 w";
    assert!(!symmetric_after(broken, "d6-c6", Symmetry::Mirror));
    assert_allowed(broken, "d6-c6", Symmetry::Mirror);
}

/// White's pair c4,c5 captures the Black piece on c6 (a line of 1 against a
/// group of 2), giving S: White c5 c6 e1, Black c2 c1 e6: refused.
#[test]
fn mirror_capture_onto_goal_rank_making_symmetry_is_refused() {
    let text = "2b1b1/2w3/2w3/6/2b3/2b1w1 w";
    assert_refused(text, "c4,c5-c6", Symmetry::Mirror);
    assert_allowed_except(text, "c4,c5-c6", Symmetry::Mirror);
    // With an extra Black piece on a3, S is not symmetric: allowed.
    let broken = "2b1b1/2w3/2w3/b5/2b3/2b1w1 w";
    assert!(!symmetric_after(broken, "c4,c5-c6", Symmetry::Mirror));
    assert_allowed(broken, "c4,c5-c6", Symmetry::Mirror);
}

/// White's line a6,b6,c6 slides east along its goal rank and captures the two
/// Black pieces d6,e6 (2 against 3), giving S: White b6 c6 d6, Black b1 c1
/// d1: refused. The piece captured on e6, beyond the landing square, is
/// removed before the symmetry test; had it stayed, S would not be symmetric.
/// (Before: 3 White pieces on rank 6, 3 Black ones on rank 1: no crossing win.)
#[test]
fn mirror_capture_along_goal_rank_removes_captured_pieces_first() {
    let text = "wwwbb1/6/6/6/6/1bbb2 w";
    assert_refused(text, "a6,c6-d6", Symmetry::Mirror);
    assert_allowed_except(text, "a6,c6-d6", Symmetry::Mirror);
    let mv = find(&position(text, Symmetry::Off), "a6,c6-d6").unwrap();
    assert_eq!(mv.captures(), 2);
}

// ---------------------------------------------------------------- file

/// White d5-d6 makes S: White c6 d6 a1 f1, Black b4 e4 c1 d1, equal to its
/// reflection a<->f. Before it White has 1 piece on rank 6 against Black's 2
/// on rank 1, after it 2 against 2: no crossing win either way. S is not
/// mirror-symmetric (no Black piece on a6 facing White's a1).
const FILE_ONTO_GOAL: &str = "2w3/3w2/1b2b1/6/6/w1bb1w w";

#[test]
fn file_move_onto_goal_rank_making_symmetry_is_refused() {
    assert_refused(FILE_ONTO_GOAL, "d5-d6", Symmetry::File);
    assert_allowed_except(FILE_ONTO_GOAL, "d5-d6", Symmetry::File);
}

/// Black's version: Black d2-d1 makes S: Black c1 d1 b3 e3, White c6 d6,
/// equal to its reflection.
#[test]
fn file_black_move_onto_goal_rank_making_symmetry_is_refused() {
    let text = "2ww2/6/6/1b2b1/3b2/2b3 b";
    assert_refused(text, "d2-d1", Symmetry::File);
    assert_allowed_except(text, "d2-d1", Symmetry::File);
}

/// The same move with an extra Black piece on a3: S is not symmetric: allowed.
#[test]
fn file_same_move_without_symmetry_is_allowed() {
    let text = "2w3/3w2/1b2b1/b5/6/w1bb1w w";
    assert!(!symmetric_after(text, "d5-d6", Symmetry::File));
    for symmetry in Symmetry::ALL {
        assert_allowed(text, "d5-d6", symmetry);
    }
}

/// White f2-f1 makes the symmetric S above (White c6 d6 a1 f1, Black b4 e4
/// c1 d1) on White's own home rank, not its goal: allowed.
#[test]
fn file_symmetry_made_away_from_goal_rank_is_allowed() {
    let text = "2ww2/6/1b2b1/6/5w/w1bb2 w";
    assert!(symmetric_after(text, "f2-f1", Symmetry::File));
    for symmetry in Symmetry::ALL {
        assert_allowed(text, "f2-f1", symmetry);
    }
}

/// White d6-d5 makes the symmetric S: White c5 d5 a1 f1, Black b4 e4 c1 d1,
/// by moving a piece off its goal rank: nothing lands on the goal rank, so
/// it is allowed.
#[test]
fn file_symmetry_made_leaving_goal_rank_is_allowed() {
    let text = "3w2/2w3/1b2b1/6/6/w1bb1w w";
    assert!(symmetric_after(text, "d6-d5", Symmetry::File));
    for symmetry in Symmetry::ALL {
        assert_allowed(text, "d6-d5", symmetry);
    }
}

/// White e6 slides along its goal rank to d6, making S (White c6 d6 a1 f1,
/// Black b4 e4 c1 d1): refused. Before: 2 White pieces on rank 6 against 2
/// Black ones on rank 1.
#[test]
fn file_slide_along_goal_rank_making_symmetry_is_refused() {
    let text = "2w1w1/6/1b2b1/6/6/w1bb1w w";
    assert_refused(text, "e6-d6", Symmetry::File);
    assert_allowed_except(text, "e6-d6", Symmetry::File);
    let broken = "2w1w1/6/1b2b1/b5/6/w1bb1w w";
    assert!(!symmetric_after(broken, "e6-d6", Symmetry::File));
    assert_allowed(broken, "e6-d6", Symmetry::File);
}

/// A two-piece group sliding along the goal rank: White's pair b6,c6 moves
/// east by one to c6,d6, making S: White c6 d6 a1 f1, Black b4 e4 c1 d1,
/// equal to its reflection: refused.
#[test]
fn file_group_slide_along_goal_rank_making_symmetry_is_refused() {
    let text = "1ww3/6/1b2b1/6/6/w1bb1w w";
    assert_refused(text, "b6,c6-d6", Symmetry::File);
    assert_allowed_except(text, "b6,c6-d6", Symmetry::File);
}

/// White's pair d4,d5 captures the Black piece on d6 (1 against 2), giving
/// S: White c5 c6 d5 d6 a1 f1, Black b4 e4 c1 d1, equal to its reflection:
/// refused. Before, White has 1 piece on rank 6 (c6) against Black's 2 on
/// rank 1.
#[test]
fn file_capture_onto_goal_rank_making_symmetry_is_refused() {
    let text = "2wb2/2ww2/1b1wb1/6/6/w1bb1w w";
    assert_refused(text, "d4,d5-d6", Symmetry::File);
    assert_allowed_except(text, "d4,d5-d6", Symmetry::File);
    let broken = "2wb2/2ww2/1b1wb1/b5/6/w1bb1w w";
    assert!(!symmetric_after(broken, "d4,d5-d6", Symmetry::File));
    assert_allowed(broken, "d4,d5-d6", Symmetry::File);
}

/// On a 5x5 board the middle file c is its own reflection: White c4-c5 keeps
/// a symmetric position (White c4 a1 e1, Black b3 d3) symmetric and puts a
/// piece on the goal rank: refused.
#[test]
fn file_move_up_the_middle_file_is_refused() {
    let text = "5/2w2/1b1b1/5/w3w w";
    assert!(Grid::from_position(&position(text, Symmetry::File)).is_symmetric(Symmetry::File));
    assert_refused(text, "c4-c5", Symmetry::File);
    assert_allowed_except(text, "c4-c5", Symmetry::File);
}

// ---------------------------------------------------------------- off

/// Under `off` every one of the refused moves above is legal, and the game
/// goes on after it.
#[test]
fn off_allows_every_symmetry_making_move() {
    let cases = [
        (MIRROR_ONTO_GOAL, "c5-c6"),
        ("2w1b1/1b4/6/6/1wb3/4w1 b", "c2-c1"),
        ("3wb1/1b4/6/6/1w4/2b1w1 w", "d6-c6"),
        ("2b1b1/2w3/2w3/6/2b3/2b1w1 w", "c4,c5-c6"),
        ("wwwbb1/6/6/6/6/1bbb2 w", "a6,c6-d6"),
        (FILE_ONTO_GOAL, "d5-d6"),
        ("2ww2/6/6/1b2b1/3b2/2b3 b", "d2-d1"),
        ("2w1w1/6/1b2b1/6/6/w1bb1w w", "e6-d6"),
        ("1ww3/6/1b2b1/6/6/w1bb1w w", "b6,c6-d6"),
        ("2wb2/2ww2/1b1wb1/6/6/w1bb1w w", "d4,d5-d6"),
        ("5/2w2/1b1b1/5/w3w w", "c4-c5"),
    ];
    for (text, mv) in cases {
        let mut pos = position(text, Symmetry::Off);
        let m = find(&pos, mv).unwrap_or_else(|| panic!("{mv} legal under off in {text}"));
        assert!(pos.is_legal(m));
        pos.play(m).unwrap();
        assert_eq!(pos.outcome(), None, "after {mv} in {text}: {pos}");
        // Under off no position is symmetric and nothing is ever refused.
        let grid = Grid::from_position(&position(text, Symmetry::Off));
        assert_eq!(grid.moves(Symmetry::Off).refused_by_symmetry, 0);
        assert_eq!(
            grid.moves(Symmetry::Off).moves.len() as u64,
            position(text, Symmetry::Off).count_legal_moves()
        );
    }
}

/// The same position under the three options differs only in the refused move.
#[test]
fn options_differ_only_by_the_refused_moves() {
    for (text, refused_under) in [
        (MIRROR_ONTO_GOAL, Symmetry::Mirror),
        (FILE_ONTO_GOAL, Symmetry::File),
    ] {
        let off: Vec<String> = position(text, Symmetry::Off)
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        for symmetry in Symmetry::ALL {
            let moves: Vec<String> = position(text, symmetry)
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect();
            let missing: Vec<&String> = off.iter().filter(|m| !moves.contains(m)).collect();
            assert!(moves.iter().all(|m| off.contains(m)));
            if symmetry == refused_under {
                assert_eq!(missing.len(), 1, "{symmetry} in {text}: {missing:?}");
            } else {
                assert!(missing.is_empty(), "{symmetry} in {text}: {missing:?}");
            }
        }
    }
}
