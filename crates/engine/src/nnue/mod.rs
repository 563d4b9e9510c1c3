//! The neural evaluation (NNUE): a small network over the pieces' squares,
//! trained on self-play games ([`data`], [`train`]), whose first layer is
//! updated move by move instead of computed afresh at every node.
//!
//! # The network
//!
//! `(336 -> 128) x 2 -> 1`, for the standard game on the standard 14x12
//! board only:
//!
//! - **Inputs**: one per square and piece, seen from one side (a
//!   *perspective*): 168 squares with a piece of the perspective's own
//!   colour, then 168 with one of the other colour, ranks counted from the
//!   perspective's home rank (so Black sees the board turned, and both
//!   sides' nets are the same). About 60 of the 336 are on at a time.
//! - **Accumulator**: the first layer's 128 sums, one set per perspective,
//!   kept as `i16` and changed only where a move changes squares: a move of
//!   a phalanx takes its rear pieces off, puts pieces on the squares ahead,
//!   and takes off the pieces it captures ([`Accumulator::apply`]).
//! - **Output**: the two sets, clipped to `0..=1` (`0..=QA` in integers),
//!   the side to move's first, weighed and summed to one number, plus
//!   three *tactical inputs* weighed straight into the output: the
//!   difference in legal moves, the most pieces the side to move can
//!   capture, and the most the other side could ([`tactical_inputs`]).
//!   The sum is the position's log-odds of winning, returned in the
//!   evaluation's unit (see [`crate::eval::win_probability`]).
//!
//! Why the tactical inputs: where pieces stand is what a net over squares
//! learns, but whether a phalanx can capture depends on a whole line of
//! squares at once, which one small hidden layer sees poorly; at the
//! shallow depths of fast games those three counts are worth some 270 Elo
//! to the linear evaluation (docs/strength.md). They cost one move
//! generation per side, as the linear evaluation's do.
//!
//! Why one board: a net learns where pieces stand, and the squares of
//! another board are other squares. The standard board is what people play
//! and what the engine's strength is measured on; every other board and
//! variant keeps the linear evaluation ([`Network::suits`]).
//!
//! # The net file
//!
//! Written by [`train`], built into the program with `include_bytes!`
//! (`crates/engine/nets/`), little-endian throughout:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0-3 | the magic `EPNN` |
//! | 4 | format version, 1 |
//! | 5, 6 | files and ranks of the board (14, 12) |
//! | 7 | zero |
//! | 8-9 | hidden size, `u16` (128) |
//! | 10-15 | zero |
//! | then | the feature weights, `i16`, `INPUTS x HIDDEN`, one input's 128 after another, scaled by [`QA`] |
//! | then | the accumulator's biases, `i16 x HIDDEN`, scaled by [`QA`] |
//! | then | the output weights, `i16 x 2 HIDDEN` (side to move's half first), scaled by [`QB`] |
//! | then | the output bias, `i32`, scaled by `QA x QB` |
//! | then | the tactical weights, `3 x i32`, scaled by `QA x QB`, per move of mobility difference, per piece of the largest capture, per piece of the largest threat |

pub mod data;
pub mod train;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use epaminondas_rules::{BoardSize, Color, Move, Position, Square, Variant};

use crate::eval::LOGISTIC_SCALE;

/// Files of the board the nets are for.
pub const FILES: usize = 14;
/// Ranks of the board the nets are for.
pub const RANKS: usize = 12;
/// Squares of the board.
pub const SQUARES: usize = FILES * RANKS;
/// Inputs per perspective: own pieces' squares, then the other side's.
pub const INPUTS: usize = 2 * SQUARES;
/// The accumulator's size (per perspective).
pub const HIDDEN: usize = 128;
/// The scale of the first layer's integers: 1.0 is `QA`, and the clipped
/// activation runs from 0 to `QA`.
pub const QA: i32 = 255;
/// The scale of the output weights' integers.
pub const QB: i32 = 64;
/// The largest weight the trainer allows, so that no accumulator sum can
/// leave `i16` (60 pieces of at most this weight, plus the bias).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The number of tactical inputs ([`tactical_inputs`]).
pub const TACTICAL: usize = 3;

/// The net built into the program.
static EMBEDDED: &[u8] = include_bytes!("../../nets/epaminondas-14x12.nnue");

