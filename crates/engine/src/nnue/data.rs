//! The training data that `epaminondas selfplay` writes and `epaminondas
//! train` reads: positions from engine games, each with the search's score
//! and the game's result.
//!
//! # Layout
//!
//! A file is a 16-byte header followed by fixed-size records, all integers
//! little-endian:
//!
//! | bytes | header field |
//! | --- | --- |
//! | 0-3 | the magic `EPSP` |
//! | 4 | format version, 1 |
//! | 5 | files of the board |
//! | 6 | ranks of the board |
//! | 7 | variant: 0 Epaminondas, 1 Crossings, 2 Abanondas, 3 Stumbling Blocks |
//! | 8-15 | zero |
//!
//! With `n = ceil(files * ranks / 8)`, each record is `2n + 4` bytes (46 on
//! the 14x12 board):
//!
//! | bytes | record field |
//! | --- | --- |
//! | 0 .. n | White's pieces: bit `i` (least significant bit of byte `i / 8` first) is the square on file `i % files`, rank `i / files`, counted from 0 at White's home rank |
//! | n .. 2n | Black's pieces, the same way |
//! | 2n | the side to move: 0 White, 1 Black |
//! | 2n+1 .. 2n+3 | the search's score for the side to move, `i16`, in the evaluation's unit (see [`crate::eval::win_probability`]) |
//! | 2n+3 | the game's result for the side to move: 0 lost, 1 unfinished (stopped at the ply limit), 2 won |
//!
//! Stones (Stumbling Blocks) are not recorded: the nets are for the
//! standard game. A file can be appended to by later runs with the same
//! board and variant; [`DataHeader::check_same`] says when it cannot.

use std::fmt;

use epaminondas_rules::{BoardSize, Color, Position, Square, Variant};

/// The magic bytes that open a training data file.
pub const MAGIC: [u8; 4] = *b"EPSP";
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;
/// The header's length in bytes.
pub const HEADER_BYTES: usize = 16;

/// What a training data file holds: the board and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// The board's size.
    pub size: BoardSize,
    /// The variant the games were played under.
    pub variant: Variant,
}

/// Why bytes are not training data of the kind wanted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// The file is shorter than its header.
    TooShort,
    /// The file does not start with [`MAGIC`].
    NotTrainingData,
    /// A format version this program does not read.
    Version(u8),
    /// Header bytes that must be zero are not.
    Reserved,
    /// The header's board size is not one the rules allow.
    BadSize(u8, u8),
    /// The header's variant byte names no variant.
    BadVariant(u8),
    /// The records do not fill the file: a run was cut off mid-record.
    Truncated {
        /// Bytes after the header.
        bytes: usize,
        /// The size of one record.
        record: usize,
    },
    /// Two files (or a file and a run appending to it) of different boards
    /// or variants.
    Mismatch {
        /// What was expected.
        expected: DataHeader,
        /// What was found.
        found: DataHeader,
    },
    /// A record's side to move or result byte is out of range.
    BadRecord(usize),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::TooShort => write!(f, "shorter than the {HEADER_BYTES}-byte header"),
            DataError::NotTrainingData => {
                write!(f, "not training data (it does not start with 'EPSP')")
            }
            DataError::Version(v) => {
                write!(
                    f,
                    "format version {v}; this program reads version {VERSION}"
                )
            }
            DataError::Reserved => write!(f, "header bytes 8-15 must be zero"),
            DataError::BadSize(files, ranks) => write!(f, "bad board size {files}x{ranks}"),
            DataError::BadVariant(v) => write!(f, "bad variant byte {v}"),
            DataError::Truncated { bytes, record } => write!(
                f,
                "{bytes} bytes of records are not a whole number of {record}-byte records \
                 (a run was cut off?)"
            ),
            DataError::Mismatch { expected, found } => write!(
                f,
                "positions of {} on {} where {} on {} were expected",
                found.variant, found.size, expected.variant, expected.size
            ),
            DataError::BadRecord(i) => write!(f, "record {i} is damaged"),
        }
    }
}

impl std::error::Error for DataError {}

