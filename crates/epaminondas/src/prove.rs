//! `epaminondas solve --full` and `solve --verify`: deciding a position with
//! perfect play, and checking the proof file such a solve writes.

mod checkpoint;
mod side;

pub use side::{SideFiles, SplitShape, solve_moves_for_side};

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::output::{Failure, Outcome, outln};
use epaminondas_engine::dfpn::{
    HoldReach, HoldRead, ProofLimits, ProofProgress, ProofSearch, StartNumbers, Verdict,
    entries_within, hold_positions_within, table_key, with_large_stack,
};
use epaminondas_rules::proof::{self, Claim, ProofHeader};
use epaminondas_rules::{Color, Move, Position};

/// What `solve --full` (without `--moves`) is asked for beside the
/// position and the memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct FullRun<'p> {
    /// The one side whose forced win is looked for (`--side`), or both in
    /// turn.
    pub only: Option<Color>,
    /// Where the proof goes (`--proof`).
    pub proof: Option<&'p Path>,
    /// Where a stopped search's state goes, and comes from (`--checkpoint`).
    pub checkpoint: Option<&'p Path>,
    /// The most nodes each side's search may visit in this run (`--nodes`).
    pub nodes: Option<u64>,
}

/// Decides `pos`: searches for a forced win of the side to move, then of
/// the other side (or of `run.only` alone); writes the proof of the answer
/// to `run.proof`.
pub fn solve_full(
    pos: &Position,
    run: FullRun<'_>,
    memory: SearchMemory,
    stop: &AtomicBool,
) -> Outcome {
    let FullRun {
        only,
        proof: proof_path,
        checkpoint: checkpoint_path,
        nodes,
    } = run;
    let limits = ProofLimits {
        max_nodes: nodes,
        ..memory.limits()
    };
    let memory_mib = memory.table_mib;
    let started = Instant::now();
    let mover = pos.turn();
    let provers: Vec<Color> = [mover, !mover]
        .into_iter()
        .filter(|&color| only.is_none_or(|only| only == color))
        .collect();
    with_large_stack(|| {
        // The proofs that neither side wins, one per side, while looking.
        let mut holds = Vec::new();
        for &prover in &provers {
            eprintln!("looking for a forced win for {prover}");
            let progress = progress_printer(started);
            let search = match checkpoint_path {
                Some(path) => {
                    checkpoint::run_from_checkpoint(pos, prover, limits, stop, progress, path)?
                }
                None => ProofSearch::run(pos, prover, limits, stop, progress),
            };
            let seconds = started.elapsed().as_secs_f64();
            let repairs = match search.repairs() {
                0 => String::new(),
                n => format!(", searched again {n} times after disproofs that did not hold"),
            };
            let collections = match search.collections() {
                0 => String::new(),
                n => format!(
                    ", the table full {n} time{} ({} positions forgotten to make room)",
                    if n == 1 { "" } else { "s" },
                    search.forgotten()
                ),
            };
            let stalls = match search.stalls() {
                0 => String::new(),
                n => format!(
                    ", the hold read from the table {n} time{} when the search went round",
                    if n == 1 { "" } else { "s" }
                ),
            };
            eprintln!(
                "  {}: {} nodes, {} positions, {seconds:.2} s{repairs}{stalls}{collections}",
                match search.verdict() {
                    Verdict::Proven => "proven",
                    Verdict::NoWinFound => "no forced win found",
                    Verdict::Stopped => "stopped",
                },
                search.nodes(),
                search.entries()
            );
            match search.verdict() {
                Verdict::Proven => {
                    let section = write_section(pos, &search).ok_or_else(|| {
                        Failure::Run("the proof could not be read back from the search".into())
                    })?;
                    let role = if prover == mover {
                        "the side to move"
                    } else {
                        "the side not to move"
                    };
                    outln!(
                        "{prover} ({role}) wins with perfect play; the proof has {} positions where {prover} moves ({seconds:.2} s)",
                        section.0
                    );
                    return save(proof_path, &[section]);
                }
                Verdict::NoWinFound => {
                    let section = write_section(pos, &search);
                    if section.is_none() && search.hold_unread() {
                        let (positions, limit) = memory.hold_limit();
                        eprintln!(
                            "  but {}'s hold could not be read: its graph has more than {positions} positions ({limit}); more memory may prove it",
                            !prover
                        );
                    } else if section.is_none() {
                        eprintln!(
                            "  but no strategy for {} that keeps {prover} from winning closes over the positions searched",
                            !prover
                        );
                    }
                    holds.push(section);
                }
                Verdict::Stopped => {
                    let kept = match checkpoint_path {
                        Some(path) => format!("; {}", checkpoint::keep(&search, path)?),
                        None => String::new(),
                    };
                    return Err(Failure::Run(format!(
                        "stopped after {seconds:.1} s ({} positions in the table; --memory {memory_mib} MiB) before deciding whether {prover} can force a win{kept}",
                        search.entries()
                    )));
                }
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        if let Some(prover) = only {
            let Some(Some(section)) = holds.pop() else {
                outln!(
                    "{prover} cannot force a win, as far as the search can tell (not proven: {}'s hold did not close; {seconds:.2} s)",
                    !prover
                );
                return Ok(());
            };
            outln!(
                "{prover} cannot force a win ({} holds); the proof has {} positions where {} moves ({seconds:.2} s)",
                !prover,
                section.0,
                !prover
            );
            return save(proof_path, &[section]);
        }
        let sections: Option<Vec<_>> = holds.into_iter().collect();
        let Some(sections) = sections else {
            outln!(
                "neither side can force a win, as far as the search can tell: with best play the game goes on for ever (not proven: a repetition met on one line of play may have been counted on another; {seconds:.2} s)"
            );
            return Ok(());
        };
        outln!(
            "neither side can force a win: with best play the game goes on for ever; the proofs have {} positions where {} moves and {} where {} moves ({seconds:.2} s)",
            sections[0].0,
            !mover,
            sections[1].0,
            mover
        );
        save(proof_path, &sections)
    })
}

/// Prints a proof search's progress to standard error (every million
/// nodes, and what it did when it went round, was full or repaired), with
/// the seconds since `started`.
fn progress_printer(started: Instant) -> impl FnMut(&ProofProgress) {
    move |progress| {
        if let Some(room) = progress.collected {
            eprintln!(
                "  the table was full: forgot the {} unsettled positions whose numbers add up to {} or less, kept {} ({} of them loop targets; {:.1} s)",
                room.forgotten,
                room.up_to,
                room.kept,
                room.loop_targets,
                started.elapsed().as_secs_f64()
            );
            return;
        }
        if let Some(repaired) = progress.repaired {
            eprintln!(
                "  no win found, but the other side's hold did not close over the positions searched ({} of its {} positions are out{}): forgot the {} disproofs among them and searching again ({:.1} s)",
                repaired.hold.out,
                repaired.hold.positions,
                out_from(&repaired.hold),
                repaired.forgotten,
                started.elapsed().as_secs_f64()
            );
            return;
        }
        if let Some(out) = progress.repair_repeated {
            eprintln!(
                "  no win found, but the other side's hold did not close: the {out} disproofs outside it are the ones the last repair forgot, found again the same way; this search ends there (no win found, the hold not proven; {:.1} s)",
                started.elapsed().as_secs_f64()
            );
            return;
        }
        if let Some(hold) = progress.stall_hold {
            eprintln!(
                "  the search went round (the table stopped growing): {}",
                match hold {
                    Some(read) if read.closes => format!(
                        "the hold closes ({} of its {} positions in it)",
                        read.positions - read.out,
                        read.positions
                    ),
                    Some(read) => format!(
                        "the hold does not close ({} of its {} positions are out{}); searching on",
                        read.out,
                        read.positions,
                        out_from(&read)
                    ),
                    None => "the hold's graph is too large to read; searching on".into(),
                }
            );
            if let Some(forgotten) = progress.loops_for_every_path {
                eprintln!(
                    "  from now on a disproof that rests on a return to the path is taken for every path (the hold checks it); the search starts again from the {} settled positions ({forgotten} unsettled ones forgotten)",
                    progress.entries
                );
            }
            return;
        }
        eprintln!(
            "  {} nodes, {} positions, {:.1} s",
            progress.nodes,
            progress.entries,
            started.elapsed().as_secs_f64()
        );
    }
}

/// Where a hold's positions out of its set start, for a progress line:
/// the positions put out by their own moves (see [`HoldRead`]).
fn out_from(read: &HoldRead) -> String {
    format!(
        ", starting from {} where the prover has a move the search did not disprove and {} where the other side has no move that holds",
        read.broken_by_prover, read.broken_for_other
    )
}

/// The memory a search may take (`--memory`, `--hold-memory`), how its
/// new positions start (`--start-numbers`) and how far a hold's graph
/// reaches (`--hold-reach`).
#[derive(Clone, Copy, Debug)]
pub struct SearchMemory {
    /// The table's, in MiB.
    pub table_mib: u64,
    /// The hold's graph's, in MiB; `None` for an eighth of the table's
    /// positions.
    pub hold_mib: Option<u64>,
    /// The numbers a new position starts with.
    pub start: StartNumbers,
    /// Which of the other side's moves a hold's whole graph follows
    /// (`--hold-reach`).
    pub hold_reach: HoldReach,
}

impl SearchMemory {
    /// The search's limits: a table and a hold's graph that never take
    /// more.
    fn limits(&self) -> ProofLimits {
        ProofLimits {
            max_entries: entries_within(self.table_mib.saturating_mul(1 << 20)),
            max_hold: self
                .hold_mib
                .map(|mib| hold_positions_within(mib.saturating_mul(1 << 20))),
            deadline: None,
            start: self.start,
            hold_reach: self.hold_reach,
            ..ProofLimits::default()
        }
    }

    /// The limit a hold's graph ran into, for a message: its positions,
    /// and the option that sets it.
    fn hold_limit(&self) -> (usize, String) {
        let option = match self.hold_mib {
            Some(mib) => format!("--hold-memory {mib} MiB"),
            None => format!(
                "an eighth of the table's, --memory {} MiB; see --hold-memory",
                self.table_mib
            ),
        };
        (self.limits().hold_positions(), option)
    }
}

/// What a move leads to, with perfect play after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveValue {
    /// The side that moved can force a win.
    Wins,
    /// The other side can force a win.
    Loses,
    /// Neither side can force a win; `proven` when both sides' holds close
    /// over the positions searched (see `solve --full`).
    Neither { proven: bool },
    /// The side that moved cannot force a win (its opponent's hold closes),
    /// and the search stopped before deciding whether it loses.
    NoWin,
    /// The search stopped before deciding anything.
    Undecided,
}

/// The limits of each search `solve --full --moves` makes.
#[derive(Clone, Copy, Debug)]
pub struct MovesLimits {
    /// The memory of each search (`--memory`, `--hold-memory`).
    pub memory: SearchMemory,
    /// The longest one side's search after one move may take
    /// (`--move-time`); a move whose search runs out is undecided.
    pub move_time: Option<Duration>,
    /// The most nodes one side's search after one move may visit
    /// (`--move-nodes`): as `move_time`, but the same on any machine.
    pub move_nodes: Option<u64>,
}

impl MovesLimits {
    /// The limits of one of the `searches` searches kept through the moves
    /// (two in `MoveSearches`, one with `--side`), for a move searched from
    /// now: an equal share of the memory each, so that together they stay
    /// within it.
    fn starting_now(&self, searches: usize) -> ProofLimits {
        let whole = self.memory.limits();
        let searches = searches.max(1);
        ProofLimits {
            deadline: self.move_time.map(|time| Instant::now() + time),
            max_nodes: self.move_nodes,
            max_entries: (whole.max_entries / searches).max(1),
            max_hold: whole.max_hold.map(|hold| (hold / searches).max(1)),
            ..whole
        }
    }
}

/// Runs `epaminondas solve --full --moves`: decides the position after
/// each legal move of `pos`, one search per side and move, each within
/// `limits`; once `stop` is set, the moves left are undecided. With
/// `proof_path`, writes the proof of the position's value built from the
/// moves' proofs (see `root_proofs`).
pub fn solve_moves(
    pos: &Position,
    limits: MovesLimits,
    proof_path: Option<&Path>,
    stop: &AtomicBool,
) -> Outcome {
    let mover = pos.turn();
    let (moves, afters) = first_moves(pos)?;
    let started = Instant::now();
    // The rules treat a position and its left-right reflection alike, so a
    // move leading to the reflection of an earlier move's position has its
    // value (found by the key a proof search's table uses), and its proof
    // is read from the same search.
    let keys: Vec<u64> = afters.iter().map(table_key).collect();
    let mut values = vec![MoveValue::Undecided; moves.len()];
    let mut proofs: Vec<MoveProofs> = moves.iter().map(|_| MoveProofs::default()).collect();
    let mut first_with_key: HashMap<u64, usize> = HashMap::new();
    with_large_stack(|| {
        let mut searches = MoveSearches::default();
        for (i, mv) in moves.iter().enumerate() {
            let note = if let Some(&earlier) = first_with_key.get(&keys[i]) {
                format!(
                    ", as after {}, its reflection",
                    moves[earlier].with_capture_mark()
                )
            } else {
                first_with_key.insert(keys[i], i);
                let group: Vec<usize> = (i..moves.len()).filter(|&k| keys[k] == keys[i]).collect();
                let starts: Vec<Position> = group.iter().map(|&k| afters[k].clone()).collect();
                let (value, found) = move_value(
                    &mut searches,
                    &starts,
                    mover,
                    limits,
                    stop,
                    proof_path.is_some(),
                );
                for (&k, found) in group.iter().zip(found) {
                    values[k] = value;
                    proofs[k] = found;
                }
                String::new()
            };
            outln!(
                "{:<14} {} ({:.2} s{note})",
                mv.with_capture_mark().to_string(),
                describe(values[i], mover),
                started.elapsed().as_secs_f64()
            );
        }
    });
    let count = |wanted: fn(&MoveValue) -> bool| values.iter().filter(|v| wanted(v)).count();
    let winning = count(|v| *v == MoveValue::Wins);
    let losing = count(|v| *v == MoveValue::Loses);
    let total = values.len();
    let seconds = started.elapsed().as_secs_f64();
    if winning > 0 {
        outln!("{mover} wins: {winning} of its {total} moves win ({seconds:.2} s)");
    } else if losing == total {
        outln!("{mover} loses: all its {total} moves lose ({seconds:.2} s)");
    } else if values
        .iter()
        .all(|v| matches!(v, MoveValue::Loses | MoveValue::Neither { proven: true }))
    {
        outln!(
            "neither side can force a win: no move of {mover}'s wins, {} of {total} hold ({seconds:.2} s)",
            total - losing
        );
    } else {
        outln!(
            "not decided: no move found that wins for {mover}, {losing} of {total} lose, {} undecided ({seconds:.2} s)",
            count(|v| matches!(
                v,
                MoveValue::Undecided | MoveValue::NoWin | MoveValue::Neither { proven: false }
            ))
        );
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Failure::Run(format!(
                "stopped after {seconds:.1} s before every move was decided"
            )));
        }
    }
    if proof_path.is_none() {
        return Ok(());
    }
    let moved: Vec<(Move, MoveValue, MoveProofs)> = moves
        .iter()
        .copied()
        .zip(values)
        .zip(proofs)
        .map(|((mv, value), found)| (mv, value, found))
        .collect();
    let sections = root_proofs(pos, moved).ok_or_else(|| {
        Failure::Run(
            "no proof written: the position's value rests on a move that was not decided or a hold that did not close".into(),
        )
    })?;
    save(proof_path, &sections)
}

