//! Bootstrap intervals: the games resampled with replacement and the ratings fitted again,
//! the 2.5% and 97.5% quantiles of each player's rating over the samples giving a 95%
//! interval (the anchor's is exactly 0).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::davidson::Problem;
use super::results::{GameResults, pair_tallies};

/// The outcome of a bootstrap.
#[derive(Clone, Debug, PartialEq)]
pub struct Bootstrap {
    /// Each player's 95% interval in Elo, `None` if no sample could be fitted.
    pub intervals: Vec<Option<(f64, f64)>>,
    /// Samples drawn.
    pub samples: usize,
    /// Samples with finite ratings (without a prior, a sample where someone scored every
    /// point or none has none and is left out).
    pub used: usize,
}

/// Draws `samples` resamples of `results`' games (seeded by `seed`) and fits each like
/// `problem` (whose pairs are replaced by the sample's).
pub fn bootstrap(results: &GameResults, problem: &Problem, samples: usize, seed: u64) -> Bootstrap {
    let games = results.games();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut ratings: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); problem.players];
    let mut sample = Vec::with_capacity(games.len());
    for _ in 0..samples {
        sample.clear();
        sample.extend((0..games.len()).map(|_| &games[rng.random_range(0..games.len())]));
        let pairs = pair_tallies(sample.iter().copied());
        let resampled = Problem {
            pairs: &pairs,
            ..*problem
        };
        if let Some(fit) = resampled.fit() {
            for (i, r) in ratings.iter_mut().enumerate() {
                r.push(fit.elo(i));
            }
        }
    }
    let used = ratings.first().map_or(0, Vec::len);
    let intervals = ratings
        .into_iter()
        .map(|mut r| {
            r.sort_by(f64::total_cmp);
            (!r.is_empty()).then(|| (quantile(&r, 0.025), quantile(&r, 0.975)))
        })
        .collect();
    Bootstrap {
        intervals,
        samples,
        used,
    }
}

/// The `q` quantile of sorted, non-empty `values`, interpolated linearly.
fn quantile(values: &[f64], q: f64) -> f64 {
    let at = q * (values.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    values[low] + (at - low as f64) * (values[high] - values[low])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
        assert_eq!(quantile(&[0.0, 10.0], 0.025), 0.25);
        assert_eq!(quantile(&[7.0], 0.975), 7.0);
    }

    #[test]
    fn intervals_hold_the_estimate_shrink_with_games_and_repeat_for_a_seed() {
        let interval = |copies: usize, seed| {
            let mut results = GameResults::new();
            for _ in 0..copies {
                for score in [1.0, 1.0, 1.0, 0.5, 0.0] {
                    results.add("a", "b", score);
                }
            }
            let pairs = pair_tallies(results.games());
            let problem = Problem {
                players: 2,
                pairs: &pairs,
                prior_pairs: &[(0, 1)],
                prior: 1.0,
                anchor: 1,
            };
            let estimate = problem.fit().unwrap().elo(0);
            let b = bootstrap(&results, &problem, 200, seed);
            assert_eq!((b.samples, b.used), (200, 200));
            assert_eq!(b.intervals[1], Some((0.0, 0.0)), "the anchor");
            let (low, high) = b.intervals[0].unwrap();
            assert!(low < estimate && estimate < high, "{low} {estimate} {high}");
            (low, high)
        };
        let (small, large) = (interval(4, 1), interval(40, 1));
        assert!(large.1 - large.0 < small.1 - small.0, "{small:?} {large:?}");
        assert_eq!(interval(4, 1), small);
        assert_ne!(interval(4, 2), small);
    }
}
