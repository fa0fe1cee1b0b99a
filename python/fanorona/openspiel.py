"""Fanorona as an OpenSpiel game, registered with ``pyspiel`` as ``python_fanorona``.

``import fanorona.openspiel`` registers the game (it needs ``open_spiel``, which has wheels
for CPython >= 3.11); then ``pyspiel.load_game("python_fanorona")`` or
``pyspiel.load_game("python_fanorona", {"board": "5x5", "rules": "mandatory"})``.

Parameters: ``board`` (any odd sizes up to 64 points; ``""``, the default, is the FEN's board,
else ``"9x5"``; a board given with a FEN must be the FEN's), ``rules`` (the rule
settings, ``""`` is the standard game), ``fen`` (a start position; ``""`` is the board's initial
position) and ``turn_limit`` (300 complete turns, :data:`fanorona.DEFAULT_TURN_LIMIT`; at the
limit the game ends as a draw, since OpenSpiel games must end; at least 1).

Players: 0 is white, 1 is black. Actions are the Rust env's action ids, one step each: a
capture chain is several actions of the same player in a row (``"stop"`` ends it early), as
in every environment of the package. Returns are +1/-1 at the end, a draw 0.

The observation tensor of player p is the package's float32 ``[18, H, W]`` observation from
p's side (``Position.observation(colour)``: mid-chain piece, visited points, last direction,
counters and rule flags) followed by one number, the turns played over ``turn_limit``; the
observer's ``dict`` has the views ``"observation"`` ``[18, H, W]`` and ``"turns"`` ``[1]``.
Equal tensors have equal legal actions. The information state is the action history
(perfect recall), as OpenSpiel's other perfect-information Python games have it.

:class:`AgentBot` makes any agent of the toolkit (``fanorona.Agent``) an OpenSpiel bot, e.g.
to play OpenSpiel's ``MCTSBot`` through ``evaluate_bots``.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._fanorona import DEFAULT_TURN_LIMIT, Agent, Position

__all__ = ["SHORT_NAME", "AgentBot", "FanoronaGame", "FanoronaState", "spiel_rules"]

SHORT_NAME = "python_fanorona"

_DEFAULT_PARAMS: Dict[str, Any] = {
    "board": "",
    "rules": "",
    "fen": "",
    "turn_limit": DEFAULT_TURN_LIMIT,
}

_COLOURS = ("white", "black")

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Fanorona",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


def _rule_items(rules: str) -> List[str]:
    return [item for item in re.split(r"[\s,]+", rules) if item]


def spiel_rules(rules: str) -> str:
    """Rule settings in OpenSpiel's parameter form: ``"vela=white,no-capture=10"`` becomes
    ``"vela:white no-capture:10"`` (a game string cannot hold ``,`` or ``=`` in a value)."""
    return " ".join(item.replace("=", ":") for item in _rule_items(rules))


def _start(params: Dict[str, Any]) -> Position:
    """The start position; a board given with a FEN must be the FEN's (as ``Position`` and the
    other interfaces require). No board (``""``) means the FEN's, or else 9x5."""
    fen = params["fen"] or None
    rules = ",".join(item.replace(":", "=") for item in _rule_items(params["rules"]))
    board = params["board"] or (None if fen else "9x5")
    return Position(fen=fen, board=board, rules=rules)