/// Which evaluation the engine uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The tuned linear evaluation of [`crate::eval`].
    Linear,
    /// The network built into the program, where it [suits](Network::suits)
    /// the position; the linear evaluation elsewhere. The default: its
    /// first generation beat the linear evaluation by +266 Elo at 100 ms a
    /// move, and the second (built in now) the first by +102
    /// (docs/strength.md, "Neural evaluation").
    #[default]
    Nnue,
}

impl FromStr for EvalKind {
    type Err = String;

    fn from_str(s: &str) -> Result<EvalKind, String> {
        match s.to_ascii_lowercase().as_str() {
            "linear" => Ok(EvalKind::Linear),
            "nnue" => Ok(EvalKind::Nnue),
            _ => Err(format!(
                "'{s}' is not an evaluation: expected linear or nnue"
            )),
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Linear => "linear",
            EvalKind::Nnue => "nnue",
        })
    }
}

/// Why bytes are not a net this program can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a net file (wrong magic).
    NotANet,
    /// A format version this program does not read.
    Version(u8),
    /// Header bytes that must be zero are not.
    Reserved,
    /// A net for another board or hidden size than this program's.
    Shape {
        /// Files, ranks and hidden size in the file.
        found: (u8, u8, u16),
    },
    /// The file's length is not that of its shape.
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a net file (it does not start with 'EPNN')"),
            NetError::Version(v) => write!(f, "net format version {v}; this program reads 1"),
            NetError::Reserved => write!(f, "net header bytes 7 and 10-15 must be zero"),
            NetError::Shape { found } => write!(
                f,
                "a net for {}x{} with {} hidden units; this program's are {FILES}x{RANKS} \
                 with {HIDDEN}",
                found.0, found.1, found.2
            ),
            NetError::Length { expected, found } => {
                write!(
                    f,
                    "a net file of {found} bytes where {expected} were expected"
                )
            }
        }
    }
}

impl std::error::Error for NetError {}

/// One perspective's accumulator (or a row of weights): `HIDDEN` integers,
/// aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// A quantised network (see the module's notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The weights of each input, a [`Row`] per input.
    pub feature_weights: Vec<Row>,
    /// The accumulator's starting values.
    pub feature_bias: Row,
    /// The output weights on the side to move's accumulator, then on the
    /// other side's.
    pub output_weights: [Row; 2],
    /// The output bias, scaled by `QA x QB`.
    pub output_bias: i32,
    /// The weights of the [`tactical_inputs`], scaled by `QA x QB`.
    pub tactical_weights: [i32; TACTICAL],
}

/// The length of a net file.
pub const NET_BYTES: usize = 16 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 * (1 + TACTICAL);

impl Network {
    /// Reads a net file (see the module's notes).
    pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 16 || bytes[..4] != *b"EPNN" {
            return Err(NetError::NotANet);
        }
        if bytes[4] != 1 {
            return Err(NetError::Version(bytes[4]));
        }
        if bytes[7] != 0 || bytes[10..16].iter().any(|&b| b != 0) {
            return Err(NetError::Reserved);
        }
        let hidden = u16::from_le_bytes([bytes[8], bytes[9]]);
        if usize::from(bytes[5]) != FILES
            || usize::from(bytes[6]) != RANKS
            || usize::from(hidden) != HIDDEN
        {
            return Err(NetError::Shape {
                found: (bytes[5], bytes[6], hidden),
            });
        }
        if bytes.len() != NET_BYTES {
            return Err(NetError::Length {
                expected: NET_BYTES,
                found: bytes.len(),
            });
        }
        let mut words = bytes[16..]
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut row = || {
            let mut row = Row([0; HIDDEN]);
            for value in &mut row.0 {
                *value = words.next().unwrap_or(0);
            }
            row
        };
        let feature_weights = (0..INPUTS).map(|_| row()).collect();
        let feature_bias = row();
        let output_weights = [row(), row()];
        let tail = &bytes[NET_BYTES - 4 * (1 + TACTICAL)..];
        let word = |i: usize| {
            i32::from_le_bytes([
                tail[4 * i],
                tail[4 * i + 1],
                tail[4 * i + 2],
                tail[4 * i + 3],
            ])
        };
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias: word(0),
            tactical_weights: [word(1), word(2), word(3)],
        })
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(NET_BYTES);
        bytes.extend_from_slice(b"EPNN");
        bytes.extend_from_slice(&[1, FILES as u8, RANKS as u8, 0]);
        bytes.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
        bytes.extend_from_slice(&[0; 6]);
        let rows = self
            .feature_weights
            .iter()
            .chain([&self.feature_bias])
            .chain(&self.output_weights);
        for row in rows {
            for value in row.0 {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        for weight in self.tactical_weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes
    }

    /// The net built into the program.
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| {
            Network::parse(EMBEDDED).expect("the net built into the program is checked by a test")
        })
    }

    /// Whether the nets are for positions like `pos`: the standard game on
    /// the 14x12 board.
    pub fn suits(pos: &Position) -> bool {
        pos.variant() == Variant::Epaminondas && pos.size() == BoardSize::STANDARD
    }

    /// The accumulator of `pos` computed afresh.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([self.feature_bias; 2]);
        for perspective in [Color::White, Color::Black] {
            for piece in [Color::White, Color::Black] {
                for square in pos.squares(piece) {
                    let input = input_index(perspective, piece, square);
                    add(
                        &mut acc.0[perspective.index()],
                        &self.feature_weights[input],
                    );
                }
            }
        }
        acc
    }

    /// The evaluation of `pos`, whose accumulator is `acc`, for the side
    /// to move, in the evaluation's unit.
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let turn = pos.turn();
        let ours = &acc.0[turn.index()];
        let theirs = &acc.0[(!turn).index()];
        let tactical: i32 = tactical_inputs(pos)
            .iter()
            .zip(self.tactical_weights)
            .map(|(t, w)| t * w)
            .sum();
        let sum = clipped_dot(ours, &self.output_weights[0])
            + clipped_dot(theirs, &self.output_weights[1])
            + self.output_bias
            + tactical;
        // sum / (QA * QB) is the log-odds; the unit's slope is LOGISTIC_SCALE.
        let scale = 1.0 / (f64::from(QA * QB) * LOGISTIC_SCALE);
        (f64::from(sum) * scale).round() as i32
    }

    /// The evaluation of `pos` for the side to move, computed afresh (the
    /// search updates accumulators instead; this is for tests and tools).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos)
    }
}

