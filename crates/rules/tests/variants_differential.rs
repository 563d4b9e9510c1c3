//! Differential tests of the variants (RULES.md section 7): the library's
//! Crossings, Abanondas and Stumbling Blocks against the reference
//! generator in `reference/variants.rs`, written straight from the rules.
//!
//! On seeded random positions of every variant (random setups on boards
//! from 4x4 to 26x26, under every symmetry option, some built symmetric and
//! then perturbed so that the symmetry rule acts, with crossed pieces,
//! stones and placements; and positions along random games from each
//! variant's start) it checks for every position that:
//! - `legal_moves()` is exactly the reference's set of moves, and each move
//!   leads to the reference's position, with a correct incremental hash,
//!   and `undo_unchecked` restores the position;
//! - `count_legal_moves()`, `survey_both()` (moves and largest capture of
//!   both sides) and `outcome()` agree with the reference;
//! - every move is `is_legal`, its text reads back as the same move, and
//!   the tactical moves are exactly the captures and the moves onto the goal
//!   rank.
//!
//! It also checks perft from each variant's start against the reference.

mod reference;

use std::collections::BTreeMap;

use epaminondas_rules::{
    BoardSize, Color, Move, Position, Setup, Square, Symmetry, Variant, WinReason,
};
use reference::Rng;
use reference::variants::{Board, Cell, Game};

fn game_of(variant: Variant) -> Game {
    match variant {
        Variant::Epaminondas => Game::Epaminondas,
        Variant::Crossings => Game::Crossings,
        Variant::Abanondas => Game::Abanondas,
        Variant::StumblingBlocks => Game::StumblingBlocks,
    }
}

/// The reference's board of a library position.
fn board_of(pos: &Position) -> Board {
    let size = pos.size();
    let cells = size
        .all_squares()
        .map(|sq| match (pos.piece_at(sq), pos.stone_at(sq)) {
            (Some(color), _) => Cell::Piece(color),
            (None, true) => Cell::Stone,
            (None, false) => Cell::Empty,
        })
        .collect();
    Board {
        game: game_of(pos.variant()),
        files: i32::from(size.files()),
        ranks: i32::from(size.ranks()),
        cells,
        turn: pos.turn(),
    }
}

/// The reference's key of a library move.
fn key_of(mv: Move) -> String {
    if mv.is_placement() {
        return format!("@{}", mv.tail());
    }
    if let Some(step) = mv.sidestep() {
        let last = mv.group_squares().last().expect("a run");
        return format!("{}..{last}~{step:?}", mv.tail());
    }
    format!("{}-{:?}-{}", mv.tail(), mv.direction(), mv.distance())
}

/// What the checks saw, so that the interesting cases surely occur.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    captures: usize,
    sidesteps: usize,
    placements: usize,
    symmetry_refusals: usize,
    /// Sidesteps the symmetry rule refused (Abanondas).
    sidestep_refusals: usize,
    frozen_positions: usize,
}

/// The enemy pieces a reference move removes.
fn removed(before: &Board, after: &Board) -> u8 {
    let count = |b: &Board| {
        b.cells
            .iter()
            .filter(|&&c| c == Cell::Piece(!before.turn))
            .count()
    };
    (count(before) - count(after)) as u8
}