class FanoronaGame(pyspiel.Game):
    """The game ``python_fanorona``: parameters board, rules, fen and turn_limit."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        params["rules"] = spiel_rules(str(params["rules"]))
        turn_limit = int(params["turn_limit"])
        if turn_limit < 1:
            raise ValueError(f"turn_limit {turn_limit}: an OpenSpiel game needs a limit of at least 1")
        start = _start(params)  # ValueError for a bad board, rule setting or FEN
        if start.is_over:
            raise ValueError(f"the start position {start.fen!r} is a finished game")
        width, height = start.board
        params["board"] = f"{width}x{height}"  # the board played, in the game string too
        info = pyspiel.GameInfo(
            num_distinct_actions=start.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # A turn is at most one step a point (a chain never comes back) and a "stop".
            max_game_length=turn_limit * (width * height + 1),
        )
        super().__init__(_GAME_TYPE, info, params)
        self._params = params
        self.turn_limit = turn_limit
        self.observation_shape = start.observation_shape

    def __repr__(self) -> str:
        # Never pyspiel's: during __init__, before the C++ game exists, that one crashes.
        return f"FanoronaGame({getattr(self, '_params', None)!r})"

    def new_initial_state(self) -> FanoronaState:
        """The start of a game."""
        return FanoronaState(self)

    def make_py_observer(
        self, iig_obs_type: Optional[pyspiel.IIGObservationType] = None, params: Any = None
    ) -> Any:
        """The observer: ours for observations, the action history for information states."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return FanoronaObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Line:
    """The position of a state and the action ids that led to it from the start.

    OpenSpiel serializes a Python state by pickling its attributes; a line pickles as its
    game parameters and action ids, and unpickles by replaying them.
    """

    def __init__(self, params: Dict[str, Any], position: Position, actions: List[int]) -> None:
        self.params = params
        self.position = position
        self.actions = actions

    def play(self, action: int) -> None:
        self.position.play_step(action)
        self.actions.append(action)

    def __deepcopy__(self, memo: Any) -> _Line:
        return _Line(self.params, self.position.copy(), list(self.actions))

    def __getstate__(self) -> Dict[str, Any]:
        return {"params": dict(self.params), "actions": list(self.actions)}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.params = state["params"]
        self.position = _start(self.params)
        self.actions = []
        for action in state["actions"]:
            self.play(int(action))


class FanoronaState(pyspiel.State):
    """A game in progress: a :class:`fanorona.Position` and the turns played."""

    def __init__(self, game: FanoronaGame) -> None:
        super().__init__(game)
        self._line = _Line(game._params, _start(game._params), [])
        self._turn_limit = game.turn_limit
        self.turns = 0

    @property
    def _position(self) -> Position:
        return self._line.position

    @property
    def position(self) -> Position:
        """The position (a copy), e.g. for ``fanorona.Agent.act``."""
        return self._position.copy()

    @property
    def truncated(self) -> bool:
        """Whether the game ended at the turn limit (a draw) rather than by the rules."""
        return not self._position.is_over and self.turns >= self._turn_limit

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return _COLOURS.index(self._position.side_to_move)

    def _legal_actions(self, player: int) -> List[int]:
        if self.is_terminal():
            return []
        return self._position.legal_actions()

    def _apply_action(self, action: int) -> None:
        mover = self._position.side_to_move
        self._line.play(int(action))
        if self._position.is_over or self._position.side_to_move != mover:
            self.turns += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self._position.action_name(int(action))

    def is_terminal(self) -> bool:
        return self._position.is_over or self.turns >= self._turn_limit

    def returns(self) -> List[float]:
        return list(self._position.returns)

    def __str__(self) -> str:
        return str(self._position)


class FanoronaObserver:
    """OpenSpiel's PyObserver: the package's observation of a player, and the turns played."""

    def __init__(self, game: FanoronaGame, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self._shape = game.observation_shape
        size = int(np.prod(self._shape))
        self.tensor = np.zeros(size + 1, np.float32)
        self.dict = {
            "observation": self.tensor[:size].reshape(self._shape),
            "turns": self.tensor[size:],
        }

    def set_from(self, state: FanoronaState, player: int) -> None:
        self.dict["observation"][...] = state._position.observation(_COLOURS[player])
        self.dict["turns"][0] = state.turns / state._turn_limit

    def string_from(self, state: FanoronaState, player: int) -> str:
        # The FEN holds the pieces, the side to act, the chain (piece, visited points, last
        # direction) and the no-capture count; plane 13 the repetition level.
        position = state._position
        repetition = float(position.observation()[13, 0, 0])
        return f"{position.fen} | repetition {repetition:.4f} | turns {state.turns}/{state._turn_limit}"


class AgentBot(pyspiel.Bot):
    """An agent of the toolkit (``fanorona.Agent``, e.g. ``"greedy"``) as an OpenSpiel bot."""

    def __init__(self, agent: Any, seed: int = 0) -> None:
        super().__init__()
        self.agent = agent if isinstance(agent, Agent) else Agent(str(agent), seed=seed)

    def restart_at(self, state: pyspiel.State) -> None:
        self.agent.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        return self.agent.act(state.position)


pyspiel.register_game(_GAME_TYPE, FanoronaGame)
