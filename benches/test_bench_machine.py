"""The machine's own speed, to run beside the other benchmarks (not part of
the default test run):

    python -m pytest benches/test_bench_machine.py benches/test_bench_envs.py --benchmark-only

The machines these figures come from are virtual and their speed moves with
their host: the same env loop measured 116k steps per CPU-second in one
sitting and 38k in another. Three fixed workloads, one per kind of cost in
a user's loop, are timed in the same run as the loops under study, so that
figures from different sittings can be compared through them:

- ``interpreter``: plain Python (a loop of arithmetic, a dict and a list);
- ``numpy_calls``: small numpy calls (``np.flatnonzero`` of a 2,321-entry
  bool mask, the action-space size), whose cost is numpy's per-call overhead;
- ``native_core``: the Rust core through its bindings (``count_moves`` of the
  64 ``mix`` hands of ``test_bench_core.py``, leading, pattern mode).

Each stores its rate in ``extra_info``; benches/README.md ("Machine
calibration") keeps the figures of each sitting.
"""

from __future__ import annotations

import random

import numpy as np

import guandan_fast as gf

RANKS = "23456789TJQKA"
_rng = random.Random(20251130)
MIX = [(gf.deal(seed)[0], _rng.choice(RANKS)) for seed in range(1, 65)]
LOOPS = 100_000
CALLS = 10_000


def _rate(benchmark, n, unit):
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info[f"{unit}_per_s"] = round(n / stats.stats.median)


def test_interpreter(benchmark):
    benchmark.group = "machine"

    def run():
        seen: dict[int, int] = {}
        out = []
        s = 0
        for i in range(LOOPS):
            s += (i * 7) % 13
            seen[i & 255] = s
            if i & 15 == 0:
                out.append(s)
        return s, len(seen), len(out)

    assert benchmark(run) == (599_992, 256, LOOPS // 16)
    _rate(benchmark, LOOPS, "loops")


def test_numpy_calls(benchmark):
    benchmark.group = "machine"
    mask = np.zeros(2321, dtype=bool)
    mask[::37] = True

    def run():
        n = 0
        for _ in range(CALLS):
            n += len(np.flatnonzero(mask))
        return n

    assert benchmark(run) == CALLS * len(range(0, 2321, 37))
    _rate(benchmark, CALLS, "calls")


def test_native_core(benchmark):
    benchmark.group = "machine"

    def run():
        return sum(gf.count_moves(h, lv, mode="pattern") for h, lv in MIX)

    total = benchmark(run)
    assert total == sum(len(gf.legal_moves(h, lv, mode="pattern")) for h, lv in MIX)
    _rate(benchmark, len(MIX), "listings")
