"""The documentation's Python cannot go stale silently: every ``python -m fanorona...`` command
in README.md, models/README.md, python/README.md, deploy/**/*.md and docs/**/*.md (shell code
blocks and inline code alike) parses with its module's own argparse parser, README's
"Python in ten lines" block runs and prints what its comments say, every ``python`` block of
README.md and docs/python.md runs from the repository's root (skipped only where a module it
imports is not installed), and .ci/run installs the test tools of pyproject's ``[test]`` extra.

The Rust side is tests/docs.rs, which checks every ``fanorona ...`` command the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import shlex
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

SHELL_INFOS = {"", "sh", "bash", "shell", "console"}
"""Info strings of the fenced code blocks that hold shell commands."""

COMMAND = re.compile(r"^(?:python3?|\S*/python3?) -m (fanorona(?:\.\w+)*)(?:\s|$)")
"""A ``python -m fanorona...`` command and its module."""

SHELL_ENDS = {"|", "||", "&", "&&", ";", ">", ">>", "2>&1", "<"}
"""Words that end a command (a pipe, a list, a redirection)."""


def parsers() -> Dict[str, Callable[[], argparse.ArgumentParser]]:
    """Every module the docs may run with ``python -m``, with its parser."""
    from fanorona import engine
    from fanorona.ray import __main__ as ray_main

    return {"fanorona.engine": engine.build_parser, "fanorona.ray": ray_main.build_parser}


def documents() -> List[Path]:
    """The markdown files the test reads."""
    files = [ROOT / "README.md", ROOT / "models" / "README.md", ROOT / "python" / "README.md"]
    files += sorted((ROOT / "deploy").rglob("*.md"))
    files += sorted((ROOT / "docs").rglob("*.md"))
    return files


def commands_in(markdown: str) -> List[Tuple[int, str]]:
    """(line, text) of every ``python -m fanorona...`` command in ``markdown``: the lines of its
    shell code blocks (continued lines joined; in a block with ``$ `` prompts only the prompted
    lines) and its inline code spans outside blocks."""
    found: List[Tuple[int, str]] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("```"):
            info = stripped[3:].strip()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith("```"):
                end += 1
            if info in SHELL_INFOS:
                block = lines[i + 1 : end]
                prompted = any(line.lstrip().startswith("$ ") for line in block)
                joined, start = "", 0
                for number, line in enumerate(block, start=i + 2):
                    text = line.strip()
                    if not joined:
                        start = number
                    if text.endswith("\\"):
                        joined += text[:-1] + " "
                        continue
                    text, joined = joined + text, ""
                    if prompted:
                        if not text.startswith("$ "):
                            continue
                        text = text[2:]
                    if COMMAND.match(text):
                        found.append((start, text))
            i = end + 1
            continue
        for span in re.findall(r"`([^`]+)`", lines[i]):
            if COMMAND.match(span.strip()):
                found.append((i + 1, span.strip()))
        i += 1
    return found


def parse_error(command: str, known: Dict[str, Callable[[], argparse.ArgumentParser]]) -> str:
    """Why ``command`` does not parse with its module's parser, or "" when it does."""
    module = COMMAND.match(command).group(1)
    if module not in known:
        return f"no parser known for module {module} (add it to parsers() in python/tests/test_docs.py)"
    words = shlex.split(command, comments=True)[3:]
    args = []
    for word in words:
        if word in SHELL_ENDS:
            break
        args.append(word)
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            known[module]().parse_args(args)
    except SystemExit as exit:
        if exit.code not in (0, None):
            return errors.getvalue().strip() or f"exit status {exit.code}"
    return ""


def test_every_documented_python_command_parses() -> None:
    known = parsers()
    failures, checked = [], 0
    for path in documents():
        for line, command in commands_in(path.read_text(encoding="utf-8")):
            checked += 1
            error = parse_error(command, known)
            if error:
                failures.append(f"{path.relative_to(ROOT)}:{line}: {command}\n{error}")
    assert checked >= 5, f"only {checked} commands found: is the search broken?"
    assert not failures, "\n".join(failures)


def test_the_checker_finds_commands_and_refuses_bad_ones() -> None:
    sample = "\n".join(
        [
            "Inline: `python -m fanorona.ray train --preset tiny --run r` and `python -m fanorona.ray`.",
            "```sh",
            "python -m fanorona.ray train --config run.toml \\",
            "    --run /shared/run --actors 32 --address auto   # a cluster",
            "python3 -m fanorona.engine --agent minimax:depth=2 | head -1",
            "python -m fanorona.ray train --preset tiny --run r --actors two",
            "python -m fanorona.nothing --x",
            "pip install ./python",
            "```",
            "```python",
            "python -m fanorona.ray is not shell here",
            "```",
            "```",
            "$ python -m fanorona.engine --seed 3",
            "python -m fanorona.engine output, not a command",
            "```",
        ]
    )
    commands = commands_in(sample)
    assert [line for line, _ in commands] == [1, 1, 3, 5, 6, 7, 14]
    verdicts = [parse_error(command, parsers()) == "" for _, command in commands]
    assert verdicts == [True, False, True, True, False, False, True]
    assert "required" in parse_error(commands[1][1], parsers())
    assert "invalid int value" in parse_error(commands[4][1], parsers())
    assert "no parser known" in parse_error(commands[5][1], parsers())


