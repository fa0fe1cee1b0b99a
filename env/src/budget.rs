//! `Budget`: how much one decision of a searching agent may search. The one budget type of
//! every search (minimax, MCTS, `net`, `abnet`, external engines), of their agent
//! specifications and of the engine protocol's `go`.

use std::time::Duration;

/// How long, how deep or how many nodes one decision may search. A search ends at whichever
/// given limit runs out first; a limit left at `None` is the searcher's to choose (minimax
/// searches up to its deepest depth, MCTS up to its simulation cap), and a search that does
/// not go by depth ignores `depth`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Time for one decision: the steps of a capture chain share it.
    pub time: Option<Duration>,
    /// Depth, in the searcher's unit (complete turns for minimax).
    pub depth: Option<u32>,
    /// Nodes for one decision (positions for minimax, simulations for tree search).
    pub nodes: Option<u64>,
}

impl Budget {
    /// A fixed depth and nothing else.
    pub const fn fixed_depth(depth: u32) -> Budget {
        Budget {
            time: None,
            depth: Some(depth),
            nodes: None,
        }
    }

    /// A node count and nothing else.
    pub const fn node_count(nodes: u64) -> Budget {
        Budget {
            time: None,
            depth: None,
            nodes: Some(nodes),
        }
    }

    /// A time and nothing else.
    pub const fn movetime(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            depth: None,
            nodes: None,
        }
    }

    /// The budget of a decision when a caller (an engine protocol's `go`, serve's analysis)
    /// gives `caller`: it replaces this, the agent's own budget, when it gives a time or a node
    /// count, or a depth to a search that goes by depth; the agent's own budget stands
    /// otherwise. The one rule every searching agent follows.
    pub fn under(self, caller: &Budget, searches_by_depth: bool) -> Budget {
        let replaces = caller.time.is_some()
            || caller.nodes.is_some()
            || (searches_by_depth && caller.depth.is_some());
        if replaces { *caller } else { self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_budget_replaces_the_own_one_only_when_it_gives_what_the_search_uses() {
        let own = Budget {
            time: Some(Duration::from_millis(100)),
            depth: Some(4),
            nodes: Some(800),
        };
        assert_eq!(own.under(&Budget::default(), true), own);
        let depth = Budget::fixed_depth(3);
        assert_eq!(own.under(&depth, true), depth);
        assert_eq!(own.under(&depth, false), own);
        for caller in [
            Budget::movetime(Duration::from_millis(7)),
            Budget::node_count(5),
        ] {
            assert_eq!(own.under(&caller, false), caller);
            assert_eq!(own.under(&caller, true), caller);
        }
    }
}
