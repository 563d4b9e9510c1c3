//! Differential tests: the library's bitboard move generator against the
//! deliberately simple reference generator in `reference/mod.rs`.
//!
//! Over more than 10,000 seeded random positions (boards from 4x4 to 26x26,
//! both internal layouts, every symmetry option, both sides to move, dense and
//! sparse, built mirror- or file-symmetric and then perturbed so that the
//! symmetry rule really acts, with crossings) and along random games from the
//! starting positions, it checks for every position that:
//! - `legal_moves()` is exactly the reference's set of moves (tail, direction,
//!   group size, distance, captures), without duplicates;
//! - `count_legal_moves()` equals the number of moves, and `survey_both()`
//!   the two sides' `survey`s;
//! - every move is `is_legal`, lands where the reference says, and leads
//!   (`play_unchecked`) to the reference's position, with a correct
//!   incremental hash; `undo_unchecked` restores the position and its hash;
//! - `outcome()` agrees with the reference, and the piece counts agree;
//! - `is_legal` refuses moves taken from other positions (of other sizes, of
//!   the same board with the other side to move, of the same board with one
//!   square changed) unless they are legal here too.
//!
//! Failures are collected and reported with the position text and the moves
//! that differ.

mod reference;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use epaminondas_rules::{BoardSize, Color, Move, Position, Symmetry};
use reference::{DIRECTIONS, Grid, MoveKey, RefMove, Rng};

/// The comparison key of a library move.
fn key(mv: &Move) -> MoveKey {
    (
        mv.tail(),
        mv.direction(),
        mv.group_size(),
        mv.distance(),
        mv.captures(),
    )
}

fn describe(mv: &Move) -> String {
    format!(
        "{} ({:?}, group {}, distance {}, captures {})",
        mv,
        mv.direction(),
        mv.group_size(),
        mv.distance(),
        mv.captures()
    )
}

/// What the checks saw, to make sure the interesting cases really occur.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    captures: usize,
    crossed: usize,
    no_moves: usize,
    /// Positions, per symmetry option (`Symmetry::ALL` order), where the
    /// reference refused at least one move under the symmetry rule.
    refused: [usize; 3],
    foreign_checked: usize,
    foreign_legal: usize,
}

/// Runs the checks and collects failures instead of stopping at the first.
struct Checker {
    name: &'static str,
    rng: Rng,
    failures: Vec<String>,
    stats: Stats,
    /// Moves of earlier positions (often of other board sizes).
    pool: Vec<Move>,
}

const MAX_FAILURES: usize = 25;

impl Checker {
    fn new(name: &'static str, seed: u64) -> Checker {
        Checker {
            name,
            rng: Rng::new(seed),
            failures: Vec::new(),
            stats: Stats::default(),
            pool: Vec::new(),
        }
    }

    fn fail(&mut self, pos: &Position, what: String) {
        if self.failures.len() < MAX_FAILURES {
            self.failures.push(format!(
                "position `{}` (symmetry {}, {}): {}",
                pos,
                pos.symmetry(),
                pos.size(),
                what
            ));
        }
    }