/// The legal moves of `pos` and the position after each; an error when the
/// game is over there.
fn first_moves(pos: &Position) -> Result<(Vec<Move>, Vec<Position>), Failure> {
    let moves = pos.legal_moves();
    if pos.has_crossed() || moves.is_empty() {
        return Err(Failure::Input(format!(
            "the game is over at {pos}: {} has {} there",
            pos.turn(),
            if pos.has_crossed() { "won" } else { "no move" }
        )));
    }
    let afters = moves
        .iter()
        .map(|&mv| {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            after
        })
        .collect();
    Ok((moves.to_vec(), afters))
}

/// A strategy read from a proof search: the text of each position where
/// the claim's player moves, and the move there (ordered, so that a proof
/// file comes out the same every time).
type Strategy = BTreeMap<String, Move>;

/// The strategies read from the two searches after one move (each `None`
/// when not asked for, or when that search found no proof that closes).
#[derive(Default)]
struct MoveProofs {
    /// From the search for the mover's win: that win, or the other side's
    /// hold.
    attack: Option<Strategy>,
    /// From the search for the other side's win: that win, or the mover's
    /// hold.
    defence: Option<Strategy>,
}

/// The two proof searches of `solve --full --moves`, kept from move to
/// move: positions after different moves meet again (the same moves in
/// another order), and what one move's search proved or disproved holds
/// for the next (see [`ProofSearch::run_from`]). Each takes half of
/// `--memory`, so that both together stay within it.
#[derive(Default)]
struct MoveSearches<'a> {
    /// The search for the mover's win.
    attack: Option<ProofSearch<'a>>,
    /// The search for the other side's win.
    defence: Option<ProofSearch<'a>>,
}

