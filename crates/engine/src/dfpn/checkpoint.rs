//! A proof search's checkpoint: its table and counts written to a file when
//! it stops, so that a later run (another day, another session) goes on
//! where it stopped instead of searching hours again. The large boards
//! take longer than one run may last; with a checkpoint their searches add
//! up.
//!
//! The file is a few text lines, then the state in little-endian binary:
//!
//! ```text
//! epaminondas proof search checkpoint
//! format 1
//! variant <variant>
//! symmetry <symmetry option>
//! start <position>
//! prover <white|black>
//! data
//! ```
//!
//! then the start's table key, the counts (`u32` proofs, `u64` nodes,
//! `u64` positions read into holds, `u32` repairs, stalls, collections,
//! `u64` positions forgotten to make room, `u64` nodes and `u64` table size
//! at the last stall check, `u64` nodes to the next, `u8` whether loops are
//! taken for every path), the `u64` count of loop targets and their `u64`
//! keys, the `u64` count of entries and each entry (`u64` key, `u32` proof
//! number, `u32` disproof number or proven-at), and last a `u64` checksum
//! of everything after the `data` line. The start's table key ties the
//! file to the build's position keys: a build that hashes positions
//! otherwise refuses it.

use std::fmt;
use std::io::{self, BufRead, Read, Write};

use super::{Entry, ProofSearch, table_key};
use epaminondas_rules::{Color, Position};

/// The first line of a checkpoint.
pub const MAGIC: &str = "epaminondas proof search checkpoint";

/// The layout this build writes and reads.
const FORMAT: u32 = 1;

/// The longest header line read (a position of the largest board is far
/// shorter): a file that is not a checkpoint is not read whole.
const MAX_LINE: u64 = 4096;

/// Why a checkpoint could not be read.
#[derive(Debug)]
pub enum CheckpointError {
    /// Reading the file failed.
    Io(io::Error),
    /// The first line is not [`MAGIC`].
    NotACheckpoint,
    /// Written in a layout this build does not read.
    Format(u32),
    /// Of another search: another game, start or prover.
    OtherSearch {
        /// The header line that differs, as the file has it.
        found: String,
        /// The same line for this search.
        wanted: String,
    },
    /// Written by a build that gives positions other keys.
    OtherKeys,
    /// Holds more positions than this search's table may.
    TooLarge {
        /// Positions in the checkpoint.
        positions: u64,
        /// Positions the table may hold.
        room: usize,
    },
    /// The file ends early or its checksum does not match.
    Damaged(&'static str),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(err) => write!(f, "{err}"),
            CheckpointError::NotACheckpoint => {
                write!(f, "not a checkpoint: its first line should be '{MAGIC}'")
            }
            CheckpointError::Format(format) => write!(
                f,
                "written in checkpoint format {format}, and this build reads format {FORMAT} only"
            ),
            CheckpointError::OtherSearch { found, wanted } => write!(
                f,
                "the checkpoint of another search: it has '{found}' where this one has '{wanted}'; name another file"
            ),
            CheckpointError::OtherKeys => write!(
                f,
                "written by a build that keys positions otherwise: this build cannot use its table"
            ),
            CheckpointError::TooLarge { positions, room } => write!(
                f,
                "it holds {positions} positions and this search's table only {room}: give it more memory"
            ),
            CheckpointError::Damaged(what) => write!(f, "damaged: {what}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<io::Error> for CheckpointError {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::UnexpectedEof {
            CheckpointError::Damaged("it ends early (cut short while it was written?)")
        } else {
            CheckpointError::Io(err)
        }
    }
}

/// The header lines between the magic and `data` of a search from `pos`
/// for `prover`.
fn header_lines(pos: &Position, prover: Color) -> [String; 5] {
    [
        format!("format {FORMAT}"),
        format!("variant {}", pos.variant()),
        format!("symmetry {}", pos.symmetry()),
        format!("start {pos}"),
        format!("prover {prover}"),
    ]
}

/// Mixes 64-bit words into a checksum.
#[derive(Clone, Copy)]
struct Checksum(u64);

