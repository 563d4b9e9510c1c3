//! The puzzle solver: proves a forced win for the side to move within a
//! number of plies, or that there is none.
//!
//! A proof, not a score: the attacker must have a move such that every
//! defence leads to a position the attacker wins within the remaining plies
//! (the defender without a legal move, or the attacker starting a turn with
//! more pieces across). Depths grow one ply at a time, so the win found is
//! the shortest. Positions already proven or refuted at a depth are cached.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use epaminondas_rules::{Move, MoveList, Position};

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// The side to move wins in `plies` plies at the latest; `line` is the
    /// winning line, each defence the one that lasts longest.
    Win {
        /// Plies until the game ends.
        plies: u32,
        /// Attacker and defender moves, attacker first.
        line: Vec<Move>,
    },
    /// No forced win within the number of plies asked for.
    NoWin,
    /// Stopped from outside before an answer.
    Stopped {
        /// The most plies proven to hold no forced win (`None` when not
        /// even one ply was searched through).
        no_win_within: Option<u32>,
        /// The attacker's most forcing try and the defence that holds it
        /// off within those plies, when there is one.
        defence: Option<(Move, Move)>,
    },
}

/// How far a solve has got, reported after each number of plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The plies just searched through.
    pub plies: u32,
    /// Whether a forced win within them was found.
    pub won: bool,
    /// Positions visited so far.
    pub nodes: u64,
}

/// The cache size at which the solver starts afresh, to bound its memory.
const CACHE_LIMIT: usize = 4_000_000;

struct Solver<'a> {
    /// (hash, plies left, attacker to move) -> whether the attacker wins.
    cache: HashMap<(u64, u32, bool), bool>,
    stop: &'a AtomicBool,
    nodes: u64,
}

/// Looks for a forced win for the side to move in `pos` within `max_plies`.
pub fn solve(pos: &Position, max_plies: u32, stop: &AtomicBool) -> Solution {
    solve_with_progress(pos, max_plies, stop, |_| {})
}

/// [`solve`], calling `progress` after each number of plies searched
/// through (the shortest first).
pub fn solve_with_progress(
    pos: &Position,
    max_plies: u32,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Progress),
) -> Solution {
    let mut solver = Solver {
        cache: HashMap::new(),
        stop,
        nodes: 0,
    };
    let mut pos = pos.clone();
    let mut no_win_within = None;
    for plies in 0..=max_plies {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match solver.attacker_wins(&mut pos, plies) {
            None => break,
            Some(true) => {
                progress(&Progress {
                    plies,
                    won: true,
                    nodes: solver.nodes,
                });
                if let Some(line) = solver.line(&mut pos, plies) {
                    return Solution::Win { plies, line };
                }
                break;
            }
            Some(false) => {
                no_win_within = Some(plies);
                progress(&Progress {
                    plies,
                    won: false,
                    nodes: solver.nodes,
                });
            }
        }
    }
    if !stop.load(Ordering::Relaxed) || no_win_within == Some(max_plies) {
        return Solution::NoWin;
    }
    // Stopped: what holds off the most forcing try within the plies
    // searched through (those results are cached, so this is quick).
    let defence = match no_win_within {
        Some(plies) if plies >= 2 => {
            let never = AtomicBool::new(false);
            let mut settled = Solver {
                cache: std::mem::take(&mut solver.cache),
                stop: &never,
                nodes: 0,
            };
            settled.defence(&mut pos, plies)
        }
        _ => None,
    };
    Solution::Stopped {
        no_win_within,
        defence,
    }
}

/// Every first move of `pos` that wins by force within `plies` (all of
/// them, so that a puzzle's solution can be shown to be the only one), in
/// move-generation order; `None` when stopped.
pub fn winning_moves(pos: &Position, plies: u32, stop: &AtomicBool) -> Option<Vec<Move>> {
    let mut solver = Solver {
        cache: HashMap::new(),
        stop,
        nodes: 0,
    };
    let mut pos = pos.clone();
    if plies == 0 || pos.is_terminal() {
        return Some(Vec::new());
    }
    let mut winning = Vec::new();
    for &mv in &pos.legal_moves() {
        pos.play_unchecked(mv);
        let wins = solver.defender_loses(&mut pos, plies - 1);
        pos.undo_unchecked(mv);
        if wins? {
            winning.push(mv);
        }
    }
    Some(winning)
}

