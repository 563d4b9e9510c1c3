//! Values of positions for one side, as found by proof searches, kept in a
//! text file from one run to the next (`epaminondas solve --moves --side
//! --known FILE`): a run stopped and started again, or a run on another
//! position whose lines meet these, takes them instead of searching again.
//! This module reads and writes the file's text; opening and appending is
//! the command's.
//!
//! The file is text, a line a value, appended to as values are found:
//!
//! ```text
//! epaminondas-known 1 variant epaminondas symmetry off side black
//! wins 0 20000000 bb1bb1/wbbbb1/bwwww1/ww1ww1 b
//! no-win-found 2 20000000 bbb1b1/wbbbb1/1wwwwb/1w1www b
//! undecided 0 20000000 numbers=14/301 bbb1b1/wbbbb1/1wwwww/1w1w1w b
//! ```
//!
//! The first line ([`header`]) names the game and the side whose win the
//! values are about. Each line after it ([`value_line`]) holds a value
//! (`wins`, `cannot-win`, `no-win-found`, `undecided`), how many plies
//! below the position it was split (0: searched whole), the node limit of
//! each search of the run that found it (`-` for none) and the position;
//! an `undecided` value may also say, before the position, the proof and
//! disproof numbers its search stopped at (`numbers=PROOF/DISPROOF`), which
//! the best-first tree of `--leaf-numbers search` steers by, so that a run
//! started again steers as the run that found them did. A
//! decided value (`wins`, `cannot-win`) holds for any run. An open one
//! only says how far a search got: it is worth writing only for a run
//! whose searches stop at a node limit (the same point on any machine),
//! and worth taking only by a search whose limit is no larger (it would
//! find no more), so that the next run goes straight on splitting the
//! lines left open; [`read_values`] leaves out those that no search of
//! the run may take, and each value says the limit it was found within. A later line of the
//! same position (or its reflection) stands for the earlier ones (the
//! reader of the values decides how; `solve` never lets an open value
//! overwrite a decided one).

use std::fmt;

use epaminondas_rules::{Color, Position};

/// What the first line of a file of values starts with, and the version of
/// its layout.
pub const MAGIC: &str = "epaminondas-known 1";

/// What one side's proof search found from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideValue {
    /// The side can force a win.
    Wins,
    /// The side cannot force a win: the other side's hold closes over the
    /// positions searched.
    CannotWin,
    /// No win found, but the other side's hold did not close (or was too
    /// large to read): not proven.
    NoWinFound,
    /// Stopped (by a time or node limit, the memory or an interrupt)
    /// before deciding.
    Undecided,
}

impl SideValue {
    /// Whether the value leaves the position open: a deeper or longer
    /// search may still decide it.
    pub fn is_open(self) -> bool {
        matches!(self, SideValue::Undecided | SideValue::NoWinFound)
    }

    /// The value's word in the file.
    pub fn word(self) -> &'static str {
        match self {
            SideValue::Wins => "wins",
            SideValue::CannotWin => "cannot-win",
            SideValue::NoWinFound => "no-win-found",
            SideValue::Undecided => "undecided",
        }
    }
}

/// One value read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownValue {
    /// The position.
    pub position: Position,
    /// Its value for the file's side.
    pub value: SideValue,
    /// How many plies below the position it was split.
    pub reach: u32,
    /// The node limit of each search of the run that found it (`None`: no
    /// node limit). An open value serves a search allowed no more nodes.
    pub nodes: Option<u64>,
    /// The proof and disproof numbers an undecided position's search
    /// stopped at, from the side's view, where the line says them.
    pub numbers: Option<(u64, u64)>,
}

/// The values of a file that a run may take, in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownValues {
    /// The values.
    pub values: Vec<KnownValue>,
    /// The number of a last line left out because it has no end (a run
    /// killed while writing it), if there is one.
    pub cut_short: Option<usize>,
}

