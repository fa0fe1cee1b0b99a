"""The OpenSpiel game python_fanorona: OpenSpiel's own checks, its exact search against our
solver, MCTSBot against our agents, and agreement with Position."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
fo = pytest.importorskip("fanorona.openspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts, minimax  # noqa: E402

import fanorona  # noqa: E402


def load(**params):
    return pyspiel.load_game(fo.SHORT_NAME, params)


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"board": "3x3"},
        {"board": "5x5", "rules": "mandatory"},
        {"board": "7x3", "rules": "vela=white,no-capture=10"},
        {"board": "9x5", "turn_limit": 6},
    ],
)
def test_random_sim_test(params):
    # OpenSpiel's own checks of a game along random games: legal actions and masks, clones,
    # observations and information states, returns, and serialization round trips.
    game = load(**params)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_parameters_and_game_info():
    game = pyspiel.load_game("python_fanorona(board=5x5,rules=vela:white no-capture:10,turn_limit=40)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == fanorona.Position(board="5x5").num_actions
    assert game.max_game_length() == 40 * (25 + 1)
    assert game.observation_tensor_shape() == [18 * 5 * 5 + 1]
    params = game.get_parameters()
    assert params["rules"] == "vela:white no-capture:10"
    assert params["turn_limit"] == 40
    # The rules reach the position: Vela for white, no-capture limit 10.
    rules = game.new_initial_state().position.rules
    assert "no-capture=10" in rules and "vela=white" in rules
    # A dict with our own comma form gives the same game string.
    same = load(board="5x5", rules="vela=white,no-capture=10", turn_limit=40)
    assert str(same) == str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    with pytest.raises(Exception, match="board"):
        load(board="4x4")
    with pytest.raises(Exception, match="turn_limit"):
        load(turn_limit=0)


def test_a_fen_and_a_board_given_together_must_agree():
    # As Position, GameSession and the CLI refuse the mismatch; the default board is not
    # checked against a FEN given alone.
    with pytest.raises(Exception, match="board 9x5 does not match the FEN's board"):
        load(fen="5/5/2W1B w", board="9x5")
    game = load(fen="5/5/2W1B w")
    assert game.get_parameters()["board"] == "5x3"
    assert load(fen="5/5/2W1B w", board="5x3").get_parameters()["board"] == "5x3"


def test_steps_agree_with_position():
    rng = random.Random(7)
    game = load(board="9x5", turn_limit=1000)
    for _ in range(5):
        state = game.new_initial_state()
        position = fanorona.Position(board="9x5")
        turns = 0
        while not state.is_terminal():
            assert not position.is_over
            assert state.legal_actions() == position.legal_actions()
            assert np.array_equal(state.legal_actions_mask(), position.action_mask().astype(bool))
            assert state.current_player() == ["white", "black"].index(position.side_to_move)
            action = rng.choice(state.legal_actions())
            assert state.action_to_string(state.current_player(), action) == position.action_name(action)
            mover = position.side_to_move
            state.apply_action(action)
            position.play_step(action)
            turns += position.is_over or position.side_to_move != mover
        assert position.is_over and state.turns == turns
        assert state.returns() == list(position.returns)
        assert state.position.fen == position.fen


def test_turn_limit_ends_in_a_draw():
    game = load(board="9x5", turn_limit=4)
    state = game.new_initial_state()
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert state.turns == 4 and state.truncated and not state.position.is_over
    assert state.returns() == [0.0, 0.0]
    assert steps >= 4 and state.legal_actions() == []


def test_observation_tensor_is_each_players_view_and_determines_legal_actions():
    game = load(board="5x5", turn_limit=60)
    rng = random.Random(3)
    seen = {}
    chains = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            position = state.position
            for player, colour in enumerate(["white", "black"]):
                tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
                assert np.array_equal(tensor[:-1].reshape(18, 5, 5), position.observation(colour))
                assert tensor[-1] == pytest.approx(state.turns / 60)
            mover = state.current_player()
            assert np.array_equal(
                np.asarray(state.observation_tensor(mover), np.float32)[:-1].reshape(18, 5, 5),
                position.observation(),
            )
            key = (mover, np.asarray(state.observation_tensor(mover), np.float32).tobytes())
            assert seen.setdefault(key, state.legal_actions()) == state.legal_actions()
            chains += position.in_chain
            state.apply_action(rng.choice(state.legal_actions()))
    assert chains > 0  # the mid-chain planes were exercised


def test_serialization_round_trip_mid_chain():
    game = load(board="5x5")
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.position.in_chain:
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.position == state.position and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions() and state2.turns == state.turns
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.position == state2.position  # a clone is independent


def _solver_value(fanorona_bin: Path, board: str):
    out = subprocess.run(
        [fanorona_bin, "solve", "--board", board], check=True, capture_output=True, text=True
    ).stdout
    match = re.search(r"value: (win|loss) in (\d+) for white", out)
    assert match, out
    return match.group(1), int(match.group(2))


@pytest.mark.parametrize("board", ["3x3", "5x3", "3x5"])
def test_exact_search_agrees_with_solver(fanorona_bin, board):
    # OpenSpiel's alpha-beta on the whole game tree: white wins within the solver's distance
    # n (in turns), and cannot force a win within n - 1 turns.
    outcome, distance = _solver_value(fanorona_bin, board)
    expected = 1.0 if outcome == "win" else -1.0
    for limit, value in [(distance, expected), (distance - 1, 0.0)]:
        game = load(board=board, turn_limit=limit)
        result, _ = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length() + 1)
        assert result == value, (board, limit)


def test_exact_search_agrees_with_solver_agent_along_games():
    # From positions of random 3x3 games: the solver agent playing both sides ends the game in
    # n turns; OpenSpiel's alpha-beta finds that result within n turns and no decisive result
    # within n - 1 (a draw: no win for either side within 20 turns).
    rng = random.Random(11)
    checked = {"win": 0, "draw": 0}
    for _ in range(12):
        position = fanorona.Position(board="3x3")
        while not position.is_over and len(position.history) < 6:
            position.play_turn(rng.choice(position.legal_turns()))
        if position.is_over:
            continue
        solver = fo.AgentBot("solver:board=3x3", seed=1)
        game = load(fen=position.fen, turn_limit=20)
        state = game.new_initial_state()
        evaluate_bots.evaluate_bots(state, [solver, solver], np.random.RandomState(0))
        mover = ["white", "black"].index(position.side_to_move)
        value = state.returns()[mover]
        if value == 0.0:
            # The solver's draws go on for ever: the turn limit or a repetition ends them.
            assert state.truncated or state.position.termination == "Repetition"
            limits = [(20, 0.0)]
            checked["draw"] += 1
        else:
            limits = [(state.turns, value)] + [(state.turns - 1, 0.0)] * (state.turns > 1)
            checked["win"] += 1
        for limit, expected in limits:
            game = load(fen=position.fen, turn_limit=limit)
            result, _ = minimax.alpha_beta_search(
                game, maximum_depth=game.max_game_length() + 1, maximizing_player_id=mover
            )
            assert result == expected, (position.fen, limit)
    assert checked["win"] >= 3, checked


def test_mcts_bot_plays_full_games_against_our_agents():
    game = load(board="5x5")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    scores = []
    for i, spec in enumerate(["random", "greedy", "random", "greedy"]):
        ours = fo.AgentBot(fanorona.Agent(spec, seed=i))
        bots = [bot, ours] if i % 2 == 0 else [ours, bot]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal() and sum(returns) == 0.0
        assert len(state.history()) >= 2
        scores.append(returns[i % 2])
    # 100 simulations a step beat random and greedy on 5x5 at least in most games.
    assert sum(scores) > 0, scores


def test_mcts_bot_plays_a_full_game_on_the_standard_board():
    game = load()
    rng = np.random.RandomState(2)
    bot = mcts.MCTSBot(game, 2.0, 50, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, [fo.AgentBot("greedy", seed=2), bot], rng)
    assert state.is_terminal() and sum(returns) == 0.0
    position = state.position
    assert position.is_over or state.truncated
    assert len(position.history) == len(state.history())