    /// Checks one position; returns its legal moves (empty if the library panicked).
    fn check(&mut self, pos: &Position) -> Vec<Move> {
        match catch_unwind(AssertUnwindSafe(|| self.check_inner(pos))) {
            Ok(moves) => moves,
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                self.fail(pos, format!("panicked: {msg}"));
                Vec::new()
            }
        }
    }

    fn check_inner(&mut self, pos: &Position) -> Vec<Move> {
        let symmetry = pos.symmetry();
        let grid = Grid::from_position(pos);
        self.stats.positions += 1;

        // The grid read through the setup agrees with the library's own view.
        if grid.to_string() != pos.to_string() {
            self.fail(pos, format!("reference writes it as `{grid}`"));
        }
        if pos.zobrist_hash() != pos.compute_zobrist_hash() {
            self.fail(pos, "hash differs from compute_hash".into());
        }
        for color in Color::ALL {
            if pos.count(color) as usize != grid.count(color)
                || pos.goal_count(color) as usize != grid.goal_count(color)
                || usize::from(pos.goal_rank(color)) != grid.goal_rank(color)
            {
                self.fail(pos, format!("piece or goal counts of {color} differ"));
            }
        }

        let generated = grid.moves(symmetry);
        if generated.refused_by_symmetry > 0 {
            let i = Symmetry::ALL.iter().position(|&s| s == symmetry).unwrap();
            self.stats.refused[i] += 1;
        }
        let lib: Vec<Move> = pos.legal_moves().to_vec();
        self.stats.moves += lib.len();
        self.stats.captures += lib.iter().filter(|m| m.is_capture()).count();

        // Same set of moves.
        let mut lib_map: BTreeMap<MoveKey, Move> = BTreeMap::new();
        for &mv in &lib {
            if lib_map.insert(key(&mv), mv).is_some() {
                self.fail(pos, format!("move listed twice: {}", describe(&mv)));
            }
        }
        let ref_map: BTreeMap<MoveKey, &RefMove> =
            generated.moves.iter().map(|m| (m.key(), m)).collect();
        let only_lib: Vec<String> = lib_map
            .iter()
            .filter(|(k, _)| !ref_map.contains_key(k))
            .map(|(_, m)| describe(m))
            .collect();
        let only_ref: Vec<String> = ref_map
            .iter()
            .filter(|(k, _)| !lib_map.contains_key(k))
            .map(|(_, m)| m.to_string())
            .collect();
        if !only_lib.is_empty() || !only_ref.is_empty() {
            self.fail(
                pos,
                format!(
                    "move sets differ: library has {} moves, reference {}; \
                     only the library: [{}]; only the reference: [{}]",
                    lib.len(),
                    generated.moves.len(),
                    only_lib.join("; "),
                    only_ref.join("; ")
                ),
            );
        }
        if pos.count_legal_moves() != lib.len() as u64 {
            self.fail(
                pos,
                format!(
                    "count_legal_moves() = {} but legal_moves() has {}",
                    pos.count_legal_moves(),
                    lib.len()
                ),
            );
        }

        // The tactical moves are exactly the captures and goal-rank moves.
        let goal = pos.goal_rank(pos.turn());
        let mut expected: Vec<Move> = lib
            .iter()
            .copied()
            .filter(|m| m.is_capture() || m.destination().rank() == goal)
            .collect();
        let mut tactical = epaminondas_rules::MoveList::new();
        pos.tactical_moves_into(&mut tactical);
        let mut got: Vec<Move> = tactical.to_vec();
        let key = |m: &Move| (m.tail(), m.direction(), m.group_size(), m.distance());
        expected.sort_by_key(key);
        got.sort_by_key(key);
        if got != expected {
            self.fail(
                pos,
                format!(
                    "tactical_moves_into gave {} moves, the legal captures and goal moves are {}",
                    got.len(),
                    expected.len()
                ),
            );
        }

        // Both sides' surveys at once (from the line table where the board
        // allows) equal the survey of each side, which the move lists check.
        let both = pos.survey_both();
        let each = (pos.survey(pos.turn()), pos.survey(!pos.turn()));
        let largest = lib.iter().map(|m| m.captures()).max().unwrap_or(0);
        let listed = (lib.len() as u64, largest);
        if both != each || (both.0.moves, both.0.largest_capture) != listed {
            self.fail(
                pos,
                format!("survey_both() = {both:?}, but the sides' surveys are {each:?}"),
            );
        }

        // Each move: legal, lands right, leads to the reference position, undoes.
        let mut p = pos.clone();
        for (k, mv) in &lib_map {
            let Some(r) = ref_map.get(k) else { continue };
            if !pos.is_legal(*mv) {
                self.fail(pos, format!("is_legal refuses generated {}", describe(mv)));
            }
            if mv.destination() != r.landing {
                self.fail(
                    pos,
                    format!(
                        "{} lands on {}, not {}",
                        describe(mv),
                        mv.destination(),
                        r.landing
                    ),
                );
            }
            p.play_unchecked(*mv);
            let after = Grid::from_position(&p);
            if after != r.after {
                self.fail(
                    pos,
                    format!(
                        "after {} the library has `{}`, the reference `{}`",
                        describe(mv),
                        after,
                        r.after
                    ),
                );
            }
            if p.zobrist_hash() != p.compute_zobrist_hash() {
                self.fail(pos, format!("after {} the incremental hash is wrong", mv));
            }
            p.undo_unchecked(*mv);
            if p != *pos || p.zobrist_hash() != pos.zobrist_hash() {
                self.fail(pos, format!("undoing {} leaves `{}`", mv, p));
                p = pos.clone();
            }
        }

        // Outcome.
        let expected = grid.outcome(symmetry);
        if pos.outcome() != expected {
            self.fail(
                pos,
                format!("outcome() = {:?}, reference {:?}", pos.outcome(), expected),
            );
        }
        if pos.is_terminal() != expected.is_some() {
            self.fail(pos, "is_terminal() disagrees with the reference".into());
        }
        if grid.mover_has_crossed() {
            self.stats.crossed += 1;
        } else if generated.moves.is_empty() {
            self.stats.no_moves += 1;
        }

        // Foreign moves: legal here exactly when they are among this position's moves.
        let legal: HashSet<Move> = lib.iter().copied().collect();
        let mut foreign = std::mem::take(&mut self.pool);
        // The same board with the other side to move: none of its moves is legal here.
        let mut flipped = grid.clone();
        flipped.turn = !flipped.turn;
        let flipped_moves = flipped.to_position(symmetry).legal_moves().to_vec();
        // The same board with one square changed: many moves look alike.
        let mut changed = grid.clone();
        let (f, r) = (self.rng.below(grid.files), self.rng.below(grid.ranks));
        changed.set(
            f,
            r,
            *self
                .rng
                .pick(&[None, Some(Color::White), Some(Color::Black)]),
        );
        let changed_moves = changed.to_position(symmetry).legal_moves().to_vec();
        for &m in foreign.iter().chain(&flipped_moves).chain(&changed_moves) {
            self.stats.foreign_checked += 1;
            let here = legal.contains(&m);
            self.stats.foreign_legal += usize::from(here);
            if pos.is_legal(m) != here {
                self.fail(
                    pos,
                    format!(
                        "is_legal({}) is {} (a move taken from another position)",
                        describe(&m),
                        !here
                    ),
                );
            }
        }
        // Keep a few of this position's moves for later positions.
        for _ in 0..3 {
            if !lib.is_empty() {
                let m = *self.rng.pick(&lib);
                if foreign.len() < 40 {
                    foreign.push(m);
                } else {
                    let i = self.rng.below(foreign.len());
                    foreign[i] = m;
                }
            }
        }
        self.pool = foreign;
        lib
    }

    /// Checks the grid under each symmetry option.
    fn check_all_options(&mut self, grid: &Grid) {
        for symmetry in Symmetry::ALL {
            let pos = grid.to_position(symmetry);
            self.check(&pos);
        }
    }

    fn finish(self) -> Stats {
        println!("{}: {:?}", self.name, self.stats);
        if !self.failures.is_empty() {
            let mut report = format!("{}: {} failure(s):\n", self.name, self.failures.len());
            for f in &self.failures {
                let _ = writeln!(report, "  {f}");
            }
            panic!("{report}");
        }
        self.stats
    }
}

