"""Simulation, pits, evaluation, trajectory collection and tournaments beyond
one machine: the long calls with ``backend="local"`` (the default) or
``backend="ray"`` (a Ray cluster, ``address=``), giving identical results.
`pit` is `guandan_fast.pit` and `tournament(t)` is `t.run()`, which take the
same backends. Ray is an optional extra (``pip install 'guandan_fast[ray]'``),
imported only when a Ray backend connects. See docs/distributed.md."""

from typing import Any

from guandan_fast.distributed.backends import Backend, ClusterError, LocalBackend, RayBackend, make_backend
from guandan_fast.distributed.chunks import TARGET_SECONDS, Span
from guandan_fast.distributed.runs import MatchBatches, collect, evaluate, simulate, tournament

__all__ = [
    "TARGET_SECONDS",
    "Backend",
    "ClusterError",
    "LocalBackend",
    "MatchBatches",
    "RayBackend",
    "Span",
    "collect",
    "evaluate",
    "make_backend",
    "pit",
    "simulate",
    "tournament",
]


def __getattr__(name: str) -> Any:
    # `pit` lives in guandan_fast.arena, which is built on this package: looked up on use.
    if name == "pit":
        from guandan_fast.arena import pit

        return pit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