/// Searches from `start` in the search kept in `slot` (whether `prover`
/// can force a win), or in a new one when there is none yet; within
/// `proof_limits` (see [`MovesLimits::starting_now`]); printing its
/// progress, with the seconds since `progress`, when given one.
fn search_in<'s, 'a>(
    slot: &'s mut Option<ProofSearch<'a>>,
    start: &Position,
    prover: Color,
    proof_limits: ProofLimits,
    stop: &'a AtomicBool,
    progress: Option<Instant>,
) -> &'s mut ProofSearch<'a> {
    let search = match slot.take() {
        Some(mut search) => {
            search.set_deadline(proof_limits.deadline);
            search.set_max_nodes(proof_limits.max_nodes);
            search.run_from(start);
            search
        }
        None => {
            let mut print = progress.map(progress_printer);
            ProofSearch::run(start, prover, proof_limits, stop, move |p| {
                if let Some(print) = print.as_mut() {
                    print(p);
                }
            })
        }
    };
    slot.insert(search)
}

/// The strategies `search` found from each of `starts` (the first one
/// searched, the others its reflections) when `keep_proofs`; without, only
/// the first one's, empty, to say whether it closes. `None` for a start
/// whose proof does not close. The hold's graph is let go of once read.
fn read_strategies(
    search: &mut ProofSearch<'_>,
    starts: &[Position],
    keep_proofs: bool,
) -> Vec<Option<Strategy>> {
    let starts = if keep_proofs { starts } else { &starts[..1] };
    let read = starts
        .iter()
        .map(|start| {
            let mut strategy = Strategy::new();
            search.for_each_step_from(start, |at, mv| {
                if keep_proofs {
                    strategy.insert(at.to_string(), mv);
                }
            })?;
            Some(strategy)
        })
        .collect();
    search.forget_hold();
    read
}

