//! Building a book by long searches: the position a game following the book
//! most likely reaches, and that the book does not hold yet, is searched
//! next with several lines (`MultiPV`); the moves within a margin of the
//! best become its entry, weighted by score. The book so grows best first,
//! along the lines it would itself play.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use epaminondas_rules::{Move, Position};

use super::{Book, BookEntry, BookError, BookMove, MAX_WEIGHT};
use crate::score::is_proven;
use crate::{Engine, Limits};

/// How a book is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// Nodes searched for each position.
    pub nodes: u64,
    /// The most moves kept for a position.
    pub width: usize,
    /// Moves scoring at most this much (hundredths of a piece) below the
    /// best are kept.
    pub margin: i32,
    /// Positions this many plies or more from the start are not searched.
    pub max_plies: usize,
}

/// The position not in `book` that play following the book reaches with
/// the highest probability (each book move taken in proportion to its
/// weight), fewer than `max_plies` plies from the start: its line from the
/// start and that probability. `None` when every such position is in the
/// book, or the game ends first.
pub fn next_position(book: &Book, max_plies: usize) -> Option<(Vec<Move>, f64)> {
    // The best probability found for each position reached, by hash.
    let mut seen: HashMap<u64, f64> = HashMap::new();
    let mut best: Option<(Vec<Move>, f64)> = None;
    // Depth first, best-first at each node; a position reached again with a
    // higher probability is walked again.
    let mut stack = vec![(book.start(), Vec::new(), 1.0f64)];
    while let Some((pos, line, reach)) = stack.pop() {
        if line.len() >= max_plies || pos.outcome().is_some() {
            continue;
        }
        if seen
            .get(&pos.zobrist_hash())
            .is_some_and(|&found| found >= reach)
        {
            continue;
        }
        seen.insert(pos.zobrist_hash(), reach);
        let Some(moves) = book.moves(&pos) else {
            if best.as_ref().is_none_or(|(_, p)| reach > *p) {
                best = Some((line, reach));
            }
            continue;
        };
        let total: f64 = moves.iter().map(|m| f64::from(m.weight)).sum();
        for book_move in moves {
            let share = reach * f64::from(book_move.weight) / total;
            if best.as_ref().is_some_and(|(_, p)| share <= *p) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(book_move.mv);
            let mut next_line = line.clone();
            next_line.push(book_move.mv);
            stack.push((next, next_line, share));
        }
    }
    best
}

/// The weight of a move scoring `score` where the best scores `best`: the
/// best move [`MAX_WEIGHT`] / 10, falling linearly to 1 at `margin` below.
fn weight(best: i32, score: i32, margin: i32) -> u32 {
    let top = i64::from(MAX_WEIGHT / 10);
    let gap = i64::from(best - score).clamp(0, i64::from(margin));
    let span = i64::from(margin.max(1));
    (1 + (top - 1) * (span - gap) / span) as u32
}

/// Searches `pos` for its book moves: the best line and the others within
/// `config.margin` of it, at most `config.width`. A proven win keeps only
/// the winning move (and a move proven to lose is never within the margin
/// of one that does not).
/// Empty when `stop` ends the search early.
pub fn search_position(
    engine: &mut Engine,
    pos: &Position,
    config: &BuildConfig,
    stop: &AtomicBool,
) -> Vec<BookMove> {
    let wanted = config.width.clamp(1, pos.legal_moves().len().max(1));
    engine.set_multipv(wanted);
    // The lines of the deepest iteration that reported them all.
    let mut lines: Vec<(Move, i32)> = Vec::new();
    let mut current: Vec<(Move, i32)> = Vec::new();
    let mut depth = 0;
    engine.search(pos, &Limits::nodes(config.nodes), stop, |info| {
        if info.depth != depth {
            depth = info.depth;
            current.clear();
        }
        if let Some(&mv) = info.pv.first() {
            current.push((mv, info.score));
        }
        if current.len() == wanted {
            lines = current.clone();
        }
    });
    engine.set_multipv(1);
    if stop.load(Ordering::Relaxed) {
        return Vec::new();
    }
    // A later line can score above an earlier one (each is searched with
    // the earlier ones left out, in its own window): best first by score.
    lines.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    let Some(&(_, best)) = lines.first() else {
        return Vec::new();
    };
    let proven_win = is_proven(best) && best > 0;
    lines
        .iter()
        .take(if proven_win { 1 } else { wanted })
        .filter(|&&(_, score)| score >= best - config.margin)
        .map(|&(mv, score)| BookMove {
            mv,
            weight: weight(best, score, config.margin),
            score,
        })
        .collect()
}

/// Adds to `book` the next position ([`next_position`]) with its searched
/// moves; returns the new entry, or `None` when nothing is left to
/// search or `stop` ended the search (nothing is added then).
pub fn extend(
    book: &mut Book,
    engine: &mut Engine,
    config: &BuildConfig,
    stop: &AtomicBool,
) -> Result<Option<BookEntry>, BookError> {
    let Some((line, _)) = next_position(book, config.max_plies) else {
        return Ok(None);
    };
    let mut pos = book.start();
    for &mv in &line {
        pos.play_unchecked(mv);
    }
    let moves = search_position(engine, &pos, config, stop);
    if moves.is_empty() {
        return Ok(None);
    }
    book.insert(line.clone(), moves.clone())?;
    Ok(Some(BookEntry { line, moves }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::{Symmetry, Variant};

    #[test]
    fn weights_fall_with_the_score() {
        assert_eq!(weight(50, 50, 20), 100);
        assert_eq!(weight(50, 30, 20), 1);
        assert!(weight(50, 40, 20) > 40 && weight(50, 40, 20) < 60);
        assert_eq!(weight(50, 50, 0), 100);
    }

    #[test]
    fn a_book_grows_best_first_along_its_own_lines() {
        let mut book = Book::new(
            Variant::Epaminondas,
            "6x6".parse().unwrap(),
            Symmetry::Mirror,
        )
        .unwrap();
        let mut engine = Engine::new(4);
        let config = BuildConfig {
            nodes: 3_000,
            width: 3,
            margin: 30,
            max_plies: 3,
        };
        assert_eq!(next_position(&book, 3), Some((Vec::new(), 1.0)));
        let mut added = 0;
        while let Some(BookEntry { line, moves }) =
            extend(&mut book, &mut engine, &config, &AtomicBool::new(false)).unwrap()
        {
            added += 1;
            assert!(line.len() < 3 && !moves.is_empty() && moves.len() <= 3);
            assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
            assert!(moves.iter().all(|m| m.score >= moves[0].score - 30));
            assert!(added < 100, "the book keeps growing");
        }
        // Every position the book's own moves reach within two plies is in it.
        let start = book.start();
        for first in book.moves(&start).unwrap() {
            let mut pos = start.clone();
            pos.play(first.mv).unwrap();
            for second in book.moves(&pos).unwrap() {
                let mut next = pos.clone();
                next.play(second.mv).unwrap();
                assert!(book.contains(&next) || next.outcome().is_some());
            }
        }
        assert_eq!(book.len(), added);
        let read = Book::parse(&book.to_string()).unwrap();
        assert_eq!(read.entries(), book.entries());
    }
}
