"""The public calls with a `backend`: `simulate`, `pit`, `evaluate` and `collect`, each
giving exactly what the one-machine call with the same arguments gives."""

from __future__ import annotations

import functools
from typing import Any, Callable, Literal, Optional, Sequence, TypeVar

import numpy as np

from guandan_fast._core import Game, InvalidArgumentError, Observation, Rules, _check_args, _check_policy
from guandan_fast.arena import PitResult, pit_result
from guandan_fast.distributed.backends import Backend, make_backend
from guandan_fast.distributed.chunks import (
    Span,
    check_chunk,
    chunk_size,
    collect_chunk,
    concat,
    evaluate_chunk,
    pit_chunk,
    position_state,
    simulate_chunk,
    spans,
)

__all__ = ["collect", "evaluate", "pit", "run_chunks", "simulate"]

R = TypeVar("R")
Progress = Optional[Callable[[int], None]]


def run_chunks(
    backend: Backend,
    n: int,
    work: Callable[[Any], R],
    *,
    start: int = 0,
    chunk: object = None,
    item: Callable[[Span], Any] = lambda span: span,
    progress: Progress = None,
    weight: int = 1,
) -> list[R]:
    """`work` over items ``start .. start + n`` cut into chunks, in chunk order.

    `item(span)` is what a task is sent for a span (the span itself by default).
    With `chunk` None the first chunk is a probe run here that measures the
    chunk size (`chunk_size`); otherwise every chunk has `chunk` items.
    `progress(k)` is called with ``weight * size`` as each chunk completes."""
    size = check_chunk(chunk)
    head: list[R] = []
    done = start
    if size is None:
        k, first, size = chunk_size(lambda k: work(item(Span(start, k))), n)
        head.append(first)
        done += k
        if progress is not None and k:
            progress(weight * k)
    rest = spans(done, start + n - done, size)

    def on_done(i: int) -> None:
        if progress is not None:
            progress(weight * rest[i].size)

    return head + backend.map(work, [item(s) for s in rest], on_done)


#: The most deals (or games) one call plays, as `gf.simulate` takes them.
MAX_N = 2**32


def _count(name: str, value: object, lo: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= MAX_N:
        raise InvalidArgumentError(f"{name} must be a whole number {lo}..2**32, not {value!r:.40}")
    return value


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
    """`gf.simulate` with the same arguments, played in chunks on `backend`
    (``"local"``, ``"ray"`` at `address`, or a backend object): the same arrays
    whatever the backend, the chunk size or the number of workers.
    `chunk`: deals (or games) per chunk (None: measured, ~0.25 s each);
    `progress(k)` as each chunk of `k` completes."""
    _count("n", n)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(seed=seed, threads=be.threads, rules=rules, unit=unit, policy=policy, mode=mode)
    work = functools.partial(simulate_chunk, config=config)
    empty = work(Span(start, 0))  # the engine checks every argument before any task is sent
    if n == 0:
        return empty
    with be:
        return concat(run_chunks(be, n, work, start=start, chunk=chunk, progress=progress))


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
    """`gf.collect` (the decisions of episodes ``start .. start + n``) with the
    same arguments (`options`: its other keywords — `policy`, `rules`,
    `observation`, `unit`, `reward`, `masks` — with its defaults), collected in
    chunks of episodes on `backend` (see `simulate`): the same per-decision
    arrays. `progress(k)` as each chunk of `k` episodes completes."""
    _count("n", n)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(options, seed=seed, threads=be.threads)
    work = functools.partial(collect_chunk, config=config)
    empty = work(Span(start, 0))  # the collector checks every argument before any task is sent
    if n == 0:
        return empty
    with be:
        return concat(run_chunks(be, n, work, start=start, chunk=chunk, progress=progress))


def pit(
    a: str,
    b: str,
    *,
    n: int = 200,
    seed: int = 0,
    start: int = 0,
    threads: int = 0,
    unit: Literal["deal", "game"] = "deal",
    rules: Rules | None = None,
    mode: Literal["cards", "pattern"] = "pattern",
    backend: object = "local",
    address: str | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> PitResult:
    """`gf.pit` with the same arguments, played in chunks on `backend` (see
    `simulate`): the same `PitResult`. `progress(k)` counts deals (or games)
    played, both seatings."""
    _count("n", n, 1)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(seed=seed, threads=be.threads, rules=rules, unit=unit, mode=mode)
    work = functools.partial(pit_chunk, a=a, b=b, config=config)
    work(Span(start, 0))
    with be:
        parts = run_chunks(be, n, work, start=start, chunk=chunk, progress=progress, weight=2)
    first = concat([p["first"] for p in parts])
    second = concat([p["second"] for p in parts])
    return pit_result(a, b, unit, first, second)


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
    `simulate`). `chunk`: positions per chunk (None: measured)."""
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
