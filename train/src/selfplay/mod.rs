//! Self-play: `games_per_iteration` games played by tree search with the network, up to
//! `parallel_games` at once in one [`SearchDriver`] so that every round sends one leaf of each
//! game to the network in a single batch. Each position is recorded with its search target
//! (visit counts, or the Gumbel-improved policy) and, at the end of the game, its result.
//!
//! Exploration: Dirichlet noise at the root (PUCT), moves sampled from the visit counts at
//! `temperature` for the first `temperature_actions` actions of a game and at
//! `final_temperature` afterwards (Gumbel search plays its sequential-halving winner).
//! Playout-cap randomisation: each search round is a full search with probability
//! `full_probability` (its targets are trained on) or else a cheap one without noise (played,
//! kept for the value target, not trained on for the policy); KataGo's forced playouts and
//! policy target pruning (`forced_playouts`) on full searches only. The coin is tossed once per
//! round for all games of the driver, as they share one search configuration. A game still
//! running after `max_actions` actions is scored a draw.
//!
//! With endgame tables (`selfplay.tables`, [`TableLabels`]), every recorded position they hold
//! takes their exact value as its value target instead of the result and the search's value;
//! with the prover (`selfplay.prover`, [`ProverLabels`]), a share of the turn starts take
//! their proven value and policy targets from the turns that keep it.
//!
//! With `random_opening` = N, each game first plays from 0 to N random turns (not recorded).
//!
//! An `abnet` run's self-play is the alpha-beta's instead ([`AlphaBetaSelfPlay`]).

mod alpha_beta;

pub use alpha_beta::AlphaBetaSelfPlay;

use std::sync::Arc;
use std::time::Instant;

use fanorona_env::Game;
use fanorona_search::{Evaluator, SearchConfig, SearchDriver, sample_with_temperature};
use rand::Rng;

use crate::config::{MctsConfig, SelfPlayConfig};
use crate::prover_targets::ProverLabels;
use crate::replay::{Trajectory, TrajectoryMeta, TrajectoryRecorder};
use crate::rng::TrainRng;
use crate::table_labels::TableLabels;

/// What one batch of self-play produced, besides the games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SelfPlayStats {
    /// Games finished.
    pub games: u64,
    /// Positions (actions) played and recorded.
    pub positions: u64,
    /// Positions whose policy target is trained on (full searches).
    pub policy_positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Mean leaves per network call.
    pub mean_batch: f64,
    /// Positions labelled with their exact value (by the endgame tables or the prover).
    pub exact_positions: u64,
    /// Positions whose policy target is the prover's keeping turns.
    pub exact_policy_positions: u64,
}

impl SelfPlayStats {
    /// Mean game length in actions.
    pub fn mean_game_length(&self) -> f64 {
        self.positions as f64 / self.games.max(1) as f64
    }

    /// Games per second.
    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// Positions per second.
    pub fn positions_per_s(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
}

/// The games and statistics of one self-play call.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayOutput {
    /// The finished games, in the order they ended.
    pub games: Vec<Trajectory>,
    /// Throughput and sizes.
    pub stats: SelfPlayStats,
}

/// Self-play settings with the game to start from.
#[derive(Clone, Debug)]
pub struct SelfPlay<G: Game> {
    start: G,
    mcts: MctsConfig,
    selfplay: SelfPlayConfig,
    labels: Option<TableLabels>,
    prover: Option<Arc<ProverLabels>>,
}

impl<G: Game> SelfPlay<G> {
    /// Self-play from `start` (every game begins there) with these settings.
    pub fn new(start: G, mcts: MctsConfig, selfplay: SelfPlayConfig) -> SelfPlay<G> {
        SelfPlay {
            start,
            mcts,
            selfplay,
            labels: None,
            prover: None,
        }
    }

    /// Self-play whose turn starts `prover` settles get their exact targets.
    pub fn with_prover(self, prover: Option<Arc<ProverLabels>>) -> SelfPlay<G> {
        SelfPlay { prover, ..self }
    }

    /// A game's first position: the start after 0 to `random_opening` random turns (the start
    /// itself if they end the game).
    fn opening(&self, rng: &mut TrainRng) -> G {
        let mut game = self.start.clone();
        if self.selfplay.random_opening == 0 {
            return game;
        }
        let turns = rng.random_range(0..=self.selfplay.random_opening);
        let mut legal = Vec::new();
        for _ in 0..turns {
            let mover = game.current_player();
            while !game.is_terminal() && game.current_player() == mover {
                game.legal_actions(&mut legal);
                game.apply_unchecked(legal[rng.random_range(0..legal.len())]);
            }
            if game.is_terminal() {
                return self.start.clone();
            }
        }
        game
    }

