//! The static evaluation: how good a quiet position is for the side to move.
//!
//! A linear sum of terms ([`Term`]), each a count taken from the position,
//! most of them as the difference between the side to move and the other
//! side: material, how far the pieces have advanced (in eight bands from the
//! home rank to the goal rank), how connected they are, how many moves each
//! side has, the largest capture each side could make, and a bonus for
//! having the move. The weights were fitted to the results of self-play
//! games by logistic regression (see [`crate::tune`] and `epaminondas tune`).

use epaminondas_rules::{Color, Position, Variant};

/// The slope of the logistic curve that turns a score into an expected
/// result: the evaluation's unit is that of Elo ratings, a score `s`
/// predicting the result `1 / (1 + 10^(-s / 400))`.
pub const LOGISTIC_SCALE: f64 = std::f64::consts::LN_10 / 400.0;

/// The expected result (0 to 1) of a score for the side to move.
pub fn win_probability(score: i32) -> f64 {
    1.0 / (1.0 + (-LOGISTIC_SCALE * f64::from(score)).exp())
}

/// The number of evaluation terms.
pub const TERMS: usize = 14;

/// The number of advancement bands, from the home rank (band 0) to the goal
/// rank (the last band), whatever the number of ranks.
pub const BANDS: usize = 8;

/// One term of the evaluation: what is counted, and how it is named in the
/// tuner's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The name, as `epaminondas tune` prints it.
    pub name: &'static str,
    /// What the term counts.
    pub meaning: &'static str,
}

/// The terms, in the order of [`Weights::values`] and [`features`].
pub const TERM_LIST: [Term; TERMS] = [
    Term {
        name: "piece",
        meaning: "pieces, ours minus theirs",
    },
    Term {
        name: "band1",
        meaning: "pieces in advancement band 1 (of 0..7), ours minus theirs",
    },
    Term {
        name: "band2",
        meaning: "pieces in band 2",
    },
    Term {
        name: "band3",
        meaning: "pieces in band 3",
    },
    Term {
        name: "band4",
        meaning: "pieces in band 4",
    },
    Term {
        name: "band5",
        meaning: "pieces in band 5",
    },
    Term {
        name: "band6",
        meaning: "pieces in band 6",
    },
    Term {
        name: "band7",
        meaning: "pieces on the goal rank (band 7)",
    },
    Term {
        name: "links",
        meaning: "neighbouring pairs of pieces along the phalanx lines, ours minus theirs",
    },
    Term {
        name: "mobility",
        meaning: "legal moves, ours minus theirs (as if each side were to move)",
    },
    Term {
        name: "capture",
        meaning: "the most pieces the side to move can capture now",
    },
    Term {
        name: "threat",
        meaning: "the most pieces the other side could capture (a threat)",
    },
    Term {
        name: "home",
        meaning: "pieces still on the home rank, ours minus theirs (defence)",
    },
    Term {
        name: "tempo",
        meaning: "having the move (always 1)",
    },
];

/// Weights are kept in this fraction of the evaluation's unit, so that
/// small terms (a link, a move of mobility) keep their precision.
pub const WEIGHT_UNIT: i32 = 16;

/// The weights of the terms, in 1/[`WEIGHT_UNIT`] of the evaluation's unit
/// (see [`win_probability`]) per unit of each term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// One weight per term of [`TERM_LIST`].
    pub values: [i32; TERMS],
}

impl Default for Weights {
    /// The weights fitted by `epaminondas tune` (see docs/strength.md).
    fn default() -> Self {
        Weights {
            values: [
                118, 137, -41, 199, 381, 429, 619, 0, 18, 49, 724, -484, 478, 303,
            ],
        }
    }
}

impl Weights {
    /// The weights for positions of `variant`: the standard game's
    /// ([`Weights::default`]) unless weights fitted by `epaminondas tune` on
    /// the variant's own self-play games beat them in a match (so far those
    /// of Crossings and Abanondas; docs/strength.md has the matches).
    pub fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::Epaminondas => Weights::default(),
            // 2,000 self-play games at 4,000 nodes a move (docs/strength.md).
            Variant::Crossings => Weights {
                values: [
                    1384, -361, -101, 108, 95, 361, 2012, 0, 521, 103, 2501, -1389, -730, 761,
                ],
            },
            // 662 self-play games at 20,000 nodes a move with repetitions
            // scored (docs/strength.md).
            Variant::Abanondas => Weights {
                values: [332, -58, -1, 17, 8, 294, 492, 0, 69, 1, -7, 291, 23, -11],
            },
            // Two fits on its own self-play games lost to these (docs/strength.md).
            Variant::StumblingBlocks => Weights::default(),
        }
    }

    /// Reads weights written as `tune` prints them: [`TERMS`] integers
    /// separated by commas (brackets and spaces allowed), in the order of
    /// [`TERM_LIST`]. The error says what is wrong.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
        let values: Vec<i32> = inner
            .split(',')
            .map(|word| {
                let word = word.trim();
                word.parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= 1_000_000)
                    .ok_or_else(|| {
                        let shown: String = word.chars().take(20).collect();
                        format!("'{shown}' is not a weight (an integer of at most 1000000)")
                    })
            })
            .collect::<Result<_, _>>()?;
        let values: [i32; TERMS] = values
            .try_into()
            .map_err(|v: Vec<i32>| format!("{TERMS} weights are needed, not {}", v.len()))?;
        Ok(Weights { values })
    }

    /// The worth of capturing a piece, in the evaluation's unit, for
    /// margins in the search: the piece itself and the capture term.
    pub fn capture_gain(&self) -> i32 {
        (self.values[0] + self.values[10]).max(0) / WEIGHT_UNIT
    }
}

