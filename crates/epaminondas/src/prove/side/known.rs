//! `solve --moves --side --known FILE`: the values of positions found by
//! one run kept in a file for the next, so that a run stopped (by `--time`,
//! Ctrl-C or the end of a night) and started again, or a run on another
//! position whose lines meet these, does not search them again.
//!
//! The file is text, a line a value, appended to as values are found:
//!
//! ```text
//! epaminondas-known 1 variant epaminondas symmetry off side black
//! wins 0 20000000 bb1bb1/wbbbb1/bwwww1/ww1ww1 b
//! no-win-found 2 20000000 bbb1b1/wbbbb1/1wwwwb/1w1www b
//! ```
//!
//! The first line names the game and the side whose win the values are
//! about. Each line after it holds a value (`wins`, `cannot-win`,
//! `no-win-found`, `undecided`), how many plies below the position it was
//! split (0: searched whole), the `--move-nodes` of the run that found it
//! (`-` for none) and the position. A decided value (`wins`, `cannot-win`)
//! holds for any run. An open one only says how far a search got: it is
//! written only by a run with `--move-nodes` (and no `--move-time`), and
//! taken only by a run whose `--move-nodes` is no larger (it would find no
//! more), so that the next run goes straight on splitting the lines left
//! open. (Nor would it, with the same `--hold-memory`, read a hold that was
//! too large: after raising that, start a new file, or keep only the lines
//! of decided values.) A later line of the
//! same position (or its reflection) stands for the earlier ones, as in a
//! run (a decided value is never overwritten by an open one).

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use epaminondas_rules::{Color, Position};

use super::SideValue;
use crate::output::{Failure, open_to_add_to};
use crate::prove::MovesLimits;

/// What the first line of a file of values starts with, and the version of
/// its layout.
const MAGIC: &str = "epaminondas-known 1";

/// One value read from the file.
#[derive(Debug)]
pub(super) struct KnownValue {
    /// The position.
    pub position: Position,
    /// Its value for the file's side.
    pub value: SideValue,
    /// How many plies below the position it was split.
    pub reach: u32,
}

/// A file of values opened for a run: read at the start, appended to as
/// the run finds values.
pub(super) struct KnownFile {
    path: PathBuf,
    file: File,
    /// The run's `--move-nodes`, when it is the only limit of each search
    /// (no `--move-time`): an open value is written only then.
    open_found_with: Option<u64>,
}

impl KnownFile {
    /// Opens (or creates) the file at `path` for a run looking for
    /// `side`'s win from `pos` (whose variant, symmetry option and board the
    /// values must be of) within `limits`: the file and the values in it
    /// the run may take, in the order written.
    pub fn open(
        path: &Path,
        pos: &Position,
        side: Color,
        limits: &MovesLimits,
    ) -> Result<(KnownFile, Vec<KnownValue>), Failure> {
        let move_nodes = limits.move_nodes;
        let shown = path.display();
        let mut file = open_to_add_to(path)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(|e| match e.kind() {
            ErrorKind::InvalidData => {
                Failure::Input(format!("{shown} is not a file of values (not text)"))
            }
            _ => Failure::Input(format!("cannot read {shown}: {e}")),
        })?;
        let header = format!(
            "{MAGIC} variant {} symmetry {} side {side}",
            pos.variant(),
            pos.symmetry()
        );
        let values = if text.is_empty() {
            writeln!(file, "{header}")
                .map_err(|e| Failure::Run(format!("cannot write to {shown}: {e}")))?;
            Vec::new()
        } else {
            read_values(&text, &header, pos, move_nodes)
                .map_err(|e| Failure::Input(format!("{shown}: {e}")))?
        };
        let known = KnownFile {
            path: path.to_owned(),
            file,
            open_found_with: move_nodes.filter(|_| limits.move_time.is_none()),
        };
        Ok((known, values))
    }