/// What the positions in `afters` (after moves of `mover`; the first one
/// searched, the others its reflections) are worth to `mover`: first
/// whether `mover` can force a win, then whether the other side can, each
/// in its search of `searches`. With `keep_proofs`, the strategies of both
/// searches from each position.
fn move_value<'a>(
    searches: &mut MoveSearches<'a>,
    afters: &[Position],
    mover: Color,
    limits: MovesLimits,
    stop: &'a AtomicBool,
    keep_proofs: bool,
) -> (MoveValue, Vec<MoveProofs>) {
    let mut proofs: Vec<MoveProofs> = afters.iter().map(|_| MoveProofs::default()).collect();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return (MoveValue::Undecided, proofs);
    }
    let read = |search: &mut ProofSearch<'_>| read_strategies(search, afters, keep_proofs);
    let attack = search_in(
        &mut searches.attack,
        &afters[0],
        mover,
        limits.starting_now(2),
        stop,
        None,
    );
    let verdict = attack.verdict();
    // Stopped by its own time or memory, not from outside, the search for
    // the mover's win leaves the other side's to run: a move that loses may
    // still be quick to prove.
    let attack_stopped = verdict == Verdict::Stopped;
    if attack_stopped && stop.load(std::sync::atomic::Ordering::Relaxed) {
        return (MoveValue::Undecided, proofs);
    }
    let mut cannot_win = false;
    if !attack_stopped {
        let read_attack = read(attack);
        cannot_win = read_attack[0].is_some();
        for (found, strategy) in proofs.iter_mut().zip(read_attack) {
            found.attack = strategy;
        }
    }
    if verdict == Verdict::Proven {
        return (MoveValue::Wins, proofs);
    }
    let defence = search_in(
        &mut searches.defence,
        &afters[0],
        !mover,
        limits.starting_now(2),
        stop,
        None,
    );
    let value = match defence.verdict() {
        Verdict::Proven => MoveValue::Loses,
        _ if attack_stopped => return (MoveValue::Undecided, proofs),
        Verdict::Stopped if cannot_win => return (MoveValue::NoWin, proofs),
        Verdict::Stopped => return (MoveValue::Undecided, proofs),
        Verdict::NoWinFound => MoveValue::Neither { proven: false },
    };
    let read_defence = read(defence);
    let holds = read_defence[0].is_some();
    for (found, strategy) in proofs.iter_mut().zip(read_defence) {
        found.defence = strategy;
    }
    match value {
        MoveValue::Neither { .. } => (
            MoveValue::Neither {
                proven: cannot_win && holds,
            },
            proofs,
        ),
        value => (value, proofs),
    }
}

