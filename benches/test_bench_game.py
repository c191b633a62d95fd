"""pytest-benchmark benchmarks of games, simulation, batches and Monte Carlo
(not part of the default test run).

    python -m pytest benches/test_bench_game.py --benchmark-only

Each benchmark checks its answer. Rates (deals, actions, playouts, listings
per second) are stored in ``extra_info`` from the median round.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import guandan_fast as gf


def _rate(benchmark, n, unit):
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    benchmark.extra_info[f"{unit}_per_s"] = round(n / stats.stats.median)


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_random_deals(benchmark, threads):
    n = 4000
    out = benchmark(gf.simulate, n, seed=1, threads=threads)
    assert out["finish"].shape == (n, 4)
    assert (np.sort(out["finish"], axis=1) == np.arange(4)).all()
    np.testing.assert_array_equal(out["finish"], gf.simulate(n, seed=1, threads=3 - threads)["finish"])
    _rate(benchmark, n, "deals")


@pytest.mark.parametrize("mode", ["pattern", "cards"])
def test_python_stepping(benchmark, mode):
    """legal_actions + apply from Python over whole deals."""

    def run():
        rng = random.Random(7)
        g = gf.Game(seed=7)
        steps = 0
        while steps < 3000:
            if g.phase in ("deal_over", "game_over"):
                g.next_deal()
                continue
            if g.phase == "match_over":
                g = gf.Game(seed=steps)
                continue
            acts = g.legal_actions(mode)
            g.apply(acts[rng.randrange(len(acts))])
            steps += 1
        return steps

    assert benchmark(run) == 3000
    _rate(benchmark, 3000, "actions")


def _mid_deal():
    g = gf.Game(seed=5)
    rng = random.Random(2)
    while sum(g.hand_sizes) > 60:
        g.apply(rng.choice(g.legal_actions("pattern")))
    return g


@pytest.mark.parametrize("policy", ["random", "greedy", "rule"])
def test_policy_action_loop(benchmark, policy):
    """A bot's loop: `policy_action` with its defaults for every decision of
    whole deals (the native decision, the call and the action object)."""
    games = [gf.Game(seed=s) for s in range(4)]

    def run():
        n = 0
        for g0 in games:
            g = copy.copy(g0)
            while g.phase not in ("deal_over", "match_over"):
                g.apply(gf.policy_action(g, policy, seed=n))
                n += 1
        return n

    n = benchmark(run)
    assert n > 4 * 27
    _rate(benchmark, n, "decisions")


def test_sample_hands_one_at_a_time(benchmark):
    """A determinizing loop: one deal of the hidden cards a call, mid-deal."""
    g = _mid_deal()
    o = g.observation(0)
    calls = 200

    def run():
        return [gf.sample_hands(o, 1, seed=i) for i in range(calls)]

    out = benchmark(run)
    assert all(d.shape == (1, 4, 54) and tuple(d[0].sum(axis=1)) == g.hand_sizes for d in out)
    assert len({d.tobytes() for d in out}) > 1
    _rate(benchmark, calls, "deals")


@pytest.mark.parametrize("threads", [1, 2])
def test_evaluate_mid_deal(benchmark, threads):
    g = _mid_deal()
    playouts = 2000
    r = benchmark(gf.evaluate, g, playouts=playouts, seed=1, threads=threads)
    assert r["actions"] == g.legal_actions("pattern")
    assert (r["count"] == playouts).all()
    _rate(benchmark, playouts * len(r["actions"]), "playouts")


@pytest.mark.parametrize("threads", [1, 2])
def test_legal_moves_batch_with_out(benchmark, threads):
    hands = np.stack([gf.deal(s)[s % 4].to_array() for s in range(64)])
    buf = np.empty((200_000, 54), dtype=np.uint8)
    d = benchmark(gf.legal_moves_batch, hands, "7", threads=threads, out=buf)
    assert d["offsets"][-1] == len(d["kind"])
    assert (d["cards"].sum(axis=1) == d["size"]).all()
    _rate(benchmark, len(hands), "listings")


def _states(n_games: int) -> list[gf.Game]:
    """Copies of seeded random short matches at every 5th decision (tribute and return included)."""
    rng = random.Random(3)
    out = []
    for k in range(n_games):
        g = gf.Game(gf.Rules(best_of=3, max_deals=4), seed=k)
        for i in range(100_000):
            if g.phase == "match_over":
                break
            if g.phase in ("deal_over", "game_over"):
                g.next_deal()
                continue
            if i % 5 == 0:
                out.append(g.clone())
            g.apply(rng.choice(g.legal_actions("pattern")))
    return out


def test_position_round_trip(benchmark):
    """Game.position() and Game.from_position() over states of every phase."""
    games = _states(3)
    texts = [g.position() for g in games]

    def run():
        return [gf.Game.from_position(t, g.rules).position() for t, g in zip(texts, games)]

    assert benchmark(run) == texts
    _rate(benchmark, len(texts), "positions")


def test_pickle_round_trip_game(benchmark):
    """pickle.dumps and pickle.loads of games along whole matches (the log replayed)."""
    import pickle

    games = _states(2)[::8]

    def run():
        return [pickle.loads(pickle.dumps(g)) for g in games]

    assert [g.position() for g in benchmark(run)] == [g.position() for g in games]
    _rate(benchmark, len(games), "games")


def test_pickle_round_trip_observation(benchmark):
    """pickle.dumps and pickle.loads of every seat's observation of many states."""
    import pickle

    obs = [g.observation(s) for g in _states(2)[::2] for s in range(4)]

    def run():
        return [pickle.loads(pickle.dumps(o)) for o in obs]

    assert benchmark(run) == obs
    _rate(benchmark, len(obs), "observations")
