//! The search tree: a flat arena of nodes, each owning a contiguous slice of edges in a second
//! arena. Edges carry the statistics (visits, value sum) from the point of view of the player
//! who chooses them, the mover of their parent node. Nothing is allocated per simulation: the
//! arenas keep their capacity across searches, and re-rooting copies the kept subtree into a
//! spare pair of arenas that are then swapped in.

use fanorona_env::Color;

/// Index of "no node" in [`Edge::child`].
pub const NO_NODE: u32 = u32::MAX;

/// Where a node stands in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Created, not yet sent to the evaluator.
    Unexpanded,
    /// Sent to the evaluator in the current batch; its edges come when the batch returns.
    Pending,
    /// Evaluated, with one edge per legal action.
    Expanded,
    /// The game is over here; the node's value is the game's true return.
    Terminal,
}

/// A state in the tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// First edge in the edge arena.
    pub first_edge: u32,
    /// Number of edges (legal actions), zero until expanded.
    pub num_edges: u32,
    /// The player to act here. For a terminal node: the player who made the last action, so
    /// that `value` below is read from a player who took part.
    pub player: Color,
    /// Life stage.
    pub kind: NodeKind,
    /// Completed visits through this node (its own evaluation included).
    pub visits: u32,
    /// Simulations currently passing through this node and waiting for the evaluator.
    pub in_flight: u32,
    /// Sum of the values backed up through this node, from `player`'s point of view.
    pub value_sum: f32,
    /// The evaluator's value (or, terminal, the true return) from `player`'s point of view.
    pub value: f32,
}

impl Node {
    /// A new unexpanded node where `player` acts.
    pub fn new(player: Color) -> Node {
        Node {
            first_edge: 0,
            num_edges: 0,
            player,
            kind: NodeKind::Unexpanded,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            value: 0.0,
        }
    }

    /// The mean backed-up value from `player`'s point of view (its own value before any visit).
    pub fn mean_value(&self) -> f32 {
        if self.visits == 0 {
            self.value
        } else {
            self.value_sum / self.visits as f32
        }
    }

    /// The range of this node's edges in the edge arena.
    pub fn edge_range(&self) -> std::ops::Range<usize> {
        self.first_edge as usize..(self.first_edge + self.num_edges) as usize
    }
}

/// A legal action of a node, with its statistics.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The absolute action index.
    pub action: u32,
    /// The prior probability (softmax of the logits over the legal actions).
    pub prior: f32,
    /// Completed visits.
    pub visits: u32,
    /// Simulations that chose this edge and wait for the evaluator (virtual loss).
    pub in_flight: u32,
    /// Sum of backed-up values, from the point of view of the parent node's player.
    pub value_sum: f32,
    /// The child node, or [`NO_NODE`] until first taken.
    pub child: u32,
}

impl Edge {
    /// The mean value of this edge for the player choosing it (`None` before any visit).
    pub fn mean_value(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.value_sum / self.visits as f32)
    }
}

/// One step of a simulation's path: the node left and the edge taken.
#[derive(Clone, Copy, Debug)]
pub struct PathStep {
    /// Index of the node.
    pub node: u32,
    /// Index of the edge (in the edge arena).
    pub edge: u32,
}

/// The tree: node and edge arenas, the root at node 0.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    spare_nodes: Vec<Node>,
    spare_edges: Vec<Edge>,
}

/// Index of the root node.
pub const ROOT: u32 = 0;

impl Tree {
    /// Drops every node and makes a fresh unexpanded root where `player` acts.
    pub fn reset(&mut self, player: Color) {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(Node::new(player));
    }

    /// A node.
    #[inline]
    pub fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// A node, mutably.
    #[inline]
    pub fn node_mut(&mut self, index: u32) -> &mut Node {
        &mut self.nodes[index as usize]
    }

    /// An edge.
    #[inline]
    pub fn edge(&self, index: u32) -> &Edge {
        &self.edges[index as usize]
    }

    /// The edges of a node.
    #[inline]
    pub fn edges(&self, node: u32) -> &[Edge] {
        &self.edges[self.nodes[node as usize].edge_range()]
    }