/// The tactical inputs of `pos`, for the side to move: legal moves, ours
/// minus theirs (as if each side were to move); the most pieces we can
/// capture; the most they could.
pub fn tactical_inputs(pos: &Position) -> [i32; TACTICAL] {
    let (ours, theirs) = pos.survey_both();
    [
        ours.moves as i32 - theirs.moves as i32,
        i32::from(ours.largest_capture),
        i32::from(theirs.largest_capture),
    ]
}

/// The input of a `piece` on `square` seen from `perspective`.
#[inline]
pub fn input_index(perspective: Color, piece: Color, square: Square) -> usize {
    let rank = match perspective {
        Color::White => usize::from(square.rank()),
        Color::Black => RANKS - 1 - usize::from(square.rank()),
    };
    let side = usize::from(piece != perspective);
    side * SQUARES + rank * FILES + usize::from(square.file())
}

/// Adds `row` to `acc` (the compiler vectorises it).
#[inline]
fn add(acc: &mut Row, row: &Row) {
    for (a, w) in acc.0.iter_mut().zip(row.0) {
        *a = a.wrapping_add(w);
    }
}

/// Takes `row` from `acc`.
#[inline]
fn sub(acc: &mut Row, row: &Row) {
    for (a, w) in acc.0.iter_mut().zip(row.0) {
        *a = a.wrapping_sub(w);
    }
}

/// `sum(clamp(acc, 0, QA) * weights)`, the portable way.
pub fn clipped_dot_portable(acc: &Row, weights: &Row) -> i32 {
    acc.0
        .iter()
        .zip(weights.0)
        .map(|(&a, w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// `sum(clamp(acc, 0, QA) * weights)`: with AVX2 where the program is built
/// for it, sixteen at a time; [`clipped_dot_portable`] otherwise.
#[inline]
pub fn clipped_dot(acc: &Row, weights: &Row) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the rows are HIDDEN (a multiple of 16) i16s, read in
        // unaligned 16-lane loads within bounds; AVX2 is enabled at build time.
        unsafe { clipped_dot_avx2(acc, weights) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        clipped_dot_portable(acc, weights)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
unsafe fn clipped_dot_avx2(acc: &Row, weights: &Row) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    // SAFETY (whole body): every load reads 16 i16s at an offset below
    // HIDDEN - 15, within the rows.
    unsafe {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut total = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let a = _mm256_loadu_si256(acc.0.as_ptr().add(i).cast());
            let w = _mm256_loadu_si256(weights.0.as_ptr().add(i).cast());
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // Pairs of products summed into 32-bit lanes.
            total = _mm256_add_epi32(total, _mm256_madd_epi16(clipped, w));
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(total),
            _mm256_extracti128_si256(total, 1),
        );
        let pairs = _mm_add_epi32(halves, _mm_unpackhi_epi64(halves, halves));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, 1));
        _mm_cvtsi128_si32(one)
    }
}

