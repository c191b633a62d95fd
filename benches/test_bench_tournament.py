"""pytest-benchmark benchmarks of matches and tournaments (not part of the default test run).

    python -m pytest benches/test_bench_tournament.py --benchmark-only

Each benchmark checks its answer; matches (or deals) per second from the
median round are stored in ``extra_info``.
"""

from __future__ import annotations

import pytest

import guandan_fast as gf
from guandan_fast.tournament import MatchSpec, play_matches


def _rate(benchmark, n, unit):
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    benchmark.extra_info[f"{unit}_per_s"] = round(n / stats.stats.median, 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_native_matches(benchmark, threads):
    """64 best-of-one greedy-random matches, natively."""
    specs = [MatchSpec("greedy", "random", {}, seed=s) for s in range(64)]
    out = benchmark(play_matches, specs, threads)
    assert len(out) == 64
    assert [r.winner for r in out] == [r.winner for r in play_matches(specs, 3 - threads)]
    _rate(benchmark, 64, "matches")
    benchmark.extra_info["deals_per_s"] = round(sum(r.deals for r in out) / benchmark.stats.stats.median) if getattr(benchmark, "stats", None) else 0


def test_bot_matches(benchmark):
    """8 best-of-one matches of a Python GreedyBot against the native greedy, in this thread."""
    specs = [MatchSpec(gf.GreedyBot(), "greedy", {}, seed=s) for s in range(8)]
    out = benchmark(play_matches, specs)
    assert len(out) == 8
    _rate(benchmark, 8, "matches")


def test_knockout_of_16(benchmark):
    """A best-of-three knockout of 16 greedy and random entrants."""
    field = ["greedy", "random"] * 8
    t = gf.Tournament(field, best_of=3, third_place=True, seed=1)
    r = benchmark(t.run)
    assert len(r.matches) == 16
    _rate(benchmark, 16, "matches")