/// The proof of `pos`'s value built from its moves' proofs, as `solve
/// --full` would write it; `None` when the value is not decided or a
/// proof it needs was not found.
///
/// The mover wins: the mover's win after the first winning move, with that
/// move at the start. Every move loses: the other side's wins after every
/// move, together. Neither side wins: the other side's wins and holds after
/// every move, together; and the mover's hold after its first holding
/// move, with that move at the start. Strategies are joined position by
/// position, a position already in one keeping its move: from a position
/// of one strategy, play stays in that strategy, or moves to a position of
/// an earlier one and stays there, so a win stays a win without loops and
/// a hold stays a hold. The checker checks the joined file all the same.
fn root_proofs(pos: &Position, moved: Vec<(Move, MoveValue, MoveProofs)>) -> Option<Vec<Section>> {
    let mover = pos.turn();
    let with_first = |found: Option<Strategy>, first: Move| with_first(pos, found, first);
    if let Some(won) = moved.iter().position(|(_, v, _)| *v == MoveValue::Wins) {
        let (mv, _, found) = moved.into_iter().nth(won)?;
        let strategy = with_first(found.attack, mv)?;
        return Some(vec![strategy_section(pos, Claim::Wins(mover), &strategy)]);
    }
    if moved.iter().all(|(_, v, _)| *v == MoveValue::Loses) {
        let strategy = joined(moved.into_iter().map(|(_, _, f)| f.defence).collect())?;
        return Some(vec![strategy_section(pos, Claim::Wins(!mover), &strategy)]);
    }
    if !moved
        .iter()
        .all(|(_, v, _)| matches!(v, MoveValue::Loses | MoveValue::Neither { proven: true }))
    {
        return None;
    }
    let mut others = Vec::new();
    let mut own = None;
    for (mv, value, found) in moved {
        if value == MoveValue::Loses {
            others.push(found.defence);
        } else {
            others.push(found.attack);
            if own.is_none() {
                own = Some(with_first(found.defence, mv)?);
            }
        }
    }
    Some(vec![
        strategy_section(pos, Claim::Holds(!mover), &joined(others)?),
        strategy_section(pos, Claim::Holds(mover), &own?),
    ])
}

