//! `epaminondas solve --full --moves --side COLOR`: one side's forced win
//! looked for after each first move, the engine's best moves first, until
//! the position's value for that side is known.
//!
//! Where the side to move is asked about, one winning move decides (it
//! wins), and only every move failing to win says it cannot. Where the
//! side not to move is, one move of the mover after which it cannot win
//! decides (it cannot), and only a win after every move says it wins. So a
//! board whose search from the start is too large can still be decided by
//! the one move that matters (as 5x4 `off` needed), and the other moves are
//! never searched.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use epaminondas_engine::dfpn::{ProofSearch, Verdict, table_key, with_large_stack};
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::proof::Claim;
use epaminondas_rules::{Color, Position};

use super::{
    MovesLimits, Strategy, first_moves, joined, read_strategies, save, search_in, strategy_section,
    with_first,
};
use crate::output::{Failure, Outcome, outln};

/// Nodes of the engine's search of each position after a first move, to
/// order the moves: a fraction of a second each on the boards a proof
/// search can take.
const ORDER_NODES: u64 = 100_000;

/// What one side's search found after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SideValue {
    /// The side can force a win.
    Wins,
    /// The side cannot force a win: the other side's hold closes over the
    /// positions searched.
    CannotWin,
    /// No win found, but the other side's hold did not close (or was too
    /// large to read): not proven.
    NoWinFound,
    /// Stopped (by `--move-time`, the memory or Ctrl-C) before deciding.
    Undecided,
}

