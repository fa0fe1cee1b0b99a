"""Threads on shared objects of every class: no hang, no panic, only the documented errors.

Each scenario runs in a child interpreter under a deadline: a deadlocked thread may hold the
GIL, so only another process can notice it. Inside the child, threads call methods of one
shared object in fixed loops and are joined with deadlines; the child prints what it saw.
A call may raise only what the class documents for a race between threads (say ValueError
for an action made illegal by another thread's step); anything else, a PanicException above
all (a BaseException that `except Exception` misses), fails the scenario.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: Seconds a scenario's threads get before the child reports a hang.
JOIN_S = 60
#: Seconds before the parent kills a child that could not even report (a GIL deadlock).
KILL_S = 120

PRELUDE = """
import json, os, sys, threading, traceback
import numpy as np
import fanorona

calls = {}
failures = []

def run_threads(workers, allowed=()):
    def wrap(name, body):
        def run():
            count = 0
            try:
                for call in body():
                    try:
                        call()
                    except allowed:
                        pass
                    count += 1
            except BaseException as error:
                failures.append(f"{name}: {type(error).__module__}.{type(error).__name__}: {error}")
            calls[name] = count
        return threading.Thread(target=run, name=name, daemon=True)

    threads = [wrap(name, body) for name, body in workers.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_S)
    hung = [thread.name for thread in threads if thread.is_alive()]
    print(json.dumps({"calls": calls, "failures": failures, "hung": hung}), flush=True)
    os._exit(0)
