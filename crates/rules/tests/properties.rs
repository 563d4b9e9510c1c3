//! Property tests (proptest) of positions, moves and position text:
//! - playing a move and undoing it restores the position and its hash, along
//!   random games and for every legal move of the position reached, whose
//!   hash `zobrist_after` foretells;
//! - the incremental hash equals `compute_zobrist_hash()` after every move of a
//!   random game;
//! - position text: `Display` then `parse` gives the same position (and the
//!   same hash), on random games and on random setups of every size;
//! - `Setup`: text round trip, `from_setup` then `to_setup` keeps the pieces,
//!   and bad setups (a piece off the board, two on one square) are refused;
//! - move `Display` strings are unique among a position's legal moves and
//!   name the move's own tail, head and destination; moves survive
//!   `to_bits` then `from_bits`;
//! - the evaluation queries (survey: mobility and largest capture, also of
//!   both sides at once; links) agree with the move list and a
//!   square-by-square count, for both colours;
//! - every game's rules treat a position and its left-right reflection
//!   alike, and `reflected_zobrist_hash` is the reflection's hash.

mod reference;

use std::collections::HashSet;

use epaminondas_rules::{
    BoardSize, Color, Move, Position, PositionError, Setup, Square, Symmetry, Variant,
};
use proptest::prelude::*;
use reference::Rng;

/// A board size: any, with the standard and Crossings boards often.
fn size() -> impl Strategy<Value = BoardSize> {
    prop_oneof![
        2 => Just(BoardSize::STANDARD),
        1 => Just(BoardSize::CROSSINGS),
        4 => (4u8..=26, 4u8..=26).prop_map(|(f, r)| BoardSize::new(f, r).unwrap()),
    ]
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    prop::sample::select(Symmetry::ALL.to_vec())
}

/// A random game from the start: the start position, the moves played and
/// the position before each of them. Stops early at a terminal position.
#[derive(Debug, Clone)]
struct Game {
    start: Position,
    moves: Vec<Move>,
    before: Vec<Position>,
    end: Position,
}

fn play_game(size: BoardSize, symmetry: Symmetry, seed: u64, plies: usize) -> Game {
    let start = Position::new(size, symmetry);
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut before = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = *rng.pick(&legal);
        before.push(pos.clone());
        pos.play(mv).expect("a generated move is legal");
        moves.push(mv);
    }
    Game {
        start,
        moves,
        before,
        end: pos,
    }
}

fn game() -> impl Strategy<Value = Game> {
    (size(), symmetry(), any::<u64>(), 0usize..120)
        .prop_map(|(size, symmetry, seed, plies)| play_game(size, symmetry, seed, plies))
}

/// A valid setup: each square of the board empty, white or black, with a
/// density chosen per setup.
fn setup() -> impl Strategy<Value = Setup> {
    (size(), any::<u64>(), 0u32..=100, any::<bool>()).prop_map(|(size, seed, density, white)| {
        let mut rng = Rng::new(seed);
        let mut pieces = Vec::new();
        for sq in size.all_squares() {
            if rng.below(100) < density as usize {
                let color = if rng.chance(0.5) {
                    Color::White
                } else {
                    Color::Black
                };
                pieces.push((sq, color));
            }
        }
        // Any order is allowed.
        for i in (1..pieces.len()).rev() {
            let j = rng.below(i + 1);
            pieces.swap(i, j);
        }
        Setup {
            size,
            pieces,
            stones: Vec::new(),
            turn: if white { Color::White } else { Color::Black },
        }
    })
}

