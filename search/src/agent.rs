//! `MctsAgent`: tree search as a player, for matches, the arena and the engine protocol.

use std::time::Instant;

use fanorona_env::{Agent, AgentError, Budget, Color, Game, SearchInfo, SearchLimits};

use crate::Evaluator;
use crate::budget::simulation_limit;
use crate::config::SearchConfig;
use crate::driver::SearchDriver;

/// A player that searches with an evaluator, within a [`Budget`] of simulations and/or time.
/// It reuses its tree: between its own consecutive actions (a capture chain) it keeps it
/// whole, and when asked again after the opponent's reply it keeps the subtree of the action
/// it played and of that reply, if the tree holds them; anything else starts a new tree.
pub struct MctsAgent<G: Game, E: Evaluator<G>> {
    config: SearchConfig,
    batch_size: usize,
    evaluator: E,
    driver: Option<SearchDriver<G>>,
    name: String,
    budget: Budget,
    limits: SearchLimits,
    /// When the current turn began and when its time runs out (a capture chain's steps share
    /// it).
    turn_start: Instant,
    turn_deadline: Option<Instant>,
    /// Simulations run in the current turn.
    turn_simulations: u64,
    /// Set by [`Agent::reset`]: the next action begins a new game.
    new_game: bool,
    /// The player the agent made its last action for.
    last_mover: Option<Color>,
    reused_visits: u32,
    info: Option<SearchInfo>,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    /// An agent searching with `config` (`config.simulations` per decision, no time limit),
    /// asking `evaluator` for up to `batch_size` leaves at a time; `name` is what logs and
    /// game records call it.
    pub fn new(config: SearchConfig, evaluator: E, batch_size: usize, name: String) -> Self {
        MctsAgent {
            budget: Budget::node_count(config.simulations as u64),
            config,
            batch_size,
            evaluator,
            driver: None,
            name,
            limits: SearchLimits::default(),
            turn_start: Instant::now(),
            turn_deadline: None,
            turn_simulations: 0,
            new_game: true,
            last_mover: None,
            reused_visits: 0,
            info: None,
        }
    }

    /// The agent with another budget (e.g. a time per turn); Gumbel search plans its halving
    /// for `config.simulations` when the budget gives no simulations.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The root's visits kept from earlier searches when the last decision began (0 for a
    /// new tree).
    pub fn reused_visits(&self) -> u32 {
        self.reused_visits
    }

    /// Puts the driver's root at `state`: the tree is kept where `state` continues the
    /// agent's own turn or follows the opponent's reply (see [`MctsAgent`]), else a new one is
    /// started. Returns whether `state` begins a new turn of the agent.
    fn move_root_to(&mut self, state: &G) -> bool {
        let new_game = std::mem::take(&mut self.new_game);
        let Some(driver) = &mut self.driver else {
            let roots = std::slice::from_ref(state);
            self.driver = Some(SearchDriver::new(
                self.config.clone(),
                self.batch_size,
                roots,
            ));
            return true;
        };
        let at_root = !new_game && driver.state(0).to_text() == state.to_text();
        if !at_root && (new_game || !driver.advance_to(0, state)) {
            driver.reset(0, state);
        }
        // A chain goes on where the agent's last action left the same player to act (an
        // agent that plays both sides is also asked there for the other side's new turn).
        !(at_root && self.last_mover == Some(state.current_player()))
    }
}

