//! One search tree over one game: the root state, the tree, and the simulations in progress.
//! A simulation walks from the root to a leaf, replaying the actions on a scratch state; the
//! leaf state is handed out for evaluation (several per tree and batch, spread by virtual
//! loss), and the evaluator's answer expands the leaf and is backed up by player to act.
//! [`crate::SearchDriver`] runs many of these together.

use fanorona_env::{ActionError, Color, Game};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::config::SearchConfig;
use crate::forced::{forced_edge, prune_forced_visits};
use crate::gumbel::GumbelRoot;
use crate::puct::{add_dirichlet_noise, legal_softmax, select_puct};
use crate::temperature::sample_with_temperature;
use crate::tree::{NO_NODE, NodeKind, PathStep, ROOT, Tree};

/// What a finished search found at its root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The action to play (absolute index).
    pub action: usize,
    /// Root visit counts, normalised, over the absolute action space (the AlphaZero target;
    /// with forced playouts, the counts after policy target pruning).
    pub visit_policy: Vec<f32>,
    /// `softmax(logits + sigma(completed Q))` over the absolute action space (the Gumbel
    /// AlphaZero target; computed for PUCT searches too).
    pub improved_policy: Vec<f32>,
    /// The root's mean value, from the point of view of the player to act there.
    pub root_value: f32,
    /// Simulations run by this search (the root's first evaluation not counted).
    pub simulations: u32,
}

/// Statistics of one root action, for inspection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootEdge {
    /// The absolute action.
    pub action: usize,
    /// Its prior (without noise).
    pub prior: f32,
    /// Completed visits.
    pub visits: u32,
    /// Mean value for the root's player (`None` before any visit).
    pub value: Option<f32>,
    /// The player to act after the action (`None` until the child exists; for a finished
    /// game, the player who made the last action).
    pub child_player: Option<Color>,
}

/// A leaf waiting for the evaluator, with its path in the shared path buffer.
#[derive(Clone, Copy, Debug)]
struct PendingLeaf {
    node: u32,
    path_start: usize,
    path_end: usize,
}

/// The outcome of one walk down the tree.
enum Descent {
    /// A new leaf to evaluate, its state in the slot.
    Leaf,
    /// The walk ended on a finished game and was backed up at once.
    Terminal,
    /// The walk reached a leaf already waiting in this batch; it was taken back.
    Collision,
}

/// A search tree over one game, with the buffers its simulations reuse.
#[derive(Debug)]
pub struct Search<G: Game> {
    root_state: G,
    tree: Tree,
    rng: SmallRng,
    root_priors: Vec<f32>,
    noise: Vec<f32>,
    gumbel: GumbelRoot,
    path: Vec<PathStep>,
    pending: Vec<PendingLeaf>,
    actions: Vec<usize>,
    priors: Vec<f32>,
    visits: Vec<f32>,
    started: u32,
    completed: u32,
    result: SearchResult,
    finished: bool,
}

impl<G: Game> Search<G> {
    /// A fresh search at `state`, its random numbers seeded by `seed`.
    pub fn new(state: G, seed: u64) -> Search<G> {
        let mut tree = Tree::default();
        tree.reset(state.current_player());
        Search {
            root_state: state,
            tree,
            rng: SmallRng::seed_from_u64(seed),
            root_priors: Vec::new(),
            noise: Vec::new(),
            gumbel: GumbelRoot::default(),
            path: Vec::new(),
            pending: Vec::new(),
            actions: Vec::new(),
            priors: Vec::new(),
            visits: Vec::new(),
            started: 0,
            completed: 0,
            result: SearchResult::default(),
            finished: false,
        }
    }

    /// The game state at the root.
    pub fn state(&self) -> &G {
        &self.root_state
    }

    /// The result of the last search (`None` before one, or after the game moved on).
    pub fn result(&self) -> Option<&SearchResult> {
        self.finished.then_some(&self.result)
    }

    /// Number of nodes in the tree.
    pub fn tree_size(&self) -> usize {
        self.tree.len()
    }