/// A board size: the standard and Crossings boards often, the extremes
/// sometimes, sizes on both sides of the small layout's limit (15x12), and
/// any size.
fn random_size(rng: &mut Rng) -> (usize, usize) {
    const BOUNDARY: [(usize, usize); 12] = [
        (15, 12),
        (16, 12),
        (15, 13),
        (12, 15),
        (16, 11),
        (4, 26),
        (26, 4),
        (4, 12),
        (15, 4),
        (4, 13),
        (5, 5),
        (6, 6),
    ];
    match rng.below(20) {
        0..=3 => (14, 12),
        4..=6 => (8, 8),
        7 => (26, 26),
        8 => (4, 4),
        9 | 10 => *rng.pick(&BOUNDARY),
        _ => (rng.range(4, 26), rng.range(4, 26)),
    }
}

fn random_turn(rng: &mut Rng) -> Color {
    if rng.chance(0.5) {
        Color::White
    } else {
        Color::Black
    }
}

/// Any piece arrangement: each square white or black with chosen densities,
/// sometimes White mostly in the lower half and Black in the upper one.
fn random_board(rng: &mut Rng, files: usize, ranks: usize) -> Grid {
    const DENSITIES: [f64; 7] = [0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.48];
    let (pw, pb) = (*rng.pick(&DENSITIES), *rng.pick(&DENSITIES));
    let banded = rng.chance(0.5);
    let mut g = Grid::empty(files, ranks, random_turn(rng));
    for r in 0..ranks {
        for f in 0..files {
            let lower = r < ranks / 2;
            let (w, b) = if banded {
                if lower {
                    (pw, pb / 4.0)
                } else {
                    (pw / 4.0, pb)
                }
            } else {
                (pw, pb)
            };
            let x = rng.next_u64() as f64 / u64::MAX as f64;
            if x < w {
                g.set(f, r, Some(Color::White));
            } else if x < w + b {
                g.set(f, r, Some(Color::Black));
            }
        }
    }
    g
}

