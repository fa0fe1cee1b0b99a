"""Shared fixtures: the CLI binary, docs/rules.md's reference positions, an exported policy."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def fanorona_bin() -> Path:
    """The `fanorona` command-line binary (FANORONA_BIN, else target/release/fanorona)."""
    path = Path(os.environ.get("FANORONA_BIN", ROOT / "target" / "release" / "fanorona"))
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --release` (or set FANORONA_BIN)")
    return path


@pytest.fixture(scope="session")
def reference_positions() -> List[Tuple[str, str, List[str]]]:
    """(board, FEN, sorted legal turns) of docs/rules.md's reference file."""
    rows = []
    with open(ROOT / "env" / "tests" / "data" / "legal-turns.tsv", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            board, fen, turns = (line.rstrip("\n").split("\t") + [""])[:3]
            rows.append((board, fen, sorted(turns.split())))
    assert len(rows) > 500
    return rows


@pytest.fixture(scope="session")
def exported_policy(fanorona_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy file from one iteration of the tiny preset (5x3), exported by the CLI."""
    run = tmp_path_factory.mktemp("run")
    subprocess.run(
        [fanorona_bin, "train", "--preset", "tiny", "--iterations", "1", "--out", run / "r", "--quiet"],
        check=True,
        capture_output=True,
    )
    policy = run / "policy.safetensors"
    subprocess.run(
        [fanorona_bin, "export", "--checkpoint", run / "r", "--out", policy],
        check=True,
        capture_output=True,
    )
    return policy