impl Checksum {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Writes words and keeps their checksum.
struct Writer<W> {
    out: W,
    sum: Checksum,
}

impl<W: Write> Writer<W> {
    fn u64(&mut self, value: u64) -> io::Result<()> {
        self.sum.add(value);
        self.out.write_all(&value.to_le_bytes())
    }
    fn u32(&mut self, value: u32) -> io::Result<()> {
        self.sum.add(u64::from(value));
        self.out.write_all(&value.to_le_bytes())
    }
}

/// Reads words and keeps their checksum.
struct Reader<R> {
    input: R,
    sum: Checksum,
}

impl<R: Read> Reader<R> {
    fn u64(&mut self) -> io::Result<u64> {
        let mut bytes = [0; 8];
        self.input.read_exact(&mut bytes)?;
        let value = u64::from_le_bytes(bytes);
        self.sum.add(value);
        Ok(value)
    }
    fn u32(&mut self) -> io::Result<u32> {
        let mut bytes = [0; 4];
        self.input.read_exact(&mut bytes)?;
        let value = u32::from_le_bytes(bytes);
        self.sum.add(u64::from(value));
        Ok(value)
    }
}

impl ProofSearch<'_> {
    /// Writes the search's state, as the module's notes lay it out: its
    /// table, its loop targets and its counts. Meant for a search that
    /// stopped ([`super::Verdict::Stopped`]); [`ProofSearch::resume`] goes
    /// on from it.
    pub fn write_checkpoint(&self, mut out: impl Write) -> io::Result<()> {
        writeln!(out, "{MAGIC}")?;
        for line in header_lines(&self.root, self.prover) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "data")?;
        let mut w = Writer {
            out,
            sum: Checksum(0),
        };
        w.u64(table_key(&self.root))?;
        w.u32(self.proofs)?;
        w.u64(self.nodes)?;
        w.u64(self.hold_read.get())?;
        w.u32(self.repairs)?;
        w.u32(self.stalls)?;
        w.u32(self.collections)?;
        w.u64(self.forgotten)?;
        w.u64(self.stall_mark.0)?;
        w.u64(self.stall_mark.1 as u64)?;
        w.u64(self.stall_window)?;
        w.u32(u32::from(self.loops_for_every_path))?;
        w.u64(self.loop_targets.len() as u64)?;
        for &key in &self.loop_targets {
            w.u64(key)?;
        }
        w.u64(self.table.len() as u64)?;
        let mut written = Ok(());
        self.table.for_each(|key, entry| {
            if written.is_ok() {
                written = w
                    .u64(key)
                    .and_then(|()| w.u32(entry.proof))
                    .and_then(|()| w.u32(entry.disproof_or_proven_at));
            }
        });
        written?;
        let sum = w.sum.0;
        w.out.write_all(&sum.to_le_bytes())?;
        w.out.flush()
    }

    /// Takes in the state a [`write_checkpoint`](Self::write_checkpoint)
    /// of a search from the same start for the same prover wrote, in
    /// place of this search's (which must not have searched yet); then
    /// [`resume`](Self::resume) goes on. Returns the positions read.
    pub fn read_checkpoint(&mut self, mut input: impl BufRead) -> Result<usize, CheckpointError> {
        let mut line = String::new();
        let mut next_line = |input: &mut dyn BufRead| -> Result<String, CheckpointError> {
            line.clear();
            input.take(MAX_LINE).read_line(&mut line)?;
            if !line.ends_with('\n') {
                return Err(CheckpointError::NotACheckpoint);
            }
            Ok(line.trim_end().to_owned())
        };
        if next_line(&mut input).ok().as_deref() != Some(MAGIC) {
            return Err(CheckpointError::NotACheckpoint);
        }
        for wanted in header_lines(&self.root, self.prover) {
            let found = next_line(&mut input)?;
            if let Some(format) = found.strip_prefix("format ") {
                if format != FORMAT.to_string() {
                    return Err(CheckpointError::Format(format.parse().unwrap_or(0)));
                }
            }
            if found != wanted {
                return Err(CheckpointError::OtherSearch { found, wanted });
            }
        }
        if next_line(&mut input)? != "data" {
            return Err(CheckpointError::Damaged(
                "its header does not end in 'data'",
            ));
        }
        let mut r = Reader {
            input,
            sum: Checksum(0),
        };
        if r.u64()? != table_key(&self.root) {
            return Err(CheckpointError::OtherKeys);
        }
        let proofs = r.u32()?;
        let nodes = r.u64()?;
        let hold_read = r.u64()?;
        let repairs = r.u32()?;
        let stalls = r.u32()?;
        let collections = r.u32()?;
        let forgotten = r.u64()?;
        let stall_mark = (r.u64()?, r.u64()?);
        let stall_window = r.u64()?;
        let loops_for_every_path = match r.u32()? {
            0 => false,
            1 => true,
            _ => return Err(CheckpointError::Damaged("a flag is neither 0 nor 1")),
        };
        let targets = r.u64()?;
        let room = self.limits.max_entries;
        let too_many = |count: u64| {
            (count > room as u64).then_some(CheckpointError::TooLarge {
                positions: count,
                room,
            })
        };
        if let Some(err) = too_many(targets) {
            return Err(err);
        }
        let mut loop_targets = super::HashSet::default();
        for _ in 0..targets {
            loop_targets.insert(r.u64()?);
        }
        let entries = r.u64()?;
        if let Some(err) = too_many(entries) {
            return Err(err);
        }
        let mut table = super::Table::new(room);
        table.reserve(usize::try_from(entries).unwrap_or(room));
        for _ in 0..entries {
            let key = r.u64()?;
            let entry = Entry {
                proof: r.u32()?,
                disproof_or_proven_at: r.u32()?,
            };
            if entry.proof == 0 && entry.disproof_or_proven_at == 0 {
                return Err(CheckpointError::Damaged("an entry is proven at no time"));
            }
            if entry.proof == 0 && entry.disproof_or_proven_at > proofs {
                return Err(CheckpointError::Damaged(
                    "an entry is proven later than the last proof",
                ));
            }
            table.insert(key, entry);
        }
        let sum = r.sum.0;
        let mut bytes = [0; 8];
        r.input.read_exact(&mut bytes)?;
        if u64::from_le_bytes(bytes) != sum {
            return Err(CheckpointError::Damaged("its checksum does not match"));
        }
        if r.input.read(&mut bytes)? != 0 {
            return Err(CheckpointError::Damaged("it goes on after its checksum"));
        }
        if table.len() as u64 != entries {
            return Err(CheckpointError::Damaged("a position appears twice"));
        }
        self.table = table;
        self.loop_targets = loop_targets;
        self.proofs = proofs;
        self.nodes = nodes;
        self.hold_read.set(hold_read);
        self.repairs = repairs;
        self.stalls = stalls;
        self.collections = collections;
        self.forgotten = forgotten;
        self.stall_mark = (stall_mark.0, usize::try_from(stall_mark.1).unwrap_or(0));
        self.stall_window = stall_window.max(1);
        self.loops_for_every_path = loops_for_every_path;
        Ok(self.table.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::tests::checked;
    use crate::dfpn::{ProofLimits, Verdict};
    use epaminondas_rules::proof::Claim;
    use epaminondas_rules::{BoardSize, Symmetry};
    use std::sync::atomic::AtomicBool;

    fn start(files: u8, ranks: u8, symmetry: Symmetry) -> Position {
        Position::new(BoardSize::new(files, ranks).unwrap(), symmetry)
    }

    /// The checkpoint of `pos`'s search for `prover` stopped after
    /// `nodes` nodes, with its node count.
    fn stopped_after(
        pos: &Position,
        prover: Color,
        limits: ProofLimits,
        nodes: u64,
    ) -> (Vec<u8>, u64) {
        let stop = AtomicBool::new(false);
        let limits = ProofLimits {
            max_nodes: Some(nodes),
            ..limits
        };
        let search = ProofSearch::run(pos, prover, limits, &stop, |_| {});
        assert_eq!(search.verdict(), Verdict::Stopped);
        let mut file = Vec::new();
        search.write_checkpoint(&mut file).unwrap();
        (file, search.nodes())
    }

    #[test]
    fn a_search_resumed_from_its_checkpoint_goes_on_to_the_same_proof() {
        // 4x5 is White's (about 300,000 nodes): stopped at 100,000 and
        // resumed, the search proves it with fewer nodes after the
        // checkpoint than a whole search takes, and the proof checks.
        let stop = AtomicBool::new(false);
        let pos = start(4, 5, Symmetry::Mirror);
        let limits = ProofLimits {
            max_entries: 1 << 20,
            ..ProofLimits::default()
        };
        let whole = ProofSearch::run(&pos, Color::White, limits, &stop, |_| {});
        assert_eq!(whole.verdict(), Verdict::Proven);
        let (file, at) = stopped_after(&pos, Color::White, limits, 100_000);
        let mut resumed = ProofSearch::new(&pos, Color::White, limits, &stop, |_| {});
        let positions = resumed.read_checkpoint(file.as_slice()).unwrap();
        assert!(positions > 10_000, "{positions}");
        assert_eq!(resumed.nodes(), at);
        resumed.resume();
        assert_eq!(resumed.verdict(), Verdict::Proven);
        let after = resumed.nodes() - at;
        // Resumed, it searched about what was left: together no more than a
        // tenth over the whole search (throwing the table away would make
        // it about 40% more).
        assert!(
            at + after < whole.nodes() * 11 / 10,
            "{after} after {at}, {} whole",
            whole.nodes()
        );
        let proof = checked(&resumed, &pos);
        assert_eq!(proof.header.claim, Claim::Wins(Color::White));
    }

    #[test]
    fn a_search_taking_loops_for_every_path_resumes_so() {
        // 4x4 off with a stall check every 16 nodes: White's search goes
        // round, takes loops for every path and repairs (see the stall
        // test in the module above). Stopped after its first stall, the
        // checkpoint keeps that switch and its loop targets, and the
        // resumed search proves Black's hold without switching again.
        let stop = AtomicBool::new(false);
        let pos = start(4, 4, Symmetry::Off);
        let limits = ProofLimits {
            stall_nodes: 16,
            ..ProofLimits::default()
        };
        let (file, at) = stopped_after(&pos, Color::White, limits, 200_000);
        let mut resumed = ProofSearch::new(&pos, Color::White, limits, &stop, |_| {});
        resumed.read_checkpoint(file.as_slice()).unwrap();
        assert!(resumed.loops_for_every_path && resumed.stalls() >= 1);
        let switched = std::cell::Cell::new(false);
        let mut resumed = ProofSearch::new(&pos, Color::White, limits, &stop, |p| {
            switched.set(switched.get() || p.loops_for_every_path.is_some())
        });
        resumed.read_checkpoint(file.as_slice()).unwrap();
        resumed.resume();
        assert_eq!(resumed.verdict(), Verdict::NoWinFound);
        assert!(resumed.nodes() > at);
        let proof = checked(&resumed, &pos);
        drop(resumed);
        assert!(!switched.get());
        assert_eq!(proof.header.claim, Claim::Holds(Color::Black));
    }

    #[test]
    fn a_checkpoint_of_another_search_or_damaged_is_refused_with_the_reason() {
        let stop = AtomicBool::new(false);
        let pos = start(4, 5, Symmetry::Mirror);
        let limits = ProofLimits::default();
        let (file, _) = stopped_after(&pos, Color::White, limits, 20_000);
        let read = |pos: &Position, prover: Color, limits: ProofLimits, bytes: &[u8]| {
            ProofSearch::new(pos, prover, limits, &stop, |_| {}).read_checkpoint(bytes)
        };
        assert!(read(&pos, Color::White, limits, &file).is_ok());
        let other_side = read(&pos, Color::Black, limits, &file).unwrap_err();
        assert!(
            other_side.to_string().contains("'prover white'"),
            "{other_side}"
        );
        let other_rule = read(
            &pos.with_symmetry(Symmetry::Off),
            Color::White,
            limits,
            &file,
        );
        assert!(matches!(
            other_rule,
            Err(CheckpointError::OtherSearch { .. })
        ));
        let other_board = read(&start(5, 4, Symmetry::Mirror), Color::White, limits, &file);
        assert!(matches!(
            other_board,
            Err(CheckpointError::OtherSearch { .. })
        ));
        assert!(matches!(
            read(&pos, Color::White, limits, b"4x5 mirror\n"),
            Err(CheckpointError::NotACheckpoint)
        ));
        let newer = String::from_utf8_lossy(&file).replacen("format 1", "format 2", 1);
        assert!(matches!(
            read(&pos, Color::White, limits, newer.as_bytes()),
            Err(CheckpointError::Format(2))
        ));
        // Cut short, one bit changed, or with more after it.
        let cut = read(&pos, Color::White, limits, &file[..file.len() - 100]).unwrap_err();
        assert!(cut.to_string().contains("ends early"), "{cut}");
        let mut flipped = file.clone();
        let at = flipped.len() - 1000;
        flipped[at] ^= 4;
        assert!(matches!(
            read(&pos, Color::White, limits, &flipped),
            Err(CheckpointError::Damaged(_))
        ));
        let mut longer = file.clone();
        longer.push(0);
        assert!(matches!(
            read(&pos, Color::White, limits, &longer),
            Err(CheckpointError::Damaged(_))
        ));
        // A table too small for it.
        let small = ProofLimits {
            max_entries: 100,
            ..limits
        };
        let too_large = read(&pos, Color::White, small, &file).unwrap_err();
        assert!(matches!(
            too_large,
            CheckpointError::TooLarge { room: 100, .. }
        ));
    }
}