/// A position symmetric under the `mirror` option: a white piece on (f, r)
/// exactly when a black one is on (f, R+1-r). Goal-rank pairs are dense and
/// often crossed (white on the top rank, black on rank 1).
fn mirror_base(rng: &mut Rng, files: usize, ranks: usize) -> Grid {
    let density: f64 = *rng.pick(&[0.08, 0.15, 0.3, 0.5]);
    let crossed = *rng.pick(&[0.0, 0.1, 0.3]);
    let mut g = Grid::empty(files, ranks, random_turn(rng));
    for f in 0..files {
        for r in 0..ranks / 2 {
            let top = ranks - 1 - r;
            let goal_pair = r == 0;
            if rng.chance(if goal_pair { density.max(0.4) } else { density }) {
                if rng.chance(if goal_pair { 0.4 } else { crossed }) {
                    g.set(f, top, Some(Color::White));
                    g.set(f, r, Some(Color::Black));
                } else {
                    g.set(f, r, Some(Color::White));
                    g.set(f, top, Some(Color::Black));
                }
            }
        }
    }
    g
}

/// A position symmetric under the `file` option: equal to its reflection
/// file a <-> last file. Goal ranks are dense.
fn file_base(rng: &mut Rng, files: usize, ranks: usize) -> Grid {
    let density: f64 = *rng.pick(&[0.08, 0.15, 0.3, 0.5]);
    let mut g = Grid::empty(files, ranks, random_turn(rng));
    for r in 0..ranks {
        for f in 0..files.div_ceil(2) {
            let edge = r == 0 || r == ranks - 1;
            if rng.chance(if edge { density.max(0.4) } else { density }) {
                // White more likely low, Black more likely high, either anywhere.
                let white = rng.chance(if edge {
                    0.5
                } else if r < ranks / 2 {
                    0.7
                } else {
                    0.3
                });
                let c = Some(if white { Color::White } else { Color::Black });
                g.set(f, r, c);
                g.set(files - 1 - f, r, c);
            }
        }
    }
    // Rank 1 is the top rank with the colours swapped, so that neither side
    // starts out ahead in crossings (which would end the game at once).
    for f in 0..files {
        let swapped = g.at(f, ranks - 1).map(|c| !c);
        g.set(f, 0, swapped);
    }
    g
}

