//! `epaminondas convert`: game records or move lists from one notation
//! dialect to another.

use std::path::PathBuf;

use crate::output::{Outcome, out};
use clap::Args;
use epaminondas_rules::{Dialect, GameRecord, Variant};

/// Arguments of `epaminondas convert`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas convert games.txt --to rear-piece\n  epaminondas convert --from rear-piece old.txt > new.txt\n  epaminondas convert --variant abanondas moves.txt"
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
    /// The game of a bare move list (one without tags): epaminondas (the
    /// default), crossings, abanondas or stumbling-blocks. A record names
    /// its own in its `Variant` tag.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
}

fn dialect(s: &str) -> Result<Dialect, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// Runs `epaminondas convert`.
pub fn run(args: &ConvertArgs) -> Outcome {
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let text = crate::records::read_text(&path)?;
    let text = with_variant(&text, args.variant);
    out!("{}", convert(&text, args.from, args.to)?);
    Ok(())
}

/// `text` with a `Variant` tag in front where it is a bare move list of a
/// variant (text with tags says its own variant).
fn with_variant(text: &str, variant: Variant) -> String {
    let tagged = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[');
    if variant.is_standard() || tagged {
        text.to_owned()
    } else {
        format!("[Variant \"{variant}\"]\n\n{text}")
    }
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

    #[test]
    fn a_bare_move_list_of_a_variant_gains_its_tag() {
        let text = with_variant("1. a2,b2-b3 *\n", Variant::Abanondas);
        let written = convert(&text, Dialect::Standard, Dialect::RearPiece).unwrap();
        assert!(written.contains("[Variant \"abanondas\"]"), "{written}");
        assert!(
            written.contains("1. a2,b2-b3 *"),
            "a sidestep has one form: {written}"
        );
        // Without the variant the sidestep is no move.
        assert!(convert("1. a2,b2-b3 *\n", Dialect::Standard, Dialect::Standard).is_err());
        let tagged = "[Variant \"crossings\"]\n\n*\n";
        assert_eq!(with_variant(tagged, Variant::Abanondas), tagged);
    }
}