/// Checks one position against the reference; returns what differs.
fn check(pos: &Position, stats: &mut Stats) -> Vec<String> {
    let mut errors = Vec::new();
    let symmetry = pos.symmetry();
    let board = board_of(pos);
    let expected: BTreeMap<String, Board> = board
        .moves(symmetry)
        .into_iter()
        .map(|step| (step.key, step.after))
        .collect();
    let moves = pos.legal_moves();
    let mut seen = BTreeMap::new();
    let mut scratch = pos.clone();
    for &mv in moves.iter() {
        let key = key_of(mv);
        if seen.insert(key.clone(), mv).is_some() {
            errors.push(format!("{mv} ({key}) is listed twice"));
        }
        let Some(after) = expected.get(&key) else {
            errors.push(format!("{mv} ({key}) is not legal in the reference"));
            continue;
        };
        if mv.captures() != removed(&board, after) {
            errors.push(format!("{mv} says it captures {}", mv.captures()));
        }
        if !pos.is_legal(mv) {
            errors.push(format!("{mv} is listed but not is_legal"));
        }
        match pos.parse_move(&mv.to_string()) {
            Ok(read) if read == mv => {}
            other => errors.push(format!("{mv} reads back as {other:?}")),
        }
        scratch.play_unchecked(mv);
        if board_of(&scratch) != *after {
            errors.push(format!("{mv} leads to {scratch}"));
        }
        if scratch.zobrist_hash() != scratch.compute_zobrist_hash()
            || pos.zobrist_after(mv) != scratch.zobrist_hash()
        {
            errors.push(format!("{mv}: the incremental hash is wrong"));
        }
        scratch.undo_unchecked(mv);
        if scratch != *pos || scratch.zobrist_hash() != pos.zobrist_hash() {
            errors.push(format!("{mv} is not undone"));
            scratch = pos.clone();
        }
        stats.moves += 1;
        stats.captures += usize::from(mv.is_capture());
        stats.sidesteps += usize::from(mv.sidestep().is_some());
        stats.placements += usize::from(mv.is_placement());
    }
    for key in expected.keys() {
        if !seen.contains_key(key) {
            errors.push(format!("the reference's {key} is missing"));
        }
    }
    if symmetry != Symmetry::Off {
        let unruled = board.moves(Symmetry::Off);
        stats.symmetry_refusals += unruled.len() - expected.len();
        stats.sidestep_refusals += unruled
            .iter()
            .filter(|step| step.key.contains('~') && !expected.contains_key(&step.key))
            .count();
    }
    if pos.count_legal_moves() != moves.len() as u64 {
        errors.push(format!(
            "count_legal_moves {} but {} listed",
            pos.count_legal_moves(),
            moves.len()
        ));
    }
    // Both sides' surveys, from the reference with each side to move.
    let (mine, theirs) = pos.survey_both();
    for (color, survey) in [(pos.turn(), mine), (!pos.turn(), theirs)] {
        let mut turned = board.clone();
        turned.turn = color;
        let steps = turned.moves(symmetry);
        let largest = steps
            .iter()
            .map(|s| removed(&turned, &s.after))
            .max()
            .unwrap_or(0);
        if (survey.moves, survey.largest_capture) != (steps.len() as u64, largest) {
            errors.push(format!(
                "survey of {color}: {survey:?}, the reference {} moves, largest capture {largest}",
                steps.len()
            ));
        }
    }
    // The tactical moves: captures and moves onto the goal rank.
    let goal = pos.goal_rank(pos.turn());
    let mut tactical = Vec::new();
    let mut list = epaminondas_rules::MoveList::new();
    pos.tactical_moves_into(&mut list);
    tactical.extend(list.iter().map(|&mv| key_of(mv)));
    tactical.sort();
    let mut wanted: Vec<String> = moves
        .iter()
        .filter(|mv| {
            mv.is_capture()
                || (!mv.is_placement() && mv.landing_squares().any(|sq| sq.rank() == goal))
        })
        .map(|&mv| key_of(mv))
        .collect();
    wanted.sort();
    if tactical != wanted {
        errors.push(format!("tactical moves {tactical:?}, expected {wanted:?}"));
    }
    let outcome = pos.outcome().map(|o| (o.winner, o.reason));
    let reference = if board.mover_has_crossed() {
        Some((board.turn, WinReason::Crossing))
    } else if expected.is_empty() {
        Some((!board.turn, WinReason::NoMoves))
    } else {
        None
    };
    if outcome != reference {
        errors.push(format!("outcome {outcome:?}, the reference {reference:?}"));
    }
    if pos.variant() == Variant::Crossings
        && Color::ALL
            .into_iter()
            .any(|c| pos.goal_count(c) > 0 && pos.goal_count(c) == pos.goal_count(!c))
    {
        stats.frozen_positions += 1;
    }
    stats.positions += 1;
    errors
}