    /// The root's actions with their statistics (empty before the root is evaluated).
    pub fn root_edges(&self) -> impl Iterator<Item = RootEdge> + '_ {
        self.tree.edges(ROOT).iter().map(|e| RootEdge {
            action: e.action as usize,
            prior: e.prior,
            visits: e.visits,
            value: e.mean_value(),
            child_player: (e.child != NO_NODE).then(|| self.tree.node(e.child).player),
        })
    }

    /// Completed visits through the root, earlier searches' kept by tree reuse included.
    pub fn root_visits(&self) -> u32 {
        self.tree.node(ROOT).visits
    }

    /// Whether the root is evaluated (or the game over), so that a search may end and still
    /// choose an action.
    pub fn root_ready(&self) -> bool {
        self.root_state.is_terminal() || self.tree.node(ROOT).kind == NodeKind::Expanded
    }

    /// The most visited line from the root: at each node the most visited action, while the
    /// tree goes on.
    pub fn principal_line(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut node = ROOT;
        while self.tree.node(node).kind == NodeKind::Expanded {
            let Some(best) = self.tree.edges(node).iter().max_by_key(|e| e.visits) else {
                break;
            };
            if best.visits == 0 {
                break;
            }
            line.push(best.action as usize);
            if best.child == NO_NODE {
                break;
            }
            node = best.child;
        }
        line
    }

    /// Moves the root to `target` if the tree already holds it behind actions of the player to
    /// act at the root (e.g. the opponent's reply, a whole capture chain), keeping the subtree
    /// there; returns `false` (nothing changed) if it does not.
    pub fn advance_to(&mut self, target: &G) -> bool {
        let key = target.to_text();
        let mover = self.root_state.current_player();
        let mut path = Vec::new();
        if !self.path_to(ROOT, &self.root_state, &key, mover, &mut path) {
            return false;
        }
        for action in path {
            self.play(action).expect("the tree's actions are legal");
        }
        // The same position; the caller's state also carries the game's own history.
        self.root_state.clone_from(target);
        true
    }

    /// Finds in the tree below `node` (at `state`) the actions of `mover` that lead to the
    /// position written `key`, appending them to `path`.
    fn path_to(
        &self,
        node: u32,
        state: &G,
        key: &str,
        mover: Color,
        path: &mut Vec<usize>,
    ) -> bool {
        if self.tree.node(node).kind != NodeKind::Expanded {
            return false;
        }
        for edge in self.tree.edges(node) {
            if edge.child == NO_NODE {
                continue;
            }
            let mut next = state.clone();
            next.apply_unchecked(edge.action as usize);
            path.push(edge.action as usize);
            if next.to_text() == key
                || (!next.is_terminal()
                    && next.current_player() == mover
                    && self.path_to(edge.child, &next, key, mover, path))
            {
                return true;
            }
            path.pop();
        }
        false
    }

    /// Drops the tree and starts over at `state`.
    pub fn reset(&mut self, state: &G) {
        self.root_state.clone_from(state);
        self.tree.reset(state.current_player());
        self.finished = false;
    }

    /// Plays `action` at the root. The subtree under it becomes the new tree (tree reuse);
    /// the rest is dropped. On error nothing changes.
    pub fn play(&mut self, action: usize) -> Result<(), ActionError> {
        self.root_state.apply(action)?;
        if self.tree.node(ROOT).kind != NodeKind::Expanded || !self.tree.reroot(action) {
            self.tree.reset(self.root_state.current_player());
        }
        self.finished = false;
        Ok(())
    }

    /// Starts a new search of `config.simulations` simulations from the current root.
    pub fn begin(&mut self, config: &SearchConfig) {
        self.started = 0;
        self.completed = 0;
        self.finished = false;
        if self.tree.node(ROOT).kind == NodeKind::Expanded {
            self.prepare_root(config);
        }
    }

    /// Whether this search needs no more evaluations: its budget is spent or the game is over.
    pub fn is_done(&self, config: &SearchConfig) -> bool {
        self.root_state.is_terminal()
            || (self.completed >= config.simulations
                && self.tree.node(ROOT).kind == NodeKind::Expanded)
    }

    /// Walks down the tree for new leaves and writes their states into `slots`, as many as
    /// fit, until the budget is started or a walk meets a leaf already waiting. Returns the
    /// number of leaves written; they go to [`Search::complete`] in the same order.
    pub fn gather(&mut self, slots: &mut [G], config: &SearchConfig) -> usize {
        let mut count = 0;
        // The root's own evaluation comes first, whatever the budget.
        while count < slots.len()
            && (self.started < config.simulations
                || self.tree.node(ROOT).kind == NodeKind::Unexpanded)
        {
            match self.descend(&mut slots[count], config) {
                Descent::Leaf => count += 1,
                Descent::Terminal => {}
                Descent::Collision => break,
            }
        }
        count
    }

    fn descend(&mut self, state: &mut G, config: &SearchConfig) -> Descent {
        state.clone_from(&self.root_state);
        let path_start = self.path.len();
        let mut node = ROOT;
        loop {
            let current = *self.tree.node(node);
            match current.kind {
                NodeKind::Unexpanded => {
                    self.tree.node_mut(node).kind = NodeKind::Pending;
                    self.pending.push(PendingLeaf {
                        node,
                        path_start,
                        path_end: self.path.len(),
                    });
                    if node != ROOT {
                        self.started += 1;
                    }
                    return Descent::Leaf;
                }
                NodeKind::Pending => {
                    let path = &self.path[path_start..];
                    self.tree.revert_in_flight(path);
                    if config.gumbel
                        && let Some(first) = path.first()
                    {
                        let root_first = self.tree.node(ROOT).first_edge;
                        self.gumbel.unselect((first.edge - root_first) as usize);
                    }
                    self.path.truncate(path_start);
                    return Descent::Collision;
                }
                NodeKind::Terminal => {
                    self.tree.backup(&self.path[path_start..], node);
                    self.path.truncate(path_start);
                    self.started += 1;
                    self.completed += 1;
                    return Descent::Terminal;
                }
                NodeKind::Expanded => {
                    let local = if node == ROOT {
                        self.select_root(config)
                    } else {
                        select_puct(&current, self.tree.edges(node), None, config)
                    };
                    let edge_index = current.first_edge + local as u32;
                    let step = PathStep {
                        node,
                        edge: edge_index,
                    };
                    self.tree.add_in_flight(step);
                    self.path.push(step);
                    let edge = *self.tree.edge(edge_index);
                    state.apply_unchecked(edge.action as usize);
                    node = if edge.child != NO_NODE {
                        edge.child
                    } else if state.is_terminal() {
                        let child = self.tree.add_child(edge_index, current.player);
                        let leaf = self.tree.node_mut(child);
                        leaf.kind = NodeKind::Terminal;
                        leaf.value = state.returns()[current.player.index()];
                        child
                    } else {
                        self.tree.add_child(edge_index, state.current_player())
                    };
                }
            }
        }
    }

    /// The root edge to take: Gumbel sequential halving, or PUCT with the (noisy) root priors.
    fn select_root(&mut self, config: &SearchConfig) -> usize {
        let root = *self.tree.node(ROOT);
        let edges = self.tree.edges(ROOT);
        if config.gumbel {
            return self.gumbel.select(&root, edges, config);
        }
        let k = config.forced_playouts;
        if k > 0.0
            && let Some(forced) = forced_edge(&root, edges, &self.root_priors, k)
        {
            return forced;
        }
        select_puct(&root, edges, Some(&self.root_priors), config)
    }

    /// Expands the gathered leaves with the evaluator's answers (`policy`: logits over the
    /// action space, one row per leaf; `values`: for the player to act at each leaf) and
    /// backs the values up.
    pub fn complete(
        &mut self,
        states: &[G],
        policy: &[f32],
        values: &[f32],
        config: &SearchConfig,
    ) {
        debug_assert_eq!(states.len(), self.pending.len());
        let num_actions = self.root_state.num_actions();
        for (j, leaf) in self.pending.iter().enumerate() {
            states[j].legal_actions(&mut self.actions);
            let logits = &policy[j * num_actions..(j + 1) * num_actions];
            legal_softmax(logits, &self.actions, &mut self.priors);
            self.tree.expand(
                leaf.node,
                self.actions
                    .iter()
                    .copied()
                    .zip(self.priors.iter().copied()),
            );
            self.tree.node_mut(leaf.node).value = values[j].clamp(-1.0, 1.0);
            self.tree
                .backup(&self.path[leaf.path_start..leaf.path_end], leaf.node);
            if leaf.node != ROOT {
                self.completed += 1;
            }
        }
        let root_now_expanded = self.pending.iter().any(|l| l.node == ROOT);
        self.pending.clear();
        self.path.clear();
        if root_now_expanded {
            self.prepare_root(config);
        }
    }

    /// Sets up the root of a search: noisy priors for PUCT, Gumbel draws for Gumbel.
    fn prepare_root(&mut self, config: &SearchConfig) {
        let edges = self.tree.edges(ROOT);
        if config.gumbel {
            self.gumbel.prepare(edges, config, &mut self.rng);
        } else {
            self.root_priors.clear();
            self.root_priors.extend(edges.iter().map(|e| e.prior));
            add_dirichlet_noise(
                &mut self.root_priors,
                config.dirichlet_alpha,
                config.dirichlet_fraction,
                &mut self.noise,
                &mut self.rng,
            );
        }
    }

    /// Ends the search: picks the move and fills in the result (nothing for a finished game).
    pub fn finish(&mut self, config: &SearchConfig) {
        if self.root_state.is_terminal() {
            self.finished = false;
            return;
        }
        let root = *self.tree.node(ROOT);
        let edges = self.tree.edges(ROOT);
        let choice = if config.gumbel {
            self.gumbel.final_choice(&root, edges, config)
        } else {
            self.visits.clear();
            self.visits.extend(edges.iter().map(|e| e.visits as f32));
            self.priors.clear();
            self.priors.extend(edges.iter().map(|e| e.prior));
            sample_with_temperature(
                &self.visits,
                Some(&self.priors),
                config.temperature,
                &mut self.rng,
            )
        };
        let result = &mut self.result;
        let num_actions = self.root_state.num_actions();
        result.action = edges[choice].action as usize;
        result.root_value = root.mean_value();
        result.simulations = self.completed;
        result.visit_policy.clear();
        result.visit_policy.resize(num_actions, 0.0);
        self.visits.clear();
        self.visits.extend(edges.iter().map(|e| e.visits as f32));
        if config.forced_playouts > 0.0 && !config.gumbel {
            prune_forced_visits(&root, edges, &self.root_priors, config, &mut self.visits);
        }
        let total: f32 = self.visits.iter().sum();
        for (e, &n) in edges.iter().zip(&self.visits) {
            result.visit_policy[e.action as usize] = n / total.max(1.0);
        }
        self.gumbel
            .improved_policy(&root, edges, config, &mut self.priors);
        result.improved_policy.clear();
        result.improved_policy.resize(num_actions, 0.0);
        for (e, p) in edges.iter().zip(&self.priors) {
            result.improved_policy[e.action as usize] = *p;
        }
        self.finished = true;
    }
}
