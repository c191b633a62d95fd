"""Simulation, pits, evaluation, trajectory collection and tournaments beyond
one machine: the same calls as the package's, with ``backend="local"`` (the
default) or ``backend="ray"`` (a Ray cluster, ``address=``), giving identical
results. Ray is an optional extra (``pip install 'guandan_fast[ray]'``),
imported only when a Ray backend connects. See docs/distributed.md."""

from guandan_fast.distributed.backends import Backend, ClusterError, LocalBackend, RayBackend, make_backend
from guandan_fast.distributed.chunks import TARGET_SECONDS, Span
from guandan_fast.distributed.runs import collect, evaluate, pit, simulate
from guandan_fast.distributed.tournaments import MatchBatches, tournament

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
