"""The training roles, one name each as on the Rust side (``fanorona_train::roles``):
:class:`SelfPlayWorker` (model bytes in, shard bytes out), :class:`Learner` (the learner of a
run directory: shards in, model versions out) and :func:`run_config` (a run's configuration).
:mod:`fanorona.ray` runs them as Ray actors; ``fanorona learn`` and ``fanorona selfplay`` are
the same roles on the command line.
"""

from __future__ import annotations

from ._fanorona import Learner, SelfPlayWorker, run_config

__all__ = ["Learner", "SelfPlayWorker", "run_config"]
