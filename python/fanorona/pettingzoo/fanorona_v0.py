"""Fanorona as a PettingZoo ``AECEnv``, version 0.

``fanorona_v0.env(board="9x5", rules="", fen=None, turn_limit=300, random_opening=0,
render_mode=None)`` returns the environment wrapped in PettingZoo's usual checks. Agents are
``"white"`` and ``"black"``; ``observe(agent)`` is ``{"observation": float32 [18, H, W],
"action_mask": int8 [A]}`` from ``agent``'s own side (its pieces on plane 0, the board turned
180 degrees for black), with the action ids of the Rust env; the mask is all zero for the
agent not to act and once the game is over. Through a capture chain the same agent acts again
(``agent_selection`` does not change), rewards come at the end (+1/-1, a draw 0), a side
without a legal move at the start of its turn has lost, and ``turn_limit`` complete turns
truncate the episode (None: no limit). A start position that is already a finished game is
refused with ValueError.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._fanorona import DEFAULT_TURN_LIMIT, Env, Position

AGENTS = ("white", "black")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order and bounds checks (see :class:`raw_env`)."""
    environment = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):
    """Fanorona for PettingZoo, stepping the Rust environment one action at a time."""

    metadata = {
        "name": "fanorona_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        board: str = "9x5",
        rules: str = "",
        fen: Optional[str] = None,
        turn_limit: Optional[int] = DEFAULT_TURN_LIMIT,
        random_opening: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.render_mode = render_mode
        self._game = Env(
            board=None if fen else board,
            rules=rules,
            fen=fen,
            turn_limit=turn_limit,
            random_opening=random_opening,
        )
        self._seed = 0
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        planes, height, width = self._game.observation_shape
        num_actions = self._game.num_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (planes, height, width), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in AGENTS}
        self._no_actions = np.zeros(num_actions, dtype=np.int8)
        self._clear()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def position(self) -> Position:
        """The current position (a copy)."""
        return self._game.position

    def _clear(self) -> None:
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._seed = seed
        else:
            self._seed += 1
        self._game.reset(self._seed % 2**64)
        self.agents = list(AGENTS)
        self._clear()
        self.agent_selection = self._game.current_player

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """The observation from ``agent``'s side; the mask is all zero unless it is to act."""
        if agent not in AGENTS:
            raise ValueError(f"agent {agent!r}: expected 'white' or 'black'")
        to_act = agent == self._game.current_player
        return {
            "observation": self._game.observation(agent),
            "action_mask": self._game.action_mask() if to_act else self._no_actions.copy(),
        }

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: expected an action id, got None")
        self._cumulative_rewards[agent] = 0.0
        (white, black), terminated, truncated, _ = self._game.step(action)
        self.rewards = {"white": white, "black": black}
        if terminated or truncated:
            for a in AGENTS:
                self.terminations[a] = terminated
                self.truncations[a] = truncated
        else:
            self.agent_selection = self._game.current_player
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return str(self._game.position)

    def close(self) -> None:
        pass
