"""A Python player as an engine of the toolkit's line protocol, so the arena can play it.

:func:`serve` answers the protocol (docs/protocol.md) on stdin/stdout with any function
``choose(position) -> action id`` that picks one step (a trained policy, a script); it plays
steps until the turn ends and answers ``bestmove`` with the complete turn. The arena plays such
a program as ``engine:cmd=PATH,args=...``, e.g. from Python::

    fanorona.match(f"engine:cmd={sys.executable},args=my_engine.py", "random", board="5x5")

``python -m fanorona.engine --agent SPEC`` serves an agent of the toolkit this way (a check of
the protocol, and an example).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Iterable, List, Optional, TextIO

from ._fanorona import Agent, Position

__all__ = ["Engine", "serve"]

Chooser = Callable[[Position], int]


class Engine:
    """The protocol's state: board, rules and the game shown by ``position``."""

    def __init__(self, choose: Chooser, name: str = "python") -> None:
        self.choose = choose
        self.name = name
        self.board = "9x5"
        self.rules = ""
        self.position = Position(board=self.board)

    def handle(self, line: str) -> List[str]:
        """The answer lines to one command line (an error is an ``info string`` line)."""
        words = line.split()
        if not words:
            return []
        command = words[0]
        try:
            if command == "uci":
                return [
                    f"id name {self.name}",
                    "option name Board type string default 9x5",
                    "option name Rules type string default",
                    "uciok",
                ]
            if command == "isready":
                return ["readyok"]
            if command in ("ucinewgame", "stop"):
                return []  # a search here has always answered before the next line is read
            if command == "setoption":
                self._set_option(words)
                return []
            if command == "position":
                self._set_position(words)
                return []
            if command == "go":
                return [f"bestmove {self._best_turn()}"]
            if command == "d":
                return [str(self.position), f"fen {self.position.fen}"]
            if command == "moves":
                return [" ".join(self.position.legal_turns())]
            return [f"info string error: unknown command {command!r}"]
        except ValueError as error:
            answer = [f"info string error: {error}"]
            if command == "go":
                answer.append("bestmove (error)")
            return answer

    def _set_option(self, words: List[str]) -> None:
        # setoption name NAME value VALUE
        if len(words) < 3 or words[1] != "name":
            raise ValueError("expected setoption name NAME value VALUE")
        name = words[2]
        value = " ".join(words[4:]) if len(words) > 4 and words[3] == "value" else ""
        if name == "Board":
            Position(board=value, rules=self.rules)  # ValueError for a bad board
            self.board = value
        elif name == "Rules":
            Position(board=self.board, rules=value)
            self.rules = value
        elif name != "Seed":
            raise ValueError(f"unknown option {name!r}")

    def _set_position(self, words: List[str]) -> None:
        # position startpos|fen F [moves T...]
        moves_at = words.index("moves") if "moves" in words else len(words)
        if len(words) > 1 and words[1] == "startpos":
            position = Position(board=self.board, rules=self.rules)
        elif len(words) > 2 and words[1] == "fen":
            position = Position(fen=" ".join(words[2:moves_at]), rules=self.rules)
        else:
            raise ValueError("expected position startpos|fen FEN [moves TURN...]")
        for turn in words[moves_at + 1 :]:
            position.play_turn(turn)
        self.position = position

    def _best_turn(self) -> str:
        start = self.position
        if start.is_over:
            return "(none)"
        after = start.copy()
        mover = after.side_to_move
        while not after.is_over and after.side_to_move == mover:
            action = int(self.choose(after.copy()))
            after.play_step(action)  # ValueError for an illegal step
        # The legal turn with the same result (each distinct result is listed once).
        for turn in start.legal_turns():
            candidate = start.copy()
            candidate.play_turn(turn)
            if candidate.fen == after.fen:
                return turn
        raise ValueError(f"no legal turn leads to {after.fen}")


def serve(
    choose: Chooser,
    name: str = "python",
    lines: Optional[Iterable[str]] = None,
    out: Optional[TextIO] = None,
) -> None:
    """Answers the protocol's commands from ``lines`` (stdin) on ``out`` (stdout) until
    ``quit`` or the end of input."""
    engine = Engine(choose, name)
    out = out or sys.stdout
    for line in lines if lines is not None else sys.stdin:
        if line.strip() == "quit":
            break
        for answer in engine.handle(line):
            out.write(answer + "\n")
        out.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m fanorona.engine`` (the docs test parses every documented
    command with it)."""
    parser = argparse.ArgumentParser(prog="python -m fanorona.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="random", help="an agent specification (default random)")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: Optional[List[str]] = None) -> None:
    args = build_parser().parse_args(argv)
    agent = Agent(args.agent, seed=args.seed)
    serve(agent.act, name=f"python {agent.name}")


if __name__ == "__main__":
    main()
