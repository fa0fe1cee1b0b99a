"""Fanorona for reinforcement learning, with a Rust core.

- :class:`Position`: a game with its history: legal steps and turns, play, undo, perft, FEN.
- :mod:`fanorona.pettingzoo`: ``from fanorona.pettingzoo import fanorona_v0``, then
  ``fanorona_v0.env()``, a PettingZoo ``AECEnv``.
- :mod:`fanorona.gymnasium`: the single-agent Gymnasium env ``fanorona/Fanorona-v0``, and
  :mod:`fanorona.vector` its ``VectorEnv``: ``gymnasium.make_vec("fanorona/Fanorona-v0",
  num_envs=N)``.
- :class:`VecEnv`: N games stepped together in Rust, zero-copy numpy views.
- :mod:`fanorona.openspiel`: ``import fanorona.openspiel`` registers the OpenSpiel game
  ``python_fanorona`` (needs ``open_spiel``).
- :mod:`fanorona.engine`: any Python step chooser served over the engine protocol, so the
  arena (:func:`match`, ``engine:cmd=...``) plays it.

Every legal-action mask is int8 (1 legal, 0 not), as PettingZoo and Gymnasium use; every
environment truncates episodes after :data:`DEFAULT_TURN_LIMIT` (300) complete turns unless
given another ``turn_limit`` (None: no limit). Every object may be shared by threads: calls
on one object run one at a time, and a thread waiting for one holds no GIL.
- :class:`Agent`: any agent of the toolkit (random, greedy, minimax, solver, mcts, net, engine).
- :class:`GameSession`: a game between people and agents with undo and a record, as
  ``fanorona play`` and ``fanorona serve`` hold it.
- :class:`Policy`: an exported policy file run on batches of observations.
- :class:`EndgameTables`: exact values of positions with few pieces (``fanorona tables
  build``): ``EndgameTables(dir).probe(position)``.
- :func:`prove`: the exact value of a position by the prover (``fanorona prove``), with the
  turns that keep it: ``prove(fen, tables=DIR, nodes=N, turns=True)``.
- :func:`match`: an arena match between two agents.
- :mod:`fanorona.training`: :class:`SelfPlayWorker`, :class:`Learner`, :func:`run_config`,
  the training roles, which :mod:`fanorona.ray` runs as Ray actors (``python -m fanorona.ray
  train``); they stay importable from here too.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ._fanorona import (
    DEFAULT_TURN_LIMIT,
    Agent,
    EndgameTables,
    Env,
    GameSession,
    Learner,
    Policy,
    Position,
    SelfPlayWorker,
    SingleAgentEnv,
    SingleAgentVecEnv,
    VecEnv,
    __version__,
    agent_kinds,
    match_summary,
    prove,
    run_config,
)

__all__ = [
    "DEFAULT_TURN_LIMIT",
    "Agent",
    "EndgameTables",
    "Env",
    "GameSession",
    "Learner",
    "Policy",
    "Position",
    "SelfPlayWorker",
    "SingleAgentEnv",
    "SingleAgentVecEnv",
    "VecEnv",
    "__version__",
    "agent_kinds",
    "match",
    "prove",
    "run_config",
]


def match(
    white: str,
    black: str,
    games: int = 100,
    threads: int = 2,
    board: Optional[str] = None,
    rules: str = "",
    fen: Optional[str] = None,
    openings: int = 4,
    max_turns: int = 300,
    seed: int = 1,
) -> Dict[str, Any]:
    """Plays a match between two agent specifications and returns the arena's summary.

    Colours alternate and each pair of games starts from the same opening of ``openings``
    random turns. The summary holds ``first``/``second`` (the agents' names), ``games``,
    ``wins``/``draws``/``losses`` and ``score`` from the first agent's side, ``elo`` with
    ``elo_low``/``elo_high`` (95%), ``los``, results by colour, draw reasons, forfeits, mean
    turns and seconds. Bad specifications raise ValueError before any game is played.
    """
    return match_summary(
        white,
        black,
        games=games,
        threads=threads,
        board=board,
        rules=rules,
        fen=fen,
        openings=openings,
        max_turns=max_turns,
        seed=seed,
    )


def _register_gymnasium() -> None:
    """Registers ``fanorona/Fanorona-v0`` with Gymnasium when it is installed."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    if "fanorona/Fanorona-v0" not in gymnasium.registry:
        gymnasium.register(
            id="fanorona/Fanorona-v0",
            entry_point="fanorona.gymnasium:FanoronaEnv",
            vector_entry_point="fanorona.vector:FanoronaVectorEnv",
        )


_register_gymnasium()
