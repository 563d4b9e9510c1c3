//! What the `read_known` fuzz target checks for one input, shared with the
//! engine's test that replays its seed corpus
//! (`crates/engine/tests/fuzz_corpus.rs`): the reader of `solve --known`
//! files never panics, takes only values of the run's game and board (open
//! ones only for a run with a node limit, found within no fewer nodes), and
//! the values it takes, written out again, read back the same.

use epaminondas_engine::dfpn::known::{KnownValues, header, read_values, value_line};
use epaminondas_rules::{Color, Position, Symmetry};

/// The runs each input is read for: a 6x4 position without the symmetry
/// rule (Black's side) and the 4x5 start with it (White's).
fn runs() -> [(Position, Color); 2] {
    let core: Position = "bb1bb1/wbbbb1/bwwww1/ww1ww1 b".parse().expect("a position");
    let start: Position = "bbbb/bbbb/4/wwww/wwww w".parse().expect("a position");
    [
        (core.with_symmetry(Symmetry::Off), Color::Black),
        (start, Color::White),
    ]
}

/// Reads `data` as a file of values for each run and checks what it takes.
pub fn check_known(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (pos, side) in runs() {
        let first = header(&pos, side);
        for move_nodes in [None, Some(20_000_000)] {
            let Ok(read) = read_values(text, &first, &pos, move_nodes) else {
                continue;
            };
            let mut again = format!("{first}\n");
            for known in &read.values {
                assert_eq!(known.position.size(), pos.size());
                assert_eq!(known.position.symmetry(), pos.symmetry());
                assert_eq!(known.position.variant(), pos.variant());
                // An open value serves only a search allowed no more nodes
                // than it was found within.
                if known.value.is_open() {
                    let (Some(found_with), Some(now)) = (known.nodes, move_nodes) else {
                        panic!("an open value taken without node limits: {known:?}");
                    };
                    assert!(found_with >= now, "{known:?}");
                }
                again.push_str(&value_line(
                    known.value,
                    known.reach,
                    known.nodes,
                    known.numbers,
                    &known.position,
                ));
            }
            let back =
                read_values(&again, &first, &pos, move_nodes).expect("written values read back");
            assert_eq!(
                back,
                KnownValues {
                    values: read.values.clone(),
                    cut_short: None
                }
            );
        }
    }
}
