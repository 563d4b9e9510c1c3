//! Match statistics: Elo with an error bar, and the sequential probability
//! ratio test (SPRT), both from game pairs (pentanomial counts).
//!
//! Each opening is played twice with colours swapped, and the two games form
//! a pair scoring 0, 0.5, 1, 1.5 or 2 for the first player. Counting pairs
//! rather than games removes most of the noise that openings add.

/// Counts of game pairs by the first player's score in the pair: 0, 0.5,
/// 1, 1.5 and 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The first player is at least `elo1` stronger: accept H1.
    H1,
    /// The first player is at most `elo0` stronger: accept H0.
    H0,
    /// Not decided yet.
    Continue,
}

/// The parameters of an SPRT: H0 says the Elo difference is `elo0`, H1 that
/// it is `elo1`; `alpha` and `beta` are the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The expected score of a player `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected `score` (0 < score < 1).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Records a pair in which the first player scored `points` (0 to 2 in
    /// half points).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean score per game and its variance per pair (as a per-game score),
    /// or `None` with no pairs. `prior` is added to every count first.
    fn mean_and_variance(&self, prior: f64) -> Option<(f64, f64)> {
        if self.pairs() == 0 {
            return None;
        }
        let counts = self.0.map(|c| c as f64 + prior);
        let n: f64 = counts.iter().sum();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() / n;
        let variance: f64 = values
            .iter()
            .zip(counts)
            .map(|(v, c)| (v - mean).powi(2) * c)
            .sum::<f64>()
            / n;
        Some((mean, variance))
    }

    /// The first player's mean score per game (0 to 1).
    pub fn score(&self) -> Option<f64> {
        self.mean_and_variance(0.0).map(|(mean, _)| mean)
    }

    /// The Elo difference and the half-width of its 95% confidence interval.
    /// `None` without pairs; the estimate is clamped when one side scored
    /// everything.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (mean, variance) = self.mean_and_variance(0.0)?;
        let n = self.pairs() as f64;
        let clamped = mean.clamp(1e-3, 1.0 - 1e-3);
        let stderr = (variance / n).sqrt();
        let low = elo_of((clamped - 1.96 * stderr).clamp(1e-3, 1.0 - 1e-3));
        let high = elo_of((clamped + 1.96 * stderr).clamp(1e-3, 1.0 - 1e-3));
        Some((elo_of(clamped), (high - low) / 2.0))
    }

    /// The log-likelihood ratio of H1 against H0 (a normal approximation of
    /// the pentanomial model, as used by fishtest and fastchess).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        // A weak prior, half a pair on every outcome, keeps the variance
        // estimate sane over the first few pairs (without it one lost pair
        // would look like a certain loss) and when all pairs ended alike; its
        // weight vanishes as pairs accumulate.
        let Some((mean, variance)) = self.mean_and_variance(0.5) else {
            return 0.0;
        };
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        let n = self.pairs() as f64;
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

/// The likelihood of superiority: the probability that the first player
/// is the stronger, from its wins and losses (draws say nothing), by the
/// normal approximation cutechess-cli and fastchess use. `None` without a
/// decisive game.
pub fn los(wins: u64, losses: u64) -> Option<f64> {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        return None;
    }
    Some(0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt())))
}

/// The error function, to within 1.5e-7 (Abramowitz and Stegun 7.1.26).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

impl Pentanomial {
    /// The normalised Elo difference and the half-width of its 95%
    /// interval: the score's distance from even measured in standard
    /// deviations of a game's score (`(score - 0.5) / sigma`, with the
    /// per-game variance twice that of a pair's mean), times 800 / ln 10.
    /// It does not depend on the draw rate, so it compares matches played
    /// under different conditions. `None` without pairs or variance.
    pub fn nelo(&self) -> Option<(f64, f64)> {
        let (mean, variance) = self.mean_and_variance(0.0)?;
        let per_game = 2.0 * variance;
        if per_game <= 0.0 {
            return None;
        }
        let scale = 800.0 / std::f64::consts::LN_10;
        let games = 2.0 * self.pairs() as f64;
        Some((
            (mean - 0.5) / per_game.sqrt() * scale,
            1.96 * scale / games.sqrt(),
        ))
    }
}

impl Sprt {
    /// The LLR bounds: below the first accept H0, above the second accept H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict on the pairs so far.
    pub fn verdict(&self, pairs: &Pentanomial) -> SprtVerdict {
        let llr = pairs.llr(self);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -50.0, 0.0, 10.0, 200.0] {
            assert!((elo_of(expected_score(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn an_even_match_is_zero_elo() {
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let (elo, error) = p.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(error > 10.0 && error < 100.0, "{error}");
        assert_eq!(p.score(), Some(0.5));
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        // A much stronger first player: H1.
        assert_eq!(
            sprt.verdict(&Pentanomial([5, 20, 100, 200, 100])),
            SprtVerdict::H1
        );
        // A much weaker one: H0.
        assert_eq!(
            sprt.verdict(&Pentanomial([100, 200, 100, 20, 5])),
            SprtVerdict::H0
        );
        // Too few pairs to tell.
        assert_eq!(
            sprt.verdict(&Pentanomial([1, 2, 3, 2, 1])),
            SprtVerdict::Continue
        );
        assert_eq!(Pentanomial::default().llr(&sprt), 0.0);
        // A lost pair or two decide nothing.
        assert_eq!(
            sprt.verdict(&Pentanomial([2, 0, 0, 0, 0])),
            SprtVerdict::Continue
        );
        assert_eq!(
            sprt.verdict(&Pentanomial([1, 0, 1, 0, 0])),
            SprtVerdict::Continue
        );
        // All pairs won: decided, not stuck at zero variance.
        assert_eq!(
            sprt.verdict(&Pentanomial([0, 0, 0, 0, 30])),
            SprtVerdict::H1
        );
        assert_eq!(
            sprt.verdict(&Pentanomial([30, 0, 0, 0, 0])),
            SprtVerdict::H0
        );
    }

    #[test]
    fn los_and_normalised_elo() {
        assert_eq!(los(0, 0), None);
        assert!((los(10, 10).unwrap() - 0.5).abs() < 1e-9);
        // 60 wins to 40 losses: (W - L) / sqrt(W + L) = 2 deviations, LOS = 97.7%.
        assert!(
            (los(60, 40).unwrap() - 0.97725).abs() < 1e-4,
            "{:?}",
            los(60, 40)
        );
        assert!(los(40, 60).unwrap() < 0.1);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        // An even match is 0; a stronger first player is positive.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        assert!(even.nelo().unwrap().0.abs() < 1e-9);
        let strong = Pentanomial([5, 10, 40, 30, 15]);
        let (nelo, error) = strong.nelo().unwrap();
        assert!(nelo > 0.0 && error > 0.0, "{nelo} {error}");
        // By hand: mean 0.6, variance of the pair means 0.065.
        let expected = (0.6 - 0.5) / (2.0f64 * 0.065).sqrt() * 800.0 / std::f64::consts::LN_10;
        assert!((nelo - expected).abs() < 1e-9, "{nelo} {expected}");
        assert_eq!(Pentanomial([0, 0, 7, 0, 0]).nelo(), None);
    }

    #[test]
    fn adding_pairs() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 2.0] {
            p.add(points);
        }
        assert_eq!(p.0, [1, 1, 1, 1, 2]);
        assert_eq!(p.pairs(), 6);
    }
}
