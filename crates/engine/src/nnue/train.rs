//! Fitting a network to training data ([`super::data`]), on the CPU.
//!
//! A small hand-written trainer: the network is tiny (`336 -> 128` per
//! perspective, then one output) and its inputs are sparse (about 60 of
//! 336 on), so plain loops over the active inputs beat a general tensor
//! library here, and the program needs no other crate.
//!
//! Each position's target mixes what the search thought and how the game
//! ended: `lambda * sigmoid(score) + (1 - lambda) * result`, scores read in
//! the evaluation's unit ([`crate::eval::win_probability`]). The loss is
//! the squared error of `sigmoid(output)` against it; the optimiser is Adam
//! on mini-batches, split over threads; every weight is kept within
//! [`WEIGHT_CLIP`] so that the integer net cannot overflow. Each position
//! is also learned with its files mirrored (the rules do not tell left
//! from right), which doubles the data. The last part of the data (the
//! latest games) is kept aside to measure the fit on positions not
//! trained on.

use epaminondas_rules::{BoardSize, Color, Position, Setup, Square, Symmetry, Variant};

use super::data::{DataError, TrainingData, TrainingRecord};
use super::{
    FILES, HIDDEN, INPUTS, Network, QA, QB, RANKS, Row, TACTICAL, WEIGHT_CLIP, input_index,
    tactical_inputs,
};
use crate::eval::{LOGISTIC_SCALE, evaluate};

/// What each tactical input is multiplied by before the float net sees it,
/// so that all three are of about one size (mobility differences run to
/// tens of moves).
pub const TACTICAL_SCALE: [f32; TACTICAL] = [1.0 / 32.0, 1.0, 1.0];

/// How a training run goes.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// Adam's step size at the start (divided by ten for the last quarter
    /// of the epochs).
    pub learning_rate: f32,
    /// The weight of the search's score in the target (the rest is the
    /// game's result).
    pub lambda: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seeds the starting weights and the order of positions.
    pub seed: u64,
    /// The share of the data (its end) kept aside for validation.
    pub validation: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch_size: 8192,
            learning_rate: 0.002,
            lambda: 0.5,
            threads: 1,
            seed: 1,
            validation: 0.05,
        }
    }
}

/// Why training cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainError {
    /// Data of another board or variant than the nets'.
    WrongData(BoardSize, Variant),
    /// A record could not be read.
    Data(DataError),
    /// Too few positions to train on and validate.
    TooFew(usize),
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::WrongData(size, variant) => write!(
                f,
                "the data is of {variant} on {size}; nets are trained for epaminondas on \
                 {FILES}x{RANKS} only"
            ),
            TrainError::Data(e) => write!(f, "{e}"),
            TrainError::TooFew(n) => {
                write!(f, "{n} positions are too few: at least 100 are needed")
            }
        }
    }
}

impl std::error::Error for TrainError {}

/// Training positions as the trainer uses them: each position's active
/// inputs for both perspectives, and its target.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// The active inputs of all positions, one after another: for each, the
    /// side to move's perspective, then the other side's.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more entry than
    /// positions); each position's two halves are equally long.
    starts: Vec<u32>,
    /// Each position's target.
    targets: Vec<f32>,
    /// Each position's tactical inputs, scaled by [`TACTICAL_SCALE`].
    tactical: Vec<[f32; TACTICAL]>,
}

