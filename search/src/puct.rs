//! PUCT, as in AlphaZero: priors from the evaluator's logits renormalised over the legal
//! actions, Dirichlet noise at the root, first-play urgency for unvisited edges, virtual loss
//! for edges waiting for the evaluator.

use rand::Rng;
use rand_distr::{Distribution, Gamma};

use crate::config::SearchConfig;
use crate::tree::{Edge, Node};

/// Writes into `out` the softmax of `logits` restricted to `actions` (one prior per action).
pub fn legal_softmax(logits: &[f32], actions: &[usize], out: &mut Vec<f32>) {
    out.clear();
    let max = actions
        .iter()
        .map(|&a| logits[a])
        .fold(f32::NEG_INFINITY, f32::max);
    out.extend(actions.iter().map(|&a| (logits[a] - max).exp()));
    let sum: f32 = out.iter().sum();
    if sum.is_finite() && sum > 0.0 {
        out.iter_mut().for_each(|p| *p /= sum);
    } else {
        // Non-finite logits from a broken model: fall back to uniform priors.
        let uniform = 1.0 / actions.len().max(1) as f32;
        out.iter_mut().for_each(|p| *p = uniform);
    }
}

/// Mixes Dirichlet(alpha) noise into `priors`: `(1 - fraction) * p + fraction * noise`.
/// `noise` is a reusable buffer.
pub fn add_dirichlet_noise(
    priors: &mut [f32],
    alpha: f32,
    fraction: f32,
    noise: &mut Vec<f32>,
    rng: &mut impl Rng,
) {
    if fraction <= 0.0 || priors.len() < 2 {
        return;
    }
    let gamma = Gamma::new(alpha.max(1e-3), 1.0).expect("positive Dirichlet concentration");
    // A Dirichlet sample is a vector of Gamma(alpha, 1) samples, normalised.
    noise.clear();
    noise.extend((0..priors.len()).map(|_| gamma.sample(rng)));
    let sum: f32 = noise.iter().sum();
    if sum <= 0.0 {
        return;
    }
    for (p, g) in priors.iter_mut().zip(noise.iter()) {
        *p = (1.0 - fraction) * *p + fraction * g / sum;
    }
}

/// The PUCT choice among the edges of `node`: argmax of `Q + c_puct * P * sqrt(N) / (1 + n)`.
/// `priors`, where given, replace the edges' priors (the noisy root priors). Unvisited edges
/// get the first-play urgency value; in-flight simulations count as visits that lost.
pub fn select_puct(
    node: &Node,
    edges: &[Edge],
    priors: Option<&[f32]>,
    config: &SearchConfig,
) -> usize {
    match priors {
        Some(priors) => best_puct(node, edges, config, |i, _| priors[i]),
        None => best_puct(node, edges, config, |_, e| e.prior),
    }
}

#[inline(always)]
fn best_puct(
    node: &Node,
    edges: &[Edge],
    config: &SearchConfig,
    prior: impl Fn(usize, &Edge) -> f32,
) -> usize {
    let exploration = config.c_puct * ((node.visits + node.in_flight) as f32).sqrt();
    let fpu = node.mean_value() - config.fpu_reduction;
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, edge) in edges.iter().enumerate() {
        let n = edge.visits + edge.in_flight;
        let score = if n == 0 {
            fpu + exploration * prior(i, edge)
        } else {
            let n = n as f32;
            let w = edge.value_sum - edge.in_flight as f32 * config.virtual_loss;
            // w / n + exploration * p / (1 + n), with one division.
            (w * (1.0 + n) + exploration * prior(i, edge) * n) / (n * (1.0 + n))
        };
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Color;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn edge(prior: f32, visits: u32, value_sum: f32) -> Edge {
        Edge {
            action: 0,
            prior,
            visits,
            in_flight: 0,
            value_sum,
            child: u32::MAX,
        }
    }

    #[test]
    fn softmax_covers_only_legal_actions() {
        let logits = [0.0, 100.0, (2.0f32).ln(), 0.0];
        let mut out = Vec::new();
        legal_softmax(&logits, &[0, 2, 3], &mut out);
        assert_eq!(out.len(), 3);
        let expect = [0.25, 0.5, 0.25];
        assert!(
            out.iter().zip(expect).all(|(a, b)| (a - b).abs() < 1e-6),
            "{out:?}"
        );
    }

    #[test]
    fn dirichlet_noise_keeps_a_distribution_and_changes_it() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut priors = vec![0.25; 4];
        let mut noise = Vec::new();
        add_dirichlet_noise(&mut priors, 0.3, 0.25, &mut noise, &mut rng);
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(priors.iter().all(|&p| p >= 0.75 * 0.25 - 1e-6));
        assert!(priors.iter().any(|&p| (p - 0.25).abs() > 1e-3));
    }

    #[test]
    fn first_play_urgency_and_virtual_loss_steer_selection() {
        let mut node = Node::new(Color::White);
        node.visits = 10;
        node.value_sum = 5.0; // mean 0.5
        let config = SearchConfig {
            c_puct: 0.0,
            fpu_reduction: 0.25,
            ..SearchConfig::default()
        };
        // Unvisited edge worth 0.5 - 0.25 = 0.25: better than 0.2, worse than 0.3.
        let edges = [edge(0.5, 5, 1.0), edge(0.5, 0, 0.0)];
        assert_eq!(select_puct(&node, &edges, None, &config), 1);
        let edges = [edge(0.5, 5, 1.5), edge(0.5, 0, 0.0)];
        assert_eq!(select_puct(&node, &edges, None, &config), 0);
        // One in-flight simulation counted as a loss: (1.5 - 1) / 6 < 0.25.
        let mut busy = edges;
        busy[0].in_flight = 1;
        assert_eq!(select_puct(&node, &busy, None, &config), 1);
        // Root priors override the edges' priors.
        let explore = SearchConfig {
            c_puct: 10.0,
            ..config
        };
        let fresh = [edge(0.9, 0, 0.0), edge(0.1, 0, 0.0)];
        assert_eq!(select_puct(&node, &fresh, None, &explore), 0);
        assert_eq!(select_puct(&node, &fresh, Some(&[0.1, 0.9]), &explore), 1);
    }
}