fn variant_byte(variant: Variant) -> u8 {
    match variant {
        Variant::Epaminondas => 0,
        Variant::Crossings => 1,
        Variant::Abanondas => 2,
        Variant::StumblingBlocks => 3,
    }
}

impl DataHeader {
    /// The header of data from games on `size` under `variant`.
    pub fn new(size: BoardSize, variant: Variant) -> DataHeader {
        DataHeader { size, variant }
    }

    /// The bytes of each side's piece set in a record.
    pub fn set_bytes(&self) -> usize {
        self.size.squares().div_ceil(8)
    }

    /// The size of one record in bytes.
    pub fn record_bytes(&self) -> usize {
        2 * self.set_bytes() + 4
    }

    /// The header as written at the start of a file.
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut bytes = [0; HEADER_BYTES];
        bytes[..4].copy_from_slice(&MAGIC);
        bytes[4] = VERSION;
        bytes[5] = self.size.files();
        bytes[6] = self.size.ranks();
        bytes[7] = variant_byte(self.variant);
        bytes
    }

    /// Reads the header at the start of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<DataHeader, DataError> {
        if bytes.len() < HEADER_BYTES {
            return Err(DataError::TooShort);
        }
        if bytes[..4] != MAGIC {
            return Err(DataError::NotTrainingData);
        }
        if bytes[4] != VERSION {
            return Err(DataError::Version(bytes[4]));
        }
        if bytes[8..HEADER_BYTES].iter().any(|&b| b != 0) {
            return Err(DataError::Reserved);
        }
        let size = BoardSize::new(bytes[5], bytes[6])
            .map_err(|_| DataError::BadSize(bytes[5], bytes[6]))?;
        let variant = match bytes[7] {
            0 => Variant::Epaminondas,
            1 => Variant::Crossings,
            2 => Variant::Abanondas,
            3 => Variant::StumblingBlocks,
            other => return Err(DataError::BadVariant(other)),
        };
        Ok(DataHeader { size, variant })
    }

    /// An error unless `other` is the same kind of data.
    pub fn check_same(&self, other: &DataHeader) -> Result<(), DataError> {
        if self == other {
            Ok(())
        } else {
            Err(DataError::Mismatch {
                expected: *self,
                found: *other,
            })
        }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingRecord {
    /// Bit `i` set: a white piece on square `i` (file `i % files`, rank
    /// `i / files`). Room for the largest board.
    pub white: Vec<u8>,
    /// The same for Black.
    pub black: Vec<u8>,
    /// The side to move.
    pub turn: Color,
    /// The search's score for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0 lost, 1 unfinished, 2 won.
    pub result: u8,
}

impl TrainingRecord {
    /// The record of `pos` with `score` (clamped to `i16`) and `result`
    /// (0 lost, 1 unfinished, 2 won, for the side to move).
    pub fn new(pos: &Position, score: i32, result: u8) -> TrainingRecord {
        let size = pos.size();
        let bytes = size.squares().div_ceil(8);
        let mut white = vec![0; bytes];
        let mut black = vec![0; bytes];
        for square in size.all_squares() {
            let i =
                usize::from(square.rank()) * usize::from(size.files()) + usize::from(square.file());
            match pos.piece_at(square) {
                Some(Color::White) => white[i / 8] |= 1 << (i % 8),
                Some(Color::Black) => black[i / 8] |= 1 << (i % 8),
                None => {}
            }
        }
        TrainingRecord {
            white,
            black,
            turn: pos.turn(),
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            result,
        }
    }

    /// Appends the record's bytes (see the module's layout) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.white);
        out.extend_from_slice(&self.black);
        out.push(match self.turn {
            Color::White => 0,
            Color::Black => 1,
        });
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result);
    }

    /// Reads record `index` of the records in `bytes` (the file without
    /// its header).
    pub fn read(
        header: &DataHeader,
        bytes: &[u8],
        index: usize,
    ) -> Result<TrainingRecord, DataError> {
        let n = header.set_bytes();
        let at = index * header.record_bytes();
        let record = bytes
            .get(at..at + header.record_bytes())
            .ok_or(DataError::BadRecord(index))?;
        let turn = match record[2 * n] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(DataError::BadRecord(index)),
        };
        let result = record[2 * n + 3];
        if result > 2 {
            return Err(DataError::BadRecord(index));
        }
        Ok(TrainingRecord {
            white: record[..n].to_vec(),
            black: record[n..2 * n].to_vec(),
            turn,
            score: i16::from_le_bytes([record[2 * n + 1], record[2 * n + 2]]),
            result,
        })
    }

    /// The squares of `color`'s pieces on a board of `size`.
    pub fn squares(&self, color: Color, size: BoardSize) -> impl Iterator<Item = Square> + '_ {
        let set = match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        };
        let files = usize::from(size.files());
        (0..size.squares())
            .filter(move |&i| set[i / 8] & (1 << (i % 8)) != 0)
            .filter_map(move |i| Square::new((i % files) as u8, (i / files) as u8))
    }
}

