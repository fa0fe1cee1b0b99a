//! The games to rate: players by name, each game's two players and score, and what the
//! rating model needs of them (tallies per pair, who met whom).

use crate::arena::elo::Tally;

/// One game: its first and second player (indices into [`GameResults::players`]) and the
/// first player's score (1, ½ or 0). Colours play no part in the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The first player.
    pub first: usize,
    /// The second player.
    pub second: usize,
    /// The first player's score.
    pub first_score: f64,
}

/// The results between two players `a < b`, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairTally {
    /// The player of the lower index.
    pub a: usize,
    /// The other player.
    pub b: usize,
    /// `a`'s wins, draws and losses against `b`.
    pub tally: Tally,
}

/// Finished games between named players.
#[derive(Clone, Debug, Default)]
pub struct GameResults {
    players: Vec<String>,
    games: Vec<RatedGame>,
}

impl GameResults {
    /// No games yet.
    pub fn new() -> GameResults {
        GameResults::default()
    }

    /// Adds a game between `first` and `second` (a player plays nobody else by playing
    /// itself: such a game is ignored) in which `first` scored `first_score`.
    pub fn add(&mut self, first: &str, second: &str, first_score: f64) {
        if first == second {
            return;
        }
        let first = self.player_index(first);
        let second = self.player_index(second);
        self.games.push(RatedGame {
            first,
            second,
            first_score,
        });
    }

    /// The index of player `name`, added if new.
    fn player_index(&mut self, name: &str) -> usize {
        self.find(name).unwrap_or_else(|| {
            self.players.push(name.to_string());
            self.players.len() - 1
        })
    }

    /// The index of player `name`, if it played.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }

    /// The players, in order of first appearance.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The games, in the order added.
    pub fn games(&self) -> &[RatedGame] {
        &self.games
    }

    /// Each player's tally over all its games.
    pub fn player_tallies(&self) -> Vec<Tally> {
        let mut tallies = vec![Tally::default(); self.players.len()];
        for g in &self.games {
            tallies[g.first].add(g.first_score);
            tallies[g.second].add(1.0 - g.first_score);
        }
        tallies
    }

    /// The groups of players connected by games (each sorted; groups by their first player).
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let mut group: Vec<usize> = (0..self.players.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for g in &self.games {
            let (a, b) = (root(&mut group, g.first), root(&mut group, g.second));
            group[a.max(b)] = a.min(b);
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut slot = vec![usize::MAX; self.players.len()];
        for i in 0..self.players.len() {
            let r = root(&mut group, i);
            if slot[r] == usize::MAX {
                slot[r] = groups.len();
                groups.push(Vec::new());
            }
            groups[slot[r]].push(i);
        }
        groups
    }
}

/// The tallies per pair of players of `games`, by pair.
pub fn pair_tallies<'a>(games: impl IntoIterator<Item = &'a RatedGame>) -> Vec<PairTally> {
    let mut pairs: Vec<PairTally> = Vec::new();
    for g in games {
        let (a, b, score) = if g.first < g.second {
            (g.first, g.second, g.first_score)
        } else {
            (g.second, g.first, 1.0 - g.first_score)
        };
        let at = match pairs.binary_search_by_key(&(a, b), |p| (p.a, p.b)) {
            Ok(at) => at,
            Err(at) => {
                let tally = Tally::default();
                pairs.insert(at, PairTally { a, b, tally });
                at
            }
        };
        pairs[at].tally.add(score);
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_make_players_pairs_and_groups() {
        let mut results = GameResults::new();
        results.add("a", "b", 1.0);
        results.add("b", "a", 0.5);
        results.add("c", "d", 0.0);
        results.add("c", "c", 1.0);
        assert_eq!(results.players(), ["a", "b", "c", "d"]);
        assert_eq!(results.games().len(), 3);
        let pairs = pair_tallies(results.games());
        assert_eq!(
            pairs,
            [
                PairTally {
                    a: 0,
                    b: 1,
                    tally: Tally::new(1, 1, 0)
                },
                PairTally {
                    a: 2,
                    b: 3,
                    tally: Tally::new(0, 0, 1)
                }
            ]
        );
        assert_eq!(results.groups(), [vec![0, 1], vec![2, 3]]);
        assert_eq!(results.player_tallies()[1], Tally::new(0, 1, 1));
        results.add("d", "a", 0.5);
        assert_eq!(results.groups(), [vec![0, 1, 2, 3]]);
        assert_eq!(results.find("d"), Some(3));
    }
}
