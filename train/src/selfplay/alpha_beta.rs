//! Self-play by the `abnet` agent: games played by the minimax baseline's alpha-beta over the
//! network's value ([`NetValue`]) within a budget of nodes, the expert of expert iteration (see
//! [`AlphaBetaConfig`]). Every turn start is recorded with the search's score as its root
//! value (`value_of_score`, from the mover's view) and the first action of the search's turn
//! as a one-hot policy target, even where a random turn is played instead; at the end every
//! position gets the game's result. The games run in parallel (rayon), each with a random
//! generator of its own seeded from the run's, so the games do not depend on the threads.

use std::time::Instant;

use fanorona_env::{Budget, Fanorona, Game, Position};
use fanorona_eval::minimax::{Searcher, value_of_score};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::{SelfPlayOutput, SelfPlayStats};
use crate::config::AlphaBetaConfig;
use crate::model::PolicyValueNet;
use crate::players::NetValue;
use crate::replay::{Trajectory, TrajectoryMeta, TrajectoryRecorder};
use crate::rng::TrainRng;
use crate::table_labels::TableLabels;

/// Transposition table of each game's search, in MiB.
const HASH_MB: usize = 4;

/// Self-play settings of the `abnet` kind with the position every game starts from.
#[derive(Clone, Debug)]
pub struct AlphaBetaSelfPlay {
    start: Position,
    config: AlphaBetaConfig,
    games: usize,
    max_actions: usize,
    labels: Option<TableLabels>,
}

impl AlphaBetaSelfPlay {
    /// `games` games an iteration from `start`, each scored a draw after `max_actions` actions.
    pub fn new(
        start: Position,
        config: AlphaBetaConfig,
        games: usize,
        max_actions: usize,
    ) -> AlphaBetaSelfPlay {
        AlphaBetaSelfPlay {
            start,
            config,
            games,
            max_actions,
            labels: None,
        }
    }

    /// Self-play whose positions `labels` hold get their exact value as value target.
    pub fn with_labels(self, labels: Option<TableLabels>) -> AlphaBetaSelfPlay {
        AlphaBetaSelfPlay { labels, ..self }
    }

    /// The settings of the games and of the gate.
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// Plays the iteration's games with the value of `net` (an MLP), one seed per game drawn
    /// from `rng`; `meta` is copied into every game's metadata; `on_game` hears of each game
    /// as it ends (in any order; the output keeps the order of the seeds).
    pub fn play(
        &self,
        net: &PolicyValueNet,
        rng: &mut TrainRng,
        meta: &TrajectoryMeta,
        on_game: impl Fn(&Trajectory) + Sync,
    ) -> SelfPlayOutput {
        let started = Instant::now();
        let mlp = net
            .mlp_inference()
            .expect("the abnet kind's network is an MLP (checked by the run configuration)");
        let value = NetValue::new(&mlp, &self.start, 0.0);
        let seeds: Vec<u64> = (0..self.games).map(|_| rng.random()).collect();
        let played: Vec<(Trajectory, u64)> = seeds
            .par_iter()
            .map(|&seed| {
                let played = self.play_game(value.clone(), seed, meta);
                on_game(&played.0);
                played
            })
            .collect();
        let exact_positions = played.iter().map(|(_, exact)| exact).sum();
        let games: Vec<Trajectory> = played.into_iter().map(|(game, _)| game).collect();
        let positions = games.iter().map(|g| g.len() as u64).sum();
        SelfPlayOutput {
            stats: SelfPlayStats {
                games: games.len() as u64,
                positions,
                policy_positions: positions,
                seconds: started.elapsed().as_secs_f64(),
                mean_batch: 1.0,
                exact_positions,
                exact_policy_positions: 0,
            },
            games,
        }
    }

