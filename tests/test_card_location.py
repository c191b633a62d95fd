"""The card-location samples of benches/card_location.py: each pass is read
against the play it passed on, the features start with the observation's
encoding, and the hidden hands are the cards the observer has not seen."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))
import card_location as cl  # noqa: E402

SINGLE, PAIR = gf.KINDS.index("Single"), gf.KINDS.index("Pair")


def test_pass_features_split_by_who_made_the_play() -> None:
    # Seat 0 observes. Seat 1 passed on seat 0's single 5 and on seat 2's
    # single 9; seat 2 passed on seat 0's (its partner's) pair of 7s.
    passes = [(1, SINGLE, 3, 0), (1, SINGLE, 7, 2), (2, PAIR, 5, 0), (0, SINGLE, 1, 3)]
    f = cl.pass_features(passes, 0).reshape(3, len(gf.KINDS), 2)
    assert f[0, SINGLE, 0] == np.float32(1 - 3 / 15)  # the lowest single it passed on
    assert f[1, PAIR, 1] == np.float32(1 - 5 / 15)  # on its partner's play
    assert np.count_nonzero(f) == 2  # the observer's own pass is not read


def test_play_features_count_leads_and_follows() -> None:
    plays = [(3, SINGLE, 4, True), (3, SINGLE, 2, True), (3, PAIR, 9, False), (2, SINGLE, 0, False)]
    f = cl.play_features(plays, 0).reshape(3, len(gf.KINDS), 3)
    assert f[2, SINGLE, 0] == 0.5 and f[2, SINGLE, 2] == np.float32(1 - 2 / 15)
    assert f[2, PAIR, 1] == 0.25 and f[2, PAIR, 2] == 0
    assert f[1, SINGLE, 1] == 0.25


def passes_from_history(o: gf.Observation) -> list[tuple[int, int, int, int]]:
    """Each pass of `o`'s deal with the play before it: a leader cannot
    pass, so the last play before a pass is the play it passed on."""
    out, last = [], None
    for seat, action in o.history:
        if isinstance(action, gf.Combo):
            last = (seat, action)
        elif action == gf.PASS:
            assert last is not None
            out.append((seat, last[1].kind_code, last[1].rank_code, last[0]))
    return out


def test_deal_samples_read_the_deal_as_it_was_played() -> None:
    rng = random.Random(5)
    seen = 0
    for seed in range(6):
        g = gf.Game(seed=seed)
        policies = ["rule", "greedy", "rule-v1", "rule"]
        for _ in range(2):  # the second deal opens with a tribute
            for o, x, hidden in cl.deal_samples(g, policies, rng, share=0.5):
                seen += 1
                assert x.shape == (gf.OBSERVATION_SIZE + 3 * len(gf.KINDS) * 5,)
                assert (x[: gf.OBSERVATION_SIZE] == gf.encode_observation(o)).all()
                want = cl.pass_features(passes_from_history(o), o.seat)
                got = x[gf.OBSERVATION_SIZE : gf.OBSERVATION_SIZE + want.size]
                assert (got == want).all()
                assert (hidden.sum(axis=0) == o.unseen.to_array()).all()
                assert [int(h.sum()) for h in hidden] == [o.hand_sizes[(o.seat + r) % 4] for r in (1, 2, 3)]
            if g.is_over:
                break
            g.next_deal()
    assert seen > 100
