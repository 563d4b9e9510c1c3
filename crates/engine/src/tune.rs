//! Texel-style tuning of the evaluation weights: a logistic fit of the
//! evaluation to the results of played games.
//!
//! Every position of a game (after its opening, and not in check, where only
//! tactics count) becomes a [`Sample`]: its evaluation terms and the game's
//! result for the side to move. The fit is a logistic regression: it finds
//! the weights under which `sigmoid(evaluation)` best predicts those results
//! (maximum likelihood; the problem is convex, so the answer does not depend
//! on a starting point). The weights come out in the evaluation's unit, on
//! the Elo scale: a score of 400 predicts odds of 10 to 1.

use epaminondas_rules::{Color, GameRecord, GameResult};

use crate::eval::{LOGISTIC_SCALE, TERMS, WEIGHT_UNIT, Weights, features};

/// One position of a game: its evaluation terms and how the game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation terms for the side to move (see [`crate::eval::TERM_LIST`]).
    pub features: [i32; TERMS],
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// The samples of one finished game: each position after the first
/// `skip_plies` plies (random openings say little), leaving out positions in
/// check and the final position. An unfinished game gives none.
pub fn samples_from_game(record: &GameRecord, skip_plies: usize) -> Vec<Sample> {
    let white_score = match record.result() {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        GameResult::Unfinished => return Vec::new(),
    };
    let mut pos = record.start().clone();
    let mut samples = Vec::new();
    for (ply, &mv) in record.moves().iter().enumerate() {
        if ply >= skip_plies && !pos.in_check() {
            let result = match pos.turn() {
                Color::White => white_score,
                Color::Black => 1.0 - white_score,
            };
            samples.push(Sample {
                features: features(&pos, None),
                result,
            });
        }
        pos.play_unchecked(mv);
    }
    samples
}

/// The result of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights, rounded, in the evaluation's unit
    /// (see [`crate::eval::win_probability`]).
    pub weights: Weights,
    /// The mean squared error of the starting weights.
    pub error_before: f64,
    /// The mean squared error of the fitted weights.
    pub error_after: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn score(sample: &Sample, weights: &[f64; TERMS]) -> f64 {
    sample
        .features
        .iter()
        .zip(weights)
        .map(|(&f, w)| f64::from(f) * w)
        .sum()
}

/// The mean squared error of the predictions of `weights` (in units whose
/// logistic slope is `scale`).
pub fn error(samples: &[Sample], weights: &[f64; TERMS], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(scale * score(s, weights))).powi(2))
        .sum();
    total / samples.len() as f64
}

/// A tiny ridge penalty, so that a term that never varies in the samples
/// keeps a weight of 0 instead of making the system singular.
const RIDGE: f64 = 1e-6;

/// Fits the weights to `samples` by logistic regression (Newton's method,
/// at most `iterations` steps; it converges in about ten), in the
/// evaluation's unit. `start` is only the baseline of the reported error.
/// Without samples the weights are all 0.
pub fn fit(samples: &[Sample], start: &Weights, iterations: usize) -> Fit {
    let unit = f64::from(WEIGHT_UNIT);
    let error_before = error(samples, &start.values.map(f64::from), LOGISTIC_SCALE / unit);
    let n = samples.len().max(1) as f64;
    // Logits per unit of each term.
    let mut beta = [0.0; TERMS];
    for _ in 0..iterations {
        let mut gradient = [0.0; TERMS];
        let mut hessian = [[0.0; TERMS]; TERMS];
        for s in samples {
            let p = sigmoid(score(s, &beta));
            let f = s.features.map(f64::from);
            let curvature = p * (1.0 - p) / n;
            for j in 0..TERMS {
                gradient[j] += (p - s.result) * f[j] / n;
                for k in 0..TERMS {
                    hessian[j][k] += curvature * f[j] * f[k];
                }
            }
        }
        for j in 0..TERMS {
            gradient[j] += RIDGE * beta[j];
            hessian[j][j] += RIDGE;
        }
        let step = solve(hessian, gradient);
        let mut largest: f64 = 0.0;
        for j in 0..TERMS {
            beta[j] -= step[j];
            largest = largest.max(step[j].abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    let weights = Weights {
        values: beta.map(|b| (b / LOGISTIC_SCALE * unit).round() as i32),
    };
    let error_after = error(
        samples,
        &weights.values.map(f64::from),
        LOGISTIC_SCALE / unit,
    );
    Fit {
        weights,
        error_before,
        error_after,
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is
/// positive definite here, thanks to the ridge).
fn solve(mut a: [[f64; TERMS]; TERMS], mut b: [f64; TERMS]) -> [f64; TERMS] {
    for col in 0..TERMS {
        let pivot = (col..TERMS)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let diagonal = a[col][col];
        if diagonal.abs() < 1e-300 {
            continue;
        }
        let pivot_row = a[col];
        for row in col + 1..TERMS {
            let factor = a[row][col] / diagonal;
            for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= factor * p;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; TERMS];
    for row in (0..TERMS).rev() {
        let rest: f64 = (row + 1..TERMS).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-300 {
            0.0
        } else {
            (b[row] - rest) / a[row][row]
        };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow a known rule: the side with more of
    /// term 1 wins, and term 0 tips the balance when term 1 is level. A fit from
    /// zero weight on term 1 must find a clearly positive weight and lower
    /// the error.
    #[test]
    fn the_fit_finds_a_predictive_term() {
        let mut samples = Vec::new();
        for i in -5i32..=5 {
            for j in -2i32..=2 {
                let mut features = [0; TERMS];
                features[0] = j;
                features[1] = i;
                // Term 1 decides, but term 0 tips the balance when it is level.
                let result = match (i + j.signum()).signum() {
                    1 => 1.0,
                    -1 => 0.0,
                    _ => 0.5,
                };
                samples.push(Sample { features, result });
            }
        }
        let start = Weights { values: [0; TERMS] };
        let fit = fit(&samples, &start, 30);
        assert!(fit.weights.values[1] > 100, "{fit:?}");
        assert!(fit.weights.values[0] > 10, "{fit:?}");
        assert!(fit.error_after < fit.error_before - 0.05, "{fit:?}");
        // Terms that never vary keep no weight.
        assert_eq!(fit.weights.values[5], 0);
        assert_eq!(super::fit(&[], &start, 30).weights, start);
    }

    #[test]
    fn samples_skip_the_opening_and_carry_the_result() {
        let text = "[Board \"6x6\"]\n[Result \"1-0\"]\n\n1. a2-a3 a5-a4 2. b2-b3 b5-b4 1-0\n";
        let record: GameRecord = text.parse().unwrap();
        let samples = samples_from_game(&record, 1);
        assert_eq!(samples.len(), 3);
        // Ply 1 is Black's: Black lost.
        assert_eq!(samples[0].result, 0.0);
        assert_eq!(samples[1].result, 1.0);
    }
}