def readme_python_example() -> str:
    """README's "Python in ten lines" code block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("**Python in ten lines**", 1)[1]
    return after.split("```python\n", 1)[1].split("\n```", 1)[0]


def test_the_readme_python_example_runs_as_its_comments_say() -> None:
    pytest.importorskip("pettingzoo")
    code = readme_python_example()
    printed = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md (Python in ten lines)", "exec"), namespace)
    output = printed.getvalue().splitlines()

    # print(pos.legal_turns())  # ['d2e3A', ...]: the first line printed is the comment's list.
    turns_comment = re.search(r"print\(pos\.legal_turns\(\)\)\s+#\s*(\[.*\])", code).group(1)
    assert output[0] == turns_comment

    # obs, mask = envs.reset(seed=1)  # float32 [256,18,5,9], int8 [256,1081]
    comment = re.search(r"envs\.reset\(seed=1\)\s+#\s*(\w+) \[([\d,]+)\], (\w+) \[([\d,]+)\]", code)
    obs_dtype, obs_shape, mask_dtype, mask_shape = comment.groups()
    obs, mask = namespace["envs"].reset(seed=1)
    assert obs.dtype == np.dtype(obs_dtype)
    assert obs.shape == tuple(int(n) for n in obs_shape.split(","))
    assert mask.dtype == np.dtype(mask_dtype)
    assert mask.shape == tuple(int(n) for n in mask_shape.split(","))

    # The last line prints a match's score, a number between 0 and 1.
    assert 0.0 <= float(output[-1]) <= 1.0


PYTHON_PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]
"""The pages whose ``python`` code blocks must run."""


def python_blocks(markdown: str) -> List[Tuple[int, str]]:
    """(first line, code) of every fenced code block of ``markdown`` marked ``python``."""
    blocks: List[Tuple[int, str]] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith("```"):
            info = lines[i].strip()[3:].strip()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith("```"):
                end += 1
            if info == "python":
                blocks.append((i + 2, "\n".join(lines[i + 1 : end]) + "\n"))
            i = end + 1
            continue
        i += 1
    return blocks


def missing_modules(code: str) -> List[str]:
    """The top-level modules that ``code`` imports and that are not installed."""
    names = re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", code, flags=re.MULTILINE)
    return sorted({name for name in names if importlib.util.find_spec(name) is None})


DOC_BLOCKS = [
    (path, line, code)
    for path in PYTHON_PAGES
    for line, code in python_blocks(path.read_text(encoding="utf-8"))
]


def test_the_pages_have_python_blocks() -> None:
    pages = {path for path, _, _ in DOC_BLOCKS}
    assert pages == set(PYTHON_PAGES), "a page lost its python blocks: is the search broken?"
    assert len(DOC_BLOCKS) >= 5


@pytest.mark.parametrize(
    "path,line,code",
    DOC_BLOCKS,
    ids=[f"{path.relative_to(ROOT)}:{line}" for path, line, _ in DOC_BLOCKS],
)
def test_every_python_block_runs(path: Path, line: int, code: str) -> None:
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    here = os.getcwd()
    os.chdir(ROOT)  # the pages' paths (models/...) are relative to the repository's root
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, f"{path.relative_to(ROOT)}:{line}", "exec"), {"__name__": "__doc_block__"})
    finally:
        os.chdir(here)


def test_the_block_search_finds_python_and_missing_modules() -> None:
    sample = (
        "text\n```python\nimport os\nx = 1\n```\n```sh\npython -c 1\n```\n"
        "```python\nfrom no_such_module_x import y\n```\n"
    )
    blocks = python_blocks(sample)
    assert blocks == [(3, "import os\nx = 1\n"), (10, "from no_such_module_x import y\n")]
    assert missing_modules(blocks[0][1]) == []
    assert missing_modules(blocks[1][1]) == ["no_such_module_x"]


def requirements(text: str) -> List[str]:
    """The quoted requirement strings (``"name>=x"``) of ``text``, markers left out."""
    return [r.split(";")[0].strip() for r in re.findall(r'"([A-Za-z_][\w.-]*(?:[<>=!~]=?[^"]*)?)"', text)]


def test_ci_installs_the_test_extra_of_pyproject() -> None:
    pyproject = (ROOT / "python" / "pyproject.toml").read_text(encoding="utf-8")
    extra = pyproject.split("\ntest = [", 1)[1].split("]", 1)[0]
    wanted = requirements(extra)
    ci = requirements((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert len(wanted) >= 5, wanted
    missing = [r for r in wanted if r not in ci]
    assert not missing, f".ci/run does not install {missing} as pyproject's [test] extra asks"