"""


def run_scenario(body: str, *args: str) -> dict:
    """Runs `body` after PRELUDE in a child interpreter; returns what it reported."""
    code = f"JOIN_S = {JOIN_S}\n" + PRELUDE + textwrap.dedent(body)
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=KILL_S
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the child hung for {KILL_S} s (a deadlock holding the GIL): {error.stderr}")
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["hung"] == [], f"threads still running after {JOIN_S} s: {report}"
    assert report["failures"] == [], report["failures"]
    return report


def test_an_agent_searching_in_one_thread_answers_another():
    # The review's reproduction: one thread searches, the main thread asks for the last info.
    report = run_scenario(
        """
        agent = fanorona.Agent("minimax:depth=5")
        start = fanorona.Position()
        run_threads({
            "act": lambda: [lambda: agent.act(start)] * 3,
            "read": lambda: [agent.last_info, lambda: agent.name, lambda: repr(agent)] * 200,
            "reset": lambda: [agent.reset, lambda: agent.act(start)] * 2,
        })
        """
    )
    assert report["calls"] == {"act": 3, "read": 600, "reset": 4}


def test_two_threads_stepping_one_vec_env():
    report = run_scenario(
        """
        envs = fanorona.VecEnv(64, board="5x5", seed=1)

        def chosen():
            # Actions picked from the mask another thread may change: illegal by then is
            # the documented ValueError, and nothing changes.
            envs.step(envs.mask.argmax(axis=1))

        run_threads({
            "random": lambda: [envs.step_random] * 300,
            "random2": lambda: [envs.step_random, envs.reset] * 100,
            "chosen": lambda: [chosen] * 300,
            "read": lambda: [lambda: envs.obs.sum(), lambda: envs.legal_actions(3),
                             lambda: envs.position(5), lambda: envs.players] * 100,
        }, allowed=ValueError)
        """
    )
    assert report["calls"] == {"random": 300, "random2": 200, "chosen": 300, "read": 400}


def test_positions_and_two_player_envs_shared_by_threads():
    report = run_scenario(
        """
        position = fanorona.Position()
        env = fanorona.Env(board="5x5")

        def play_and_undo():
            position.play_step(position.legal_actions()[0])
            position.undo()

        def env_step():
            if env.is_done:
                env.reset()
            else:
                env.step(env.legal_actions()[0])

        run_threads({
            "perft": lambda: [lambda: position.perft(3)] * 20,
            "play": lambda: [play_and_undo] * 500,
            "env1": lambda: [env_step] * 500,
            "env2": lambda: [env_step, env.observation, env.action_mask] * 200,
        }, allowed=ValueError)
        """
    )
    assert report["calls"]["perft"] == 20


def test_single_agent_envs_and_agents_reading_them():
    report = run_scenario(
        """
        env = fanorona.SingleAgentEnv(opponent="minimax:depth=2", board="5x5", turn_limit=40)
        reader = fanorona.Agent("greedy")

        def episode():
            obs, mask = env.reset(seed=3)
            while True:
                obs, mask, reward, terminated, truncated = env.step(int(np.flatnonzero(mask)[0]))
                if terminated or truncated:
                    return

        run_threads({
            "play": lambda: [episode] * 5,
            "read": lambda: [lambda: env.position, lambda: env.opponent,
                             lambda: reader.act(env)] * 200,
        }, allowed=ValueError)
        """
    )
    assert report["calls"]["play"] == 5


def test_policies_called_from_threads(exported_policy: Path):
    report = run_scenario(
        """
        policy = fanorona.Policy.load(sys.argv[1])
        obs = np.stack([fanorona.Position(board="5x3").observation()] * 32)
        expected = policy(obs)[0]

        def check():
            assert np.array_equal(policy(obs)[0], expected)

        run_threads({
            "a": lambda: [check] * 100,
            "b": lambda: [check, lambda: policy.game, lambda: policy.num_actions] * 50,
        })
        """,
        str(exported_policy),
    )
    assert report["calls"] == {"a": 100, "b": 150}


def test_training_roles_shared_by_threads(tmp_path: Path):
    report = run_scenario(
        """
        config = fanorona.run_config(preset="tiny")
        learner = fanorona.Learner(sys.argv[1], config)
        worker = fanorona.SelfPlayWorker(config, "w1")
        version, model = learner.model()
        worker.set_model(model, version)
        shards = []

        def play():
            shards.append(worker.play_shard(len(shards)))
            learner.ingest(shards[-1])
            learner.train()

        run_threads({
            "play": lambda: [play] * 3,
            "read": lambda: [lambda: worker.model_version, lambda: learner.model_version,
                             lambda: learner.step, lambda: learner.steps_to_next_version,
                             learner.model] * 100,
        })
        """,
        str(tmp_path / "run"),
    )
    assert report["calls"] == {"play": 3, "read": 500}


def test_vector_envs_shared_by_threads():
    report = run_scenario(
        """
        envs = fanorona.SingleAgentVecEnv(16, opponent="greedy", board="5x5")
        masks = envs.reset(seed=0)[1]  # a view: it shows every step's masks

        def step():
            # Actions from masks another thread may change before they are played: an
            # illegal one loses its game (illegal_action="lose"); nothing raises.
            envs.step(masks.argmax(axis=1))

        run_threads({
            "step": lambda: [step] * 200,
            "step2": lambda: [step] * 200,
            "reset": lambda: [lambda: envs.reset(seed=2), lambda: envs.num_envs] * 50,
        })
        """
    )
    assert report["calls"] == {"step": 200, "step2": 200, "reset": 100}


def test_a_game_session_answers_every_thread_while_its_agent_thinks():
    # The review's reproduction: while one thread is in agent_move(), calls from another
    # raised "Already mutably borrowed"; now they wait for the session's lock.
    report = run_scenario(
        """
        session = fanorona.GameSession(white="minimax:depth=4", black="minimax:depth=4")

        def move():
            if session.is_over:
                return
            session.agent_move()

        def undo():
            if session.can_undo:
                session.undo()

        run_threads({
            "think": lambda: [move] * 6,
            "read": lambda: [lambda: session.moves, lambda: session.position,
                             lambda: session.is_over, lambda: session.record(),
                             lambda: session.side_to_move, lambda: session.players,
                             lambda: session.human_to_move, lambda: session.current_steps,
                             lambda: session.result, lambda: session.last_info,
                             lambda: repr(session)] * 50,
            "undo": lambda: [undo, move] * 3,
        }, allowed=ValueError)
        """
    )
    assert report["calls"] == {"think": 6, "read": 550, "undo": 6}
