"""Fanorona as a single-agent Gymnasium environment, registered as ``fanorona/Fanorona-v0``.

``gymnasium.make("fanorona/Fanorona-v0", opponent="minimax:depth=2", side="white",
board="9x5", rules="")``: the agent plays one colour, its side,, the opponent (any agent specification
of the toolkit) the other, its moves made inside ``reset`` and ``step``. Observations are
float32 ``[18, H, W]`` from the agent's view; actions are the Rust env's ids; the legal
actions are ``info["action_mask"]`` and ``action_masks()`` (int8; the method is what
sb3-contrib's ``MaskablePPO`` calls). The reward is +1/-1 at the end (a draw 0);
``turn_limit`` complete turns (300 by default, :data:`fanorona.DEFAULT_TURN_LIMIT`; None: no
limit) truncate the episode. A capture chain is several steps of the
agent in a row. An episode is determined by its seed and the agent's actions (the
opponent's random choices are seeded by ``reset``).

An illegal action ends the episode as a loss (reward -1, ``terminated``,
``info["illegal_action"]``) with ``illegal_action="lose"`` (the default, as Gymnasium's checker
and unmasked algorithms need), or raises ValueError and changes nothing with
``illegal_action="raise"``. A start position that is already a finished game is refused
with ValueError. ``learner`` is the former name of ``side``, still accepted.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from ._fanorona import DEFAULT_TURN_LIMIT, Position, SingleAgentEnv


class FanoronaEnv(gymnasium.Env):
    """The agent's side of a game against an opponent, stepping in Rust."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponent: str = "random",
        side: str = "white",
        board: str = "9x5",
        rules: str = "",
        fen: Optional[str] = None,
        turn_limit: Optional[int] = DEFAULT_TURN_LIMIT,
        random_opening: int = 0,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
        learner: Optional[str] = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r}: expected 'lose' or 'raise'")
        self.render_mode = render_mode
        self._illegal_action = illegal_action
        self._game = SingleAgentEnv(
            opponent=opponent,
            side=side,
            learner=learner,
            board=None if fen else board,
            rules=rules,
            fen=fen,
            turn_limit=turn_limit,
            random_opening=random_opening,
        )
        planes, height, width = self._game.observation_shape
        self.observation_space = spaces.Box(0.0, 1.0, (planes, height, width), np.float32)
        self.action_space = spaces.Discrete(self._game.num_actions)
        self._episode_seed = 0
        self._observation: Optional[np.ndarray] = None
        self._mask: Optional[np.ndarray] = None
        self._over = True

    @property
    def position(self) -> Position:
        """The current position (a copy)."""
        return self._game.position

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._episode_seed = seed
        else:
            self._episode_seed = int(self.np_random.integers(2**63))
        observation, mask = self._game.reset(self._episode_seed % 2**64)
        self._observation, self._mask, self._over = observation, mask, False
        return observation, {"action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, int8 [num_actions] (all zero once the episode is over)."""
        if self._over or self._mask is None:
            return np.zeros(self.action_space.n, dtype=np.int8)
        return self._mask.copy()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over (or not started): call reset()")
        action = operator.index(action)  # any integer, never a float rounded
        legal = 0 <= action < self._game.num_actions and self._mask[action]
        if not legal and self._illegal_action == "lose":
            self._over = True
            info = {"action_mask": np.zeros_like(self._mask), "illegal_action": True}
            return self._observation.copy(), -1.0, True, False, info
        observation, mask, reward, terminated, truncated = self._game.step(action)
        self._observation, self._mask = observation, mask
        self._over = terminated or truncated
        return observation, float(reward), terminated, truncated, {"action_mask": mask}

    def render(self) -> Optional[str]:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return str(self._game.position)