impl Samples {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn push(
        &mut self,
        pieces: &[(Color, Square)],
        turn: Color,
        tactical: [i32; TACTICAL],
        target: f32,
    ) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for perspective in [turn, !turn] {
            for &(piece, square) in pieces {
                self.inputs
                    .push(input_index(perspective, piece, square) as u16);
            }
        }
        self.starts.push(self.inputs.len() as u32);
        self.targets.push(target);
        let mut scaled = [0.0; TACTICAL];
        for ((s, t), scale) in scaled.iter_mut().zip(tactical).zip(TACTICAL_SCALE) {
            *s = t as f32 * scale;
        }
        self.tactical.push(scaled);
    }

    /// The two perspectives' active inputs of position `i`.
    fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let (start, end) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let middle = start + (end - start) / 2;
        (&self.inputs[start..middle], &self.inputs[middle..end])
    }

    /// The samples of `data`'s records in `range`, each also with its files
    /// mirrored when `mirror` is set.
    pub fn from_data(
        data: &TrainingData,
        range: std::ops::Range<usize>,
        lambda: f32,
        mirror: bool,
    ) -> Result<Samples, TrainError> {
        let size = data.header.size;
        let mut samples = Samples::default();
        let mut pieces = Vec::new();
        for i in range {
            let record = data.record(i).map_err(TrainError::Data)?;
            let target = target(&record, lambda);
            pieces.clear();
            for color in [Color::White, Color::Black] {
                pieces.extend(record.squares(color, size).map(|square| (color, square)));
            }
            let pos = position(&record, size).ok_or(TrainError::Data(DataError::BadRecord(i)))?;
            let tactical = tactical_inputs(&pos);
            samples.push(&pieces, record.turn, tactical, target);
            if mirror {
                // The counts do not change when the board is mirrored.
                for (_, square) in &mut pieces {
                    let file = FILES as u8 - 1 - square.file();
                    *square = Square::new(file, square.rank()).unwrap_or(*square);
                }
                samples.push(&pieces, record.turn, tactical, target);
            }
        }
        Ok(samples)
    }
}

/// The target of a record: `lambda` of the search's expected result, the
/// rest the game's.
fn target(record: &TrainingRecord, lambda: f32) -> f32 {
    let searched = 1.0 / (1.0 + (-LOGISTIC_SCALE as f32 * f32::from(record.score)).exp());
    let result = f32::from(record.result) / 2.0;
    lambda * searched + (1.0 - lambda) * result
}

/// The position of a record on a board of `size`.
fn position(record: &TrainingRecord, size: BoardSize) -> Option<Position> {
    let mut pieces = Vec::new();
    for color in [Color::White, Color::Black] {
        pieces.extend(record.squares(color, size).map(|square| (square, color)));
    }
    let setup = Setup {
        size,
        pieces,
        stones: Vec::new(),
        turn: record.turn,
    };
    Position::from_setup(&setup, Symmetry::Mirror).ok()
}

/// The loss of the linear evaluation ([`crate::eval::evaluate`]) on
/// `data`'s records in `range`: the mark a net must beat.
pub fn linear_loss(
    data: &TrainingData,
    range: std::ops::Range<usize>,
    lambda: f32,
) -> Result<f64, TrainError> {
    let count = range.len().max(1);
    let mut total = 0.0;
    for i in range {
        let record = data.record(i).map_err(TrainError::Data)?;
        let pos =
            position(&record, data.header.size).ok_or(TrainError::Data(DataError::BadRecord(i)))?;
        let predicted = crate::eval::win_probability(evaluate(&pos)) as f32;
        let error = predicted - target(&record, lambda);
        total += f64::from(error * error);
    }
    Ok(total / count as f64)
}

/// A network in floating point, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// `INPUTS x HIDDEN`, one input's weights after another.
    pub feature_weights: Vec<f32>,
    /// The accumulator's biases.
    pub feature_bias: Vec<f32>,
    /// The output weights: side to move's half, then the other side's.
    pub output_weights: Vec<f32>,
    /// The output bias.
    pub output_bias: f32,
    /// The weights of the tactical inputs (as scaled by [`TACTICAL_SCALE`]).
    pub tactical_weights: [f32; TACTICAL],
}

/// A small seeded generator (xorshift) for the starting weights and the
/// shuffles (and the nets of the module's tests).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-limit..limit`.
    fn uniform(&mut self, limit: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * limit
    }
}

/// What one forward pass keeps for the backward one.
struct Forward {
    accumulators: [[f32; HIDDEN]; 2],
    prediction: f32,
}