/// The first layer's sums for both perspectives (White's first) of one
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [Row; 2]);

impl Accumulator {
    /// The accumulator after `mover` plays `mv` (a move of the position
    /// this accumulator is of).
    pub fn apply(&self, net: &Network, mv: Move, mover: Color) -> Accumulator {
        let changes = Changes::of(mv);
        let mut next = *self;
        for perspective in [Color::White, Color::Black] {
            let row = &mut next.0[perspective.index()];
            let input =
                |piece, square| &net.feature_weights[input_index(perspective, piece, square)];
            for &square in changes.off() {
                sub(row, input(mover, square));
            }
            for &square in changes.on() {
                add(row, input(mover, square));
            }
            for square in mv.captured_squares() {
                sub(row, input(!mover, square));
            }
        }
        next
    }
}

/// The squares where a move takes the mover's pieces off and puts them on
/// (squares that a group both leaves and lands on are in neither).
struct Changes {
    off: [Square; MAX_GROUP],
    on: [Square; MAX_GROUP],
    off_len: usize,
    on_len: usize,
}

/// The most pieces that move at once: a whole rank or file of the largest
/// board.
const MAX_GROUP: usize = epaminondas_rules::MAX_DIMENSION as usize;

impl Changes {
    fn of(mv: Move) -> Changes {
        let corner = Square::new(0, 0).expect("a1 is a square");
        let mut left = [corner; MAX_GROUP];
        let mut landed = [corner; MAX_GROUP];
        let mut left_len = 0;
        let mut landed_len = 0;
        for square in mv.group_squares().take(MAX_GROUP) {
            left[left_len] = square;
            left_len += 1;
        }
        if !mv.is_placement() {
            for square in mv.landing_squares().take(MAX_GROUP) {
                landed[landed_len] = square;
                landed_len += 1;
            }
        }
        let mut changes = Changes {
            off: [corner; MAX_GROUP],
            on: [corner; MAX_GROUP],
            off_len: 0,
            on_len: 0,
        };
        for &square in &left[..left_len] {
            if !landed[..landed_len].contains(&square) {
                changes.off[changes.off_len] = square;
                changes.off_len += 1;
            }
        }
        for &square in &landed[..landed_len] {
            if !left[..left_len].contains(&square) {
                changes.on[changes.on_len] = square;
                changes.on_len += 1;
            }
        }
        changes
    }

    fn off(&self) -> &[Square] {
        &self.off[..self.off_len]
    }

    fn on(&self) -> &[Square] {
        &self.on[..self.on_len]
    }
}

/// The accumulators along a search path, brought up to date only when a
/// position is evaluated (many are never evaluated: cut off by the table,
/// or won on the spot).
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    /// The accumulator at each height; valid up to `fresh`.
    accumulators: Vec<Accumulator>,
    /// The move played at each height (`None`: a pass).
    moves: Vec<Option<Move>>,
    /// Whether the accumulator at each height is up to date.
    fresh: Vec<bool>,
    /// The side to move at the root.
    root_turn: Color,
    height: usize,
}

impl<'a> AccumulatorStack<'a> {
    /// A stack of room for `depth` plies, rooted at `pos`.
    pub fn new(net: &'a Network, pos: &Position, depth: usize) -> AccumulatorStack<'a> {
        let mut fresh = vec![false; depth + 1];
        fresh[0] = true;
        AccumulatorStack {
            net,
            accumulators: vec![net.refresh(pos); depth + 1],
            moves: vec![None; depth + 1],
            fresh,
            root_turn: pos.turn(),
            height: 0,
        }
    }

    /// The network evaluating.
    pub fn net(&self) -> &'a Network {
        self.net
    }

    /// Records that `mv` (or a pass, `None`) is played from the current
    /// position.
    #[inline]
    pub fn push(&mut self, mv: Option<Move>) {
        self.moves[self.height] = mv;
        self.height += 1;
        self.fresh[self.height] = false;
    }

    /// Goes back one move.
    #[inline]
    pub fn pop(&mut self) {
        self.height -= 1;
    }

