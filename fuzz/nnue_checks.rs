//! What the `read_nnue_files` fuzz target checks for one input, shared with
//! the engine's test that replays its seed corpus
//! (`crates/engine/tests/fuzz_corpus.rs`): the same bytes are read as
//! training data and as a net file; neither reader may panic, and what
//! they accept writes back to the same bytes.

use epaminondas_engine::nnue::Network;
use epaminondas_engine::nnue::data::TrainingData;

/// Reads `data` both ways and checks the round trips.
pub fn check_nnue_files(data: &[u8]) {
    if let Ok(parsed) = TrainingData::parse(data.to_vec()) {
        // Every record reads, or is refused as damaged; when all read,
        // they write back to the file's own bytes.
        let mut written = parsed.header.to_bytes().to_vec();
        let mut whole = true;
        for i in 0..parsed.len() {
            match parsed.record(i) {
                Ok(record) => record.write_to(&mut written),
                Err(_) => whole = false,
            }
        }
        if whole {
            assert_eq!(written, data);
        }
    }
    if let Ok(net) = Network::parse(data) {
        assert_eq!(net.to_bytes(), data);
    }
}
