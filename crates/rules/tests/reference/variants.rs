//! The reference generator for the variants of RULES.md section 7
//! (Crossings, Abanondas, Stumbling Blocks), written straight from the text
//! as the standard one in the parent module is: a plain grid of cells and
//! square-by-square loops, nothing shared with the library but the names of
//! colours, squares and directions. The library's variants are checked
//! against it in `variants_differential.rs`; its own tests
//! (`variants_reference.rs`) pin it to hand-counted positions.

use std::collections::BTreeSet;

use epaminondas_rules::{Color, Symmetry};

use super::DIRECTIONS;

/// The games of RULES.md section 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Sections 1-6.
    Epaminondas,
    /// 7.1: captures take one piece; crossed pieces are frozen.
    Crossings,
    /// 7.2: runs may also sidestep.
    Abanondas,
    /// 7.3: three neutral stones placed before play.
    StumblingBlocks,
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cell {
    Empty,
    Piece(Color),
    Stone,
}

/// A position of any of the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub game: Game,
    pub files: i32,
    pub ranks: i32,
    /// `cells[rank * files + file]`, rank 1 first.
    pub cells: Vec<Cell>,
    pub turn: Color,
}

/// One legal move: a key that tells moves apart and the position after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// Phalanx moves: `tail-dir-distance`; sidesteps: the run's squares and
    /// the step; placements: `@square`.
    pub key: String,
    pub after: Board,
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", char::from(b'a' + f as u8), r + 1)
}

impl Board {
    /// The start of `game` on `files` x `ranks`: two full ranks each, White
    /// to move (Stumbling Blocks: White places the first stone).
    pub fn start(game: Game, files: i32, ranks: i32) -> Board {
        let mut cells = vec![Cell::Empty; (files * ranks) as usize];
        for f in 0..files {
            for r in [0, 1] {
                cells[(r * files + f) as usize] = Cell::Piece(Color::White);
                cells[((ranks - 1 - r) * files + f) as usize] = Cell::Piece(Color::Black);
            }
        }
        Board {
            game,
            files,
            ranks,
            cells,
            turn: Color::White,
        }
    }