    /// Number of nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Creates the child of edge `edge` where `player` acts and returns its index.
    pub fn add_child(&mut self, edge: u32, player: Color) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node::new(player));
        self.edges[edge as usize].child = index;
        index
    }

    /// Gives an unexpanded or pending node one edge per `(action, prior)`.
    pub fn expand(&mut self, node: u32, edges: impl Iterator<Item = (usize, f32)>) {
        let first = self.edges.len() as u32;
        self.edges.extend(edges.map(|(action, prior)| Edge {
            action: action as u32,
            prior,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            child: NO_NODE,
        }));
        let n = &mut self.nodes[node as usize];
        n.first_edge = first;
        n.num_edges = self.edges.len() as u32 - first;
        n.kind = NodeKind::Expanded;
    }

    /// Marks a path as taken by a simulation waiting for the evaluator (virtual loss).
    pub fn add_in_flight(&mut self, step: PathStep) {
        self.nodes[step.node as usize].in_flight += 1;
        self.edges[step.edge as usize].in_flight += 1;
    }

    /// Takes back the marks of a path that will not be evaluated after all.
    pub fn revert_in_flight(&mut self, path: &[PathStep]) {
        for step in path {
            self.nodes[step.node as usize].in_flight -= 1;
            self.edges[step.edge as usize].in_flight -= 1;
        }
    }

    /// Backs up the value of `leaf` (its `value`, from its player's point of view) along
    /// `path`: each node and edge gets it from the point of view of the node's own player,
    /// so the sign flips only where the player changes, never by depth alone (a capture
    /// chain is several actions in a row by the same player).
    pub fn backup(&mut self, path: &[PathStep], leaf: u32) {
        let leaf_node = &mut self.nodes[leaf as usize];
        let (leaf_player, value) = (leaf_node.player, leaf_node.value);
        leaf_node.visits += 1;
        leaf_node.value_sum += value;
        for step in path {
            let node = &mut self.nodes[step.node as usize];
            let v = if node.player == leaf_player {
                value
            } else {
                -value
            };
            node.in_flight -= 1;
            node.visits += 1;
            node.value_sum += v;
            let edge = &mut self.edges[step.edge as usize];
            edge.in_flight -= 1;
            edge.visits += 1;
            edge.value_sum += v;
        }
    }

    /// Makes the child reached by `action` from the root the new root, keeping its subtree
    /// with all its statistics and dropping the rest. Returns `false` (tree unchanged) where
    /// the root has no such child yet.
    pub fn reroot(&mut self, action: usize) -> bool {
        let Some(child) = self
            .edges(ROOT)
            .iter()
            .find(|e| e.action as usize == action && e.child != NO_NODE)
            .map(|e| e.child)
        else {
            return false;
        };
        self.spare_nodes.clear();
        self.spare_edges.clear();
        self.spare_nodes.push(self.nodes[child as usize]);
        // Breadth-first copy: the spare node list is its own queue. A copied node still holds
        // its old edge range until its turn comes.
        let mut next = 0;
        while next < self.spare_nodes.len() {
            let old_range = self.spare_nodes[next].edge_range();
            let first = self.spare_edges.len() as u32;
            for e in old_range {
                let mut edge = self.edges[e];
                if edge.child != NO_NODE {
                    self.spare_nodes.push(self.nodes[edge.child as usize]);
                    edge.child = self.spare_nodes.len() as u32 - 1;
                }
                self.spare_edges.push(edge);
            }
            self.spare_nodes[next].first_edge = first;
            next += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.edges, &mut self.spare_edges);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Root (white) -> a (white, chain goes on) -> b (black).
    fn small_tree() -> Tree {
        let mut tree = Tree::default();
        tree.reset(Color::White);
        tree.expand(ROOT, [(3, 0.5), (7, 0.5)].into_iter());
        let a = tree.add_child(0, Color::White);
        tree.expand(a, [(1, 1.0)].into_iter());
        tree.add_child(2, Color::Black);
        tree
    }

    #[test]
    fn backup_flips_sign_only_when_the_player_changes() {
        let mut tree = small_tree();
        let path = [PathStep { node: 0, edge: 0 }, PathStep { node: 1, edge: 2 }];
        for &s in &path {
            tree.add_in_flight(s);
        }
        tree.node_mut(2).value = 0.75; // good for black
        tree.backup(&path, 2);
        assert_eq!(tree.edge(2).value_sum, -0.75);
        assert_eq!(tree.edge(0).value_sum, -0.75);
        assert_eq!(tree.node(0).value_sum, -0.75);
        assert_eq!(tree.node(2).value_sum, 0.75);
        assert_eq!((tree.edge(0).in_flight, tree.edge(0).visits), (0, 1));
        assert_eq!((tree.node(1).in_flight, tree.node(1).visits), (0, 1));
    }

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let mut tree = small_tree();
        tree.edges[2].visits = 5;
        assert!(!tree.reroot(7), "no child behind action 7 yet");
        assert_eq!(tree.len(), 3);
        assert!(tree.reroot(3));
        assert_eq!(tree.len(), 2);
        assert_eq!(tree.node(ROOT).player, Color::White);
        assert_eq!(tree.edges(ROOT).len(), 1);
        assert_eq!(tree.edges(ROOT)[0].visits, 5);
        assert_eq!(tree.edges(ROOT)[0].child, 1);
        assert_eq!(tree.node(1).player, Color::Black);
    }
}