/// A random setup of `variant`: pieces at a random density, stones in
/// Stumbling Blocks, now and then mirror- or file-symmetric with one square
/// then changed, so that the symmetry rule has something to refuse.
fn random_setup(rng: &mut Rng, variant: Variant) -> (Setup, Symmetry) {
    let (files, ranks) = if rng.chance(0.1) {
        (rng.range(4, 26), rng.range(5, 26))
    } else {
        (rng.range(4, 9), rng.range(5, 9))
    };
    let size = BoardSize::new(files as u8, ranks as u8).expect("a valid size");
    let symmetry = *rng.pick(&Symmetry::ALL);
    let density = [0.15, 0.3, 0.5][rng.below(3)];
    let mut turn = if rng.chance(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let mut cells = vec![Cell::Empty; files * ranks];
    for cell in cells.iter_mut() {
        if rng.chance(density) {
            *cell = Cell::Piece(if rng.chance(0.5) {
                Color::White
            } else {
                Color::Black
            });
        }
    }
    if variant == Variant::StumblingBlocks {
        for _ in 0..rng.below(4) {
            cells[rng.below(files * ranks)] = Cell::Stone;
        }
    }
    if rng.chance(0.4) {
        // Make it symmetric in the option's sense (the first half copied).
        for r in 0..ranks {
            for f in 0..files {
                let (mf, mr, swap) = match symmetry {
                    Symmetry::File => (files - 1 - f, r, false),
                    _ => (f, ranks - 1 - r, true),
                };
                if (mr, mf) > (r, f) {
                    let cell = cells[r * files + f];
                    cells[mr * files + mf] = match cell {
                        Cell::Piece(c) if swap => Cell::Piece(!c),
                        other => other,
                    };
                }
            }
        }
        // Then step one of the mover's pieces on its goal rank back, so
        // that stepping it forward again restores the pattern; in
        // Abanondas, half the time, sidestep a run of two holding such a
        // piece instead, so that the sidestep back restores it.
        let (goal, back) = match turn {
            Color::White => (ranks - 1, ranks - 2),
            Color::Black => (0, 1),
        };
        if variant == Variant::Abanondas && rng.chance(0.5) {
            sidestep_off_goal(rng, &mut cells, (files, ranks), turn, goal);
        }
        let on_goal: Vec<usize> = (0..files)
            .filter(|&f| cells[goal * files + f] == Cell::Piece(turn))
            .filter(|&f| cells[back * files + f] == Cell::Empty)
            .collect();
        if !on_goal.is_empty() {
            let f = *rng.pick(&on_goal);
            cells[goal * files + f] = Cell::Empty;
            cells[back * files + f] = Cell::Piece(turn);
        }
    }
    let mut pieces = Vec::new();
    let mut stones = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let square = Square::new((i % files) as u8, (i / files) as u8).expect("on the board");
        match cell {
            Cell::Piece(c) => pieces.push((square, *c)),
            Cell::Stone => stones.push(square),
            Cell::Empty => {}
        }
    }
    stones.truncate(3);
    // While stones are placed the side to move follows from their number.
    if variant == Variant::StumblingBlocks && stones.len() < 3 {
        turn = [Color::White, Color::Black][stones.len() % 2];
    }
    (
        Setup {
            size,
            pieces,
            stones,
            turn,
        },
        symmetry,
    )
}