    /// One game searched over `value`, its random choices drawn from `seed`, with the number
    /// of its positions labelled by the tables.
    fn play_game(&self, value: NetValue, seed: u64, meta: &TrajectoryMeta) -> (Trajectory, u64) {
        let mut rng = TrainRng::seed_from_u64(seed);
        let mut game = Fanorona::new(self.start);
        let budget = Budget::node_count(self.config.nodes);
        let mut searcher = Searcher::with_evaluation(budget, HASH_MB, rng.random(), value);
        let mut recorder = TrajectoryRecorder::new(&game).with_labels(self.labels.clone());
        let mut target = vec![0.0; game.num_actions()];
        let opening = rng.random_range(0..=self.config.random_opening);
        let (mut turns, mut actions) = (0, 0);
        while !game.is_terminal() && actions < self.max_actions {
            let pos = *game.position();
            let Some(result) = searcher.search(&game) else {
                break; // no legal turn: the game is over
            };
            let first = game.step_to_action(pos.turn_steps(&result.turn)[0]);
            target[first] = 1.0;
            recorder.record(&game, &target, value_of_score(result.score), true);
            target[first] = 0.0;
            let random = turns < opening || rng.random_bool(self.config.random_turn);
            let turn = match random {
                true => *pos.legal_turns().choose(&mut rng).expect("a legal turn"),
                false => result.turn,
            };
            for step in pos.turn_steps(&turn) {
                game.apply_unchecked(game.step_to_action(step));
                actions += 1;
            }
            turns += 1;
        }
        let returns = if game.is_terminal() {
            game.returns()
        } else {
            [0.0, 0.0]
        };
        let game_meta = TrajectoryMeta {
            final_state: game.to_text(),
            ..meta.clone()
        };
        let exact = recorder.exact_positions() as u64;
        (recorder.finish(game_meta, returns), exact)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use burn::module::Module;
    use burn::tensor::Device;
    use fanorona_env::Board;

    fn config() -> AlphaBetaConfig {
        AlphaBetaConfig {
            start: "fresh".into(),
            nodes: 50,
            random_opening: 2,
            random_turn: 0.1,
            gate_games: 2,
            gate_nodes: 50,
            gate_threshold: 0.55,
        }
    }

    #[test]
    fn games_record_turn_starts_with_search_targets_and_results_and_repeat_for_a_seed() {
        let start = Position::initial(Board::new(5, 3).unwrap());
        let network = NetworkConfig::for_game(&Fanorona::new(start), Architecture::mlp(&[16]));
        let net = PolicyValueNet::init_seeded(&network, &Device::flex(), 3)
            .unwrap()
            .valid();
        let play = AlphaBetaSelfPlay::new(start, config(), 6, 200);
        let meta = TrajectoryMeta {
            iteration: 2,
            ..TrajectoryMeta::default()
        };
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let mut rng = TrainRng::seed_from_u64(5);
        let out = play.play(&net, &mut rng, &meta, |_| {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        assert_eq!((out.games.len(), seen.into_inner()), (6, 6));
        for game in &out.games {
            assert!(!game.is_empty());
            assert_eq!(game.meta.iteration, 2);
            // A finished game: one side won (no draws by the limit in 200 actions of 5x3).
            let [white, black] = game.meta.returns;
            assert_eq!(white, -black);
            // One target of 1 per position, on one of its legal actions.
            assert_eq!(game.action_offsets.len(), game.len() + 1);
            let ones = game.targets.iter().filter(|&&t| t == 1.0).count();
            assert_eq!(ones, game.len());
            assert_eq!(game.targets.iter().sum::<f32>(), game.len() as f32);
            assert!(game.root_values.iter().all(|v| v.abs() <= 1.0));
            assert!(game.root_values.iter().any(|&v| v != 0.0));
        }
        let again = play.play(&net, &mut TrainRng::seed_from_u64(5), &meta, |_| {});
        assert_eq!(again.games, out.games);
        let other = play.play(&net, &mut TrainRng::seed_from_u64(6), &meta, |_| {});
        assert_ne!(other.games, out.games);
    }

    #[test]
    fn positions_the_tables_hold_take_their_exact_values_and_the_games_stay() {
        let board = Board::new(5, 3).unwrap();
        // Six pieces: the 50-node searches misjudge some of these (fewer they solve).
        let (labels, _dir) = crate::table_labels::tests::built_tables(board, 6);
        let start = Position::initial(board);
        let network = NetworkConfig::for_game(&Fanorona::new(start), Architecture::mlp(&[16]));
        let net = PolicyValueNet::init_seeded(&network, &Device::flex(), 3)
            .unwrap()
            .valid();
        let plain = AlphaBetaSelfPlay::new(start, config(), 6, 200);
        let labelled = plain.clone().with_labels(Some(labels));
        let meta = TrajectoryMeta::default();
        let run = |play: &AlphaBetaSelfPlay| {
            play.play(&net, &mut TrainRng::seed_from_u64(5), &meta, |_| {})
        };
        crate::selfplay::tests::assert_labelled(&run(&plain), &run(&labelled));
    }
}
