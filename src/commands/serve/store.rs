//! The live games, by id, at most a fixed number: a new game evicts the oldest.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use super::agents::AgentChoice;

/// A game on the server: its agents are built per turn from their checked choice.
pub type Session = fanorona_eval::GameSession<AgentChoice>;

/// A game shared between requests; one request works on it at a time.
pub type SharedSession = Arc<Mutex<Session>>;

/// The live games.
pub struct Store {
    capacity: usize,
    inner: Mutex<Games>,
}

#[derive(Default)]
struct Games {
    by_id: HashMap<String, SharedSession>,
    /// Ids, oldest first.
    order: VecDeque<String>,
}

impl Store {
    /// A store holding at most `capacity` games (at least one).
    pub fn new(capacity: usize) -> Store {
        Store {
            capacity: capacity.max(1),
            inner: Mutex::default(),
        }
    }

    /// Adds a game under a fresh random id, evicting the oldest games over the capacity;
    /// returns the id.
    pub fn insert(&self, session: Session) -> String {
        let mut games = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !games.by_id.contains_key(&id) {
                break id;
            }
        };
        while games.order.len() >= self.capacity {
            if let Some(oldest) = games.order.pop_front() {
                games.by_id.remove(&oldest);
            }
        }
        games
            .by_id
            .insert(id.clone(), Arc::new(Mutex::new(session)));
        games.order.push_back(id.clone());
        id
    }

    /// The game with this id, if it is live.
    pub fn get(&self, id: &str) -> Option<SharedSession> {
        let games = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        games.by_id.get(id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_env::Position;
    use fanorona_eval::Player;

    #[test]
    fn the_oldest_game_is_evicted_past_the_capacity() {
        let store = Store::new(2);
        let game = || Session::new(Position::standard(), Player::Human, Player::Human);
        let ids: Vec<String> = (0..3).map(|_| store.insert(game())).collect();
        assert!(store.get(&ids[0]).is_none());
        assert!(store.get(&ids[1]).is_some() && store.get(&ids[2]).is_some());
        assert!(store.get("nope").is_none());
        assert_eq!(ids[1].len(), 16);
    }
}