    /// Appends the `value` found for `position`, split `reach` plies below
    /// (an open value only with `--move-nodes` and no `--move-time`, whose
    /// stop is not the same from run to run), one whole line at a time
    /// so that a run stopped at any point leaves only whole lines.
    pub fn write(
        &mut self,
        position: &Position,
        value: SideValue,
        reach: u32,
    ) -> Result<(), Failure> {
        if super::open(value) && self.open_found_with.is_none() {
            return Ok(());
        }
        let nodes = self
            .open_found_with
            .map_or_else(|| "-".to_owned(), |n| n.to_string());
        let line = format!("{} {reach} {nodes} {position}\n", word(value));
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| Failure::Run(format!("cannot write to {}: {e}", self.path.display())))
    }
}

/// A value's word in the file.
fn word(value: SideValue) -> &'static str {
    match value {
        SideValue::Wins => "wins",
        SideValue::CannotWin => "cannot-win",
        SideValue::NoWinFound => "no-win-found",
        SideValue::Undecided => "undecided",
    }
}

/// The values in the file's `text` that a run with `header` from `pos`
/// and `move_nodes` may take; an error names the line that is wrong. A
/// last line without its end (a run killed while writing it) is left out.
fn read_values(
    text: &str,
    header: &str,
    pos: &Position,
    move_nodes: Option<u64>,
) -> Result<Vec<KnownValue>, String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default().trim_end();
    if !first.starts_with(MAGIC) {
        return Err(format!(
            "not a file of values: its first line should start with '{MAGIC}'"
        ));
    }
    if first != header {
        return Err(format!(
            "holds values for '{}', not for this run's '{}': name another file",
            first.trim_start_matches(MAGIC).trim(),
            header.trim_start_matches(MAGIC).trim()
        ));
    }
    let mut values = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let Some(line) = line.strip_suffix('\n') else {
            eprintln!("line {number} of the file of values is cut short and left out");
            break;
        };
        let read = read_line(line, pos, move_nodes).map_err(|e| format!("line {number}: {e}"))?;
        values.extend(read);
    }
    Ok(values)
}

