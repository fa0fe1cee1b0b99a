"""The type stubs of the extension match it (mypy's stubtest) and the package's Python passes
its linter and its formatter (ruff, with python/pyproject.toml's settings); each skipped where its tool is
missing (.ci/run installs both)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def test_stubtest_finds_no_difference(tmp_path):
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "fanorona._fanorona"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # the installed package, never the source folder
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff_finds_nothing_to_fix(command):
    pytest.importorskip("ruff")
    package = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, str(package)],
        capture_output=True,
        text=True,
        cwd=package,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
