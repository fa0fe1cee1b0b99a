//! KataGo's forced playouts and policy target pruning (Wu, "Accelerating Self-Play Learning in
//! Go", 2019), for PUCT at the root of self-play searches. Every root child that has had a
//! playout gets at least `sqrt(k * P(c) * N)` of them (`P` the noisy prior, `N` the root's
//! visits), so that Dirichlet noise can show a good move the prior missed; before the visit
//! counts become a policy target, those forced playouts are taken back from every child but
//! the most visited one, as far as the child would not have been chosen without them, and a
//! child reduced to a single playout is pruned to none.

use crate::config::SearchConfig;
use crate::tree::{Edge, Node};

/// The playouts forced on a child of prior `prior` after `total` root visits.
fn forced(k: f32, prior: f32, total: u32) -> f32 {
    (k * prior * total as f32).sqrt()
}

/// The first root edge that has had a playout (completed or in flight) and fewer than its
/// forced playouts, if any. `priors` are the root's (noisy) priors, one per edge.
pub fn forced_edge(root: &Node, edges: &[Edge], priors: &[f32], k: f32) -> Option<usize> {
    let total = root.visits + root.in_flight;
    edges.iter().zip(priors).position(|(edge, &prior)| {
        let n = edge.visits + edge.in_flight;
        n > 0 && (n as f32) < forced(k, prior, total)
    })
}

/// Takes the forced playouts of `config.forced_playouts` back from `visits`, the visit counts
/// of the root's edges (one per edge), for the policy target (see the module's documentation).
pub fn prune_forced_visits(
    root: &Node,
    edges: &[Edge],
    priors: &[f32],
    config: &SearchConfig,
    visits: &mut [f32],
) {
    let Some(best) = (0..edges.len()).max_by_key(|&i| (edges[i].visits, usize::MAX - i)) else {
        return;
    };
    let exploration = config.c_puct * (root.visits as f32).sqrt();
    let score = |i: usize, visits: u32| {
        let edge = &edges[i];
        let q = edge.value_sum / edge.visits.max(1) as f32;
        q + exploration * priors[i] / (1.0 + visits as f32)
    };
    let bar = score(best, edges[best].visits);
    for (i, edge) in edges.iter().enumerate() {
        if i == best || edge.visits == 0 {
            continue;
        }
        let limit = forced(config.forced_playouts, priors[i], root.visits);
        let mut kept = edge.visits;
        while kept > 1 && ((edge.visits - kept + 1) as f32) <= limit && score(i, kept - 1) < bar {
            kept -= 1;
        }
        let pruned = kept <= 1 && kept < edge.visits;
        visits[i] = if pruned { 0.0 } else { kept as f32 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Color;

    fn edge(visits: u32, value_sum: f32) -> Edge {
        Edge {
            action: 0,
            prior: 0.0,
            visits,
            in_flight: 0,
            value_sum,
            child: u32::MAX,
        }
    }

    fn root(visits: u32) -> Node {
        let mut node = Node::new(Color::White);
        node.visits = visits;
        node
    }

    #[test]
    fn a_visited_child_short_of_its_forced_playouts_is_chosen() {
        // sqrt(2 * 0.5 * 100) = 10 forced playouts; sqrt(2 * 0.02 * 100) = 2.
        let priors = [0.48, 0.5, 0.02];
        let edges = [edge(80, 40.0), edge(9, 0.0), edge(0, 0.0)];
        assert_eq!(forced_edge(&root(100), &edges, &priors, 2.0), Some(1));
        // With its 10 playouts it is not forced any more; an unvisited child never is.
        let edges = [edge(80, 40.0), edge(10, 0.0), edge(0, 0.0)];
        assert_eq!(forced_edge(&root(100), &edges, &priors, 2.0), None);
        let edges = [edge(80, 40.0), edge(9, 0.0), edge(0, 0.0)];
        assert_eq!(forced_edge(&root(100), &edges, &priors, 0.0), None);
    }

    #[test]
    fn forced_playouts_of_weak_children_are_taken_back_from_the_target() {
        let config = SearchConfig {
            c_puct: 1.5,
            forced_playouts: 2.0,
            ..SearchConfig::default()
        };
        let priors = [0.3, 0.3, 0.3, 0.1];
        // The best child (60 visits, Q 0.5); a poor child (Q -0.5, 20 visits) whose forced
        // playouts (sqrt(2 * 0.3 * 100) = 7.7) are all taken back; a good child (Q 0.6) that
        // would have been chosen anyway keeps its visits; a child of 2 visits loses one and is
        // pruned.
        let edges = [
            edge(60, 30.0),
            edge(20, -10.0),
            edge(16, 9.6),
            edge(2, -1.0),
        ];
        let counts = || edges.iter().map(|e| e.visits as f32).collect::<Vec<_>>();
        let mut out = counts();
        prune_forced_visits(&root(98), &edges, &priors, &config, &mut out);
        assert_eq!(out, vec![60.0, 13.0, 16.0, 0.0]);
        // Without forced playouts nothing is taken back.
        let plain = SearchConfig {
            forced_playouts: 0.0,
            ..config
        };
        let mut out = counts();
        prune_forced_visits(&root(98), &edges, &priors, &plain, &mut out);
        assert_eq!(out, vec![60.0, 20.0, 16.0, 2.0]);
    }
}