/// The legal moves of `pos`, the largest captures first, then those that
/// land on the mover's goal rank: the order in which the solvers try them.
///
/// The order is a stable sort's on that key, made by an insertion sort
/// over keys worked out once per move: the proof search orders every
/// position it expands, and a library sort, which works the key out at
/// each comparison and takes a buffer from the heap, took 8 % of its time.
pub(crate) fn forcing_first(pos: &Position) -> MoveList {
    /// Beyond this many moves, the library's sort.
    const KEYS: usize = 256;
    let mut moves = pos.legal_moves();
    let goal = pos.goal_rank(pos.turn());
    let key = |m: &Move| u16::from(m.captures()) << 1 | u16::from(m.destination().rank() == goal);
    let slice = moves.as_mut_slice();
    if slice.len() > KEYS {
        slice.sort_by_key(|m| std::cmp::Reverse(key(m)));
        return moves;
    }
    let mut keys = [0u16; KEYS];
    for (k, m) in keys.iter_mut().zip(slice.iter()) {
        *k = key(m);
    }
    for i in 1..slice.len() {
        let (k, m) = (keys[i], slice[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            keys[j] = keys[j - 1];
            slice[j] = slice[j - 1];
            j -= 1;
        }
        keys[j] = k;
        slice[j] = m;
    }
    moves
}

impl Solver<'_> {
    fn stopped(&mut self) -> bool {
        self.nodes += 1;
        self.nodes % 4096 == 0 && self.stop.load(Ordering::Relaxed)
    }

    /// Whether the side to move (the attacker) wins within `plies`; `None`
    /// when stopped.
    fn attacker_wins(&mut self, pos: &mut Position, plies: u32) -> Option<bool> {
        if pos.has_crossed() {
            return Some(true);
        }
        if plies == 0 {
            return Some(false);
        }
        if self.stopped() {
            return None;
        }
        let key = (pos.zobrist_hash(), plies, true);
        if let Some(&known) = self.cache.get(&key) {
            return Some(known);
        }
        // Captures and crossings first: they decide most puzzles.
        let moves = forcing_first(pos);
        let mut won = false;
        for &mv in &moves {
            pos.play_unchecked(mv);
            let result = self.defender_loses(pos, plies - 1);
            pos.undo_unchecked(mv);
            match result {
                None => return None,
                Some(true) => {
                    won = true;
                    break;
                }
                Some(false) => {}
            }
        }
        self.remember(key, won);
        Some(won)
    }

    /// Whether the side to move (the defender) loses within `plies`.
    fn defender_loses(&mut self, pos: &mut Position, plies: u32) -> Option<bool> {
        if pos.has_crossed() {
            return Some(false);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(true);
        }
        if plies == 0 {
            return Some(false);
        }
        if self.stopped() {
            return None;
        }
        let key = (pos.zobrist_hash(), plies, false);
        if let Some(&known) = self.cache.get(&key) {
            return Some(known);
        }
        let mut lost = true;
        for &mv in &moves {
            pos.play_unchecked(mv);
            let result = self.attacker_wins(pos, plies - 1);
            pos.undo_unchecked(mv);
            match result {
                None => return None,
                Some(false) => {
                    lost = false;
                    break;
                }
                Some(true) => {}
            }
        }
        self.remember(key, lost);
        Some(lost)
    }

    fn remember(&mut self, key: (u64, u32, bool), value: bool) {
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, value);
    }

    /// The attacker's first try (in the solver's order) and a defence after
    /// which it does not win within `plies`, in a position with no win
    /// within `plies`.
    fn defence(&mut self, pos: &mut Position, plies: u32) -> Option<(Move, Move)> {
        let moves = forcing_first(pos);
        let attack = *moves.first()?;
        pos.play_unchecked(attack);
        let mut held = None;
        for &reply in &pos.legal_moves() {
            pos.play_unchecked(reply);
            let wins = self.attacker_wins(pos, plies - 2);
            pos.undo_unchecked(reply);
            if wins == Some(false) {
                held = Some(reply);
                break;
            }
        }
        pos.undo_unchecked(attack);
        held.map(|reply| (attack, reply))
    }

    /// The winning line of a position proven won within `plies`.
    fn line(&mut self, pos: &mut Position, plies: u32) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut left = plies;
        let mut played = Vec::new();
        let result = loop {
            if pos.has_crossed() || left == 0 {
                break Some(());
            }
            // The attacker's move that wins soonest.
            let mut chosen = None;
            'find: for budget in 1..=left {
                for &mv in &pos.legal_moves() {
                    pos.play_unchecked(mv);
                    let wins = self.defender_loses(pos, budget - 1);
                    pos.undo_unchecked(mv);
                    match wins {
                        None => return None,
                        Some(true) => {
                            chosen = Some((mv, budget));
                            break 'find;
                        }
                        Some(false) => {}
                    }
                }
            }
            let (mv, budget) = chosen?;
            pos.play_unchecked(mv);
            played.push(mv);
            line.push(mv);
            left = budget - 1;
            // The defence that lasts longest: the one needing the most plies.
            let defences = pos.legal_moves();
            if pos.has_crossed() || defences.is_empty() {
                break Some(());
            }
            // The attacker then has `left - 1` plies; each defence needs the
            // attacker's shortest win, and the longest of those is played.
            let mut longest = None;
            for &reply in &defences {
                pos.play_unchecked(reply);
                let mut needed = left.saturating_sub(1);
                for k in 0..needed {
                    match self.attacker_wins(pos, k) {
                        None => return None,
                        Some(true) => {
                            needed = k;
                            break;
                        }
                        Some(false) => {}
                    }
                }
                pos.undo_unchecked(reply);
                if longest.is_none_or(|(_, best)| needed > best) {
                    longest = Some((reply, needed));
                }
            }
            let (reply, needed) = longest?;
            pos.play_unchecked(reply);
            played.push(reply);
            line.push(reply);
            left = needed;
        };
        for &mv in played.iter().rev() {
            pos.undo_unchecked(mv);
        }
        result.map(|()| line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forcing_moves_come_first_in_a_stable_sorts_order() {
        // Along pseudo-random games on boards small and large, the order
        // is the library's stable sort's on the same key.
        use epaminondas_rules::{BoardSize, Symmetry};
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut forcing = 0;
        for (files, ranks) in [(4, 7), (6, 6), (8, 8), (14, 12), (26, 26)] {
            let size = BoardSize::new(files, ranks).unwrap();
            let mut pos = Position::new(size, Symmetry::Mirror);
            for _ in 0..120 {
                let ordered = forcing_first(&pos);
                let mut expected = pos.legal_moves();
                let goal = pos.goal_rank(pos.turn());
                expected.as_mut_slice().sort_by_key(|m| {
                    std::cmp::Reverse((m.captures(), m.destination().rank() == goal))
                });
                assert_eq!(ordered.as_slice(), expected.as_slice(), "{pos}");
                forcing += usize::from(ordered.first().is_some_and(|m| m.captures() > 0));
                if ordered.is_empty() || pos.is_terminal() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let pick = (seed >> 33) as usize % ordered.len();
                pos.play_unchecked(ordered[pick]);
            }
        }
        assert!(
            forcing > 20,
            "{forcing} positions with a capture to put first"
        );
    }

    fn solved(text: &str, plies: u32) -> Solution {
        let pos: Position = text.parse().unwrap();
        solve(&pos, plies, &AtomicBool::new(false))
    }

    #[test]
    fn wins_by_taking_the_last_piece() {
        let Solution::Win { plies, line } = solved("4/b3/w3/w3 w", 3) else {
            panic!("no win found");
        };
        assert_eq!(plies, 1);
        assert_eq!(line[0].to_string(), "a1,a2-a3");
    }

    #[test]
    fn wins_by_an_unanswerable_crossing() {
        let Solution::Win { plies, line } = solved("4b/w4/5/5/5 w", 4) else {
            panic!("no win found");
        };
        assert_eq!(plies, 2);
        assert_eq!(line.len(), 2);
        assert_eq!(line[0].destination().to_string(), "a5");
    }

    #[test]
    fn seeds_004_black_wins_in_two() {
        // Before Black's capture a5,c5-d5 in the seeds/004 game.
        let mut pos: Position = "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap();
        for text in ["e1,e3-e5", "c2-d1", "e4-d5"] {
            let mv = pos.parse_move(text).unwrap();
            pos.play(mv).unwrap();
        }
        let Solution::Win { plies, line } = solve(&pos, 4, &AtomicBool::new(false)) else {
            panic!("no win found");
        };
        assert_eq!(plies, 2);
        assert_eq!(line[0].to_string(), "a5,c5-d5");
    }

    #[test]
    fn a_stopped_solve_says_how_far_it_got() {
        let pos = Position::new(
            epaminondas_rules::BoardSize::new(6, 6).unwrap(),
            Default::default(),
        );
        let stop = AtomicBool::new(false);
        let mut reports = Vec::new();
        let solution = solve_with_progress(&pos, 30, &stop, |p| {
            reports.push(*p);
            if p.plies == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!(
            reports.iter().map(|p| p.plies).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        let Solution::Stopped {
            no_win_within,
            defence,
        } = solution
        else {
            panic!("{solution:?}");
        };
        assert_eq!(no_win_within, Some(3));
        let (attack, reply) = defence.expect("a defence");
        let mut after = pos.clone();
        after.play(attack).unwrap();
        after.play(reply).unwrap();
        assert_eq!(solve(&after, 1, &AtomicBool::new(false)), Solution::NoWin);
    }

    #[test]
    fn the_winning_first_moves_are_all_found() {
        let stop = AtomicBool::new(false);
        // Only a1,a2-a3 takes Black's last piece at once.
        let pos: Position = "4/b3/w3/w3 w".parse().unwrap();
        let winning = winning_moves(&pos, 1, &stop).unwrap();
        let names: Vec<String> = winning.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["a1,a2-a3"]);
        // Every first move of a won position's solution is among them, and
        // none wins when the position has no forced win.
        let Solution::Win { plies, line } = solve(&pos, 5, &stop) else {
            panic!("a win");
        };
        assert!(
            winning_moves(&pos, plies, &stop)
                .unwrap()
                .contains(&line[0])
        );
        let start = Position::new(
            epaminondas_rules::BoardSize::new(5, 5).unwrap(),
            Default::default(),
        );
        assert_eq!(winning_moves(&start, 3, &stop), Some(Vec::new()));
    }

    #[test]
    fn no_win_from_the_start() {
        assert_eq!(
            solve(
                &Position::new(
                    epaminondas_rules::BoardSize::new(6, 6).unwrap(),
                    Default::default()
                ),
                3,
                &AtomicBool::new(false)
            ),
            Solution::NoWin
        );
    }
}