/// The expected continuation in notation: `action`, then the tree's most visited `line` if it
/// starts with it.
fn expected_line<G: Game>(state: &G, action: usize, line: &[usize]) -> Vec<String> {
    if line.first() != Some(&action) {
        return vec![state.action_name(action)];
    }
    let mut at = state.clone();
    line.iter()
        .map(|&a| {
            let name = at.action_name(a);
            at.apply_unchecked(a);
            name
        })
        .collect()
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, state: &G) -> Result<usize, AgentError> {
        if state.is_terminal() {
            return Err(AgentError {
                agent: self.name.clone(),
                reason: "the game is over".into(),
            });
        }
        let start = Instant::now();
        let budget = self.budget.under(&self.limits.budget, false);
        let simulations = simulation_limit(&budget, self.config.gumbel, self.config.simulations);
        let new_turn = self.move_root_to(state);
        let driver = self.driver.as_mut().expect("move_root_to makes the driver");
        self.reused_visits = driver.search_of(0).root_visits();
        if new_turn {
            self.turn_start = start;
            self.turn_deadline = budget.time.map(|t| start + t);
            self.turn_simulations = 0;
        }
        let (deadline, limits) = (self.turn_deadline, &self.limits);
        driver.config_mut().simulations = simulations;
        driver.search_until(&mut self.evaluator, || {
            deadline.is_some_and(|d| Instant::now() >= d) || limits.stop_requested()
        });
        let result = driver.result(0).ok_or_else(|| AgentError {
            agent: self.name.clone(),
            reason: "the search found no action".into(),
        })?;
        let action = result.action;
        self.last_mover = Some(state.current_player());
        self.turn_simulations += result.simulations as u64;
        self.info = Some(SearchInfo {
            value: Some(result.root_value),
            nodes: self.turn_simulations,
            time: self.turn_start.elapsed(),
            pv: expected_line(state, action, &driver.search_of(0).principal_line()),
            ..SearchInfo::default()
        });
        driver.play(0, action).map_err(|e| AgentError {
            agent: self.name.clone(),
            reason: e.to_string(),
        })?;
        Ok(action)
    }

    fn reset(&mut self) {
        self.new_game = true;
        self.info = None;
    }

    /// A time or a node count replaces the agent's own budget (see [`Budget::under`]); a stop
    /// flag ends the search once set.
    fn set_limits(&mut self, limits: &SearchLimits) {
        self.limits = limits.clone();
    }

    /// The root's mean value for the player who decided, the simulations run and the time
    /// used in the turn so far (all steps of a capture chain), and the tree's most visited
    /// line from the action.
    fn last_info(&self) -> Option<SearchInfo> {
        self.info.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use fanorona_env::Fanorona;

    use super::*;
    use crate::{RolloutEvaluator, UniformEvaluator};

    fn agent(simulations: u32) -> MctsAgent<Fanorona, UniformEvaluator> {
        let config = SearchConfig {
            simulations,
            ..SearchConfig::default()
        };
        MctsAgent::new(config, UniformEvaluator, 1, "mcts".into())
    }

    fn rollout_agent(budget: Budget, seed: u64) -> MctsAgent<Fanorona, RolloutEvaluator> {
        let config = SearchConfig {
            seed,
            ..SearchConfig::default()
        };
        MctsAgent::new(
            config,
            RolloutEvaluator::new(1, 400, seed),
            1,
            "mcts".into(),
        )
        .with_budget(budget)
    }

    #[test]
    fn nodes_set_the_simulations_and_info_reports_them() {
        let game = Fanorona::standard();
        let mut player = agent(800);
        player.set_limits(&SearchLimits::of(Budget::node_count(40)));
        let action = player.act(&game).unwrap();
        let info = player.last_info().unwrap();
        assert_eq!(info.nodes, 40);
        assert_eq!(info.pv[0], game.action_name(action));
        assert!((-1.0..=1.0).contains(&info.value.unwrap()));
        // Without caller limits the configured number applies again.
        player.set_limits(&SearchLimits::default());
        player.reset();
        player.act(&game).unwrap();
        assert_eq!(player.last_info().unwrap().nodes, 800);
    }

    #[test]
    fn a_time_limit_is_kept_and_more_time_searches_more() {
        let game = Fanorona::standard();
        let mut nodes = Vec::new();
        for ms in [40, 160] {
            let budget = Budget::movetime(Duration::from_millis(ms));
            let mut player = rollout_agent(budget, 1);
            assert!(game.is_legal(player.act(&game).unwrap()));
            let info = player.last_info().unwrap();
            // It stops after the evaluation during which the time ran out: one playout here.
            let budget = Duration::from_millis(ms);
            assert!(
                info.time >= budget && info.time < budget + Duration::from_millis(200),
                "{ms} ms: {:?}",
                info.time
            );
            nodes.push(info.nodes);
        }
        assert!(nodes[1] > nodes[0], "{nodes:?}");
        // With simulations too, whichever runs out first.
        let both = Budget {
            nodes: Some(10),
            ..Budget::movetime(Duration::from_secs(60))
        };
        let mut player = rollout_agent(both, 1);
        player.act(&game).unwrap();
        assert_eq!(player.last_info().unwrap().nodes, 10);

        // An agent playing both sides gives the other side's turn its own time, though it is
        // asked right where its own last action left the game.
        let budget = Duration::from_millis(30);
        let mut both_sides = rollout_agent(Budget::movetime(budget), 1);
        let mut game = Fanorona::standard();
        let white = game.current_player();
        while game.current_player() == white {
            game.apply(both_sides.act(&game).unwrap()).unwrap();
        }
        both_sides.act(&game).unwrap();
        assert!(both_sides.last_info().unwrap().time >= budget);
        assert!(
            both_sides.reused_visits() > 0,
            "the tree is kept all the same"
        );
    }

    #[test]
    fn a_caller_time_and_stop_flag_cut_the_search_short() {
        let game = Fanorona::standard();
        let mut player = agent(800);
        player.set_limits(&SearchLimits::of(Budget::movetime(Duration::from_millis(
            30,
        ))));
        let action = player.act(&game).unwrap();
        assert!(game.is_legal(action));
        let info = player.last_info().unwrap();
        assert!(info.nodes > 0 && info.nodes < crate::SIMULATION_CAP as u64);
        assert!(info.time < Duration::from_secs(5), "{:?}", info.time);

        player.set_limits(&SearchLimits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..SearchLimits::default()
        });
        player.reset();
        // Stopped at once: the root's evaluation alone decides.
        assert!(game.is_legal(player.act(&game).unwrap()));
        assert_eq!(player.last_info().unwrap().nodes, 0);
    }

    /// A mid-chain position under compulsory continuation (`mandatory`) where every legal
    /// action continues the chain, from seeded random play on 9x5.
    fn chain_that_goes_on() -> Fanorona {
        use rand::{Rng, SeedableRng};
        let rules = fanorona_env::Rules::parse("mandatory").unwrap();
        let start = fanorona_env::Position::initial(fanorona_env::Board::standard());
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let mut actions = Vec::new();
        loop {
            let mut game = Fanorona::new(start.with_rules(rules));
            while !game.is_terminal() {
                game.legal_actions(&mut actions);
                let mover = game.current_player();
                let goes_on = |&a: &usize| {
                    let mut next = game.clone();
                    next.apply(a).unwrap();
                    !next.is_terminal() && next.current_player() == mover
                };
                if !game.position().is_turn_start() && actions.iter().all(goes_on) {
                    return game;
                }
                game.apply(actions[rng.random_range(0..actions.len())])
                    .unwrap();
            }
        }
    }

    #[test]
    fn the_steps_of_a_chain_share_the_turns_time() {
        let budget = Duration::from_millis(300);
        let mut player = rollout_agent(Budget::movetime(budget), 1);
        let mut game = chain_that_goes_on();
        game.apply(player.act(&game).unwrap()).unwrap();
        let first = player.last_info().unwrap();
        player.act(&game).unwrap();
        let turn = player.last_info().unwrap();
        // The second step searched only until the next check of the clock (a budget of its
        // own would take the turn past twice the budget), and the info counts the whole turn.
        assert!(first.time >= budget && turn.time >= first.time, "{first:?}");
        assert!(turn.time < 2 * budget, "{turn:?}");
        assert!(turn.nodes >= first.nodes);
    }

    /// Plays in `game` the opponent's reply the agent's tree knows best: its most visited
    /// line while the opponent is to move.
    fn play_known_reply(player: &MctsAgent<Fanorona, RolloutEvaluator>, game: &mut Fanorona) {
        let search = player.driver.as_ref().unwrap().search_of(0);
        assert_eq!(search.state().to_text(), game.to_text());
        let opponent = game.current_player();
        for action in search.principal_line() {
            if game.current_player() != opponent {
                break;
            }
            game.apply(action).unwrap();
        }
    }

    #[test]
    fn the_tree_is_kept_after_the_opponents_reply_and_dropped_elsewhere() {
        let budget = Budget::node_count(300);
        let mut player = rollout_agent(budget, 3);
        let mut game = Fanorona::standard();
        let me = game.current_player();
        while game.current_player() == me {
            game.apply(player.act(&game).unwrap()).unwrap();
        }
        play_known_reply(&player, &mut game);
        assert_eq!(game.current_player(), me, "the tree holds the whole reply");
        player.act(&game).unwrap();
        assert!(player.reused_visits() > 0);
        assert_eq!(
            player.last_info().unwrap().nodes,
            300,
            "new simulations on top"
        );

        // A position the tree does not hold (another first step), and a new game, start
        // from nothing.
        let mut fresh = rollout_agent(budget, 3);
        let start = Fanorona::standard();
        let played = fresh.act(&start).unwrap();
        let mut elsewhere = start.clone();
        let mut actions = Vec::new();
        elsewhere.legal_actions(&mut actions);
        elsewhere
            .apply(*actions.iter().find(|&&a| a != played).unwrap())
            .unwrap();
        while elsewhere.current_player() == me {
            elsewhere.legal_actions(&mut actions);
            elsewhere.apply(actions[0]).unwrap();
        }
        while elsewhere.current_player() != me {
            elsewhere.legal_actions(&mut actions);
            elsewhere.apply(actions[0]).unwrap();
        }
        fresh.act(&elsewhere).unwrap();
        assert_eq!(fresh.reused_visits(), 0);
        player.reset();
        player.act(&Fanorona::standard()).unwrap();
        assert_eq!(player.reused_visits(), 0);
    }

    #[test]
    fn with_simulations_only_a_seed_gives_the_same_game() {
        let play = || {
            let budget = Budget::node_count(60);
            let (mut white, mut black) = (rollout_agent(budget, 7), rollout_agent(budget, 8));
            let mut game = Fanorona::standard();
            let mut actions = Vec::new();
            for _ in 0..12 {
                if game.is_terminal() {
                    break;
                }
                let player = match game.current_player() {
                    Color::White => &mut white,
                    Color::Black => &mut black,
                };
                let action = player.act(&game).unwrap();
                game.apply(action).unwrap();
                actions.push(action);
            }
            (actions, white.reused_visits() + black.reused_visits())
        };
        let (first, reused) = play();
        assert_eq!(first, play().0);
        assert!(reused > 0, "the trees were reused along the way");
    }
}
