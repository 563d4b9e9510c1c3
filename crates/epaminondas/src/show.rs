//! `epaminondas show`: a position as a pbmserv-style text diagram.

use std::path::PathBuf;

use crate::output::{Outcome, out};
use clap::Args;
use epaminondas_rules::diagram::side_label;
use epaminondas_rules::{Color, Diagram, Move, Position, Variant};

/// Arguments of `epaminondas show`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas show\n  epaminondas show game.txt --after 10 --as black\n  epaminondas show --position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"\n  epaminondas show --variant stumbling-blocks --position \"5/5/1s1s1/2s2/5 b\""
)]
pub struct ShowArgs {
    /// A game record file (`-` for standard input): its final position, or
    /// the one after `--after` moves.
    #[arg(conflicts_with = "position")]
    record: Option<PathBuf>,
    /// A position, as position text (default: the standard start).
    #[arg(long, value_parser = crate::args::position)]
    position: Option<Position>,
    /// The game of the position: epaminondas (the default), crossings,
    /// abanondas or stumbling-blocks (a record names its own).
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant, conflicts_with = "record")]
    variant: Variant,
    /// Show the record's position after this many moves (plies).
    #[arg(long, requires = "record")]
    after: Option<usize>,
    /// Which game of a file of several (1 for the first).
    #[arg(long, requires = "record")]
    game: Option<usize>,
    /// Draw the board from this side: `white` (rank 1 at the bottom) or `black`.
    #[arg(long = "as", value_parser = crate::args::color, default_value = "white")]
    side: Color,
}

/// Runs `epaminondas show`.
pub fn run(args: &ShowArgs) -> Outcome {
    let (pos, last): (Position, Option<Move>) = match (&args.record, &args.position) {
        (Some(path), _) => {
            let record = crate::records::read_one(path, args.game)?.0;
            let total = record.moves().len();
            let plies = args.after.unwrap_or(total);
            if plies > total {
                return Err(
                    format!("--after {plies}: the game has only {total} moves (plies)").into(),
                );
            }
            let last = plies.checked_sub(1).map(|i| record.moves()[i]);
            (record.position_after(plies), last)
        }
        (None, position) => (
            crate::args::game_start(args.variant, None, None, position.as_ref())?,
            None,
        ),
    };
    out!("{}", describe(&pos, last, args.side));
    Ok(())
}

/// The diagram and a few lines on the state of the game.
fn describe(pos: &Position, last: Option<Move>, side: Color) -> String {
    let mut diagram = Diagram::new(pos).from_side(side);
    if let Some(mv) = last {
        diagram = diagram.last_move(mv);
    }
    let mut text = format!("{diagram}\n");
    if let Some(mv) = last {
        text += &format!("Last move: {}\n", mv.with_capture_mark());
    }
    text += &format!(
        "On the goal rank: {} {}, {} {}\n",
        side_label(Color::White),
        pos.goal_count(Color::White),
        side_label(Color::Black),
        pos.goal_count(Color::Black)
    );
    match pos.outcome() {
        Some(outcome) => text += &format!("Game over: {outcome}\n"),
        None => text += &format!("{} to move\n", side_label(pos.turn())),
    }
    text += &format!("Position: {pos}\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_names_the_mover_and_the_crossings() {
        let pos: Position = "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap();
        let text = describe(&pos, None, Color::White);
        assert!(text.starts_with("5  x x x . . .\n"), "{text}");
        assert!(text.contains("On the goal rank: White (o) 0, Black (x) 0\n"));
        assert!(text.contains("White (o) to move\n"), "{text}");
        assert!(text.ends_with("Position: bbb3/2b3/4w1/1wb1w1/w3w1 w\n"));
    }
}
