//! `solve --moves --side --known FILE`: the values of positions found by
//! one run kept in a file for the next, so that a run stopped (by `--time`,
//! Ctrl-C or the end of a night) and started again, or a run on another
//! position whose lines meet these, does not search them again. The file's
//! layout, and which values a run may take, are
//! [`epaminondas_engine::dfpn::known`]'s; here the file is opened, read
//! whole at the start and appended to a whole line at a time. An open
//! value is written only by a run with `--move-nodes` and no
//! `--move-time` (whose stop is not the same from run to run). (Nor would
//! a run with the same `--hold-memory` read a hold that was too large:
//! after raising that, start a new file, or keep only the lines of decided
//! values.)
//!
//! The other side's file (`--other-side-known`) is only read: each
//! position that side's runs proved it wins is one this side cannot win.
//! It is read again before each split of `--best-first` and each pass
//! of `--deepen` (see [`OtherSideWins`]), so two runs side by side, one
//! for each side, take each other's wins as they are found: a proof that
//! Black wins after a move of White's is the disproof White's run needs
//! there, and the other way round.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use epaminondas_engine::dfpn::known::{self, KnownValue, SideValue};
use epaminondas_rules::{Color, Position};

use crate::output::{Failure, open_to_add_to};
use crate::prove::MovesLimits;

/// A file of values opened for a run: read at the start, appended to as
/// the run finds values.
pub(super) struct KnownFile {
    path: PathBuf,
    file: File,
    /// Whether the run's searches stop at a node limit alone
    /// (`--move-nodes`, no `--move-time`): an open value is written only
    /// then.
    writes_open: bool,
}

impl KnownFile {
    /// Opens (or creates) the file at `path` for a run looking for
    /// `side`'s win from `pos` (whose variant, symmetry option and board the
    /// values must be of) within `limits`, whose searches are allowed at
    /// least `fewest_nodes` (`--try-nodes`, or `--move-nodes`): the file
    /// and the values in it the run may take, in the order written.
    pub fn open(
        path: &Path,
        pos: &Position,
        side: Color,
        limits: &MovesLimits,
        fewest_nodes: Option<u64>,
    ) -> Result<(KnownFile, Vec<KnownValue>), Failure> {
        let shown = path.display();
        let mut file = open_to_add_to(path)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(|e| match e.kind() {
            ErrorKind::InvalidData => {
                Failure::Input(format!("{shown} is not a file of values (not text)"))
            }
            _ => Failure::Input(format!("cannot read {shown}: {e}")),
        })?;
        let header = known::header(pos, side);
        let values = if text.is_empty() {
            writeln!(file, "{header}")
                .map_err(|e| Failure::Run(format!("cannot write to {shown}: {e}")))?;
            Vec::new()
        } else {
            let read = known::read_values(&text, &header, pos, fewest_nodes)
                .map_err(|e| Failure::Input(format!("{shown}: {e}")))?;
            if let Some(line) = read.cut_short {
                eprintln!("line {line} of {shown} is cut short and left out");
            }
            read.values
        };
        let known = KnownFile {
            path: path.to_owned(),
            file,
            writes_open: limits.move_nodes.is_some() && limits.move_time.is_none(),
        };
        Ok((known, values))
    }

    /// Appends the `value` found for `position`, split `reach` plies below
    /// by searches of at most `nodes` nodes, with the proof and disproof
    /// `numbers` its search stopped at if it is undecided (an open value only with
    /// `--move-nodes` and no `--move-time`, whose stop is not the same from
    /// run to run), one whole line at a time so that a run stopped at any
    /// point leaves only whole lines.
    pub fn write(
        &mut self,
        position: &Position,
        value: SideValue,
        reach: u32,
        nodes: Option<u64>,
        numbers: Option<(u64, u64)>,
    ) -> Result<(), Failure> {
        if value.is_open() && !self.writes_open {
            return Ok(());
        }
        let line = known::value_line(value, reach, nodes, numbers, position);
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| Failure::Run(format!("cannot write to {}: {e}", self.path.display())))
    }
}

/// The file of values of the other side's runs (`--other-side-known`),
/// read only, for the positions it says that side wins.
pub(super) struct OtherSideWins {
    path: PathBuf,
    /// The first line the file must have: the other side's, in this game.
    header: String,
    /// The position the run decides, whose game and board the values must
    /// be of.
    start: Position,
}

impl OtherSideWins {
    /// Opens the file at `path` of the values of the side other than
    /// `side` in the game of `pos`, and reads the positions it wins; an
    /// error says what is wrong with the file.
    pub fn open(
        path: &Path,
        pos: &Position,
        side: Color,
    ) -> Result<(OtherSideWins, Vec<Position>), Failure> {
        let other = OtherSideWins {
            path: path.to_owned(),
            header: known::header(pos, !side),
            start: pos.clone(),
        };
        let wins = other.read().map_err(Failure::Input)?;
        Ok((other, wins))
    }

    /// The positions the file says the other side wins, read whole again
    /// (a few thousand lines at most; a last line still being written is
    /// left for the next read); an error says what is wrong.
    pub fn read(&self) -> Result<Vec<Position>, String> {
        let shown = self.path.display();
        let text = std::fs::read(&self.path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let text = String::from_utf8(text)
            .map_err(|_| format!("{shown} is not a file of values (not text)"))?;
        let read = known::read_values(&text, &self.header, &self.start, None).map_err(|e| match e {
            known::KnownError::OtherRun { found, wanted } => format!(
                "{shown} holds values for '{found}', not the other side's ('{wanted}'): give the --known file of the other side's runs"
            ),
            e => format!("{shown}: {e}"),
        })?;
        Ok(read
            .values
            .into_iter()
            .filter(|v| v.value == SideValue::Wins)
            .map(|v| v.position)
            .collect())
    }
}
