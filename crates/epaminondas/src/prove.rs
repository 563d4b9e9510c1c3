//! `epaminondas solve --full` and `solve --verify`: deciding a position with
//! perfect play, and checking the proof file such a solve writes.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::output::{Failure, Outcome, outln};
use epaminondas_engine::dfpn::{ProofLimits, ProofSearch, Verdict, with_large_stack};
use epaminondas_rules::proof::{self, Claim, ProofHeader};
use epaminondas_rules::{Color, Position};

/// Bytes the proof search's table takes per position, for `--memory`.
const BYTES_PER_POSITION: u64 = 40;

/// Decides `pos`: searches for a forced win of the side to move, then of
/// the other side; writes the proof of the answer to `proof_path`.
pub fn solve_full(
    pos: &Position,
    memory_mib: u64,
    proof_path: Option<&Path>,
    stop: &AtomicBool,
) -> Outcome {
    let limits = ProofLimits {
        max_entries: usize::try_from(memory_mib * 1024 * 1024 / BYTES_PER_POSITION)
            .unwrap_or(usize::MAX),
        deadline: None,
    };
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
