"""``fanorona/Fanorona-v0`` as a Gymnasium ``VectorEnv``:
``gymnasium.make_vec("fanorona/Fanorona-v0", num_envs=N, opponent="random", ...)``.

N games of the agent against an opponent (the arguments of :class:`fanorona.gymnasium.FanoronaEnv`)
stepped together in Rust with the GIL released. Actions are an integer array [N]; ``step``
returns observations float32 [N, 18, H, W], rewards float32 [N], terminations and truncations
bool [N], and infos ``{"action_mask": int8 [N, A]}`` (also ``action_masks()``). Autoreset is
Gymnasium's next-step mode: the step after an episode ends starts that game again (its action
ignored, reward 0). The arrays are read-only views of Rust buffers that the next call
overwrites: copy what you keep. An illegal action ends its episode as a loss (reward -1) with
``illegal_action="lose"`` (the default) or raises ValueError and changes nothing with
``"raise"``.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._fanorona import DEFAULT_TURN_LIMIT, SingleAgentVecEnv


class FanoronaVectorEnv(VectorEnv):
    """N agent-against-opponent games stepped together in Rust."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
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
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: the vector env does not render")
        self._games = SingleAgentVecEnv(
            num_envs,
            opponent=opponent,
            side=side,
            learner=learner,
            board=None if fen else board,
            rules=rules,
            fen=fen,
            turn_limit=turn_limit,
            random_opening=random_opening,
            illegal_action=illegal_action,
        )
        self.num_envs = self._games.num_envs
        self.render_mode = None
        planes, height, width = self._games.observation_shape
        self.single_observation_space = spaces.Box(0.0, 1.0, (planes, height, width), np.float32)
        self.single_action_space = spaces.Discrete(self._games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: Optional[np.ndarray] = None

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        observations, self._mask, _, _, _ = self._games.reset(episode_seed % 2**64)
        return observations, {"action_mask": self._mask}

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        observations, self._mask, rewards, terminations, truncations = self._games.step(np.asarray(actions))
        return observations, rewards, terminations, truncations, {"action_mask": self._mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game now, int8 [N, A] (a copy)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.copy()
