//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), updated
//! after each rated game as a rating period of one game, as online servers
//! do.

/// The system constant: how much the volatility may change.
const TAU: f64 = 0.5;
/// Converts between the Glicko and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// A new player's rating, deviation and volatility.
pub const INITIAL: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// A player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is.
    pub deviation: f64,
    /// How erratic the player's results are.
    pub volatility: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after one game against `opponent` with `score` (1 a win,
    /// 0.5 a draw, 0 a loss): a rating period of that one game.
    pub fn after(self, opponent: Rating, score: f64) -> Rating {
        self.after_period(&[(opponent, score)])
    }

    /// The rating after a rating period in which the player met each
    /// opponent of `games` with its score (Glickman's steps 3 to 8). A
    /// period without games only widens the deviation.
    pub fn after_period(self, games: &[(Rating, f64)]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if games.is_empty() {
            let phi_star = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating {
                deviation: (SCALE * phi_star).min(INITIAL.deviation),
                ..self
            };
        }
        // Step 3 and 4: the estimated variance and the improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let phi_j = opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            inverse_v += gj * gj * e * (1.0 - e);
            sum += gj * (score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility by the Illinois algorithm.
        let a = (self.volatility * self.volatility).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) * (phi * phi + v + ex))
                - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= 1e-6 {
                break;
            }
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma = (big_a / 2.0).exp();
        // Steps 6 to 8: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: SCALE * mu_new + 1500.0,
            deviation: (SCALE * phi_new).min(INITIAL.deviation),
            volatility: sigma,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_and_a_loss_lowers_symmetrically() {
        let (a, b) = (INITIAL, INITIAL);
        let a2 = a.after(b, 1.0);
        let b2 = b.after(a, 0.0);
        assert!(a2.rating > 1600.0 && a2.rating < 1700.0, "{a2:?}");
        assert!((a2.rating - 1500.0 + (b2.rating - 1500.0)).abs() < 1e-6);
        assert!(a2.deviation < 350.0);
        let d = a.after(b, 0.5);
        assert!((d.rating - 1500.0).abs() < 1e-9);
    }

    /// Glickman's "Example of the Glicko-2 system" (2013): a player rated
    /// 1500 (RD 200, volatility 0.06) beats an opponent of 1400 (RD 30)
    /// and loses to 1550 (RD 100) and 1700 (RD 300), with tau 0.5: rating
    /// 1464.05, RD 151.52 and volatility 0.05999 (the paper prints 1464.06,
    /// having rounded its intermediate steps; unrounded it is 1464.0507).
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = player.after_period(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        assert!((after.rating - 1464.05).abs() < 0.005, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Rating {
            rating: 1700.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let after = player.after_period(&[]);
        assert_eq!(after.rating, 1700.0);
        // sqrt(50^2 + (0.06 * 173.7178)^2) = 51.07.
        assert!((after.deviation - 51.07).abs() < 0.01, "{after:?}");
    }
}
