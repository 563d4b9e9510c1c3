//! `epaminondas convert`: game records or move lists from one notation
//! dialect to another.

use std::path::PathBuf;

use crate::output::{Outcome, out};
use clap::Args;
use epaminondas_rules::{Dialect, GameRecord};

/// Arguments of `epaminondas convert`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas convert games.txt --to rear-piece\n  epaminondas convert --from rear-piece old.txt > new.txt"
)]
pub struct ConvertArgs {
    /// A file of game records or a move list (`-` or nothing for standard input).
    input: Option<PathBuf>,
    /// The dialect the moves are written in: `standard` (pbmserv's `e1,e3-e5`
    /// and `a5-d5` tail-to-landing) or `rear-piece` (`a5-c5`: where the tail
    /// starts and finishes). A record's `Notation` tag overrides it.
    #[arg(long, value_parser = dialect, default_value = "standard")]
    from: Dialect,
    /// The dialect to write.
    #[arg(long, value_parser = dialect, default_value = "standard")]
    to: Dialect,
}

fn dialect(s: &str) -> Result<Dialect, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// Runs `epaminondas convert`.
pub fn run(args: &ConvertArgs) -> Outcome {
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let text = crate::records::read_text(&path)?;
    out!("{}", convert(&text, args.from, args.to)?);
    Ok(())
}

/// Every record of `text`, read in `from` and written in `to`, separated by
/// blank lines.
fn convert(text: &str, from: Dialect, to: Dialect) -> Result<String, String> {
    let records =
        GameRecord::read_all_in(text, from).map_err(|(n, e)| format!("record {n}: {e}"))?;
    if records.is_empty() {
        return Err("no game record or move list in the input".to_owned());
    }
    let written: Vec<String> = records
        .iter()
        .map(|r| r.display_in(to).to_string())
        .collect();
    Ok(written.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_list_goes_both_ways() {
        let standard = "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h6 *\n";
        let rear = convert(standard, Dialect::Standard, Dialect::RearPiece).unwrap();
        assert_eq!(
            rear,
            "[Notation \"rear-piece\"]\n\n1. f1-g2 e12-g10 2. h1-h4 *\n"
        );
        let back = convert(&rear, Dialect::Standard, Dialect::Standard).unwrap();
        assert_eq!(back, standard);
        // Without the tag, rear-piece text is read only when asked for.
        let bare = "1. f1-g2 e12-g10 2. h1-h4";
        assert_eq!(
            convert(bare, Dialect::RearPiece, Dialect::Standard).unwrap(),
            standard
        );
        let err = convert(bare, Dialect::Standard, Dialect::Standard).unwrap_err();
        assert!(
            err.starts_with("record 1: move 1. f1-g2 (white): "),
            "{err}"
        );
        assert_eq!(
            convert(" \n", Dialect::Standard, Dialect::Standard).unwrap_err(),
            "no game record or move list in the input"
        );
    }
}