/// Runs `epaminondas solve --full --moves --side SIDE`: whether `side` can
/// force a win from `pos`, decided move by move (see the module's notes),
/// one search kept through the moves, each move's within `limits`. With
/// `proof_path`, writes the proof of the answer.
pub fn solve_moves_for_side(
    pos: &Position,
    side: Color,
    limits: MovesLimits,
    proof_path: Option<&Path>,
    stop: &AtomicBool,
) -> Outcome {
    let mover = pos.turn();
    let (moves, afters) = first_moves(pos)?;
    let started = Instant::now();
    let order = engine_order(&afters, stop);
    if side == mover {
        eprintln!("looking for a move that wins for {side}, the engine's best first");
    } else {
        eprintln!(
            "looking for a forced win for {side} after each move of {mover}'s, the engine's best for {mover} first"
        );
    }
    // A move leading to the reflection of another's position has its value
    // (see `solve_moves`); both are read from the same search.
    let keys: Vec<u64> = afters.iter().map(table_key).collect();
    let decisive = if side == mover {
        SideValue::Wins
    } else {
        SideValue::CannotWin
    };
    // The value that decides the other way, when every move has it.
    let opposite = if side == mover {
        SideValue::CannotWin
    } else {
        SideValue::Wins
    };
    let mut values: Vec<Option<SideValue>> = vec![None; moves.len()];
    let mut strategies: Vec<Option<Strategy>> = vec![None; moves.len()];
    let mut decided_by = None;
    with_large_stack(|| {
        let mut search = None;
        let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
        for &i in &order {
            groups.entry(keys[i]).or_default().push(i);
        }
        for &i in &order {
            if values[i].is_some() {
                continue;
            }
            let group = &groups[&keys[i]];
            let starts: Vec<Position> = group.iter().map(|&k| afters[k].clone()).collect();
            let progress = Some(started);
            let (value, found) = side_value(
                &mut search,
                &starts,
                side,
                limits,
                stop,
                progress,
                proof_path.is_some(),
            );
            for (&k, found) in group.iter().zip(found) {
                values[k] = Some(value);
                strategies[k] = found;
                let note = if k == i {
                    String::new()
                } else {
                    format!(
                        ", as after {}, its reflection",
                        moves[i].with_capture_mark()
                    )
                };
                outln!(
                    "{:<14} {} ({:.2} s{note})",
                    moves[k].with_capture_mark().to_string(),
                    describe(value, side),
                    started.elapsed().as_secs_f64()
                );
            }
            if value == decisive {
                decided_by = Some(i);
                break;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let total = moves.len();
    let (claim, strategy) = if let Some(i) = decided_by {
        let first = moves[i].with_capture_mark();
        let claim = if side == mover {
            outln!("{side} wins: {first} wins ({seconds:.2} s)");
            Claim::Wins(side)
        } else {
            outln!("{side} cannot force a win: after {first}, {mover} holds ({seconds:.2} s)");
            Claim::Holds(mover)
        };
        (claim, with_first(pos, strategies[i].take(), moves[i]))
    } else if values.iter().all(|v| *v == Some(opposite)) {
        let claim = if side == mover {
            outln!("{side} cannot force a win: none of its {total} moves wins ({seconds:.2} s)");
            Claim::Holds(!side)
        } else {
            outln!("{side} wins: it wins after each of {mover}'s {total} moves ({seconds:.2} s)");
            Claim::Wins(side)
        };
        (claim, joined(strategies))
    } else {
        let proven = |wanted: SideValue| values.iter().filter(|v| **v == Some(wanted)).count();
        let undecided = total - proven(SideValue::Wins) - proven(SideValue::CannotWin);
        if side == mover {
            outln!(
                "not decided: no move found that wins for {side}, {} of {total} proven not to, {undecided} undecided ({seconds:.2} s)",
                proven(SideValue::CannotWin)
            );
        } else {
            outln!(
                "not decided: {side} wins after {} of {mover}'s {total} moves, no move found after which it cannot, {undecided} undecided ({seconds:.2} s)",
                proven(SideValue::Wins)
            );
        }
        if stop.load(Ordering::Relaxed) {
            return Err(Failure::Run(format!(
                "stopped after {seconds:.1} s before {side}'s value was decided"
            )));
        }
        return Ok(());
    };
    if proof_path.is_none() {
        return Ok(());
    }
    let strategy = strategy.ok_or_else(|| {
        Failure::Run("no proof written: a move's proof could not be read back".into())
    })?;
    save(proof_path, &[strategy_section(pos, claim, &strategy)])
}

/// The moves (by index into `afters`, the positions after them) best for
/// the side that made them first, by a short engine search of each
/// position; equal scores keep the moves' order.
fn engine_order(afters: &[Position], stop: &AtomicBool) -> Vec<usize> {
    let mut engine = Engine::new(16);
    let limits = Limits::nodes(ORDER_NODES);
    let scores: Vec<i32> = afters
        .iter()
        .map(|after| {
            // Each position searched from an empty table, so that the order
            // does not depend on what was searched before.
            engine.clear();
            -engine.search(after, &limits, stop, |_| {}).score
        })
        .collect();
    let mut order: Vec<usize> = (0..afters.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
    order
}

/// Whether `side` can force a win from `starts` (positions after one move;
/// the first searched, the others its reflections), in the search kept in
/// `slot`, all of the memory its own; with `keep_proofs`, the strategy
/// found from each start (the win, or the other side's hold).
fn side_value<'a>(
    slot: &mut Option<ProofSearch<'a>>,
    starts: &[Position],
    side: Color,
    limits: MovesLimits,
    stop: &'a AtomicBool,
    progress: Option<Instant>,
    keep_proofs: bool,
) -> (SideValue, Vec<Option<Strategy>>) {
    let none = || starts.iter().map(|_| None).collect();
    if stop.load(Ordering::Relaxed) {
        return (SideValue::Undecided, none());
    }
    let search = search_in(
        slot,
        &starts[0],
        side,
        limits.starting_now(1),
        stop,
        progress,
    );
    let verdict = search.verdict();
    if verdict == Verdict::Stopped {
        return (SideValue::Undecided, none());
    }
    let read = read_strategies(search, starts, keep_proofs);
    let value = match verdict {
        Verdict::Proven => SideValue::Wins,
        _ if read[0].is_some() => SideValue::CannotWin,
        _ => SideValue::NoWinFound,
    };
    (value, if keep_proofs { read } else { none() })
}

/// A move's value for `side` in words.
fn describe(value: SideValue, side: Color) -> String {
    match value {
        SideValue::Wins => format!("{side} wins"),
        SideValue::CannotWin => format!("{side} cannot force a win ({} holds)", !side),
        SideValue::NoWinFound => format!(
            "{side} cannot force a win, as far as the search can tell ({}'s hold did not close)",
            !side
        ),
        SideValue::Undecided => "undecided (stopped)".into(),
    }
}