    /// An empty slot for a game starting at `start`.
    fn slot(&self, start: &G) -> Slot {
        let recorder = TrajectoryRecorder::new(start)
            .with_labels(self.labels.clone())
            .with_prover(self.prover.clone());
        Slot {
            recorder: Some(recorder),
            actions: 0,
        }
    }

    /// Self-play whose positions `labels` hold get their exact value as value target.
    pub fn with_labels(self, labels: Option<TableLabels>) -> SelfPlay<G> {
        SelfPlay { labels, ..self }
    }

    /// The search configuration of a full (`full = true`) or cheap search.
    fn search_config(&self, full: bool, seed: u64) -> SearchConfig {
        let search = &self.mcts.search;
        SearchConfig {
            simulations: match (&self.mcts.playout_cap, full) {
                (Some(cap), false) => cap.fast_simulations,
                _ => search.simulations,
            },
            dirichlet_fraction: if full { search.dirichlet_fraction } else { 0.0 },
            forced_playouts: if full { search.forced_playouts } else { 0.0 },
            // Moves are chosen here, per game, from the visit counts.
            temperature: 0.0,
            seed,
            ..search.clone()
        }
    }

    /// Plays `games_per_iteration` games with `evaluator`; `meta` is copied into every game's
    /// metadata (iteration and network step); `on_game` is called after each finished game.
    pub fn play<E: Evaluator<G> + ?Sized>(
        &self,
        evaluator: &mut E,
        rng: &mut TrainRng,
        meta: &TrajectoryMeta,
        mut on_game: impl FnMut(&Trajectory),
    ) -> SelfPlayOutput {
        let start_time = Instant::now();
        let mut session = Session::new(self, rng);
        while session.slots.iter().any(|s| s.recorder.is_some()) {
            let full = match &self.mcts.playout_cap {
                Some(cap) => rng.random_bool(cap.full_probability),
                None => true,
            };
            let seed = session.driver.config().seed;
            *session.driver.config_mut() = self.search_config(full, seed);
            session.driver.search(evaluator);
            let mut retired_unfinished = false;
            for i in 0..session.slots.len() {
                if session.slots[i].recorder.is_none() {
                    continue;
                }
                let state = session.driver.state(i);
                if state.is_terminal() || session.slots[i].actions >= self.selfplay.max_actions {
                    retired_unfinished |= session.end_game(i, meta, &mut on_game, rng);
                } else {
                    session.play_move(i, full, rng);
                }
            }
            if retired_unfinished {
                // A capped game is not over for the search: rebuild the driver without it.
                session.compact(rng);
            }
        }
        session.finish(start_time)
    }
}

/// One game slot of the driver.
struct Slot {
    recorder: Option<TrajectoryRecorder>,
    actions: usize,
}

/// One [`SelfPlay::play`] call in progress: the driver searching the games being played, their
/// slots and what has been produced so far.
struct Session<'a, G: Game> {
    selfplay: &'a SelfPlay<G>,
    driver: SearchDriver<G>,
    slots: Vec<Slot>,
    /// Games started so far.
    started: usize,
    output: SelfPlayOutput,
    /// Network calls and states of drivers already dropped by [`Session::compact`].
    batch_calls: u64,
    batch_states: u64,
}