/// Why the text of a file of values was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownError {
    /// The first line does not start with [`MAGIC`].
    NotValues,
    /// The first line names another game, symmetry option or side.
    OtherRun {
        /// What the file's first line names.
        found: String,
        /// What the run's would.
        wanted: String,
    },
    /// A line that cannot be read (numbered from 1, the first line's).
    Line {
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for KnownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnownError::NotValues => write!(
                f,
                "not a file of values: its first line should start with '{MAGIC}'"
            ),
            KnownError::OtherRun { found, wanted } => write!(
                f,
                "holds values for '{found}', not for this run's '{wanted}': name another file"
            ),
            KnownError::Line { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for KnownError {}

/// The first line of the file of values of `side`'s win for positions of
/// the game of `pos` (its variant and symmetry option).
pub fn header(pos: &Position, side: Color) -> String {
    format!(
        "{MAGIC} variant {} symmetry {} side {side}",
        pos.variant(),
        pos.symmetry()
    )
}

/// What the field of an undecided value's proof and disproof numbers
/// starts with.
const NUMBERS: &str = "numbers=";

/// The line (with its end) that keeps `value` for `position`, split
/// `reach` plies below, found by searches limited to `nodes` nodes each
/// (`None`: no node limit), with the proof and disproof `numbers` its
/// search stopped at if it is undecided and they are known.
pub fn value_line(
    value: SideValue,
    reach: u32,
    nodes: Option<u64>,
    numbers: Option<(u64, u64)>,
    position: &Position,
) -> String {
    let nodes = nodes.map_or_else(|| "-".to_owned(), |n| n.to_string());
    let numbers = match numbers.filter(|_| value == SideValue::Undecided) {
        Some((proof, disproof)) => format!("{NUMBERS}{proof}/{disproof} "),
        None => String::new(),
    };
    format!("{} {reach} {nodes} {numbers}{position}\n", value.word())
}

/// The values in the file's `text` that a run from `pos` (whose variant,
/// symmetry option and board they must be of) with first line `header`
/// may take, where the smallest node limit of its searches is
/// `move_nodes` (an open value found within fewer nodes serves none of
/// them); an error names the line that is wrong. A last line without its end is left out and named.
pub fn read_values(
    text: &str,
    header: &str,
    pos: &Position,
    move_nodes: Option<u64>,
) -> Result<KnownValues, KnownError> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default().trim_end();
    if !first.starts_with(MAGIC) {
        return Err(KnownError::NotValues);
    }
    if first != header {
        return Err(KnownError::OtherRun {
            found: first.trim_start_matches(MAGIC).trim().to_owned(),
            wanted: header.trim_start_matches(MAGIC).trim().to_owned(),
        });
    }
    let mut read = KnownValues::default();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let Some(line) = line.strip_suffix('\n') else {
            read.cut_short = Some(number);
            break;
        };
        let value = read_line(line, pos, move_nodes).map_err(|reason| KnownError::Line {
            line: number,
            reason,
        })?;
        read.values.extend(value);
    }
    Ok(read)
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
        fields.next().filter(|f| !f.is_empty()).ok_or_else(|| {
            format!(
                "{what} missing (expected: VALUE PLIES NODES [numbers=PROOF/DISPROOF] POSITION)"
            )
        })
    };
    let word = field("the value")?;
    let value = [
        SideValue::Wins,
        SideValue::CannotWin,
        SideValue::NoWinFound,
        SideValue::Undecided,
    ]
    .into_iter()
    .find(|v| v.word() == word)
    .ok_or_else(|| {
        format!("'{word}' is not a value (wins, cannot-win, no-win-found or undecided)")
    })?;
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
    let mut text = field("the position")?;
    let mut numbers = None;
    if let Some(rest) = text.strip_prefix(NUMBERS) {
        let (field, after) = rest.split_once(' ').unwrap_or((rest, ""));
        if value != SideValue::Undecided {
            return Err(format!("only an undecided value has numbers, not '{word}'"));
        }
        let parsed = field.split_once('/').and_then(|(proof, disproof)| {
            Some((proof.parse::<u64>().ok()?, disproof.parse::<u64>().ok()?))
        });
        numbers = Some(parsed.ok_or_else(|| {
            format!(
                "'{NUMBERS}{field}' is not a proof and a disproof number (numbers=PROOF/DISPROOF)"
            )
        })?);
        text = after;
        if text.is_empty() {
            return Err("the position missing after the numbers".to_owned());
        }
    }
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
    let usable = !value.is_open()
        || nodes.is_some_and(|found_with| move_nodes.is_some_and(|now| now <= found_with));
    Ok(usable.then_some(KnownValue {
        position,
        value,
        reach,
        nodes,
        numbers,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        let pos: Position = "bb1bb1/wbbbb1/bwwww1/ww1ww1 b".parse().expect("a position");
        pos.with_symmetry(epaminondas_rules::Symmetry::Off)
    }

    fn black(pos: &Position) -> String {
        header(pos, Color::Black)
    }

    #[test]
    fn decided_values_are_taken_by_any_run_open_ones_by_a_search_allowed_no_more_nodes() {
        let pos = start();
        let text = format!(
            "{}\n{}{}{}",
            black(&pos),
            value_line(SideValue::Wins, 0, None, None, &pos),
            value_line(SideValue::NoWinFound, 2, Some(1000), None, &pos),
            value_line(SideValue::Undecided, 0, None, None, &pos),
        );
        assert!(text.contains("\nno-win-found 2 1000 bb1bb1/"), "{text}");
        let read = |nodes| {
            let read = read_values(&text, &black(&pos), &pos, nodes).expect("read");
            assert_eq!(read.cut_short, None);
            read.values
                .iter()
                .map(|v| (v.value, v.reach, v.nodes))
                .collect::<Vec<_>>()
        };
        assert_eq!(read(None), [(SideValue::Wins, 0, None)]);
        assert_eq!(read(Some(2000)), [(SideValue::Wins, 0, None)]);
        for smallest in [1000, 10] {
            assert_eq!(
                read(Some(smallest)),
                [
                    (SideValue::Wins, 0, None),
                    (SideValue::NoWinFound, 2, Some(1000))
                ]
            );
        }
    }

    #[test]
    fn a_file_of_another_game_or_a_wrong_line_is_refused_and_a_torn_last_line_left_out() {
        let pos = start();
        let white = header(&pos, Color::White);
        let err = read_values(&format!("{white}\n"), &black(&pos), &pos, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("side white") && err.contains("name another file"),
            "{err}"
        );
        let refused = |text: &str| {
            read_values(text, &black(&pos), &pos, None)
                .unwrap_err()
                .to_string()
        };
        assert!(refused("hello\n").contains("not a file of values"));
        let err = refused(&format!("{}\nwins 0 -\n", black(&pos)));
        assert!(err.starts_with("line 2: the position missing"), "{err}");
        let err = refused(&format!("{}\nwon 0 - {pos}\n", black(&pos)));
        assert!(err.contains("'won' is not a value"), "{err}");
        let err = refused(&format!("{}\nwins 0 - 4b/w4/5/5/5 w\n", black(&pos)));
        assert!(err.contains("on a 5x5 board, not 6x4"), "{err}");
        let torn = format!("{}\nwins 0 - {pos}\ncannot-win 0 - bb", black(&pos));
        let read = read_values(&torn, &black(&pos), &pos, None).expect("read");
        assert_eq!(read.values.len(), 1);
        assert_eq!(read.cut_short, Some(3));
    }

    #[test]
    fn an_undecided_value_keeps_the_numbers_its_search_stopped_at() {
        let pos = start();
        let line = value_line(SideValue::Undecided, 0, Some(500), Some((7, 1234)), &pos);
        assert_eq!(line, format!("undecided 0 500 numbers=7/1234 {pos}\n"));
        // Only an undecided value has them to keep.
        let decided = value_line(SideValue::CannotWin, 0, Some(500), Some((7, 1234)), &pos);
        assert_eq!(decided, format!("cannot-win 0 500 {pos}\n"));
        let text = format!("{}\n{line}{decided}", black(&pos));
        let read = read_values(&text, &black(&pos), &pos, Some(500)).expect("read");
        let numbers: Vec<_> = read.values.iter().map(|v| v.numbers).collect();
        assert_eq!(numbers, [Some((7, 1234)), None]);
        assert_eq!(read.values[0].position, pos);
        let refused = |line: &str| {
            read_values(
                &format!("{}\n{line}\n", black(&pos)),
                &black(&pos),
                &pos,
                None,
            )
            .unwrap_err()
            .to_string()
        };
        let err = refused(&format!("wins 0 - numbers=1/2 {pos}"));
        assert!(err.contains("only an undecided value has numbers"), "{err}");
        let err = refused(&format!("undecided 0 - numbers=1-2 {pos}"));
        assert!(
            err.contains("'numbers=1-2' is not a proof and a disproof number"),
            "{err}"
        );
        let err = refused("undecided 0 - numbers=1/2");
        assert!(
            err.contains("the position missing after the numbers"),
            "{err}"
        );
    }

    #[test]
    fn a_file_spoilt_anywhere_is_read_or_refused_never_a_panic() {
        // Every character of a good file replaced by others that matter to
        // the reader, and the file cut short after every character.
        let pos = start();
        let good = format!(
            "{}\nwins 0 - {pos}\nno-win-found 12 20000000 {pos}\nundecided 0 9 numbers=3/27 {pos}\n",
            black(&pos)
        );
        let chars: Vec<char> = good.chars().collect();
        for at in 0..chars.len() {
            for with in [' ', '\n', '-', '9', 'x', '/', 'é'] {
                let mut spoilt = chars.clone();
                spoilt[at] = with;
                let spoilt: String = spoilt.into_iter().collect();
                let _ = read_values(&spoilt, &black(&pos), &pos, Some(1));
            }
            let cut: String = chars[..at].iter().collect();
            let _ = read_values(&cut, &black(&pos), &pos, Some(1));
        }
        let big = format!(
            "{}\nwins 99999999999 99999999999999999999999 {pos}\n",
            black(&pos)
        );
        assert!(read_values(&big, &black(&pos), &pos, None).is_err());
    }
}