    /// The evaluation of the current position, `pos`, for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let mut from = self.height;
        while !self.fresh[from] {
            from -= 1;
        }
        for level in from..self.height {
            let mover = if level % 2 == 0 {
                self.root_turn
            } else {
                !self.root_turn
            };
            let next = match self.moves[level] {
                Some(mv) => self.accumulators[level].apply(self.net, mv, mover),
                None => self.accumulators[level],
            };
            self.accumulators[level + 1] = next;
            self.fresh[level + 1] = true;
        }
        self.net.evaluate(&self.accumulators[self.height], pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net with small pseudo-random weights, so that every input matters.
    fn random_net() -> Network {
        let mut rng = train::Rng(0x2545_F491_4F6C_DD1D);
        let mut next = || (rng.next() % 61) as i16 - 30;
        let mut row = || {
            let mut row = Row([0; HIDDEN]);
            row.0.iter_mut().for_each(|v| *v = next());
            row
        };
        Network {
            feature_weights: (0..INPUTS).map(|_| row()).collect(),
            feature_bias: row(),
            output_weights: [row(), row()],
            output_bias: 1234,
            tactical_weights: [100, 2000, -3000],
        }
    }

    #[test]
    fn the_embedded_net_reads_and_writes_back_the_same() {
        let net = Network::parse(EMBEDDED).unwrap();
        assert_eq!(net.to_bytes(), EMBEDDED);
        let random = random_net();
        assert_eq!(Network::parse(&random.to_bytes()), Ok(random));
    }

    #[test]
    fn bad_net_files_are_refused_with_the_reason() {
        assert_eq!(Network::parse(b"hello"), Err(NetError::NotANet));
        let mut bytes = random_net().to_bytes();
        bytes.pop();
        assert!(matches!(
            Network::parse(&bytes),
            Err(NetError::Length { .. })
        ));
        bytes[8] = 64;
        let error = Network::parse(&bytes).unwrap_err();
        assert!(error.to_string().contains("64 hidden units"), "{error}");
    }

    #[test]
    fn updated_accumulators_equal_fresh_ones_along_games() {
        static NET: OnceLock<Network> = OnceLock::new();
        let net = NET.get_or_init(random_net);
        let mut pos = Position::standard();
        let mut stack = AccumulatorStack::new(net, &pos, 310);
        let mut seed = 99u64;
        for ply in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_terminal() {
                break;
            }
            // Prefer captures, so that many are played.
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let pool = if captures.is_empty() {
                moves.as_slice()
            } else {
                &captures
            };
            let mv = pool[(seed >> 33) as usize % pool.len()];
            stack.push(Some(mv));
            pos.play_unchecked(mv);
            // Evaluate only every third ply: the lazy catch-up must agree.
            if ply % 3 == 0 {
                assert_eq!(
                    stack.evaluate(&pos),
                    net.evaluate_position(&pos),
                    "ply {ply}"
                );
            }
        }
        // A pass changes the side to move, not the pieces.
        stack.push(None);
        pos.pass_unchecked();
        assert_eq!(stack.evaluate(&pos), net.evaluate_position(&pos));
    }

    #[test]
    fn the_vector_dot_product_equals_the_portable_one() {
        let net = random_net();
        let acc = net.refresh(&Position::standard());
        for row in &acc.0 {
            for weights in &net.output_weights {
                assert_eq!(
                    clipped_dot(row, weights),
                    clipped_dot_portable(row, weights)
                );
            }
        }
        // Values beyond the clip on both sides.
        let mut wide = Row([0; HIDDEN]);
        for (i, v) in wide.0.iter_mut().enumerate() {
            *v = (i as i16 - 64) * 9;
        }
        let ones = Row([1; HIDDEN]);
        assert_eq!(
            clipped_dot(&wide, &ones),
            clipped_dot_portable(&wide, &ones)
        );
    }

    #[test]
    fn the_net_sees_both_sides_alike() {
        // The same position with colours swapped and the board turned is
        // the same to the side to move.
        let net = random_net();
        let a: Position = "14/14/14/14/14/14/14/14/14/3b10/2w11/14 w".parse().unwrap();
        let b: Position = "14/2b11/3w10/14/14/14/14/14/14/14/14/14 b".parse().unwrap();
        assert_eq!(net.evaluate_position(&a), net.evaluate_position(&b));
    }

    #[test]
    fn eval_kinds_read_and_print() {
        assert_eq!("NNUE".parse::<EvalKind>(), Ok(EvalKind::Nnue));
        assert_eq!(EvalKind::Linear.to_string(), "linear");
        assert!(
            "neural"
                .parse::<EvalKind>()
                .unwrap_err()
                .contains("linear or nnue")
        );
    }
}