fn sorted(mut pieces: Vec<(Square, Color)>) -> Vec<(Square, Color)> {
    pieces.sort();
    pieces
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn play_then_undo_restores_position_and_hash(game in game()) {
        // Take the whole game back, move by move.
        let mut pos = game.end.clone();
        for (mv, before) in game.moves.iter().zip(&game.before).rev() {
            pos.undo_unchecked(*mv);
            prop_assert_eq!(&pos, before, "undoing {}", mv);
            prop_assert_eq!(pos.zobrist_hash(), before.zobrist_hash());
        }
        prop_assert_eq!(&pos, &game.start);
        // Every legal move of the final position, played and taken back.
        let mut pos = game.end.clone();
        for &mv in &game.end.legal_moves() {
            let predicted = pos.zobrist_after(mv);
            pos.play_unchecked(mv);
            prop_assert_eq!(pos.zobrist_hash(), predicted, "zobrist_after {}", mv);
            prop_assert_ne!(&pos, &game.end);
            pos.undo_unchecked(mv);
            prop_assert_eq!(&pos, &game.end, "play and undo {} in {}", mv, game.end);
            prop_assert_eq!(pos.zobrist_hash(), game.end.zobrist_hash());
        }
    }

    #[test]
    fn incremental_hash_matches_computed(game in game()) {
        let mut pos = game.start.clone();
        prop_assert_eq!(pos.zobrist_hash(), pos.compute_zobrist_hash());
        for &mv in &game.moves {
            pos.play_unchecked(mv);
            prop_assert_eq!(pos.zobrist_hash(), pos.compute_zobrist_hash(), "after {} in {}", mv, pos);
            // The same position built from scratch has the same hash.
            let rebuilt = Position::from_setup(&pos.to_setup(), pos.symmetry()).unwrap();
            prop_assert_eq!(rebuilt.zobrist_hash(), pos.zobrist_hash());
            prop_assert_eq!(&rebuilt, &pos);
        }
    }

    #[test]
    fn reflection_keeps_the_rules_and_its_hash_is_foretold(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        size in (5u8..=10, 5u8..=10),
        symmetry in symmetry(),
        seed in any::<u64>(),
        plies in 0usize..60,
    ) {
        let size = BoardSize::new(size.0, size.1).unwrap();
        let mut pos = Position::new_variant(variant, size, symmetry).unwrap();
        let mut rng = Rng::new(seed);
        for _ in 0..=plies {
            // The reflection, built square by square, is a position of the
            // same game whose hash `reflected_zobrist_hash` foretells, with
            // as many moves, the same checks and the same crossing; it is
            // what `Position::reflected` gives, and reflected again, the
            // position itself.
            let mut setup = pos.to_setup();
            let last = size.files() - 1;
            let flip = |s: Square| Square::new(last - s.file(), s.rank()).unwrap();
            setup.pieces = setup.pieces.iter().map(|&(s, c)| (flip(s), c)).collect();
            setup.stones = setup.stones.iter().map(|&s| flip(s)).collect();
            let mirror = Position::from_setup_in(variant, &setup, symmetry).unwrap();
            prop_assert_eq!(&pos.reflected(), &mirror);
            prop_assert_eq!(&mirror.reflected(), &pos);
            prop_assert_eq!(pos.reflected_zobrist_hash(), mirror.zobrist_hash(), "{}", pos);
            prop_assert_eq!(mirror.reflected_zobrist_hash(), pos.zobrist_hash());
            prop_assert_eq!(mirror.count_legal_moves(), pos.count_legal_moves(), "{}", pos);
            prop_assert_eq!(mirror.has_crossed(), pos.has_crossed());
            prop_assert_eq!(mirror.in_check(), pos.in_check());
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Each move's reflected hash, foretold from this position's; its
            // reflection a move of the reflection, to the reflection of
            // where it goes.
            let reflected = pos.reflected_zobrist_hash();
            for &mv in &legal {
                let after = pos.reflected_zobrist_after(mv, reflected);
                let across = mv.reflected(size).unwrap();
                prop_assert!(mirror.is_legal(across), "{} in {}", mv, pos);
                prop_assert_eq!(across.reflected(size), Some(mv));
                let mut mirror_after = mirror.clone();
                mirror_after.play_unchecked(across);
                pos.play_unchecked(mv);
                prop_assert_eq!(after, pos.reflected_zobrist_hash(), "{}", pos);
                prop_assert_eq!(&mirror_after, &pos.reflected(), "{} in {}", mv, pos);
                pos.undo_unchecked(mv);
            }
            pos.play_unchecked(*rng.pick(&legal));
        }
    }

    #[test]
    fn position_text_round_trip(game in game()) {
        for pos in game.before.iter().chain([&game.end]) {
            let text = pos.to_string();
            let parsed: Position = text.parse().unwrap();
            prop_assert_eq!(parsed.symmetry(), Symmetry::Mirror);
            let parsed = parsed.with_symmetry(pos.symmetry());
            prop_assert_eq!(&parsed, pos, "{}", text);
            prop_assert_eq!(parsed.zobrist_hash(), pos.zobrist_hash());
            prop_assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn setup_round_trip(setup in setup(), symmetry in symmetry()) {
        let text = setup.to_string();
        let parsed: Setup = text.parse().unwrap();
        prop_assert_eq!(parsed.size, setup.size);
        prop_assert_eq!(parsed.turn, setup.turn);
        prop_assert_eq!(sorted(parsed.pieces.clone()), sorted(setup.pieces.clone()));
        prop_assert_eq!(parsed.to_string(), text.clone());

        let pos = Position::from_setup(&setup, symmetry).unwrap();
        prop_assert_eq!(pos.to_string(), text.clone());
        let back = pos.to_setup();
        prop_assert_eq!(back.size, setup.size);
        prop_assert_eq!(back.turn, setup.turn);
        prop_assert_eq!(sorted(back.pieces), sorted(setup.pieces.clone()));
        let from_text: Position = text.parse().unwrap();
        prop_assert_eq!(from_text.with_symmetry(symmetry), pos.clone());
        prop_assert_eq!(pos.zobrist_hash(), pos.compute_zobrist_hash());

        // A second piece on an occupied square, or a piece off the board, is refused.
        if let Some(&(sq, color)) = setup.pieces.first() {
            let mut crowded = setup.clone();
            crowded.pieces.push((sq, !color));
            prop_assert_eq!(
                Position::from_setup(&crowded, symmetry).unwrap_err(),
                PositionError::Crowded(sq)
            );
        }
        if setup.size.files() < 26 {
            let off = Square::new(setup.size.files(), 0).unwrap();
            let mut outside = setup.clone();
            outside.pieces.push((off, Color::White));
            let is_off_board = matches!(
                Position::from_setup(&outside, symmetry),
                Err(PositionError::OffBoard { square, .. }) if square == off
            );
            prop_assert!(is_off_board);
        }
    }

    #[test]
    fn move_strings_are_unique(game in game()) {
        for pos in game.before.iter().chain([&game.end]) {
            let mut seen = HashSet::new();
            for mv in &pos.legal_moves() {
                let text = mv.to_string();
                prop_assert!(seen.insert(text.clone()), "{} printed twice in {}", text, pos);
                // The text names the move's own squares.
                let expected = if mv.group_size() > 1 {
                    format!("{},{}-{}", mv.tail(), mv.head(), mv.destination())
                } else {
                    format!("{}-{}", mv.tail(), mv.destination())
                };
                prop_assert_eq!(&text, &expected);
                prop_assert_eq!(Move::from_bits(mv.to_bits()), Some(*mv));
                let marked = mv.with_capture_mark().to_string();
                if mv.is_capture() {
                    prop_assert_eq!(marked, format!("{}:{}", text, mv.captures()));
                } else {
                    prop_assert_eq!(marked, text);
                }
            }
        }
    }

    #[test]
    fn evaluation_queries_match_the_move_list(game in game()) {
        for pos in game.before.iter().chain([&game.end]) {
            for color in [Color::White, Color::Black] {
                // The same position with `color` to move.
                let mut turned = pos.clone();
                if turned.turn() != color {
                    turned.pass_unchecked();
                }
                let moves = turned.legal_moves();
                let survey = pos.survey(color);
                prop_assert_eq!(survey.moves, moves.len() as u64);
                let largest = moves.iter().map(|m| m.captures()).max().unwrap_or(0);
                prop_assert_eq!(survey.largest_capture, largest);
                prop_assert_eq!(pos.largest_capture(color), largest);
                let (mover, other) = pos.survey_both();
                prop_assert_eq!(if color == pos.turn() { mover } else { other }, survey);
                // Links: neighbouring pairs counted square by square.
                let size = pos.size();
                let mut links = 0;
                for square in pos.squares(color) {
                    for (df, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                        let file = i32::from(square.file()) + df;
                        let rank = i32::from(square.rank()) + dr;
                        let inside = (0..i32::from(size.files())).contains(&file)
                            && (0..i32::from(size.ranks())).contains(&rank);
                        if inside && pos.piece_at(Square::new(file as u8, rank as u8).unwrap()) == Some(color) {
                            links += 1;
                        }
                    }
                }
                prop_assert_eq!(pos.links(color), links);
            }
        }
    }
}