/// Takes back a random move of the side to move, so that playing it again
/// recreates the current grid: a group of 1-3 pieces ending on `s` (on the
/// mover's goal rank when it has pieces there, if `to_goal`) is shifted back
/// along a random direction, and sometimes enemy pieces are put where they
/// would be captured. Returns whether it found one.
fn unmove(rng: &mut Rng, g: &mut Grid, to_goal: bool) -> bool {
    let me = g.turn;
    let goal = g.goal_rank(me);
    let mine: Vec<(i32, i32)> = (0..g.ranks)
        .flat_map(|r| (0..g.files).map(move |f| (f, r)))
        .filter(|&(f, r)| g.at(f, r) == Some(me))
        .map(|(f, r)| (f as i32, r as i32))
        .collect();
    let on_goal: Vec<(i32, i32)> = mine
        .iter()
        .copied()
        .filter(|&(_, r)| r as usize == goal)
        .collect();
    let candidates = if to_goal && !on_goal.is_empty() {
        on_goal
    } else {
        mine
    };
    if candidates.is_empty() {
        return false;
    }
    for _ in 0..30 {
        let (sf, sr) = *rng.pick(&candidates);
        let &(_, df, dr) = rng.pick(&DIRECTIONS);
        let want = rng.range(1, 3) as i32;
        let mut k = 1;
        while k < want && g.look(sf - k * df, sr - k * dr) == Some(Some(me)) {
            k += 1;
        }
        let n = rng.range(1, k as usize) as i32;
        if !(k..k + n).all(|j| g.look(sf - j * df, sr - j * dr) == Some(None)) {
            continue;
        }
        let mut m = if k > 1 && rng.chance(0.6) {
            rng.range(1, k as usize - 1) as i32
        } else {
            0
        };
        while m > 0 && !(1..m).all(|i| g.look(sf + i * df, sr + i * dr) == Some(None)) {
            m -= 1;
        }
        for i in 0..k {
            g.set((sf - i * df) as usize, (sr - i * dr) as usize, None);
        }
        for i in 0..k {
            let (f, r) = (sf - (i + n) * df, sr - (i + n) * dr);
            g.set(f as usize, r as usize, Some(me));
        }
        for i in 0..m {
            g.set((sf + i * df) as usize, (sr + i * dr) as usize, Some(!me));
        }
        return true;
    }
    false
}

/// Changes one or two random squares.
fn perturb(rng: &mut Rng, g: &mut Grid) {
    for _ in 0..rng.range(1, 2) {
        let (f, r) = (rng.below(g.files), rng.below(g.ranks));
        let c = *rng.pick(&[None, Some(Color::White), Some(Color::Black)]);
        g.set(f, r, c);
    }
}

/// A symmetric base (from `base`), one or two moves taken back, sometimes perturbed.
fn near_symmetric(rng: &mut Rng, base: fn(&mut Rng, usize, usize) -> Grid) -> Grid {
    let (files, ranks) = random_size(rng);
    let mut g = base(rng, files, ranks);
    match rng.below(10) {
        0 => {} // exactly symmetric
        1 => {
            // a quiet take-back anywhere, then one onto the goal rank
            unmove(rng, &mut g, false);
            unmove(rng, &mut g, true);
        }
        _ => {
            unmove(rng, &mut g, true);
        }
    }
    if rng.chance(0.3) {
        perturb(rng, &mut g);
    }
    g
}

