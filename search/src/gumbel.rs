//! Gumbel AlphaZero root search (Danihelka, Guez, Schrittwieser, Silver: "Policy improvement
//! by planning with Gumbel", ICLR 2022). At the root, m actions are drawn without replacement
//! by Gumbel-top-k on `g + logits`; sequential halving then spends the simulation budget on
//! them in rounds, keeping the better half by `g + logits + sigma(q)` each round, with
//! `sigma(q) = (c_visit + max_b N(b)) * c_scale * q` and q the completed Q-values (visited
//! actions: their mean value; unvisited: the mixed value estimate) rescaled to [0, 1] by their
//! minimum and maximum. The move played is the halving's winner, and the improved policy
//! target is `softmax(logits + sigma(completed q))`. Below the root the search uses PUCT.

use rand::Rng;
use rand_distr::{Distribution, Gumbel};

use crate::config::SearchConfig;
use crate::tree::{Edge, Node};

/// The state of a Gumbel root search, with buffers kept between searches.
#[derive(Debug, Default)]
pub struct GumbelRoot {
    /// Gumbel sample per root edge; negative infinity for the edges not considered.
    gumbel: Vec<f32>,
    /// This search's visits per root edge, in-flight simulations included.
    search_visits: Vec<u32>,
    /// For simulation number t, the visit count an action must have to be chosen.
    schedule: Vec<u32>,
    /// Scratch: per-edge scores.
    scratch: Vec<f32>,
    /// Scratch: edge order for the top-m draw.
    order: Vec<usize>,
}

/// The logit of an edge, recovered from its prior (the softmax loses only a constant, which
/// every formula here is blind to).
fn logit(edge: &Edge) -> f32 {
    edge.prior.max(1e-30).ln()
}

/// The visits an action must have at each simulation of sequential halving over `considered`
/// actions and `simulations` simulations: each round visits every remaining action equally,
/// about `simulations / (ceil(log2 m) * remaining)` times, then halves the remaining set.
pub fn halving_schedule(considered: usize, simulations: usize, out: &mut Vec<u32>) {
    out.clear();
    if considered <= 1 {
        out.extend(0..simulations as u32);
        return;
    }
    let rounds = (considered as f64).log2().ceil() as usize;
    let mut remaining = considered;
    let mut visits = 0u32;
    while out.len() < simulations {
        let extra = (simulations / (rounds * remaining)).max(1);
        for _ in 0..extra {
            out.extend(std::iter::repeat_n(visits, remaining));
            visits += 1;
        }
        remaining = (remaining / 2).max(2);
    }
    out.truncate(simulations);
}

impl GumbelRoot {
    /// Starts a search at an expanded root: draws the Gumbel samples, keeps the top m actions
    /// by `g + logit`, and lays out the halving schedule.
    pub fn prepare(&mut self, edges: &[Edge], config: &SearchConfig, rng: &mut impl Rng) {
        let gumbel = Gumbel::new(0.0f32, 1.0).expect("standard Gumbel");
        self.gumbel.clear();
        self.gumbel.extend(edges.iter().map(|_| gumbel.sample(rng)));
        self.search_visits.clear();
        self.search_visits.resize(edges.len(), 0);
        let considered = config.gumbel_considered.clamp(1, edges.len());
        self.order.clear();
        self.order.extend(0..edges.len());
        let score = |i: usize| self.gumbel[i] + logit(&edges[i]);
        self.order
            .sort_by(|&a, &b| score(b).total_cmp(&score(a)).then(a.cmp(&b)));
        for &i in &self.order[considered..] {
            self.gumbel[i] = f32::NEG_INFINITY;
        }
        halving_schedule(considered, config.simulations as usize, &mut self.schedule);
    }