/// A whole training data file read into memory: its header and records.
#[derive(Clone, Debug)]
pub struct TrainingData {
    /// What the records are of.
    pub header: DataHeader,
    /// The records' bytes, without the header.
    pub bytes: Vec<u8>,
}

impl TrainingData {
    /// Checks the header and that the records fill the rest of `file`.
    pub fn parse(mut file: Vec<u8>) -> Result<TrainingData, DataError> {
        let header = DataHeader::parse(&file)?;
        file.drain(..HEADER_BYTES);
        let record = header.record_bytes();
        if file.len() % record != 0 {
            return Err(DataError::Truncated {
                bytes: file.len(),
                record,
            });
        }
        Ok(TrainingData {
            header,
            bytes: file,
        })
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.header.record_bytes()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Record `index`.
    pub fn record(&self, index: usize) -> Result<TrainingRecord, DataError> {
        TrainingRecord::read(&self.header, &self.bytes, index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_as_written() {
        let pos = Position::standard();
        let header = DataHeader::new(pos.size(), pos.variant());
        assert_eq!(header.record_bytes(), 46);
        let mut file = header.to_bytes().to_vec();
        let mut played = pos.clone();
        played.play_unchecked(played.legal_moves()[3]);
        let records = [
            TrainingRecord::new(&pos, 17, 2),
            TrainingRecord::new(&played, -40_000, 0),
        ];
        for record in &records {
            record.write_to(&mut file);
        }
        let data = TrainingData::parse(file.clone()).unwrap();
        assert_eq!(data.header, header);
        assert_eq!(data.len(), 2);
        assert_eq!(data.record(0).unwrap(), records[0]);
        let second = data.record(1).unwrap();
        assert_eq!(second.score, i16::MIN, "scores are clamped");
        assert_eq!(second.turn, Color::Black);
        let white: Vec<Square> = second.squares(Color::White, pos.size()).collect();
        assert_eq!(white, played.squares(Color::White));
        // A cut-off file is refused, and so is a damaged record.
        file.pop();
        assert!(matches!(
            TrainingData::parse(file.clone()),
            Err(DataError::Truncated { .. })
        ));
        file.push(7);
        let damaged = TrainingData::parse(file).unwrap();
        assert_eq!(damaged.record(1), Err(DataError::BadRecord(1)));
    }

    #[test]
    fn headers_name_what_is_wrong() {
        assert_eq!(DataHeader::parse(b"EPSP"), Err(DataError::TooShort));
        assert_eq!(
            DataHeader::parse(&[b'x'; 16]),
            Err(DataError::NotTrainingData)
        );
        let mut bytes = DataHeader::new(BoardSize::STANDARD, Variant::Epaminondas).to_bytes();
        bytes[4] = 9;
        assert_eq!(DataHeader::parse(&bytes), Err(DataError::Version(9)));
        bytes[4] = VERSION;
        bytes[7] = 8;
        assert_eq!(DataHeader::parse(&bytes), Err(DataError::BadVariant(8)));
        let a = DataHeader::new(BoardSize::STANDARD, Variant::Epaminondas);
        let b = DataHeader::new(BoardSize::CROSSINGS, Variant::Crossings);
        let error = a.check_same(&b).unwrap_err().to_string();
        assert!(error.contains("8x8"), "{error}");
    }
}