impl<'a, G: Game> Session<'a, G> {
    /// The first `parallel_games` games, each from its opening.
    fn new(selfplay: &'a SelfPlay<G>, rng: &mut TrainRng) -> Session<'a, G> {
        let total = selfplay.selfplay.games_per_iteration;
        let parallel = selfplay.selfplay.parallel_games.min(total).max(1);
        let starts: Vec<G> = (0..parallel).map(|_| selfplay.opening(rng)).collect();
        let driver = SearchDriver::new(
            selfplay.search_config(true, rng.random()),
            parallel,
            &starts,
        );
        Session {
            selfplay,
            driver,
            slots: starts.iter().map(|s| selfplay.slot(s)).collect(),
            started: parallel,
            output: SelfPlayOutput::default(),
            batch_calls: 0,
            batch_states: 0,
        }
    }

    /// Records the searched position of game `i` with its target and plays its move: Gumbel's
    /// choice, or a visit count sampled at the temperature of the game's stage.
    fn play_move(&mut self, i: usize, full: bool, rng: &mut TrainRng) {
        let mcts = &self.selfplay.mcts;
        let slot = &mut self.slots[i];
        let result = self
            .driver
            .result(i)
            .expect("an unfinished game was searched");
        let target = if mcts.search.gumbel {
            &result.improved_policy
        } else {
            &result.visit_policy
        };
        let recorder = slot.recorder.as_mut().expect("the game is being played");
        recorder.record(self.driver.state(i), target, result.root_value, full);
        self.output.stats.policy_positions += full as u64;
        let action = if mcts.search.gumbel {
            result.action
        } else {
            let temperature = if slot.actions < mcts.temperature_actions {
                mcts.search.temperature
            } else {
                mcts.final_temperature
            };
            sample_with_temperature(&result.visit_policy, None, temperature, rng)
        };
        self.driver
            .play(i, action)
            .expect("search only plays legal actions");
        slot.actions += 1;
    }

    /// Finishes game `i` (over, or capped: a draw) into the output and starts the next game in
    /// its slot if any is left; returns whether an unfinished game left the driver.
    fn end_game(
        &mut self,
        i: usize,
        meta: &TrajectoryMeta,
        on_game: &mut impl FnMut(&Trajectory),
        rng: &mut TrainRng,
    ) -> bool {
        let state = self.driver.state(i);
        let over = state.is_terminal();
        let returns = if over { state.returns() } else { [0.0, 0.0] };
        let mut game_meta = meta.clone();
        game_meta.final_state = state.to_text();
        let recorder = self.slots[i]
            .recorder
            .take()
            .expect("the game was being played");
        self.output.stats.exact_positions += recorder.exact_positions() as u64;
        self.output.stats.exact_policy_positions += recorder.exact_policy_positions() as u64;
        let weight = self.selfplay.selfplay.score_weight;
        let game = recorder.finish_scored(game_meta, returns, state.score(), weight);
        self.output.stats.games += 1;
        self.output.stats.positions += game.len() as u64;
        on_game(&game);
        self.output.games.push(game);
        if self.started < self.selfplay.selfplay.games_per_iteration {
            self.started += 1;
            let start = self.selfplay.opening(rng);
            self.driver.reset(i, &start);
            self.slots[i] = self.selfplay.slot(&start);
            return false;
        }
        !over
    }

    /// Rebuilds the driver with only the games still being played (their trees are dropped).
    fn compact(&mut self, rng: &mut TrainRng) {
        self.add_driver_stats();
        let mut states = Vec::new();
        let mut kept = Vec::new();
        for (i, slot) in std::mem::take(&mut self.slots).into_iter().enumerate() {
            if slot.recorder.is_some() {
                states.push(self.driver.state(i).clone());
                kept.push(slot);
            }
        }
        let mut config = self.driver.config().clone();
        config.seed = rng.random();
        let batch = kept.len().max(1);
        self.driver = SearchDriver::new(config, batch, &states);
        self.slots = kept;
    }

    /// Adds the current driver's network calls to the session's count.
    fn add_driver_stats(&mut self) {
        let stats = self.driver.stats();
        self.batch_calls += stats.calls;
        self.batch_states += stats.states;
    }

    /// The output, with the time taken since `start_time` and the mean batch.
    fn finish(mut self, start_time: Instant) -> SelfPlayOutput {
        self.add_driver_stats();
        let stats = &mut self.output.stats;
        stats.seconds = start_time.elapsed().as_secs_f64();
        stats.mean_batch = self.batch_states as f64 / self.batch_calls.max(1) as f64;
        self.output
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PlayoutCap;
    use crate::table_labels::tests::built_tables;
    use fanorona_env::{Board, Fanorona, Position};
    use fanorona_search::UniformEvaluator;
    use rand::SeedableRng;

    /// The `[mcts]` and `[selfplay]` sections of the tiny preset.
    fn settings() -> (MctsConfig, SelfPlayConfig) {
        let tiny = crate::config::RunConfig::preset("tiny").unwrap();
        (tiny.mcts, tiny.selfplay)
    }

    /// Checks that `labelled` is the self-play `plain` with positions labelled by tables: the
    /// same games, and where a position's value target changed, its result and root value are
    /// one exact value (+1, 0 or -1); some changed, no more than the labelled count.
    pub(super) fn assert_labelled(plain: &SelfPlayOutput, labelled: &SelfPlayOutput) {
        let exact = labelled.stats.exact_positions;
        assert_eq!(plain.stats.exact_positions, 0);
        assert_eq!(plain.games.len(), labelled.games.len());
        let mut changed = 0;
        for (p, l) in plain.games.iter().zip(&labelled.games) {
            assert_eq!(
                (&p.meta, &p.obs_values, &p.actions, &p.targets),
                (&l.meta, &l.obs_values, &l.actions, &l.targets)
            );
            for ply in 0..p.len() {
                if (p.values[ply], p.root_values[ply]) != (l.values[ply], l.root_values[ply]) {
                    assert_eq!(l.values[ply], l.root_values[ply]);
                    assert!([-1.0, 0.0, 1.0].contains(&l.values[ply]));
                    changed += 1;
                }
            }
        }
        assert!(
            changed > 0 && changed <= exact,
            "{changed} changed, {exact} exact"
        );
    }

    /// The games of `play` with a uniform evaluator, drawn from `seed`.
    fn play_seeded(play: &SelfPlay<Fanorona>, seed: u64) -> SelfPlayOutput {
        let mut rng = TrainRng::seed_from_u64(seed);
        play.play(
            &mut UniformEvaluator,
            &mut rng,
            &TrajectoryMeta::default(),
            |_| {},
        )
    }

    #[test]
    fn every_game_is_recorded_with_its_result_and_capped_games_are_draws() {
        let (mut mcts, mut selfplay) = settings();
        mcts.playout_cap = Some(PlayoutCap {
            fast_simulations: 4,
            full_probability: 0.5,
        });
        selfplay.games_per_iteration = 10;
        selfplay.parallel_games = 4;
        selfplay.max_actions = 12;
        let start = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let play = SelfPlay::new(start, mcts, selfplay);
        let mut rng = TrainRng::seed_from_u64(7);
        let meta = TrajectoryMeta {
            iteration: 3,
            network_step: 40,
            ..TrajectoryMeta::default()
        };
        let mut seen = 0;
        let out = play.play(&mut UniformEvaluator, &mut rng, &meta, |_| seen += 1);
        assert_eq!((out.games.len(), seen, out.stats.games), (10, 10, 10));
        let positions: usize = out.games.iter().map(Trajectory::len).sum();
        assert_eq!(out.stats.positions, positions as u64);
        assert!(out.stats.policy_positions > 0 && out.stats.policy_positions < positions as u64);
        for game in &out.games {
            assert_eq!((game.meta.iteration, game.meta.network_step), (3, 40));
            assert!(game.len() <= 12);
            let finished = Fanorona::new(Position::from_fen(&game.meta.final_state).unwrap());
            if finished.is_terminal() {
                assert_eq!(game.meta.returns, finished.returns());
            } else {
                assert_eq!((game.len(), game.meta.returns), (12, [0.0, 0.0]));
            }
        }
        assert!(out.games.iter().any(|g| g.len() == 12));
        // The search's root values are kept (the uniform evaluator values every leaf 0, so
        // only the game ends the search reaches move them).
        let root_values: Vec<f32> = out
            .games
            .iter()
            .flat_map(|g| g.root_values.clone())
            .collect();
        assert_eq!(root_values.len(), positions);
        assert!(root_values.iter().all(|v| (-1.0..=1.0).contains(v)));
        assert!(root_values.iter().any(|&v| v != 0.0));
    }

    #[test]
    fn positions_the_tables_hold_take_their_exact_values_and_the_games_stay() {
        let (mcts, mut selfplay) = settings();
        selfplay.games_per_iteration = 8;
        let board = Board::new(5, 3).unwrap();
        let (labels, _dir) = built_tables(board, 4);
        let start = Fanorona::new(Position::initial(board));
        let plain = SelfPlay::new(start.clone(), mcts, selfplay);
        let labelled = plain.clone().with_labels(Some(labels));
        assert_labelled(&play_seeded(&plain, 3), &play_seeded(&labelled, 3));
    }

    #[test]
    fn a_score_weight_mixes_each_games_final_score_into_its_value_targets() {
        let (mcts, mut selfplay) = settings();
        selfplay.games_per_iteration = 8;
        selfplay.max_actions = 12;
        let start = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let plain = SelfPlay::new(start.clone(), mcts.clone(), selfplay.clone());
        selfplay.score_weight = 0.25;
        let scored = SelfPlay::new(start, mcts, selfplay);
        let (plain, scored) = (play_seeded(&plain, 9).games, play_seeded(&scored, 9).games);
        let mut moved = 0;
        for (a, b) in plain.iter().zip(&scored) {
            // The same games are played; only the value targets differ.
            assert_eq!((&a.meta, &a.root_values), (&b.meta, &b.root_values));
            let end = Fanorona::new(Position::from_fen(&b.meta.final_state).unwrap());
            let [white, black] = end.score();
            assert_eq!(white, -black);
            let white_won = a.meta.returns[0];
            for (&result, &target) in a.values().iter().zip(b.values()) {
                // The mover's share of the score: the white score or its negation.
                let extra = target - 0.75 * result;
                assert!((extra.abs() - 0.25 * white.abs()).abs() < 1e-6);
                if white_won != 0.0 {
                    // In a decided game the result tells the mover: white's is white's return.
                    let mover_score = white * result / white_won;
                    assert!((extra - 0.25 * mover_score).abs() < 1e-6);
                }
                moved += (target != result) as usize;
            }
        }
        assert!(moved > 0, "some game ends with a piece difference");
    }

    #[test]
    fn random_openings_start_games_from_many_positions_and_none_from_a_finished_one() {
        let (mcts, mut selfplay) = settings();
        selfplay.games_per_iteration = 12;
        let start = Fanorona::new(Position::initial(Board::new(5, 3).unwrap()));
        let first_positions = |selfplay: &SelfPlayConfig| {
            let play = SelfPlay::new(start.clone(), mcts.clone(), selfplay.clone());
            let games = play_seeded(&play, 4).games;
            assert_eq!(games.len(), 12);
            let mut firsts: Vec<Vec<f32>> = games
                .iter()
                .map(|g| {
                    let mut obs = vec![0.0; 5 * 3 * g.plane_constant.len() / g.len()];
                    g.write_observation(0, g.plane_constant.len() / g.len(), 15, &mut obs);
                    obs
                })
                .collect();
            firsts.dedup();
            firsts.len()
        };
        assert_eq!(first_positions(&selfplay), 1, "every game from the start");
        selfplay.random_opening = 3;
        assert!(
            first_positions(&selfplay) >= 4,
            "games open in several ways"
        );
    }

    #[test]
    fn turns_the_prover_settles_take_the_keeping_steps_as_policy_and_their_value() {
        use crate::config::ProverTargets;
        use crate::prover_targets::ProverLabels;
        use fanorona_env::action::step_to_action;
        use fanorona_eval::exam::{LabelBudget, prove_label};

        let (mcts, mut selfplay) = settings();
        selfplay.games_per_iteration = 6;
        let board = Board::new(5, 3).unwrap();
        let start = Fanorona::new(Position::initial(board));
        let plain = SelfPlay::new(start.clone(), mcts, selfplay);
        let settings = ProverTargets {
            nodes: 200_000,
            share: 1.0,
            policy: true,
        };
        let prover = ProverLabels::new(settings, None, &[]);
        let proven = plain.clone().with_prover(Some(Arc::new(prover)));
        let (plain, proven) = (play_seeded(&plain, 2), play_seeded(&proven, 2));
        let mut changed = 0;
        for (p, l) in plain.games.iter().zip(&proven.games) {
            assert_eq!(
                (&p.meta, &p.actions),
                (&l.meta, &l.actions),
                "the same games"
            );
            for ply in 0..p.len() {
                let (_, targets) = l.targets(ply);
                if p.targets(ply) != l.targets(ply) || p.values[ply] != l.values[ply] {
                    changed += 1;
                    let share = targets.iter().cloned().fold(0.0, f32::max);
                    assert!(targets.iter().all(|&t| t == 0.0 || t == share));
                    assert!((targets.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                    assert_eq!(l.policy_weight(ply), 1.0);
                    assert!([-1.0, 0.0, 1.0].contains(&l.values[ply]));
                }
            }
        }
        assert!(changed > 0 && proven.stats.exact_policy_positions > 0);
        assert_eq!(plain.stats.exact_policy_positions, 0);
        // At the start (every game's first position), the targets are the first steps of the
        // turns the prover shows to keep the win, evenly.
        let budget = LabelBudget {
            nodes: 200_000,
            max_entries: 1 << 20,
        };
        let truth = prove_label(start.position(), None, budget, None)
            .unwrap()
            .unwrap();
        let mut keeping: Vec<u16> = truth
            .keeps
            .iter()
            .map(|t| start.to_mover_action(step_to_action(board, t.moves(board)[0])) as u16)
            .collect();
        keeping.sort();
        keeping.dedup();
        for game in &proven.games {
            let (actions, targets) = game.targets(0);
            let mut chosen: Vec<u16> = actions
                .iter()
                .zip(targets)
                .filter(|(_, t)| **t > 0.0)
                .map(|(&a, _)| a)
                .collect();
            chosen.sort();
            assert_eq!(chosen, keeping);
            assert_eq!(game.values()[0], 1.0, "5x3 is a first-player win");
        }
    }

    #[test]
    fn self_play_is_reproducible_from_the_seed() {
        let (mcts, selfplay) = settings();
        let start = Fanorona::new(Position::initial(Board::new(3, 3).unwrap()));
        let play = SelfPlay::new(start, mcts, selfplay);
        assert_eq!(play_seeded(&play, 5).games, play_seeded(&play, 5).games);
    }
}
