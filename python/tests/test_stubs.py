"""The type stubs of the extension match it: mypy's stubtest (skipped where mypy is missing;
.ci/run installs it)."""

from __future__ import annotations

import subprocess
import sys

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
