"""Tournaments on a backend: each batch of matches a `Tournament` plays is cut
into chunks of matches, each chunk one native `play_matches` call on a
worker, merged in order, so the tournament is the one `Tournament.run()` plays."""

from __future__ import annotations

import functools
from typing import Callable, Optional, Sequence, TypeVar

from guandan_fast.distributed.backends import Backend, make_backend
from guandan_fast.distributed.chunks import check_chunk
from guandan_fast.distributed.runs import run_chunks
from guandan_fast.tournament import MatchResult, MatchSpec, Tournament, TournamentResult, play_match, play_matches

__all__ = ["MatchBatches", "tournament"]

T = TypeVar("T")
R = TypeVar("R")


class MatchBatches:
    """A `Tournament.run` backend: ``map(play_match, specs)`` as chunks of
    `chunk` matches (None: measured) on `backend`, each chunk one
    `play_matches` call; any other function item by item on `backend`."""

    def __init__(self, backend: Backend, chunk: Optional[int] = None) -> None:
        self.backend = backend
        self.chunk = check_chunk(chunk)

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``[func(x) for x in items]``, in order."""
        items = list(items)
        if func is not play_match:
            return self.backend.map(func, items)
        specs: list[MatchSpec] = items  # type: ignore[assignment]
        work = functools.partial(play_matches, threads=self.backend.threads)
        parts: list[list[MatchResult]] = run_chunks(
            self.backend, len(specs), work, chunk=self.chunk, item=lambda s: specs[s.start : s.start + s.size]
        )
        return [r for part in parts for r in part]  # type: ignore[misc]


def tournament(
    t: Tournament,
    *,
    backend: object = "local",
    address: Optional[str] = None,
    chunk: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> TournamentResult:
    """``t.run(progress=progress)`` with its matches played in chunks on
    `backend` (``"local"``, ``"ray"`` at `address`, or a backend object): the
    same result. `chunk`: matches per chunk (None: measured)."""
    be = make_backend(backend, threads=t.threads, address=address)
    batches = MatchBatches(be, chunk)
    with be:
        result: TournamentResult = t.run(backend=batches, progress=progress)
    return result