impl FloatNet {
    /// A net with small random weights.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        FloatNet {
            feature_weights: (0..INPUTS * HIDDEN).map(|_| rng.uniform(0.1)).collect(),
            feature_bias: vec![0.0; HIDDEN],
            output_weights: (0..2 * HIDDEN).map(|_| rng.uniform(0.1)).collect(),
            output_bias: 0.0,
            tactical_weights: [0.0; TACTICAL],
        }
    }

    fn parameters(&self) -> usize {
        INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1 + TACTICAL
    }

    fn forward(&self, ours: &[u16], theirs: &[u16], tactical: &[f32; TACTICAL]) -> Forward {
        let mut accumulators = [[0.0; HIDDEN]; 2];
        let mut output = self.output_bias;
        for (t, w) in tactical.iter().zip(self.tactical_weights) {
            output += t * w;
        }
        for (half, inputs) in [ours, theirs].into_iter().enumerate() {
            let acc = &mut accumulators[half];
            acc.copy_from_slice(&self.feature_bias);
            for &input in inputs {
                let row = &self.feature_weights[usize::from(input) * HIDDEN..][..HIDDEN];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            let weights = &self.output_weights[half * HIDDEN..][..HIDDEN];
            output += acc
                .iter()
                .zip(weights)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        Forward {
            accumulators,
            prediction: 1.0 / (1.0 + (-output).exp()),
        }
    }

    /// The log-odds the net gives a position (for tests against the
    /// integer net).
    #[cfg(test)]
    fn output(&self, ours: &[u16], theirs: &[u16], tactical: &[f32; TACTICAL]) -> f32 {
        let p = self.forward(ours, theirs, tactical).prediction;
        (p / (1.0 - p)).ln()
    }

    /// Adds the gradient of `(prediction - target)^2` for position `i` of
    /// `samples` to `grad` (laid out as the parameters: feature weights,
    /// feature bias, output weights, output bias, tactical weights) and
    /// returns the loss.
    fn backward(&self, samples: &Samples, i: usize, grad: &mut [f32]) -> f32 {
        let (ours, theirs) = samples.inputs(i);
        let tactical = &samples.tactical[i];
        let target = samples.targets[i];
        let forward = self.forward(ours, theirs, tactical);
        let p = forward.prediction;
        let error = p - target;
        let d_output = 2.0 * error * p * (1.0 - p);
        let (feature_grad, rest) = grad.split_at_mut(INPUTS * HIDDEN);
        let (bias_grad, rest) = rest.split_at_mut(HIDDEN);
        let (output_grad, rest) = rest.split_at_mut(2 * HIDDEN);
        let (output_bias_grad, tactical_grad) = rest.split_at_mut(1);
        output_bias_grad[0] += d_output;
        for (g, t) in tactical_grad.iter_mut().zip(tactical) {
            *g += d_output * t;
        }
        for (half, inputs) in [ours, theirs].into_iter().enumerate() {
            let acc = &forward.accumulators[half];
            let weights = &self.output_weights[half * HIDDEN..][..HIDDEN];
            let out_grad = &mut output_grad[half * HIDDEN..][..HIDDEN];
            let mut d_acc = [0.0f32; HIDDEN];
            for h in 0..HIDDEN {
                out_grad[h] += d_output * acc[h].clamp(0.0, 1.0);
                if acc[h] > 0.0 && acc[h] < 1.0 {
                    d_acc[h] = d_output * weights[h];
                }
            }
            for (b, d) in bias_grad.iter_mut().zip(&d_acc) {
                *b += d;
            }
            for &input in inputs {
                let row = &mut feature_grad[usize::from(input) * HIDDEN..][..HIDDEN];
                for (g, d) in row.iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
        error * error
    }

    /// The mean loss over `samples`.
    pub fn loss(&self, samples: &Samples) -> f64 {
        let total: f64 = (0..samples.len())
            .map(|i| {
                let (ours, theirs) = samples.inputs(i);
                let forward = self.forward(ours, theirs, &samples.tactical[i]);
                let error = forward.prediction - samples.targets[i];
                f64::from(error * error)
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The parameters as one slice's worth of values, in gradient order.
    fn for_each_parameter(&mut self, mut visit: impl FnMut(usize, &mut f32)) {
        let mut index = 0;
        let groups = [
            self.feature_weights.as_mut_slice(),
            self.feature_bias.as_mut_slice(),
            self.output_weights.as_mut_slice(),
            std::slice::from_mut(&mut self.output_bias),
            self.tactical_weights.as_mut_slice(),
        ];
        for group in groups {
            for value in group {
                visit(index, value);
                index += 1;
            }
        }
    }

    /// The integer net (see [`super`]'s notes on the scales).
    pub fn quantise(&self) -> Network {
        let to_i16 =
            |v: f32, scale: i32| (v * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let row = |values: &[f32], scale: i32| {
            let mut row = Row([0; HIDDEN]);
            for (r, v) in row.0.iter_mut().zip(values) {
                *r = to_i16(*v, scale);
            }
            row
        };
        Network {
            feature_weights: self
                .feature_weights
                .chunks_exact(HIDDEN)
                .map(|values| row(values, QA))
                .collect(),
            feature_bias: row(&self.feature_bias, QA),
            output_weights: [
                row(&self.output_weights[..HIDDEN], QB),
                row(&self.output_weights[HIDDEN..], QB),
            ],
            output_bias: (self.output_bias * (QA * QB) as f32).round() as i32,
            tactical_weights: std::array::from_fn(|k| {
                (self.tactical_weights[k] * TACTICAL_SCALE[k] * (QA * QB) as f32).round() as i32
            }),
        }
    }
}

/// What one epoch achieved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The mean loss over the training positions during the epoch.
    pub train_loss: f64,
    /// The loss on the positions kept aside, after the epoch.
    pub validation_loss: f64,
    /// The step size used.
    pub learning_rate: f32,
}

/// Adam's running moments.
struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

/// Trains a net on `train` for `config.epochs`, reporting each epoch's
/// losses (validated on `validation`) to `report`; `stop` ends it after the
/// current epoch. Returns the net of the epoch with the lowest validation
/// loss (later epochs may fit the training positions better and others
/// worse).
pub fn train(
    train: &Samples,
    validation: &Samples,
    config: &TrainConfig,
    stop: &std::sync::atomic::AtomicBool,
    mut report: impl FnMut(&EpochReport),
) -> FloatNet {
    let mut net = FloatNet::random(config.seed);
    let parameters = net.parameters();
    let mut adam = Adam {
        first: vec![0.0; parameters],
        second: vec![0.0; parameters],
        steps: 0,
    };
    let threads = config.threads.max(1);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; parameters]; threads];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng(config.seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
    let mut best = (f64::INFINITY, net.clone());
    for epoch in 1..=config.epochs {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        let learning_rate = if epoch * 4 > config.epochs * 3 {
            config.learning_rate / 10.0
        } else {
            config.learning_rate
        };
        let mut epoch_loss = 0.0f64;
        for batch in order.chunks(config.batch_size.max(1)) {
            let per_thread = batch.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let net = &net;
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per_thread))
                    .map(|(grad, part)| {
                        scope.spawn(move || {
                            grad.fill(0.0);
                            let mut loss = 0.0f64;
                            for &i in part {
                                loss += f64::from(net.backward(train, i as usize, grad));
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            epoch_loss += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(per_thread);
            step(
                &mut net,
                &mut adam,
                &grads[..used],
                batch.len(),
                learning_rate,
            );
        }
        let validation_loss = net.loss(validation);
        if validation_loss < best.0 {
            best = (validation_loss, net.clone());
        }
        report(&EpochReport {
            epoch,
            train_loss: epoch_loss / train.len().max(1) as f64,
            validation_loss,
            learning_rate,
        });
    }
    best.1
}

/// One Adam step with the summed gradients of a batch of `count`
/// positions; weights are clipped to [`WEIGHT_CLIP`].
fn step(net: &mut FloatNet, adam: &mut Adam, grads: &[Vec<f32>], count: usize, learning_rate: f32) {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;
    adam.steps += 1;
    let correction1 = 1.0 - BETA1.powi(adam.steps);
    let correction2 = 1.0 - BETA2.powi(adam.steps);
    let scale = 1.0 / count as f32;
    let Adam { first, second, .. } = adam;
    net.for_each_parameter(|i, value| {
        let g: f32 = grads.iter().map(|grad| grad[i]).sum::<f32>() * scale;
        first[i] = BETA1 * first[i] + (1.0 - BETA1) * g;
        second[i] = BETA2 * second[i] + (1.0 - BETA2) * g * g;
        let update = (first[i] / correction1) / ((second[i] / correction2).sqrt() + EPSILON);
        *value = (*value - learning_rate * update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
    });
}

/// Splits `data` into training samples (mirrored too) and validation
/// samples (its last `validation` share, not mirrored), after checking
/// that it is data the nets are for.
pub fn samples(
    data: &TrainingData,
    config: &TrainConfig,
) -> Result<(Samples, Samples), TrainError> {
    let header = data.header;
    if header.size != BoardSize::STANDARD || header.variant != Variant::Epaminondas {
        return Err(TrainError::WrongData(header.size, header.variant));
    }
    let total = data.len();
    if total < 100 {
        return Err(TrainError::TooFew(total));
    }
    let kept = ((total as f64 * config.validation) as usize).clamp(1, total - 1);
    let train = Samples::from_data(data, 0..total - kept, config.lambda, true)?;
    let validation = Samples::from_data(data, total - kept..total, config.lambda, false)?;
    Ok((train, validation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::{DataHeader, TrainingRecord};
    use epaminondas_rules::Position;
    use std::sync::atomic::AtomicBool;

    /// Data where the target follows material: the side with more pieces
    /// wins.
    fn material_data(count: usize) -> TrainingData {
        let header = DataHeader::new(BoardSize::STANDARD, Variant::Epaminondas);
        let mut bytes = header.to_bytes().to_vec();
        let mut pos = Position::standard();
        let mut seed = 5u64;
        let mut written = 0;
        while written < count {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_terminal() {
                pos = Position::standard();
                continue;
            }
            // Captures first, so that the material varies.
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let captures: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let pool = if captures.is_empty() {
                moves.as_slice()
            } else {
                &captures
            };
            let mv = pool[(seed >> 33) as usize % pool.len()];
            pos.play_unchecked(mv);
            let lead = pos.count(pos.turn()) as i32 - pos.count(!pos.turn()) as i32;
            let result = match lead.signum() {
                1 => 2,
                -1 => 0,
                _ => 1,
            };
            TrainingRecord::new(&pos, lead * 200, result).write_to(&mut bytes);
            written += 1;
        }
        TrainingData::parse(bytes).unwrap()
    }

    #[test]
    fn training_lowers_the_loss_and_the_integer_net_agrees_with_the_float_one() {
        let data = material_data(1500);
        let config = TrainConfig {
            epochs: 6,
            batch_size: 256,
            threads: 2,
            ..TrainConfig::default()
        };
        let (train_set, validation) = samples(&data, &config).unwrap();
        assert_eq!(train_set.len(), 2 * (1500 - 75));
        let before = FloatNet::random(config.seed).loss(&validation);
        let mut reports = Vec::new();
        let net = train(
            &train_set,
            &validation,
            &config,
            &AtomicBool::new(false),
            |r| reports.push(*r),
        );
        assert_eq!(reports.len(), 6);
        let after = reports
            .iter()
            .map(|r| r.validation_loss)
            .fold(f64::INFINITY, f64::min);
        assert!(after < before * 0.7, "loss {before} -> {after}");
        assert_eq!(net.loss(&validation), after, "the best epoch's net is kept");
        // The integer net's evaluation is the float net's, within rounding:
        // each of some 50 inputs rounds by up to half a step (1/255) in
        // each of 256 accumulator values, which this test's large weights
        // turn into about 0.1 of a log-odds unit (some 15 of the
        // evaluation's).
        let quantised = net.quantise();
        let mut total = 0.0;
        for i in 0..200 {
            let record = data.record(i).unwrap();
            let mut setup = Vec::new();
            for color in [Color::White, Color::Black] {
                setup.extend(
                    record
                        .squares(color, BoardSize::STANDARD)
                        .map(|s| (color, s)),
                );
            }
            let pos = position(&record, BoardSize::STANDARD).unwrap();
            let mut one = Samples::default();
            one.push(&setup, record.turn, tactical_inputs(&pos), 0.0);
            let (ours, theirs) = one.inputs(0);
            let float = f64::from(net.output(ours, theirs, &one.tactical[0])) / LOGISTIC_SCALE;
            let integer = f64::from(quantised.evaluate_position(&pos));
            let difference = (float - integer).abs();

            assert!(difference < 40.0, "{float} vs {integer} ({pos})");
            total += difference;
        }
        assert!(total / 200.0 < 15.0, "mean difference {}", total / 200.0);
    }

    #[test]
    fn data_of_other_boards_is_refused() {
        let header = DataHeader::new(BoardSize::CROSSINGS, Variant::Crossings);
        let data = TrainingData::parse(header.to_bytes().to_vec()).unwrap();
        let error = samples(&data, &TrainConfig::default()).unwrap_err();
        assert!(error.to_string().contains("14x12 only"), "{error}");
        let few = material_data(50);
        assert_eq!(
            samples(&few, &TrainConfig::default()).unwrap_err(),
            TrainError::TooFew(50)
        );
    }
}
