//! `solve --full --side COLOR --checkpoint FILE`: one side's search that
//! starts from the state a stopped run left in FILE, and leaves its own
//! there when it stops, so that a search longer than one run adds up over
//! several.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use epaminondas_engine::dfpn::{ProofLimits, ProofProgress, ProofSearch};
use epaminondas_rules::{Color, Position};

use crate::output::Failure;

/// A search of `pos` for `prover`, run to its end: from FILE's state when
/// there is a checkpoint (which must be of the same search), else from
/// nothing.
pub fn run_from_checkpoint<'a>(
    pos: &Position,
    prover: Color,
    limits: ProofLimits,
    stop: &'a AtomicBool,
    progress: impl FnMut(&ProofProgress) + 'a,
    path: &Path,
) -> Result<ProofSearch<'a>, Failure> {
    let mut search = ProofSearch::new(pos, prover, limits, stop, progress);
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == ErrorKind::NotFound => {
            eprintln!(
                "  no checkpoint in {} yet: searching from the start (the state goes there if the search stops)",
                path.display()
            );
            search.resume();
            return Ok(search);
        }
        Err(err) => {
            return Err(Failure::Input(format!(
                "cannot open {}: {err}",
                path.display()
            )));
        }
    };
    let started = Instant::now();
    let positions = search
        .read_checkpoint(BufReader::with_capacity(1 << 20, file))
        .map_err(|err| Failure::Input(format!("cannot go on from {}: {err}", path.display())))?;
    eprintln!(
        "  going on from {}: {positions} positions, {} nodes searched before, {} repairs ({:.1} s to read)",
        path.display(),
        search.nodes(),
        search.repairs(),
        started.elapsed().as_secs_f64()
    );
    search.resume();
    Ok(search)
}

/// Writes the state of `search` (which stopped) to `path`: to a file
/// beside it first, renamed over it once whole, so that a run killed while
/// writing leaves the last checkpoint as it was. Returns a sentence for
/// the stop's message.
pub fn keep(search: &ProofSearch<'_>, path: &Path) -> Result<String, Failure> {
    let started = Instant::now();
    let mut partial = PathBuf::from(path);
    partial.as_mut_os_string().push(".partial");
    let write = || -> std::io::Result<u64> {
        let file = File::create(&partial)?;
        search.write_checkpoint(BufWriter::with_capacity(1 << 20, &file))?;
        file.sync_all()?;
        let bytes = file.metadata()?.len();
        std::fs::rename(&partial, path)?;
        Ok(bytes)
    };
    let bytes = write().map_err(|err| {
        let _ = std::fs::remove_file(&partial);
        Failure::Run(format!(
            "the search stopped, and its state could not be written to {}: {err}",
            path.display()
        ))
    })?;
    Ok(format!(
        "its state is in {} ({}, {:.1} s to write): the same command goes on from there",
        path.display(),
        size(bytes),
        started.elapsed().as_secs_f64()
    ))
}

/// A file's size for a message: in KiB, MiB or GiB.
fn size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= MIB => format!("{:.1} MiB", b as f64 / MIB as f64),
        b => format!("{} KiB", b.div_ceil(1024)),
    }
}