    /// Reads position text (`w`, `b`, `s`, digits), as RULES.md section 5
    /// and 7.3 write it.
    pub fn parse(game: Game, text: &str) -> Board {
        let (rows, turn) = text.split_once(' ').expect("rows and side");
        let rows: Vec<&str> = rows.split('/').collect();
        let ranks = rows.len() as i32;
        let mut grid: Vec<Vec<Cell>> = Vec::new();
        for row in rows.iter().rev() {
            let mut line = Vec::new();
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    let n: usize = digits.parse().unwrap();
                    line.extend(std::iter::repeat_n(Cell::Empty, n));
                    digits.clear();
                }
                line.push(match c {
                    'w' => Cell::Piece(Color::White),
                    'b' => Cell::Piece(Color::Black),
                    's' => Cell::Stone,
                    _ => panic!("{c} in {text}"),
                });
            }
            if !digits.is_empty() {
                line.extend(std::iter::repeat_n(Cell::Empty, digits.parse().unwrap()));
            }
            grid.push(line);
        }
        let files = grid[0].len() as i32;
        assert!(grid.iter().all(|l| l.len() as i32 == files), "{text}");
        Board {
            game,
            files,
            ranks,
            cells: grid.into_iter().flatten().collect(),
            turn: if turn == "w" {
                Color::White
            } else {
                Color::Black
            },
        }
    }

    /// `None` off the board.
    pub fn look(&self, f: i32, r: i32) -> Option<Cell> {
        (f >= 0 && r >= 0 && f < self.files && r < self.ranks)
            .then(|| self.cells[(r * self.files + f) as usize])
    }

    fn set(&mut self, f: i32, r: i32, cell: Cell) {
        self.cells[(r * self.files + f) as usize] = cell;
    }

    fn goal_rank(&self, color: Color) -> i32 {
        match color {
            Color::White => self.ranks - 1,
            Color::Black => 0,
        }
    }

    fn goal_count(&self, color: Color) -> usize {
        let r = self.goal_rank(color);
        (0..self.files)
            .filter(|&f| self.look(f, r) == Some(Cell::Piece(color)))
            .count()
    }

    fn stones(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Stone).count()
    }

    /// Section 3: the side to move has more pieces across.
    pub fn mover_has_crossed(&self) -> bool {
        self.goal_count(self.turn) > self.goal_count(!self.turn)
    }

    /// Section 4 with 7.3's stones: the position is symmetric in the
    /// option's sense.
    pub fn is_symmetric(&self, symmetry: Symmetry) -> bool {
        let (w, b) = (Cell::Piece(Color::White), Cell::Piece(Color::Black));
        for f in 0..self.files {
            for r in 0..self.ranks {
                let here = self.look(f, r).unwrap();
                let ok = match symmetry {
                    Symmetry::Off => return false,
                    Symmetry::Mirror => {
                        let there = self.look(f, self.ranks - 1 - r).unwrap();
                        (here == w) == (there == b)
                            && (here == Cell::Stone) == (there == Cell::Stone)
                    }
                    Symmetry::File => here == self.look(self.files - 1 - f, r).unwrap(),
                };
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    /// 7.3: the ranks (from 0) stones are placed on.
    fn placement_ranks(&self) -> std::ops::RangeInclusive<i32> {
        if self.ranks >= 8 {
            3..=self.ranks - 4
        } else {
            2..=self.ranks - 3
        }
    }

    /// A crossed piece of Crossings: on its owner's goal rank.
    fn frozen(&self, f: i32, r: i32) -> bool {
        match self.look(f, r) {
            Some(Cell::Piece(c)) => self.game == Game::Crossings && r == self.goal_rank(c),
            _ => false,
        }
    }

    /// Every legal move, each with the position after it.
    pub fn moves(&self, symmetry: Symmetry) -> Vec<Step> {
        let mut out = Vec::new();
        if self.mover_has_crossed() {
            return out;
        }
        if self.game == Game::StumblingBlocks && self.stones() < 3 {
            for r in self.placement_ranks() {
                for f in 0..self.files {
                    if self.look(f, r) == Some(Cell::Empty) {
                        let mut after = self.clone();
                        after.set(f, r, Cell::Stone);
                        // White, Black, White place; then Black moves first.
                        after.turn = if self.stones() == 2 {
                            Color::Black
                        } else {
                            !self.turn
                        };
                        out.push(Step {
                            key: format!("@{}", name(f, r)),
                            after,
                        });
                    }
                }
            }
            return out;
        }
        self.phalanx_moves(symmetry, &mut out);
        if self.game == Game::Abanondas {
            self.sidesteps(symmetry, &mut out);
        }
        out
    }

    fn phalanx_moves(&self, symmetry: Symmetry, out: &mut Vec<Step>) {
        let me = self.turn;
        let mine = Cell::Piece(me);
        let theirs = Cell::Piece(!me);
        for tr in 0..self.ranks {
            for tf in 0..self.files {
                if self.look(tf, tr) != Some(mine) {
                    continue;
                }
                for (direction, df, dr) in DIRECTIONS {
                    let mut k = 1;
                    while self.look(tf + k * df, tr + k * dr) == Some(mine) {
                        k += 1;
                    }
                    // 7.1: a group holding a crossed piece cannot move.
                    if (0..k).any(|i| self.frozen(tf + i * df, tr + i * dr)) {
                        continue;
                    }
                    let (hf, hr) = (tf + (k - 1) * df, tr + (k - 1) * dr);
                    for n in 1..=k {
                        if !(1..n).all(|i| self.look(hf + i * df, hr + i * dr) == Some(Cell::Empty))
                        {
                            continue;
                        }
                        let (lf, lr) = (hf + n * df, hr + n * dr);
                        let m = match self.look(lf, lr) {
                            Some(Cell::Empty) => 0,
                            Some(c) if c == theirs => {
                                // 7.1: a crossed enemy piece cannot be taken.
                                if self.frozen(lf, lr) {
                                    continue;
                                }
                                let mut m = 0;
                                while self.look(lf + m * df, lr + m * dr) == Some(theirs) {
                                    m += 1;
                                }
                                if m >= k {
                                    continue;
                                }
                                m
                            }
                            _ => continue, // off the board, own piece, stone
                        };
                        let mut after = self.clone();
                        for i in 0..k {
                            after.set(tf + i * df, tr + i * dr, Cell::Empty);
                        }
                        let taken = if self.game == Game::Crossings {
                            m.min(1)
                        } else {
                            m
                        };
                        for i in 0..taken {
                            after.set(lf + i * df, lr + i * dr, Cell::Empty);
                        }
                        let mut onto_goal = false;
                        for i in 0..k {
                            let (f, r) = (tf + (i + n) * df, tr + (i + n) * dr);
                            after.set(f, r, mine);
                            onto_goal |= r == self.goal_rank(me);
                        }
                        after.turn = !me;
                        if onto_goal && after.is_symmetric(symmetry) {
                            continue;
                        }
                        out.push(Step {
                            key: format!("{}-{direction:?}-{n}", name(tf, tr)),
                            after,
                        });
                    }
                }
            }
        }
    }

    /// 7.2: every run of two or more pieces steps one square off its line.
    fn sidesteps(&self, symmetry: Symmetry, out: &mut Vec<Step>) {
        let me = self.turn;
        let mine = Cell::Piece(me);
        // The four line directions: east, north, north-east, north-west.
        let lines = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let mut seen = BTreeSet::new();
        for r in 0..self.ranks {
            for f in 0..self.files {
                for (lf, lr) in lines {
                    let diagonal = lf != 0 && lr != 0;
                    let mut len = 1;
                    while self.look(f + len * lf, r + len * lr) == Some(mine)
                        && self.look(f, r) == Some(mine)
                    {
                        len += 1;
                        let run: Vec<(i32, i32)> =
                            (0..len).map(|i| (f + i * lf, r + i * lr)).collect();
                        for (direction, df, dr) in DIRECTIONS {
                            let along = (df, dr) == (lf, lr) || (df, dr) == (-lf, -lr);
                            let orthogonal = df == 0 || dr == 0;
                            if along || (diagonal && !orthogonal) {
                                continue;
                            }
                            if !run
                                .iter()
                                .all(|&(x, y)| self.look(x + df, y + dr) == Some(Cell::Empty))
                            {
                                continue;
                            }
                            let mut after = self.clone();
                            for &(x, y) in &run {
                                after.set(x, y, Cell::Empty);
                            }
                            let mut onto_goal = false;
                            for &(x, y) in &run {
                                after.set(x + df, y + dr, mine);
                                onto_goal |= y + dr == self.goal_rank(me);
                            }
                            after.turn = !me;
                            if onto_goal && after.is_symmetric(symmetry) {
                                continue;
                            }
                            let key = format!(
                                "{}..{}~{direction:?}",
                                name(run[0].0, run[0].1),
                                name(run[run.len() - 1].0, run[run.len() - 1].1)
                            );
                            if seen.insert(key.clone()) {
                                out.push(Step { key, after });
                            }
                        }
                    }
                }
            }
        }
    }

    /// Leaves of the legal-move tree `depth` plies deep (placements count).
    pub fn perft(&self, symmetry: Symmetry, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(symmetry);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| m.after.perft(symmetry, depth - 1))
            .sum()
    }
}