/// The band (0 to [`BANDS`] - 1) of `rank` for `color`: 0 on the home rank,
/// the last band on the goal rank, the ranks between spread evenly.
fn band(color: Color, rank: u8, ranks: u8) -> usize {
    let last = usize::from(ranks) - 1;
    let progress = match color {
        Color::White => usize::from(rank),
        Color::Black => last - usize::from(rank),
    };
    if progress == last {
        BANDS - 1
    } else {
        // The ranks below the goal share bands 0..BANDS - 2.
        progress * (BANDS - 1) / last
    }
}

/// The terms of `pos` for the side to move, as counts (see [`TERM_LIST`]).
/// Terms whose weight in `skip_zero` is 0 are left at 0 without being
/// counted, since some (mobility and captures) cost a move generation per
/// side.
pub fn features(pos: &Position, skip_zero: Option<&Weights>) -> [i32; TERMS] {
    let mut f = cheap_features(pos, skip_zero);
    costly_features(pos, skip_zero, &mut f);
    f
}

/// The terms that cost a move generation: mobility, capture and threat.
#[cfg(test)]
const COSTLY: [usize; 3] = [9, 10, 11];

/// The terms of [`features`] but the costly ones (mobility, capture and
/// threat), which are left at 0.
fn cheap_features(pos: &Position, skip_zero: Option<&Weights>) -> [i32; TERMS] {
    let wanted = |term: usize| skip_zero.is_none_or(|w| w.values[term] != 0);
    let us = pos.turn();
    let them = !us;
    let ranks = pos.size().ranks();
    let mut f = [0; TERMS];
    f[0] = pos.count(us) as i32 - pos.count(them) as i32;
    for rank in 0..ranks {
        for (color, sign) in [(us, 1), (them, -1)] {
            let band = band(color, rank, ranks);
            if band > 0 {
                f[band] += sign * pos.count_on_rank(color, rank) as i32;
            }
        }
    }
    if wanted(8) {
        f[8] = pos.links(us) as i32 - pos.links(them) as i32;
    }
    let home = |color: Color| pos.count_on_rank(color, pos.goal_rank(!color)) as i32;
    f[12] = home(us) - home(them);
    f[13] = 1;
    f
}

/// Fills in the costly terms (mobility, capture and threat) of `f`.
fn costly_features(pos: &Position, skip_zero: Option<&Weights>, f: &mut [i32; TERMS]) {
    let wanted = |term: usize| skip_zero.is_none_or(|w| w.values[term] != 0);
    let (us, them) = (pos.turn(), !pos.turn());
    if wanted(9) {
        let (ours, theirs) = pos.survey_both();
        f[9] = ours.moves as i32 - theirs.moves as i32;
        f[10] = i32::from(ours.largest_capture);
        f[11] = i32::from(theirs.largest_capture);
    } else {
        // Without mobility, captures alone come cheaper.
        if wanted(10) {
            f[10] = i32::from(pos.largest_capture(us));
        }
        if wanted(11) {
            f[11] = i32::from(pos.largest_capture(them));
        }
    }
}

/// The weighted sum of `f`, in the evaluation's unit.
fn weigh(f: &[i32; TERMS], weights: &Weights) -> i32 {
    let sum: i32 = f.iter().zip(weights.values).map(|(f, w)| f * w).sum();
    sum / WEIGHT_UNIT
}

/// The evaluation of `pos` for the side to move, with `weights`.
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    weigh(&features(pos, Some(weights)), weights)
}

/// The evaluation of `pos` for the side to move without the terms that
/// cost a move generation (mobility, capture and threat): material,
/// advancement, links and pieces home, for callers that evaluate many
/// positions they will not search (a proof search's new nodes).
pub fn evaluate_cheap(pos: &Position, weights: &Weights) -> i32 {
    weigh(&cheap_features(pos, Some(weights)), weights)
}

/// The evaluation of `pos` where only its place relative to the window
/// `alpha..beta` matters: when the cheap terms alone put the score at least
/// `margin` above `beta` (or below `alpha`), the costly terms (a move
/// generation for each side) are skipped and the cheap score less (or plus)
/// `margin` is returned as a bound; otherwise the full evaluation. Exact
/// whenever the costly terms are worth less than `margin`.
pub fn evaluate_lazy(pos: &Position, weights: &Weights, alpha: i32, beta: i32, margin: i32) -> i32 {
    let mut f = cheap_features(pos, Some(weights));
    let cheap = weigh(&f, weights);
    if cheap - margin >= beta {
        return cheap - margin;
    }
    if cheap + margin <= alpha {
        return cheap + margin;
    }
    costly_features(pos, Some(weights), &mut f);
    weigh(&f, weights)
}

