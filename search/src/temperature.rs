//! The temperature rule that turns root visit counts (or a visit distribution) into a move:
//! used by the search to pick its action and by self-play to sample its moves.

use rand::Rng;

/// The index chosen from `weights` (visit counts, or a distribution over actions) at
/// `temperature`. At temperature 0 (below 1e-3): the heaviest, ties going to the higher
/// `tie_break` value where given (e.g. the prior), then to the lower index. Otherwise: an
/// index drawn with probability proportional to `weights[i]^(1 / temperature)`, never one of
/// weight 0. `weights` must not be empty.
pub fn sample_with_temperature(
    weights: &[f32],
    tie_break: Option<&[f32]>,
    temperature: f32,
    rng: &mut impl Rng,
) -> usize {
    let key = |i: usize| (weights[i], tie_break.map_or(0.0, |t| t[i]));
    let best = (1..weights.len()).fold(0, |best, i| if key(i) > key(best) { i } else { best });
    if temperature <= 1e-3 {
        return best;
    }
    let exponent = 1.0 / temperature as f64;
    let max = weights[best] as f64;
    let weight = |w: f32| {
        if w > 0.0 {
            (w as f64 / max).powf(exponent)
        } else {
            0.0
        }
    };
    let total: f64 = weights.iter().map(|&w| weight(w)).sum();
    let mut draw = rng.random::<f64>() * total;
    for (i, &w) in weights.iter().enumerate() {
        let w = weight(w);
        if w > 0.0 {
            if draw < w {
                return i;
            }
            draw -= w;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn temperature_zero_takes_the_heaviest_and_one_samples_in_proportion() {
        let policy = [0.0, 0.25, 0.75, 0.0];
        let mut rng = SmallRng::seed_from_u64(1);
        assert_eq!(sample_with_temperature(&policy, None, 0.0, &mut rng), 2);
        let mut counts = [0; 4];
        for _ in 0..4000 {
            counts[sample_with_temperature(&policy, None, 1.0, &mut rng)] += 1;
        }
        assert_eq!((counts[0], counts[3]), (0, 0), "never a weight of 0");
        assert!((2800..3200).contains(&counts[2]), "{counts:?}");
        // A low temperature sharpens: 0.75^4 / (0.75^4 + 0.25^4) = 0.988.
        let sharp = (0..1000)
            .filter(|_| sample_with_temperature(&policy, None, 0.25, &mut rng) == 2)
            .count();
        assert!(sharp > 960, "{sharp}");
    }

    #[test]
    fn visit_counts_sample_by_visits_and_ties_go_to_the_tie_break_then_the_first() {
        let visits = [30.0, 10.0, 0.0];
        let mut rng = SmallRng::seed_from_u64(2);
        let mut counts = [0; 3];
        for _ in 0..4000 {
            counts[sample_with_temperature(&visits, None, 1.0, &mut rng)] += 1;
        }
        assert_eq!(counts[2], 0, "never an unvisited action");
        assert!((2800..3200).contains(&counts[0]), "{counts:?}");
        let tied = [5.0, 7.0, 7.0];
        assert_eq!(sample_with_temperature(&tied, None, 0.0, &mut rng), 1);
        let priors = [0.9, 0.2, 0.3];
        assert_eq!(
            sample_with_temperature(&tied, Some(&priors), 0.0, &mut rng),
            2
        );
        assert_eq!(sample_with_temperature(&[0.0; 3], None, 1.0, &mut rng), 0);
    }
}
