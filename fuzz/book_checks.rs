//! What the `read_book` fuzz target checks for one input, shared with the
//! engine's test that replays its seed corpus
//! (`crates/engine/tests/fuzz_corpus.rs`): the opening book reader never
//! panics, a book it accepts writes out as text that reads back to the same
//! book, and every book move it holds is legal where the book says.

use epaminondas_engine::book::Book;

/// Reads `data` as a book and checks what it accepts.
pub fn check_book(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(book) = Book::parse(text) else {
        return;
    };
    let written = book.to_string();
    let again = Book::parse(&written).expect("a written book reads back");
    assert_eq!(again.entries(), book.entries());
    assert_eq!(again.to_string(), written);
    for entry in book.entries() {
        let mut pos = book.start();
        for &mv in &entry.line {
            pos.play(mv).expect("the line is legal");
        }
        let moves = book.moves(&pos).expect("the entry's position is found");
        assert!(moves.iter().all(|m| pos.is_legal(m.mv)));
        assert!(book.choose(&pos, u64::MAX).is_some());
    }
}
