"""Soak: many random deals through the checked ``Game.apply``, memory flat.

The number of deals is ``GUANDAN_SOAK_DEALS`` (default 10,000, about 10 s on
two idle cores: a bounded CI run). The long soak of 10^6 deals (about 20
minutes):

    GUANDAN_SOAK_DEALS=1000000 python -m pytest tests/test_soak.py -m slow
"""

from __future__ import annotations

import gc
import os
import random
import sys

import pytest

import guandan_fast as gf

DEALS = int(os.environ.get("GUANDAN_SOAK_DEALS", "10000"))
WARMUP_DEALS = 200
#: Resident memory the loop may gain after its warm-up.
MAX_GROWTH = 64 * 1024 * 1024


def rss_bytes() -> int:
    """Resident memory of this process now (peak resident memory where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def check_refused(g: gf.Game, action: object) -> None:
    """An illegal action raises the package's error and changes nothing."""
    before = (g.position(), len(g.history), len(g.actions))
    with pytest.raises(gf.GuandanError):
        g.apply(action)  # type: ignore[arg-type]  # an action of the wrong phase
    assert (g.position(), len(g.history), len(g.actions)) == before


def illegal_action(g: gf.Game) -> object:
    """An action the current player may not take."""
    seat = g.current_player
    assert seat is not None
    if g.phase == "play" and g.top is not None:
        return gf.Tribute(next(iter(g.hands[seat])))
    return gf.PASS


@pytest.mark.slow
def test_soak_random_deals_keep_memory_flat() -> None:
    rng = random.Random(20261201)
    seed = 0
    g = gf.Game(seed=seed)
    modes = ("cards", "pattern")
    deals = actions = 0
    start = 0
    while deals < DEALS:
        phase = g.phase
        if phase in ("deal_over", "game_over", "match_over"):
            assert sorted(g.finish_order) == [0, 1, 2, 3]
            assert len(g.history) > 0
            deals += 1
            if deals == WARMUP_DEALS:
                gc.collect()
                start = rss_bytes()
            if phase == "match_over":
                seed += 1
                g = gf.Game(seed=seed)
            else:
                g.next_deal()
            continue
        legal = g.legal_actions(modes[deals % 2])
        assert legal
        if actions % 101 == 0:
            check_refused(g, illegal_action(g))
        g.apply(rng.choice(legal))
        actions += 1
    gc.collect()
    end = rss_bytes()
    assert deals == DEALS and actions > DEALS * 20
    if DEALS > WARMUP_DEALS:
        assert start > 0
        assert end - start < MAX_GROWTH, f"resident memory grew by {(end - start) >> 20} MiB over {DEALS} deals"