/// The strategy `found` (after a move) from `pos`, with `first` at `pos`
/// where it has no move there; `None` without one.
fn with_first(pos: &Position, found: Option<Strategy>, first: Move) -> Option<Strategy> {
    let mut strategy = found?;
    strategy.entry(pos.to_string()).or_insert(first);
    Some(strategy)
}

/// `strategy` seen in a mirror: each of its positions reflected, with the
/// reflection of its move (see [`Position::reflected`]), which proves the
/// same of the reflection of its start. `None` if a position's text does
/// not read (never for one read from a search).
fn reflected(strategy: &Strategy) -> Option<Strategy> {
    strategy
        .iter()
        .map(|(at, &mv)| {
            let pos: Position = at.parse().ok()?;
            Some((pos.reflected().to_string(), mv.reflected(pos.size())?))
        })
        .collect()
}

/// The strategies `parts` (after different moves) joined into one, a
/// position already in one keeping its move (see `root_proofs`); `None`
/// when one is missing.
fn joined(parts: Vec<Option<Strategy>>) -> Option<Strategy> {
    parts
        .into_iter()
        .try_fold(Strategy::new(), |mut all, part| {
            for (at, mv) in part? {
                all.entry(at).or_insert(mv);
            }
            Some(all)
        })
}

/// A proof's text from its strategy.
fn strategy_section(pos: &Position, claim: Claim, strategy: &Strategy) -> Section {
    let mut body = Vec::new();
    for (at, &mv) in strategy {
        // Writing to memory cannot fail.
        let _ = proof::write_step(&mut body, at.as_str(), mv);
    }
    section(pos, claim, strategy.len() as u64, body)
}

