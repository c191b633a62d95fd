"""The native observation encoders against the pure-Python references.

`encode_observation` and `danzero_state` (and their batch forms) must equal
tests/reference_encoding.py on thousands of positions: every seat of every
decision of random matches (tribute and return included, every level), and
positions with A-failure counts beyond the clip.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import reference_encoding as ref

import guandan_fast as gf

LEVELS = "23456789TJQKA"


def observations(n_matches: int, seed: int):
    rng = random.Random(seed)
    for m in range(n_matches):
        g = gf.Game(seed=seed * 100 + m, levels=(LEVELS[m % 13], LEVELS[(3 * m) % 13]), declarer=m % 2)
        for _ in range(300):
            if g.is_over:
                break
            if g.current_player is None:
                g.next_deal()
                continue
            for seat in range(4):
                yield g.observation(seat)
            g.apply(rng.choice(g.legal_actions(mode="pattern")))


def test_native_equals_reference() -> None:
    phases = set()
    n = 0
    for obs in observations(14, seed=1):
        phases.add(obs.phase)
        n += 1
        assert np.array_equal(gf.encode_observation(obs), ref.encode_observation(obs)), obs
        assert np.array_equal(gf.danzero_state(obs), ref.danzero_state(obs)), obs
    assert n > 4000 and {"tribute", "return", "play"} <= phases


def test_clipped_counts() -> None:
    rules = gf.Rules(a_max_attempts=None)
    g = gf.Game(rules, seed=2, levels=("A", "A"), declarer=0, a_fails=(7, 200))
    obs = g.observation(1)
    v = gf.encode_observation(obs)
    assert gf.field(v, "a_fails").tolist() == [3.0, 3.0]
    assert np.array_equal(v, ref.encode_observation(obs))


def test_batch_forms_and_out_buffers() -> None:
    obs = list(observations(1, seed=3))[:50]
    a = gf.encode_observations(obs)
    b = gf.danzero_states(obs)
    assert a.shape == (50, gf.OBSERVATION_SIZE) and a.dtype == np.float32
    assert b.shape == (50, gf.DANZERO_SIZE) and b.dtype == np.float32
    for i, o in enumerate(obs):
        assert np.array_equal(a[i], gf.encode_observation(o))
        assert np.array_equal(b[i], gf.danzero_state(o))
    out = np.full((50, gf.DANZERO_SIZE), 9, np.float32)
    assert gf.danzero_states(obs, out=out) is out and np.array_equal(out, b)
    one = np.full(gf.OBSERVATION_SIZE, 9, np.float32)
    assert gf.encode_observation(obs[7], out=one) is one and np.array_equal(one, a[7])
    assert gf.encode_observations([]).shape == (0, gf.OBSERVATION_SIZE)


def test_bad_input() -> None:
    obs = gf.Game(seed=4).observation(0)
    with pytest.raises(gf.InvalidArgumentError, match="obs must be an Observation"):
        gf.encode_observation(gf.Game())  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="every item of observations"):
        gf.danzero_states([obs, 3])  # type: ignore[list-item]
    with pytest.raises(gf.InvalidArgumentError, match="observations"):
        gf.danzero_states(5)  # type: ignore[arg-type]
    for bad in (np.zeros(gf.OBSERVATION_SIZE, np.float64), np.zeros(gf.OBSERVATION_SIZE + 1, np.float32), np.zeros((1, gf.OBSERVATION_SIZE), np.float32)):
        with pytest.raises(gf.InvalidArgumentError, match="out"):
            gf.encode_observation(obs, out=bad)  # type: ignore[arg-type]
    keep = np.full((2, gf.DANZERO_SIZE), 5, np.float32)
    with pytest.raises(gf.InvalidArgumentError, match="out"):
        gf.danzero_states([obs], out=keep)
    assert (keep == 5).all()
    view = np.zeros(2 * gf.DANZERO_SIZE, np.float32)[::2]
    with pytest.raises(gf.InvalidArgumentError, match="out"):
        gf.danzero_state(obs, out=view)
