"""pytest-benchmark benchmarks of the Python paths (not part of the default test run).

Run from the repository root:

    python -m pytest benches/ --benchmark-only

Every benchmark also checks its answer (move counts agree between the APIs,
every move is in the hand, every follow beats the top, array rows match the
declared sizes), so a wrong result fails instead of being timed.

Hands are seat 0 of ``gf.deal(seed)``, chosen the same way as in
``benches/core.rs``: for each wildcard count 0, 1, 2 the first seeds whose
level, scanned upward from ``seed % 13``, gives that many wildcards.  ``mix``
cases loop over 64 hands (seeds 1..64, levels from a fixed ``random.Random``)
in one call; the time per listing is the median divided by 64, and is stored
in the benchmark's ``extra_info`` (see ``--benchmark-json``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import guandan_fast as gf

RANKS = "23456789TJQKA"


def _hand(seed):
    return gf.deal(seed)[0]


def _case_for(want):
    for seed in range(1, 1000):
        hand = _hand(seed)
        for i in range(13):
            level = RANKS[(seed % 13 + i) % 13]
            if hand.wildcards(level) == want:
                return hand, level
    raise AssertionError(f"no hand with {want} wildcards")


CASES = {f"w{w}": _case_for(w) for w in (0, 1, 2)}
_rng = random.Random(20251130)
MIX = [(_hand(seed), _rng.choice(RANKS)) for seed in range(1, 65)]

TOPS = {
    "single": "8s",
    "pair": "7s 7c",
    "full_house": "6s 6c 6d 3s 3c",
    "straight": "4s 5c 6d 7s 8c",
    "bomb": "9s 9s 9c 9d",
}


def _per_listing(benchmark, n):
    """Stores the time and rate per listing of a benchmark that makes `n` listings per call."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    # The median: building many Python objects per round triggers the garbage
    # collector now and then, which drags the mean.
    per = stats.stats.median / n
    benchmark.extra_info["listings"] = n
    benchmark.extra_info["us_per_listing"] = round(per * 1e6, 3)
    benchmark.extra_info["listings_per_s"] = round(1 / per)


def _check_moves(moves, hand, level, top, mode):
    assert len(moves) == gf.count_moves(hand, level, top, mode=mode)
    assert len(moves) > 0
    for m in moves:
        assert m.cards in hand
        assert len(m.cards) == m.size
        if top is not None:
            assert m.beats(top)
    if mode == "cards":
        assert len({(str(m.cards), m.kind, m.rank, m.suit) for m in moves}) == len(moves)


def _check_array(arr, hand, level, mode="cards"):
    n = gf.count_moves(hand, level, mode=mode)
    cards = arr["cards"]
    assert cards.shape == (n, 54) and cards.dtype == np.uint8
    for key in ("kind", "rank", "size", "wildcards"):
        assert arr[key].shape == (n,)
    assert (cards.sum(axis=1) == arr["size"]).all()
    assert (cards <= hand.to_array()).all()
    assert len(np.unique(np.column_stack([cards, arr["kind"], arr["rank"]]), axis=0)) == n


# ------------------------------------------------------------------ leading


@pytest.mark.parametrize("mode", ["cards", "pattern"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_legal_moves_lead(benchmark, case, mode):
    hand, level = CASES[case]
    benchmark.group = f"legal_moves lead {mode}"
    moves = benchmark(gf.legal_moves, hand, level, mode=mode)
    _check_moves(moves, hand, level, None, mode)
    benchmark.extra_info["moves"] = len(moves)


@pytest.mark.parametrize("mode", ["cards", "pattern"])
def test_legal_moves_lead_mix(benchmark, mode):
    benchmark.group = f"legal_moves lead {mode}"

    def run():
        # Each listing is dropped before the next, as a consumer would.
        return [len(gf.legal_moves(h, lv, mode=mode)) for h, lv in MIX]

    out = benchmark(run)
    assert out == [gf.count_moves(h, lv, mode=mode) for h, lv in MIX]
    _check_moves(gf.legal_moves(*MIX[0], mode=mode), *MIX[0], None, mode)
    _per_listing(benchmark, len(MIX))


@pytest.mark.parametrize("case", sorted(CASES))
def test_legal_moves_array_lead(benchmark, case):
    """The numpy path: leading, card level, one 27-card hand per call."""
    hand, level = CASES[case]
    benchmark.group = "legal_moves_array lead cards"
    arr = benchmark(gf.legal_moves_array, hand, level)
    _check_array(arr, hand, level)
    benchmark.extra_info["moves"] = len(arr["kind"])


def test_legal_moves_array_lead_mix(benchmark):
    """The numpy path over 64 hands per call: listings per second = 64 / mean."""
    benchmark.group = "legal_moves_array lead cards"

    def run():
        # Each listing is dropped before the next, as a consumer would.
        return [len(gf.legal_moves_array(h, lv)["kind"]) for h, lv in MIX]

    out = benchmark(run)
    assert out == [gf.count_moves(h, lv) for h, lv in MIX]
    for h, lv in MIX:
        _check_array(gf.legal_moves_array(h, lv), h, lv)
    _per_listing(benchmark, len(MIX))


@pytest.mark.parametrize("mode", ["cards", "pattern"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_count_moves_lead(benchmark, case, mode):
    hand, level = CASES[case]
    benchmark.group = f"count_moves lead {mode}"
    n = benchmark(gf.count_moves, hand, level, mode=mode)
    assert n == len(gf.legal_moves(hand, level, mode=mode)) > 0
    benchmark.extra_info["moves"] = n


@pytest.mark.parametrize("mode", ["cards", "pattern"])
def test_count_moves_lead_mix(benchmark, mode):
    benchmark.group = f"count_moves lead {mode}"

    def run():
        return [gf.count_moves(h, lv, mode=mode) for h, lv in MIX]

    out = benchmark(run)
    assert out == [len(gf.legal_moves(h, lv, mode=mode)) for h, lv in MIX]
    _per_listing(benchmark, len(MIX))


# ------------------------------------------------------------------ following


@pytest.mark.parametrize("top", list(TOPS))
def test_legal_moves_follow(benchmark, top):
    """Pattern-level listing against a top, one call per round, hand w1."""
    hand, level = CASES["w1"]
    combo = gf.Combo(TOPS[top], level=level)
    benchmark.group = "legal_moves follow pattern"
    moves = benchmark(gf.legal_moves, hand, level, combo, mode="pattern")
    _check_moves(moves, hand, level, combo, "pattern")
    benchmark.extra_info["moves"] = len(moves)


@pytest.mark.parametrize("top", list(TOPS))
def test_count_moves_follow(benchmark, top):
    """count_moves against a top (pattern level): the core plus the call overhead."""
    hand, level = CASES["w1"]
    combo = gf.Combo(TOPS[top], level=level)
    benchmark.group = "count_moves follow pattern"
    n = benchmark(gf.count_moves, hand, level, combo, mode="pattern")
    moves = gf.legal_moves(hand, level, combo, mode="pattern")
    assert n == len(moves)
    assert all(m.beats(combo) for m in moves)
    benchmark.extra_info["moves"] = n