/// A move's value in words, for `solve --full --moves`.
fn describe(value: MoveValue, mover: Color) -> String {
    match value {
        MoveValue::Wins => format!("{mover} wins"),
        MoveValue::Loses => format!("{} wins", !mover),
        MoveValue::Neither { proven: true } => "neither side can force a win".into(),
        MoveValue::Neither { proven: false } => {
            "neither side can force a win, as far as the search can tell (a hold did not close)"
                .into()
        }
        MoveValue::NoWin => format!(
            "{mover} cannot force a win; stopped before deciding whether {} can",
            !mover
        ),
        MoveValue::Undecided => "undecided (stopped)".into(),
    }
}

/// One proof of a file: its number of steps and its text.
type Section = (u64, Vec<u8>);

/// The proof of what `search` found, as file text; `None` when it cannot be
/// read back (a hold that does not close).
fn write_section(pos: &Position, search: &ProofSearch<'_>) -> Option<Section> {
    let mut body = Vec::new();
    let steps = search.for_each_step(|at, mv| {
        // Writing to memory cannot fail.
        let _ = proof::write_step(&mut body, at, mv);
    })?;
    Some(section(pos, search.claim()?, steps, body))
}

/// A proof's text: the header, then the step lines in `body`.
fn section(pos: &Position, claim: Claim, steps: u64, body: Vec<u8>) -> Section {
    let mut text = Vec::new();
    let header = ProofHeader {
        variant: pos.variant(),
        start: pos.clone(),
        claim,
        steps,
    };
    // Writing to memory cannot fail.
    let _ = header.write(&mut text);
    text.extend_from_slice(&body);
    (steps, text)
}

/// Writes the proofs to `path`, if one was asked for.
fn save(path: Option<&Path>, sections: &[Section]) -> Outcome {
    let Some(path) = path else {
        return Ok(());
    };
    let write = || -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        for (_, text) in sections {
            out.write_all(text)?;
        }
        out.flush()
    };
    write().map_err(|e| Failure::Run(format!("cannot write {}: {e}", path.display())))?;
    outln!(
        "proof written to {} (check it with: epaminondas solve --verify {})",
        path.display(),
        path.display()
    );
    Ok(())
}

/// Runs `epaminondas solve --verify FILE`.
pub fn verify(path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
    let started = Instant::now();
    let checked = proof::check(&text)
        .map_err(|e| Failure::Run(format!("the proof in {} is refused: {e}", path.display())))?;
    for proof in &checked {
        let header = &proof.header;
        let what = match header.claim {
            Claim::Wins(color) => format!("{color} wins"),
            Claim::Holds(color) => format!("{} cannot force a win ({color} holds)", !color),
        };
        outln!(
            "proof checked: {what} from {} ({}, {} files x {} ranks, symmetry {}); {} positions of {}'s checked against every reply",
            header.start,
            header.variant,
            header.start.size().files(),
            header.start.size().ranks(),
            header.start.symmetry(),
            proof.positions,
            header.claim.player(),
        );
        if proof.unused_steps > 0 {
            outln!(
                "{} step lines are never reached from the start",
                proof.unused_steps
            );
        }
    }
    let holds_both = |start: &Position| {
        Color::ALL.into_iter().all(|color| {
            checked.iter().any(|p| {
                p.header.claim == Claim::Holds(color)
                    && p.header.start.to_string() == start.to_string()
            })
        })
    };
    if let Some(first) = checked.first()
        && holds_both(&first.header.start)
    {
        outln!(
            "so neither side can force a win from {}",
            first.header.start
        );
    }
    eprintln!("({:.2} s)", started.elapsed().as_secs_f64());
    Ok(())
}
