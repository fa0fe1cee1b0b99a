"""Fanorona for PettingZoo, by version as PettingZoo's own environments are:
``from fanorona.pettingzoo import fanorona_v0``, then ``fanorona_v0.env()`` (see
:mod:`fanorona.pettingzoo.fanorona_v0`). ``env`` and ``raw_env`` here are the newest version's.
"""

from __future__ import annotations

from . import fanorona_v0
from .fanorona_v0 import env, raw_env

__all__ = ["env", "fanorona_v0", "raw_env"]