/// The reference itself reproduces the facts of RULES.md section 6, so that
/// agreeing with it means something.
#[test]
fn reference_matches_rules_facts() {
    let start = |files: u8, ranks: u8| {
        Grid::from_position(&Position::new(
            BoardSize::new(files, ranks).unwrap(),
            Symmetry::Mirror,
        ))
    };
    let standard = start(14, 12);
    assert_eq!(standard.perft(Symmetry::Mirror, 1), 114);
    assert_eq!(standard.perft(Symmetry::Mirror, 2), 12_996);
    assert_eq!(standard.perft(Symmetry::Mirror, 3), 1_787_292);
    for (files, ranks, counts) in [
        (8, 8, [60, 3_600, 269_278]),
        (6, 6, [42, 1_644, 77_708]),
        (5, 5, [26, 579, 15_043]),
    ] {
        let grid = start(files, ranks);
        for (depth, count) in (1..).zip(counts) {
            assert_eq!(
                grid.perft(Symmetry::Mirror, depth),
                count,
                "{files}x{ranks}"
            );
        }
    }

    // seeds/002: three legal moves in order from the standard start.
    let mut grid = standard;
    for mv in ["f1,g2-h3", "e12,f11-h9", "h1,h3-h6"] {
        let moves = grid.moves(Symmetry::Mirror).moves;
        let found = moves.iter().find(|m| m.notation() == mv);
        grid = found
            .unwrap_or_else(|| panic!("{mv} not legal in {grid}"))
            .after
            .clone();
    }

    // seeds/004 on a 6x5 board: four legal moves, then every White reply
    // leaves Black winning by crossing at the start of its turn.
    let mut grid = Grid::from_position(&"bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap());
    for (mv, captures) in [("e1,e3-e5", 0), ("c2-d1", 0), ("e4-d5", 0), ("a5,c5-d5", 2)] {
        let moves = grid.moves(Symmetry::Mirror).moves;
        let found = moves.iter().find(|m| m.notation() == mv);
        let found = found.unwrap_or_else(|| panic!("{mv} not legal in {grid}"));
        assert_eq!(found.captures, captures, "{mv}");
        grid = found.after.clone();
    }
    let replies = grid.moves(Symmetry::Mirror).moves;
    assert!(!replies.is_empty());
    for reply in replies {
        let outcome = reply.after.outcome(Symmetry::Mirror);
        assert_eq!(
            outcome.map(|o| (o.winner, o.reason)),
            Some((Color::Black, epaminondas_rules::WinReason::Crossing)),
            "after {}",
            reply.notation()
        );
    }
}

#[test]
fn random_positions() {
    let mut c = Checker::new("random_positions", 1);
    for _ in 0..3000 {
        let (files, ranks) = random_size(&mut c.rng);
        let g = random_board(&mut c.rng, files, ranks);
        c.check_all_options(&g);
    }
    let stats = c.finish();
    assert!(stats.captures > 10_000, "{stats:?}");
    assert!(stats.no_moves > 0, "{stats:?}");
}

#[test]
fn near_mirror_symmetric_positions() {
    let mut c = Checker::new("near_mirror_symmetric_positions", 2);
    for _ in 0..2500 {
        let g = near_symmetric(&mut c.rng, mirror_base);
        c.check_all_options(&g);
    }
    let stats = c.finish();
    // The rule really acted, under mirror (and, through the middle file, sometimes file).
    assert!(stats.refused[0] > 800, "{stats:?}");
}

#[test]
fn near_file_symmetric_positions() {
    let mut c = Checker::new("near_file_symmetric_positions", 3);
    for _ in 0..2500 {
        let g = near_symmetric(&mut c.rng, file_base);
        c.check_all_options(&g);
    }
    let stats = c.finish();
    assert!(stats.refused[1] > 800, "{stats:?}");
}

/// Positions with pieces on the goal ranks in every balance: one side
/// ahead, level, or none there, either side to move.
#[test]
fn crossing_positions() {
    let mut c = Checker::new("crossing_positions", 4);
    for _ in 0..1200 {
        let (files, ranks) = random_size(&mut c.rng);
        let mut g = random_board(&mut c.rng, files, ranks);
        for (color, rank) in [(Color::White, ranks - 1), (Color::Black, 0)] {
            for f in 0..files {
                g.set(f, rank, None);
            }
            for _ in 0..c.rng.below(4) {
                let f = c.rng.below(files);
                g.set(f, rank, Some(color));
            }
            // Sometimes the opponent guards its home rank too.
            if c.rng.chance(0.5) {
                let f = c.rng.below(files);
                if g.at(f, rank).is_none() {
                    g.set(f, rank, Some(!color));
                }
            }
        }
        c.check_all_options(&g);
    }
    let stats = c.finish();
    assert!(stats.crossed > 500, "{stats:?}");
}

/// Almost empty boards: a side with no pieces, lone pieces in corners.
#[test]
fn sparse_positions() {
    let mut c = Checker::new("sparse_positions", 5);
    for _ in 0..1500 {
        let (files, ranks) = random_size(&mut c.rng);
        let mut g = Grid::empty(files, ranks, random_turn(&mut c.rng));
        for _ in 0..c.rng.below(7) {
            let (f, r) = match c.rng.below(3) {
                // corners and edges
                0 => (
                    *c.rng.pick(&[0, files - 1]),
                    *c.rng.pick(&[0, 1, ranks - 2, ranks - 1]),
                ),
                _ => (c.rng.below(files), c.rng.below(ranks)),
            };
            let color = if c.rng.chance(0.5) {
                Color::White
            } else {
                Color::Black
            };
            g.set(f, r, Some(color));
        }
        c.check_all_options(&g);
    }
    let stats = c.finish();
    assert!(stats.no_moves > 200, "{stats:?}");
}

/// Random games from the starting positions of several sizes, checked at every ply.
#[test]
fn random_walks() {
    let mut c = Checker::new("random_walks", 6);
    const MAX_PLIES: usize = 3_000;
    // (files, ranks, games); the games cycle through the symmetry options.
    const SIZES: [(u8, u8, usize); 11] = [
        (14, 12, 6),
        (8, 8, 9),
        (4, 4, 12),
        (5, 5, 9),
        (6, 6, 6),
        (15, 12, 3),
        (16, 12, 3),
        (7, 9, 4),
        (4, 26, 2),
        (26, 4, 3),
        (26, 26, 2),
    ];
    let mut games = 0;
    let mut plies = 0;
    let mut ended = 0;
    for (files, ranks, count) in SIZES {
        let size = BoardSize::new(files, ranks).unwrap();
        let (mut size_plies, mut size_ended) = (0, 0);
        for game in 0..count {
            games += 1;
            let symmetry = Symmetry::ALL[game % 3];
            let mut pos = Position::new(size, symmetry);
            for _ in 0..MAX_PLIES {
                let moves = c.check(&pos);
                if moves.is_empty() {
                    size_ended += 1;
                    break;
                }
                // Big boards, and every other game, push forward so that
                // the games end sooner.
                let forward: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        let dr = reference::step(m.direction()).1;
                        if pos.turn() == Color::White {
                            dr > 0
                        } else {
                            dr < 0
                        }
                    })
                    .collect();
                let push = if files + ranks > 28 {
                    0.9
                } else if games % 2 == 0 {
                    0.7
                } else {
                    0.0
                };
                let mv = if !forward.is_empty() && c.rng.chance(push) {
                    *c.rng.pick(&forward)
                } else {
                    *c.rng.pick(&moves)
                };
                pos.play(mv).expect("a generated move is playable");
                size_plies += 1;
            }
        }
        println!("random_walks {size}: {count} games, {size_plies} plies, {size_ended} ended");
        plies += size_plies;
        ended += size_ended;
    }
    println!("random_walks: {games} games, {plies} plies, {ended} played to the end");
    let stats = c.finish();
    assert_eq!(ended, games, "every game is played to its end");
    assert!(stats.positions > 5000, "{stats:?}");
}