/// One line of values: the value, if a run from `pos` with `move_nodes`
/// may take it.
fn read_line(
    line: &str,
    pos: &Position,
    move_nodes: Option<u64>,
) -> Result<Option<KnownValue>, String> {
    let mut fields = line.splitn(4, ' ');
    let mut field = |what: &str| {
        fields
            .next()
            .filter(|f| !f.is_empty())
            .ok_or_else(|| format!("{what} missing (expected: VALUE PLIES NODES POSITION)"))
    };
    let value = match field("the value")? {
        "wins" => SideValue::Wins,
        "cannot-win" => SideValue::CannotWin,
        "no-win-found" => SideValue::NoWinFound,
        "undecided" => SideValue::Undecided,
        other => {
            return Err(format!(
                "'{other}' is not a value (wins, cannot-win, no-win-found or undecided)"
            ));
        }
    };
    let reach = field("the plies")?;
    let reach: u32 = reach
        .parse()
        .map_err(|_| format!("'{reach}' is not a number of plies"))?;
    let nodes = match field("the nodes")? {
        "-" => None,
        n => Some(
            n.parse::<u64>()
                .map_err(|_| format!("'{n}' is not a number of nodes (or '-')"))?,
        ),
    };
    let text = field("the position")?;
    let position = text
        .parse::<Position>()
        .map_err(|e| format!("'{text}' is not a position: {e}"))?
        .with_symmetry(pos.symmetry())
        .with_variant(pos.variant())
        .map_err(|e| format!("'{text}' is not a position of {}: {e}", pos.variant()))?;
    if position.size() != pos.size() {
        return Err(format!(
            "the position is on a {} board, not {}",
            position.size(),
            pos.size()
        ));
    }
    // An open value says how far a search with its nodes got: a run
    // allowed more may get further.
    let usable = !super::open(value)
        || nodes.is_some_and(|found_with| move_nodes.is_some_and(|now| now <= found_with));
    Ok(usable.then_some(KnownValue {
        position,
        value,
        reach,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        let pos: Position = "bb1bb1/wbbbb1/bwwww1/ww1ww1 b".parse().expect("a position");
        pos.with_symmetry(epaminondas_rules::Symmetry::Off)
    }

    fn header(pos: &Position) -> String {
        format!(
            "{MAGIC} variant {} symmetry {} side black",
            pos.variant(),
            pos.symmetry()
        )
    }

    #[test]
    fn decided_values_are_taken_by_any_run_open_ones_by_a_run_allowed_no_more_nodes() {
        let pos = start();
        let text = format!(
            "{}\nwins 0 - {pos}\nno-win-found 2 1000 {pos}\nundecided 0 - {pos}\n",
            header(&pos)
        );
        let read = |nodes| {
            read_values(&text, &header(&pos), &pos, nodes)
                .expect("read")
                .iter()
                .map(|v| (v.value, v.reach))
                .collect::<Vec<_>>()
        };
        assert_eq!(read(None), [(SideValue::Wins, 0)]);
        assert_eq!(read(Some(2000)), [(SideValue::Wins, 0)]);
        assert_eq!(
            read(Some(1000)),
            [(SideValue::Wins, 0), (SideValue::NoWinFound, 2)]
        );
    }

    #[test]
    fn a_file_of_another_game_or_a_wrong_line_is_refused_and_a_torn_last_line_left_out() {
        let pos = start();
        let other = header(&pos).replace("black", "white");
        let err = read_values(&format!("{other}\n"), &header(&pos), &pos, None).unwrap_err();
        assert!(
            err.contains("side white") && err.contains("name another file"),
            "{err}"
        );
        let err = read_values("hello\n", &header(&pos), &pos, None).unwrap_err();
        assert!(err.contains("not a file of values"), "{err}");
        let wrong = format!("{}\nwins 0 -\n", header(&pos));
        let err = read_values(&wrong, &header(&pos), &pos, None).unwrap_err();
        assert!(err.starts_with("line 2: the position missing"), "{err}");
        let wrong = format!("{}\nwon 0 - {pos}\n", header(&pos));
        let err = read_values(&wrong, &header(&pos), &pos, None).unwrap_err();
        assert!(err.contains("'won' is not a value"), "{err}");
        let wrong = format!("{}\nwins 0 - 4b/w4/5/5/5 w\n", header(&pos));
        let err = read_values(&wrong, &header(&pos), &pos, None).unwrap_err();
        assert!(err.contains("on a 5x5 board, not 6x4"), "{err}");
        let torn = format!("{}\nwins 0 - {pos}\ncannot-win 0 - bb", header(&pos));
        let read = read_values(&torn, &header(&pos), &pos, None).expect("read");
        assert_eq!(read.len(), 1);
    }

    #[test]
    fn a_file_spoilt_anywhere_is_read_or_refused_never_a_panic() {
        // Every character of a good file replaced by others that matter to
        // the reader, and the file cut short after every character.
        let pos = start();
        let good = format!(
            "{}\nwins 0 - {pos}\nno-win-found 12 20000000 {pos}\n",
            header(&pos)
        );
        let chars: Vec<char> = good.chars().collect();
        for at in 0..chars.len() {
            for with in [' ', '\n', '-', '9', 'x', '/', 'é'] {
                let mut spoilt = chars.clone();
                spoilt[at] = with;
                let spoilt: String = spoilt.into_iter().collect();
                let _ = read_values(&spoilt, &header(&pos), &pos, Some(1));
            }
            let cut: String = chars[..at].iter().collect();
            let _ = read_values(&cut, &header(&pos), &pos, Some(1));
        }
        let big = format!(
            "{}\nwins 99999999999 99999999999999999999999 {pos}\n",
            header(&pos)
        );
        assert!(read_values(&big, &header(&pos), &pos, None).is_err());
    }
}