    /// Writes the completed Q-values of the root's edges, rescaled to [0, 1], into `scratch`,
    /// and returns the sigma factor `(c_visit + max N) * c_scale`.
    fn completed_q(&mut self, root: &Node, edges: &[Edge], config: &SearchConfig) -> f32 {
        // The mixed value: the root's own value and the prior-weighted mean of the visited
        // Q-values, weighted by the number of visits.
        let (mut visits, mut weighted_q, mut visited_prior) = (0u32, 0.0f32, 0.0f32);
        let mut max_visits = 0;
        for edge in edges {
            if let Some(q) = edge.mean_value() {
                visits += edge.visits;
                weighted_q += edge.prior * q;
                visited_prior += edge.prior;
            }
            max_visits = max_visits.max(edge.visits);
        }
        let mixed = if visited_prior > 0.0 {
            (root.value + visits as f32 * weighted_q / visited_prior) / (1 + visits) as f32
        } else {
            root.value
        };
        self.scratch.clear();
        self.scratch
            .extend(edges.iter().map(|e| e.mean_value().unwrap_or(mixed)));
        let (lo, hi) = self
            .scratch
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &q| {
                (lo.min(q), hi.max(q))
            });
        let range = (hi - lo).max(1e-8);
        self.scratch.iter_mut().for_each(|q| *q = (*q - lo) / range);
        (config.c_visit + max_visits as f32) * config.c_scale
    }

    /// The root edge the next simulation takes: among the considered actions whose visits
    /// this search equal the schedule's count, the best by `g + logit + sigma(q)`.
    pub fn select(&mut self, root: &Node, edges: &[Edge], config: &SearchConfig) -> usize {
        let sigma = self.completed_q(root, edges, config);
        let done: u32 = self.search_visits.iter().sum();
        let target = self
            .schedule
            .get(done as usize)
            .or(self.schedule.last())
            .copied()
            .unwrap_or(0);
        let best = self.best(edges, sigma, |i| self.search_visits[i] == target);
        let best = best.unwrap_or_else(|| {
            self.best(edges, sigma, |_| true)
                .expect("at least one considered action")
        });
        self.search_visits[best] += 1;
        best
    }

    /// Forgets a root choice whose simulation was abandoned (a batch collision).
    pub fn unselect(&mut self, edge: usize) {
        self.search_visits[edge] -= 1;
    }

    /// The best considered edge among those `eligible`, by `g + logit + sigma * q` (scaled
    /// completed Q-values in `scratch`).
    fn best(&self, edges: &[Edge], sigma: f32, eligible: impl Fn(usize) -> bool) -> Option<usize> {
        (0..edges.len())
            .filter(|&i| self.gumbel[i].is_finite() && eligible(i))
            .map(|i| {
                (
                    i,
                    self.gumbel[i] + logit(&edges[i]) + sigma * self.scratch[i],
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)
    }

    /// The move: the sequential-halving winner, i.e. the best of the most visited considered
    /// actions.
    pub fn final_choice(&mut self, root: &Node, edges: &[Edge], config: &SearchConfig) -> usize {
        let sigma = self.completed_q(root, edges, config);
        let most = (0..edges.len())
            .filter(|&i| self.gumbel[i].is_finite())
            .map(|i| self.search_visits[i])
            .max()
            .unwrap_or(0);
        self.best(edges, sigma, |i| self.search_visits[i] == most)
            .expect("at least one considered action")
    }

    /// Writes the improved policy `softmax(logits + sigma(completed q))` over the root's edges
    /// into `out` (one probability per edge).
    pub fn improved_policy(
        &mut self,
        root: &Node,
        edges: &[Edge],
        config: &SearchConfig,
        out: &mut Vec<f32>,
    ) {
        let sigma = self.completed_q(root, edges, config);
        out.clear();
        out.extend(
            edges
                .iter()
                .zip(&self.scratch)
                .map(|(e, q)| logit(e) + sigma * q),
        );
        let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        out.iter_mut().for_each(|x| *x = (*x - max).exp());
        let sum: f32 = out.iter().sum();
        out.iter_mut().for_each(|x| *x /= sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_halves_and_fits_the_budget() {
        let mut s = Vec::new();
        halving_schedule(4, 16, &mut s);
        // 2 rounds: 4 actions x 2 visits, then 2 actions x 4 visits.
        assert_eq!(s, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        halving_schedule(16, 8, &mut s);
        assert_eq!(s, [0; 8], "fewer simulations than actions: one visit each");
        halving_schedule(1, 3, &mut s);
        assert_eq!(s, [0, 1, 2]);
    }

    #[test]
    fn completed_q_mixes_value_for_unvisited_edges() {
        let edge = |prior, visits, value_sum| Edge {
            action: 0,
            prior,
            visits,
            in_flight: 0,
            value_sum,
            child: u32::MAX,
        };
        let edges = [edge(0.5, 2, 1.0), edge(0.25, 0, 0.0), edge(0.25, 1, -1.0)];
        let mut root = Node::new(fanorona_env::Color::White);
        root.value = 0.0;
        let mut g = GumbelRoot::default();
        let config = SearchConfig::default();
        let sigma = g.completed_q(&root, &edges, &config);
        assert_eq!(sigma, 52.0);
        // q = 0.5, mixed, -1. mixed = (0 + 3 * (0.5*0.5 + 0.25*-1) / 0.75) / 4 = 0.
        // Rescaled by min -1, max 0.5: 1, 2/3, 0.
        let expect = [1.0, 2.0 / 3.0, 0.0];
        for (q, e) in g.scratch.iter().zip(expect) {
            assert!((q - e).abs() < 1e-6, "{:?}", g.scratch);
        }
    }
}