/// The evaluation of `pos` for the side to move, with its variant's weights
/// ([`Weights::for_variant`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::for_variant(pos.variant()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_run_from_home_to_goal() {
        // 12 ranks: home 0, goal 7, the rest spread over 0..=6.
        let white: Vec<usize> = (0..12).map(|r| band(Color::White, r, 12)).collect();
        assert_eq!(white, [0, 0, 1, 1, 2, 3, 3, 4, 5, 5, 6, 7]);
        let black: Vec<usize> = (0..12).rev().map(|r| band(Color::Black, r, 12)).collect();
        assert_eq!(white, black);
        // The smallest board: 4 ranks.
        let small: Vec<usize> = (0..4).map(|r| band(Color::White, r, 4)).collect();
        assert_eq!(small, [0, 2, 4, 7]);
    }

    #[test]
    fn the_start_is_level_and_colours_are_symmetric() {
        let tempo = Weights::default().values[13] / WEIGHT_UNIT;
        assert_eq!(evaluate(&Position::standard()), tempo);
        // The same position seen from the other side, colours swapped and
        // the board turned: equal evaluations.
        let a: Position = "4/1b2/4/w3 w".parse().unwrap();
        let b: Position = "b3/4/1w2/4 b".parse().unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert_eq!(features(&a, None), features(&b, None));
        // Material counts.
        let up: Position = "3b/4/4/ww2 w".parse().unwrap();
        assert!(evaluate(&up) > 50);
    }

    #[test]
    fn each_variant_is_evaluated_with_its_own_weights() {
        assert_eq!(
            Weights::for_variant(Variant::Epaminondas),
            Weights::default()
        );
        assert_ne!(Weights::for_variant(Variant::Crossings), Weights::default());
        // The same pieces weigh differently in Crossings.
        let standard: Position = "3b/4/4/ww2 w".parse().unwrap();
        let crossings = standard.with_variant(Variant::Crossings).unwrap();
        assert_eq!(features(&standard, None), features(&crossings, None));
        assert_eq!(
            evaluate(&crossings),
            evaluate_with(&crossings, &Weights::for_variant(Variant::Crossings))
        );
        assert_ne!(evaluate(&crossings), evaluate(&standard));
        let abanondas = standard.with_variant(Variant::Abanondas).unwrap();
        assert_eq!(
            evaluate(&abanondas),
            evaluate_with(&abanondas, &Weights::for_variant(Variant::Abanondas))
        );
        assert_ne!(evaluate(&abanondas), evaluate(&standard));
    }

    #[test]
    fn weights_read_as_tune_prints_them() {
        let text = format!("{:?}", Weights::default().values);
        assert_eq!(Weights::parse(&text), Ok(Weights::default()));
        assert_eq!(
            Weights::parse("1,2"),
            Err("14 weights are needed, not 2".to_owned())
        );
        let error = Weights::parse(&format!("{},2", "9".repeat(40))).unwrap_err();
        assert!(
            error.contains("is not a weight") && error.len() < 80,
            "{error}"
        );
    }

    #[test]
    fn lazy_evaluation_is_exact_inside_the_window_and_a_bound_outside() {
        let weights = Weights::default();
        for text in ["4/b3/w3/w3 b", "3b/4/4/ww2 w", "bbb1/4/4/1www w"] {
            let pos: Position = text.parse().unwrap();
            let exact = evaluate(&pos);
            let wide = evaluate_lazy(&pos, &weights, -10_000, 10_000, 200);
            assert_eq!(wide, exact, "{text}: an open window is exact");
            // A window far below the cheap score: a lower bound above beta.
            let cheap = weigh(&cheap_features(&pos, Some(&weights)), &weights);
            let high = evaluate_lazy(&pos, &weights, cheap - 1_001, cheap - 1_000, 200);
            assert_eq!(high, cheap - 200, "{text}");
            let low = evaluate_lazy(&pos, &weights, cheap + 1_000, cheap + 1_001, 200);
            assert_eq!(low, cheap + 200, "{text}");
        }
        // The costly terms are the difference between the two.
        let pos: Position = "4/b3/w3/w3 b".parse().unwrap();
        let mut f = cheap_features(&pos, None);
        assert_eq!(COSTLY.map(|t| f[t]), [0; 3]);
        costly_features(&pos, None, &mut f);
        assert_eq!(f, features(&pos, None));
    }

    #[test]
    fn captures_and_threats_are_seen() {
        // White's pair on a1-a2 can capture the single black piece on a4;
        // Black, to move, sees that as a threat.
        let pos: Position = "4/b3/w3/w3 b".parse().unwrap();
        let f = features(&pos, None);
        assert_eq!(f[10], 0, "black cannot capture");
        assert_eq!(f[11], 1, "white threatens one piece");
    }
}
