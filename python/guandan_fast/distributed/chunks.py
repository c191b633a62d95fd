"""Work split into seeded chunks: the spans of deals (or games, or positions)
one task plays, the size that amortises scheduling, and the functions a worker
runs on one chunk.

A chunk is sent as its span and the call's configuration (seeds, policy names,
rules), never as game state, except for the positions of `evaluate`. A chunk's
result depends only on its span and the configuration, so chunks can run
anywhere, in any order, and be retried; they are merged in chunk order.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, TypeVar, cast

import numpy as np

from guandan_fast._core import Game, GuandanError, InvalidArgumentError, Observation, Rules, collect, evaluate, simulate
from guandan_fast.arguments import check_int
from guandan_fast.distributed.backends import Backend, LocalBackend

__all__ = [
    "TARGET_SECONDS",
    "Span",
    "check_chunk",
    "check_count",
    "collect_chunk",
    "chunk_size",
    "concat",
    "evaluate_chunk",
    "position_state",
    "run_chunks",
    "simulate_chunk",
    "spans",
]

#: Seconds of work a chunk is sized for when its size is measured: well above
#: the few milliseconds a task costs to schedule, small enough for a moving bar.
TARGET_SECONDS = 0.25
#: Seconds the probe that measures an item's cost runs for at least.
PROBE_SECONDS = 0.02
#: The most deals (or games) one call plays, as `gf.simulate` takes them.
MAX_N = 2**32

R = TypeVar("R")
Progress = Optional[Callable[[int], None]]


@dataclass(frozen=True)
class Span:
    """Items ``start .. start + size`` of a seeded stream (deals, games or positions)."""

    start: int
    size: int


def check_chunk(chunk: object) -> int | None:
    """`chunk` as items per chunk (None: measured); anything but a positive int raises `InvalidArgumentError`."""
    if chunk is None:
        return None
    if not isinstance(chunk, int) or isinstance(chunk, bool):
        raise InvalidArgumentError(f"chunk must be a positive number of items per chunk or None, not {chunk!r}")
    if chunk < 1:
        raise InvalidArgumentError(f"chunk must be at least 1 item per chunk (None: measured), not {chunk}")
    return chunk


def check_count(name: str, value: object, lo: int = 0) -> int:
    """`value` as a count of items `lo` .. 2**32 (what `gf.simulate` takes); else `InvalidArgumentError`."""
    return check_int(name, value, lo, MAX_N)


def spans(start: int, n: int, size: int) -> list[Span]:
    """Items ``start .. start + n`` cut into consecutive spans of `size` (the last one shorter)."""
    return [Span(s, min(size, start + n - s)) for s in range(start, start + n, size)]


def chunk_size(run: Callable[[int], R], n: int, target: float = TARGET_SECONDS) -> tuple[int, R, int]:
    """Measures `run(k)` (the first `k` items) for k = 1, 2, 4, ... until it takes
    `PROBE_SECONDS` or covers all `n`; returns ``(k, run(k), size)`` where
    `size` is the number of items that take about `target` seconds. The probe's
    result is kept: it is the first chunk."""
    k = min(1, n)
    while True:
        t0 = time.perf_counter()
        result = run(k)
        elapsed = time.perf_counter() - t0
        if k >= n or elapsed >= PROBE_SECONDS:
            per_item = elapsed / max(k, 1)
            size = max(1, math.ceil(target / per_item)) if per_item > 0 else max(n, 1)
            return k, result, size
        k = min(n, 2 * k)


def concat(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The `simulate`-style dicts of consecutive chunks as one: each array joined in order."""
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def simulate_chunk(span: Span, config: dict[str, Any]) -> dict[str, np.ndarray]:
    """`gf.simulate` of the span's deals (or games) under `config` (simulate's keywords)."""
    return cast("dict[str, np.ndarray]", simulate(span.size, start=span.start, **config))


def collect_chunk(span: Span, config: dict[str, Any]) -> dict[str, np.ndarray]:
    """`gf.collect` of the span's deals under `config` (collect's keywords)."""
    return cast("dict[str, np.ndarray]", collect(span.size, start=span.start, **config))


def evaluate_chunk(
    positions: Sequence[tuple[int, Game | Observation]], config: dict[str, Any]
) -> list[dict[str, Any]]:
    """`gf.evaluate` of each ``(index, position)`` under `config`; an error names the position's index."""
    out = []
    for i, state in positions:
        try:
            out.append(cast("dict[str, Any]", evaluate(state, **config)))
        except GuandanError as e:
            raise type(e)(f"position {i}: {e}") from None
    return out


def position_state(i: int, position: object, rules: Rules | None) -> Game | Observation:
    """Position `i` of an `evaluate` call as a Game or Observation: a position string is restored under `rules`."""
    if isinstance(position, (Game, Observation)):
        return position
    if isinstance(position, str):
        try:
            return Game.from_position(position, rules)
        except GuandanError as e:
            raise type(e)(f"position {i}: {e}") from None
    raise InvalidArgumentError(
        f"position {i} must be a Game, an Observation or a position string, not {type(position).__name__}"
    )


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
    With `chunk` None, a `LocalBackend` without `progress` plays all `n` items
    as one chunk (the engine's threads split it); otherwise the first chunk is
    a probe run here that measures the chunk size (`chunk_size`). With a
    `chunk`, every chunk has `chunk` items. `progress(k)` is called with
    ``weight * size`` as each chunk completes."""
    size = check_chunk(chunk)
    if size is None and progress is None and isinstance(backend, LocalBackend):
        size = max(n, 1)
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
