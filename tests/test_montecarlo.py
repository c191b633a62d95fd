"""Monte Carlo evaluation and hidden-hand sampling."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import guandan_fast as gf


def test_evaluate_is_the_same_for_any_thread_count() -> None:
    g = gf.Game(seed=11)
    a = gf.evaluate(g, playouts=20, seed=3, threads=1)
    b = gf.evaluate(g, playouts=20, seed=3, threads=2)
    assert a["actions"] == b["actions"]
    np.testing.assert_array_equal(a["mean"], b["mean"])
    np.testing.assert_array_equal(a["win_prob"], b["win_prob"])
    assert (a["count"] == 20).all()


def test_evaluate_arrays_align_with_legal_actions() -> None:
    g = gf.Game(seed=2)
    r = gf.evaluate(g, playouts=4, seed=1, mode="pattern")
    assert r["actions"] == g.legal_actions("pattern")
    assert len(r["mean"]) == len(r["actions"]) == len(r["stderr"])
    assert r["best"] in r["actions"]


def test_going_out_at_once_ranks_first() -> None:
    # Seat 0 can play its whole hand as a straight and win the deal at once.
    g = gf.Game(hands=["3s 4d 5c 6h 7s 9d", "8d 8c Kd Kc", "5s 6s Qd", "Ts Jd Qc Ac"], leader=0)
    g.apply(gf.Combo("9d", level="2"))
    g.apply(gf.PASS)
    g.apply(gf.PASS)
    g.apply(gf.PASS)
    assert g.current_player == 0
    r = gf.evaluate(g, playouts=50, seed=5)
    best = r["best"]
    assert isinstance(best, gf.Combo) and best.size == 5
    assert r["win_prob"][r["actions"].index(best)] == 1.0


def test_evaluate_rejects_bad_arguments() -> None:
    g = gf.Game(seed=1)
    with pytest.raises(gf.GuandanError):
        gf.evaluate(g, playouts=0)
    with pytest.raises(ValueError):
        gf.evaluate(g, policy="nonsense")
    with pytest.raises(ValueError):
        gf.evaluate("not a game")
    other = (g.current_player + 1) % 4
    with pytest.raises(gf.IllegalMoveError):
        gf.evaluate(g.observation(other))


def _tribute_game() -> gf.Game:
    """A game right after a single tribute, in the play phase."""
    g = gf.Game(seed=4)
    import random

    rng = random.Random(0)
    while g.phase != "deal_over":
        g.apply(rng.choice(g.legal_actions("pattern")))
    g.next_deal()
    while g.phase in ("tribute", "return"):
        g.apply(g.legal_actions()[0])
    return g


def test_sampled_hands_respect_what_the_observer_knows() -> None:
    g = _tribute_game()
    seat = g.current_player
    obs = g.observation(seat)
    samples = gf.sample_hands(obs, 200, seed=9)
    own = obs.hand.to_array()
    unseen = obs.unseen.to_array()
    for hands in samples:
        np.testing.assert_array_equal(hands[seat], own)
        assert [int(h.sum()) for h in hands] == list(obs.hand_sizes)
        others = hands.sum(axis=0) - hands[seat]
        np.testing.assert_array_equal(others, unseen)
        for s in range(4):
            known = obs.known[s].to_array()
            assert (hands[s] >= known).all()
    caps = obs.tribute_caps
    level_index = "23456789TJQKA".index(obs.level)
    for s, cap in enumerate(caps):
        if cap is None or s == seat:
            continue
        for hands in samples:
            extra = hands[s] - obs.known[s].to_array()
            for face in np.nonzero(extra)[0]:
                rank = 13 if face == 52 else 14 if face == 53 else face // 4
                if face == 4 * level_index:
                    continue  # a wildcard is exempt
                value = 13 if rank == level_index else (14 if rank == 13 else 15 if rank == 14 else rank)
                assert value <= cap


def test_sampler_is_uniform_over_physical_deals() -> None:
    # Seat 0 sees 2 of its own; 3 hidden cards (two copies of Ks and a 5d) go to seats 1..3 (one each).
    g = gf.Game(hands=["3s 4s", "Ks", "Ks", "5d"], leader=0)
    obs = g.observation(0)
    n = 6000
    samples = gf.sample_hands(obs, n, seed=1)
    where_5d = Counter(int(np.nonzero(h[:, 4 * 3 + 3])[0][0]) for h in samples)
    # Labelled placements: 3! = 6, the 5d is in each seat in 2 of them: 1/3 each.
    expected = n / 3
    chi2 = sum((where_5d[s] - expected) ** 2 / expected for s in (1, 2, 3))
    assert chi2 < 13.8  # df = 2, p = 0.001


def test_sample_hands_shape_and_determinism() -> None:
    g = gf.Game(hands=["3s", "4s", "5s", "6s"], leader=0)
    obs = g.observation(0)
    out = gf.sample_hands(obs, 3, seed=0)
    assert out.shape == (3, 4, 54) and out.dtype == np.uint8
    assert math.isclose(float(out[:, 1:].sum()), 9.0)
    np.testing.assert_array_equal(out, gf.sample_hands(obs, 3, seed=0))


def test_greedy_beats_random_in_native_simulation() -> None:
    n = 400
    a = gf.simulate(n, seed=1, policy=["greedy", "random", "greedy", "random"])
    b = gf.simulate(n, seed=1, policy=["random", "greedy", "random", "greedy"])
    greedy_wins = int((a["winner"] == 0).sum() + (b["winner"] == 1).sum())
    assert greedy_wins > n  # more than half of 2n deals, seats swapped
