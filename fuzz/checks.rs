//! What the fuzz targets check for one input, shared with the test that
//! replays the seed corpus (`crates/rules/tests/fuzz_corpus.rs`).
//!
//! Every parser must return (never panic), and whatever it accepts must
//! survive a round trip through its printed form.

// Each fuzz target uses one of the checks.
#![allow(dead_code)]

use epaminondas_rules::{Dialect, GameRecord, Position, Setup};

/// Positions to read moves in: the standard start, the 6x5 seeds/004
/// position, a crowded 8x8 middle game and a 26x26 board.
fn move_positions() -> Vec<Position> {
    [
        "bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/14/14/14/14/14/wwwwwwwwwwwwww/wwwwwwwwwwwwww w",
        "bbb3/2b3/4w1/1wb1w1/w3w1 w",
        "1bbb2/2b3/4w1/1w4/w2b2 w",
        "bb1bbbbb/b1bb1b1b/2b1w3/1bwwb3/3ww1b1/1w1w4/ww1wwww1/w1wwwwww b",
        "26/26/26/26/26/26/26/26/26/26/26/26/12bb12/12ww12/26/26/26/26/26/26/26/26/26/26/26/26 w",
    ]
    .iter()
    .map(|text| text.parse().expect("fixed positions are valid"))
    .collect()
}

/// Reads `text` as a move in each fixed position and dialect.
pub fn check_move(text: &str) {
    for pos in move_positions() {
        for dialect in Dialect::ALL {
            if let Ok(mv) = pos.parse_move_in(text, dialect) {
                assert!(pos.is_legal(mv), "{text} accepted but illegal in {pos}");
                assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
                let marked = mv.with_capture_mark().to_string();
                assert_eq!(pos.parse_move(&marked), Ok(mv));
                assert_eq!(pos.parse_move_in(&dialect.format(mv), dialect), Ok(mv));
            }
        }
    }
}

/// Reads `text` as position text.
pub fn check_position(text: &str) {
    if let Ok(setup) = text.parse::<Setup>() {
        let printed = setup.to_string();
        assert_eq!(
            printed.parse::<Setup>().map(|s| s.to_string()),
            Ok(printed.clone())
        );
        let pos: Position = printed.parse().expect("printed setups parse as positions");
        assert_eq!(pos.to_string(), printed);
        assert_eq!(pos.zobrist_hash(), pos.compute_zobrist_hash());
        // Move generation must cope with whatever was read.
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
    }
}

/// Reads `text` as a game record, and as a file of records.
pub fn check_record(text: &str) {
    if let Ok(all) = GameRecord::read_all(text) {
        for record in all {
            let printed = record.to_string();
            assert_eq!(printed.parse::<GameRecord>().as_ref(), Ok(&record));
        }
    }
    if let Ok(record) = text.parse::<GameRecord>() {
        let printed = record.to_string();
        let again: GameRecord = printed
            .parse()
            .unwrap_or_else(|e| panic!("a printed record does not read back: {e}\n{printed}"));
        assert_eq!(again, record);
        assert_eq!(again.to_string(), printed);
        // Written in the rear-piece dialect (with its Notation tag), it reads
        // back as the same game.
        let rear = record.display_in(Dialect::RearPiece).to_string();
        let back = rear
            .parse::<GameRecord>()
            .unwrap_or_else(|e| panic!("a rear-piece record does not read back: {e}\n{rear}"));
        assert_eq!(back, record);
    }
    // Reading in the rear-piece dialect never panics, and what it reads
    // prints and reads back.
    if let Ok(record) = GameRecord::parse_in(text, Dialect::RearPiece) {
        let printed = record.to_string();
        assert_eq!(printed.parse::<GameRecord>().as_ref(), Ok(&record));
    }
}

/// Checks `text` as a proof file: the checker returns (accepting or
/// refusing), and an accepted proof went through no more positions than it
/// has steps (each one it met needs a step).
pub fn check_proof(text: &str) {
    if let Ok(proofs) = epaminondas_rules::proof::check(text) {
        for proof in proofs {
            assert!(
                proof.positions + proof.unused_steps <= proof.header.steps,
                "{proof:?}"
            );
        }
    }
}
