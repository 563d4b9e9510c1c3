//! `epaminondas solve --full` and `solve --verify`: deciding a position with
//! perfect play, and checking the proof file such a solve writes.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::output::{Failure, Outcome, outln};
use epaminondas_engine::dfpn::{
    ProofLimits, ProofSearch, Verdict, entries_within, table_key, with_large_stack,
};
use epaminondas_rules::proof::{self, Claim, ProofHeader};
use epaminondas_rules::{Color, Move, Position};

/// Decides `pos`: searches for a forced win of the side to move, then of
/// the other side; writes the proof of the answer to `proof_path`.
pub fn solve_full(
    pos: &Position,
    memory_mib: u64,
    proof_path: Option<&Path>,
    stop: &AtomicBool,
) -> Outcome {
    let limits = limits_for(memory_mib);
    let started = Instant::now();
    let mover = pos.turn();
    with_large_stack(|| {
        // The proofs that neither side wins, one per side, while looking.
        let mut holds = Vec::new();
        for prover in [mover, !mover] {
            eprintln!("looking for a forced win for {prover}");
            let search = ProofSearch::run(pos, prover, limits, stop, |progress| {
                eprintln!(
                    "  {} nodes, {} positions, {:.1} s",
                    progress.nodes,
                    progress.entries,
                    started.elapsed().as_secs_f64()
                );
            });
            let seconds = started.elapsed().as_secs_f64();
            let repairs = match search.repairs() {
                0 => String::new(),
                n => format!(", searched again {n} times after disproofs that did not hold"),
            };
            eprintln!(
                "  {}: {} nodes, {} positions, {seconds:.2} s{repairs}",
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
                    if section.is_none() {
                        eprintln!(
                            "  but no strategy for {} that keeps {prover} from winning closes over the positions searched",
                            !prover
                        );
                    }
                    holds.push(section);
                }
                Verdict::Stopped => {
                    return Err(Failure::Run(format!(
                        "stopped after {seconds:.1} s ({} positions in the table; --memory {memory_mib} MiB) before deciding whether {prover} can force a win",
                        search.entries()
                    )));
                }
            }
        }
        let seconds = started.elapsed().as_secs_f64();
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

/// The search's limits for `--memory`: a table that never takes more.
fn limits_for(memory_mib: u64) -> ProofLimits {
    ProofLimits {
        max_entries: entries_within(memory_mib.saturating_mul(1 << 20)),
        deadline: None,
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

/// Runs `epaminondas solve --full --moves`: decides the position after
/// each legal move of `pos`, one search per side and move, each within
/// `memory_mib`; once `stop` is set, the moves left are undecided.
pub fn solve_moves(pos: &Position, memory_mib: u64, stop: &AtomicBool) -> Outcome {
    let mover = pos.turn();
    let moves = pos.legal_moves();
    if pos.has_crossed() || moves.is_empty() {
        return Err(Failure::Input(format!(
            "the game is over at {pos}: {mover} has {} there",
            if pos.has_crossed() { "won" } else { "no move" }
        )));
    }
    let limits = limits_for(memory_mib);
    let started = Instant::now();
    // The rules treat a position and its left-right reflection alike, so a
    // move leading to the reflection of an earlier move's position has its
    // value (found by the key a proof search's table uses).
    let mut decided: HashMap<u64, (Move, MoveValue)> = HashMap::new();
    let values: Vec<MoveValue> = with_large_stack(|| {
        moves
            .iter()
            .map(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                let key = table_key(&after);
                let (value, note) = match decided.get(&key) {
                    Some(&(earlier, value)) if value != MoveValue::Undecided => (
                        value,
                        format!(", as after {}, its reflection", earlier.with_capture_mark()),
                    ),
                    _ => {
                        let value = move_value(&after, mover, limits, stop);
                        decided.insert(key, (mv, value));
                        (value, String::new())
                    }
                };
                outln!(
                    "{:<14} {} ({:.2} s{note})",
                    mv.with_capture_mark().to_string(),
                    describe(value, mover),
                    started.elapsed().as_secs_f64()
                );
                value
            })
            .collect()
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
    Ok(())
}

/// What `after` (the position after a move of `mover`) is worth to `mover`:
/// first whether `mover` can force a win, then whether the other side can.
fn move_value(after: &Position, mover: Color, limits: ProofLimits, stop: &AtomicBool) -> MoveValue {
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return MoveValue::Undecided;
    }
    let closes = |search: &ProofSearch<'_>| search.for_each_step(|_, _| {}).is_some();
    let attack = ProofSearch::run(after, mover, limits, stop, |_| {});
    let cannot_win = match attack.verdict() {
        Verdict::Proven => return MoveValue::Wins,
        Verdict::Stopped => return MoveValue::Undecided,
        Verdict::NoWinFound => closes(&attack),
    };
    drop(attack);
    let defence = ProofSearch::run(after, !mover, limits, stop, |_| {});
    match defence.verdict() {
        Verdict::Proven => MoveValue::Loses,
        Verdict::Stopped if cannot_win => MoveValue::NoWin,
        Verdict::Stopped => MoveValue::Undecided,
        Verdict::NoWinFound => MoveValue::Neither {
            proven: cannot_win && closes(&defence),
        },
    }
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
    let mut text = Vec::new();
    let header = ProofHeader {
        variant: pos.variant(),
        start: pos.clone(),
        claim: search.claim()?,
        steps,
    };
    header.write(&mut text).ok()?;
    text.extend_from_slice(&body);
    Some((steps, text))
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
