"""The long calls, on a backend (``"local"`` by default, or Ray): `simulate`
and `collect` (they are `gf.simulate` and `gf.collect`), `evaluate` over many
positions, and `tournament` (`Tournament.run`); `gf.pit` and
`Tournament.run` are built on the same `run_chunks`. Each gives exactly what
one call of the engine with the same arguments gives."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, TypeVar

import numpy as np

from guandan_fast._core import Game, InvalidArgumentError, Observation, Rules, _check_args, _check_policy
from guandan_fast.distributed.backends import Backend, make_backend
from guandan_fast.distributed.chunks import (
    Span,
    check_chunk,
    check_count,
    collect_chunk,
    concat,
    evaluate_chunk,
    position_state,
    run_chunks,
    simulate_chunk,
)

if TYPE_CHECKING:
    from guandan_fast.tournament import MatchResult, Tournament, TournamentResult

__all__ = ["MatchBatches", "collect", "evaluate", "simulate", "tournament"]

T = TypeVar("T")
R = TypeVar("R")
Progress = Optional[Callable[[int], None]]


def simulate(
    n: int,
    *,
    seed: int = 0,
    start: int = 0,
    threads: int = 0,
    rules: Rules | None = None,
    unit: Literal["deal", "game"] = "deal",
    policy: str | Sequence[str] | None = None,
    mode: Literal["cards", "pattern"] = "pattern",
    backend: object = "local",
    address: str | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> dict[str, np.ndarray]:
    """Plays `n` deals (or games) with built-in policies natively: item `i` is
    item `start + i` of the stream seeded by `seed` (the engine's
    `_core.simulate`, split into `threads` parts on the shared pool), on
    `backend` (``"local"``, ``"ray"`` at `address`, or a backend object):
    the same arrays whatever the backend, the chunk size or the number of
    workers. `chunk`: deals (or games) per chunk (None: one call locally,
    measured chunks of ~0.25 s with `progress` or on a cluster);
    `progress(k)` as each chunk of `k` completes."""
    check_count("n", n)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(seed=seed, threads=be.threads, rules=rules, unit=unit, policy=policy, mode=mode)
    return _episodes(be, n, functools.partial(simulate_chunk, config=config), start, chunk, progress)


def collect(
    n: int,
    *,
    seed: int = 0,
    start: int = 0,
    threads: int = 0,
    backend: object = "local",
    address: str | None = None,
    chunk: int | None = None,
    progress: Progress = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """The decisions of episodes ``start .. start + n`` played by built-in
    policies, one row per decision (the engine's `_core.collect`; `options`:
    its other keywords — `policy`, `rules`, `observation`, `unit`, `reward`,
    `masks` — with its defaults), collected in chunks of episodes on
    `backend` (see `simulate`): the same per-decision arrays whatever the
    backend. `progress(k)` as each chunk of `k` episodes completes."""
    check_count("n", n)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(options, seed=seed, threads=be.threads)
    return _episodes(be, n, functools.partial(collect_chunk, config=config), start, chunk, progress)


def evaluate(
    positions: Sequence[Game | Observation | str],
    *,
    playouts: int = 200,
    seed: int = 0,
    threads: int = 0,
    policy: str | Sequence[str] | None = None,
    mode: Literal["cards", "pattern"] = "pattern",
    rules: Rules | None = None,
    backend: object = "local",
    address: str | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> list[dict[str, Any]]:
    """``[gf.evaluate(p, playouts=..., seed=seed, ...) for p in positions]``
    (Games, Observations of the seat to move, or position strings restored
    under `rules`), evaluated in chunks of positions on `backend` (see
    `simulate`). `chunk`: positions per chunk."""
    if isinstance(positions, (str, Game, Observation)) or not isinstance(positions, Sequence):
        raise InvalidArgumentError(
            f"positions must be a list of Games, Observations or position strings, not {type(positions).__name__}"
        )
    states = [position_state(i, p, rules) for i, p in enumerate(positions)]
    _check_args(seed=seed, threads=threads, mode=mode, playouts=playouts)
    if policy is not None:
        for name in [policy] if isinstance(policy, str) else list(policy):
            _check_policy(name)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(playouts=playouts, seed=seed, threads=be.threads, policy=policy, mode=mode)
    work = functools.partial(evaluate_chunk, config=config)
    indexed = list(enumerate(states))
    if not indexed:
        check_chunk(chunk)
        return []
    with be:
        parts = run_chunks(
            be, len(indexed), work, chunk=chunk, item=lambda s: indexed[s.start : s.start + s.size], progress=progress
        )
    return [e for part in parts for e in part]


def tournament(
    t: Tournament,
    *,
    backend: object = "local",
    address: Optional[str] = None,
    chunk: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    keep_games: bool = False,
    on_match: Optional[Callable[[str, str, str, MatchResult], None]] = None,
) -> TournamentResult:
    """``t.run(backend, progress, address=address, chunk=chunk, keep_games=...,
    on_match=...)``: the tournament's matches played in chunks on `backend`
    (see `Tournament.run`)."""
    return t.run(backend, progress, address=address, chunk=chunk, keep_games=keep_games, on_match=on_match)


class MatchBatches:
    """``map(func, items)`` in chunks of `chunk` items (None: measured), each
    chunk one task on `backend` calling `func` on its items in turn. Any
    ``map`` object can be a `Tournament.run` backend; ``t.run(backend=backend,
    chunk=chunk)`` plays each chunk as one native `play_matches` call instead."""

    def __init__(self, backend: Backend, chunk: Optional[int] = None) -> None:
        self.backend = make_backend(backend)
        self.chunk = check_chunk(chunk)

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``[func(x) for x in items]``, in order."""
        items = list(items)
        work = functools.partial(_map_each, func)
        with self.backend:
            parts = run_chunks(self.backend, len(items), work, chunk=self.chunk, item=lambda s: items[s.start : s.start + s.size])
        return [r for part in parts for r in part]


def _episodes(
    be: Backend, n: int, work: Callable[[Span], dict[str, np.ndarray]], start: int, chunk: int | None, progress: Progress
) -> dict[str, np.ndarray]:
    """The arrays of episodes ``start .. start + n``, `work` run on `be` in
    chunks and concatenated; an empty span first, locally, so that the
    engine checks every argument before any task is sent."""
    empty = work(Span(start, 0))
    if n == 0:
        return empty
    with be:
        return concat(run_chunks(be, n, work, start=start, chunk=chunk, progress=progress))


def _map_each(func: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [func(x) for x in items]