/// Moves a random run of two of `mover`'s pieces, one of them on the goal
/// rank `goal`, one sidestep onto empty squares (if there is such a run),
/// so that the sidestep back puts a piece on the goal rank again.
fn sidestep_off_goal(
    rng: &mut Rng,
    cells: &mut [Cell],
    (files, ranks): (usize, usize),
    mover: Color,
    goal: usize,
) {
    let at = |f: i32, r: i32| {
        ((0..files as i32).contains(&f) && (0..ranks as i32).contains(&r))
            .then(|| r as usize * files + f as usize)
    };
    let orthogonal = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let all = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    let mut candidates = Vec::new();
    for f in 0..files as i32 {
        let g = goal as i32;
        if at(f, g).map(|i| cells[i]) != Some(Cell::Piece(mover)) {
            continue;
        }
        for (lf, lr) in all {
            let Some(other) = at(f + lf, g + lr).filter(|&i| cells[i] == Cell::Piece(mover)) else {
                continue;
            };
            let steps: &[(i32, i32)] = if lf != 0 && lr != 0 {
                &orthogonal
            } else {
                &all
            };
            for &(sf, sr) in steps {
                if (sf, sr) == (lf, lr) || (sf, sr) == (-lf, -lr) {
                    continue;
                }
                let targets = [at(f + sf, g + sr), at(f + lf + sf, g + lr + sr)];
                if let [Some(a), Some(b)] = targets
                    && cells[a] == Cell::Empty
                    && cells[b] == Cell::Empty
                {
                    candidates.push([(at(f, g).expect("on the board"), a), (other, b)]);
                }
            }
        }
    }
    if candidates.is_empty() {
        return;
    }
    for (from, to) in *rng.pick(&candidates) {
        cells[from] = Cell::Empty;
        cells[to] = Cell::Piece(mover);
    }
}

const VARIANTS: [Variant; 3] = [
    Variant::Crossings,
    Variant::Abanondas,
    Variant::StumblingBlocks,
];

fn report(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn random_positions_agree_with_the_reference() {
    let mut rng = Rng::new(0x7661_7269_616e_7473);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for round in 0..1_500 {
        let variant = VARIANTS[round % 3];
        let (setup, symmetry) = random_setup(&mut rng, variant);
        let pos = Position::from_setup_in(variant, &setup, symmetry).expect("a valid setup");
        for error in check(&pos, &mut stats) {
            failures.push(format!("{variant} {symmetry} {pos}: {error}"));
        }
    }
    report(&failures);
    println!("{stats:?}");
    assert!(stats.captures > 1_000, "{stats:?}");
    assert!(stats.sidesteps > 1_000, "{stats:?}");
    assert!(stats.placements > 1_000, "{stats:?}");
    assert!(stats.symmetry_refusals > 10, "{stats:?}");
    assert!(stats.sidestep_refusals > 5, "{stats:?}");
    assert!(stats.frozen_positions > 50, "{stats:?}");
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = Rng::new(0x6761_6d65_7321);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for round in 0..60 {
        let variant = VARIANTS[round % 3];
        let (files, ranks) = [(5, 5), (6, 6), (8, 8), (7, 6), (14, 12), (6, 9)][rng.below(6)];
        let size = BoardSize::new(files, ranks).expect("a valid size");
        let symmetry = *rng.pick(&Symmetry::ALL);
        let mut pos = Position::new_variant(variant, size, symmetry).expect("a start");
        for _ in 0..60 {
            for error in check(&pos, &mut stats) {
                failures.push(format!("{variant} {symmetry} {pos}: {error}"));
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures first now and then, so that games reach their ends.
            let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let mv = if !captures.is_empty() && rng.chance(0.5) {
                *rng.pick(&captures)
            } else {
                *rng.pick(&moves)
            };
            pos.play(mv).expect("a legal move");
        }
    }
    report(&failures);
    assert!(stats.positions > 2_000, "{stats:?}");
}

#[test]
fn perft_from_each_start_agrees_with_the_reference() {
    for (variant, files, ranks, symmetry) in [
        (Variant::Crossings, 8, 8, Symmetry::Off),
        (Variant::Crossings, 6, 6, Symmetry::Mirror),
        (Variant::Abanondas, 8, 8, Symmetry::Mirror),
        (Variant::Abanondas, 5, 5, Symmetry::File),
        (Variant::StumblingBlocks, 8, 8, Symmetry::Mirror),
        (Variant::StumblingBlocks, 6, 5, Symmetry::Off),
    ] {
        let size = BoardSize::new(files, ranks).unwrap();
        let pos = Position::new_variant(variant, size, symmetry).unwrap();
        let board = Board::start(game_of(variant), files.into(), ranks.into());
        for depth in 1..=3 {
            assert_eq!(
                pos.perft(depth),
                board.perft(symmetry, depth),
                "{variant} {size} {symmetry} depth {depth}"
            );
        }
    }
}
