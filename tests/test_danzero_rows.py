"""`danzero_actions` and `VectorEnv.danzero_actions`: DanZero's 567-value rows.

Each row is `danzero_state` of the decision followed by the action's 54
counts (`legal_action_rows`), rows in index order; suit-major renumbers
card `4 r + s` as column `13 s + r` in every card field; the vector env's
rows are the tables' rows one after another. (DanZero's own code is the
reference in tests/test_danzero_reference.py; tests/golden/danzero567.txt
pins the values.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.encoding import DANZERO_LAYOUT

ROW = gf.DANZERO_ROW_SIZE
CARD_FIELDS = [sl for name, sl in DANZERO_LAYOUT.items() if sl.stop - sl.start == 54] + [slice(gf.DANZERO_SIZE, ROW)]
#: Column of rank-major card i in suit-major order.
SUIT_MAJOR = np.array([13 * (i % 4) + i // 4 for i in range(52)] + [52, 53])


def decisions(seeds: range, every: int = 3):
    """Games of the seeds played by a seeded mix of greedy and random moves; yields the game at every `every`-th decision."""
    rng = random.Random(7)
    for seed in seeds:
        g = gf.Game(seed=seed)
        k = 0
        while g.phase != "match_over" and g.game_number == 0:
            if g.phase in ("deal_over", "game_over"):
                g.next_deal()
                continue
            k += 1
            if k % every == 0:
                yield g
            acts = g.legal_actions("pattern")
            g.apply(rng.choice(acts) if rng.random() < 0.3 else gf.policy_action(g, "greedy"))


def test_rows_are_state_then_action() -> None:
    seen = set()
    for g in decisions(range(3)):
        rows = gf.danzero_actions(g)
        legal = g.legal_action_rows()
        seat = g.current_player
        obs = g.observation(seat)
        assert rows.dtype == np.float32 and rows.shape == (len(legal["index"]), ROW)
        assert np.array_equal(rows[:, : gf.DANZERO_SIZE], np.broadcast_to(gf.danzero_state(obs), (len(rows), gf.DANZERO_SIZE)))
        assert np.array_equal(rows[:, gf.DANZERO_SIZE :], legal["cards"])
        assert np.array_equal(gf.danzero_actions(obs), rows)  # the seat's observation gives the same rows
        assert np.array_equal(g.legal_action_indices(), legal["index"])
        seen.add(g.phase)
    assert seen == {"tribute", "return", "play"}


def test_suit_major_renumbers_every_card_field() -> None:
    for g in decisions(range(2), every=5):
        rank = gf.danzero_actions(g)
        suit = gf.danzero_actions(g, card_order="suit-major")
        expected = rank.copy()
        for sl in CARD_FIELDS:
            expected[:, sl.start + SUIT_MAJOR] = rank[:, sl]
        assert np.array_equal(suit, expected)


def test_out_buffer_and_errors() -> None:
    g = gf.Game(seed=1)
    n = len(g.legal_action_indices())
    out = np.full((n, ROW), np.nan, np.float32)
    assert gf.danzero_actions(g, out) is out and np.array_equal(out, gf.danzero_actions(g))
    with pytest.raises(gf.InvalidArgumentError, match=rf"out must be .*\({n}, 567\)"):
        gf.danzero_actions(g, np.zeros((n + 1, ROW), np.float32))
    with pytest.raises(gf.InvalidArgumentError, match="out must be"):
        gf.danzero_actions(g, np.zeros((n, ROW), np.float64))
    with pytest.raises(gf.InvalidArgumentError, match="card_order must be 'rank-major' or 'suit-major'"):
        gf.danzero_actions(g, card_order="rank")
    with pytest.raises(gf.InvalidArgumentError, match="state must be a Game or an Observation"):
        gf.danzero_actions("game")
    # not the seat to act: no rows
    other = g.observation((g.current_player + 1) % 4)
    assert gf.danzero_actions(other).shape == (0, ROW)
    assert gf._core.observation_fields("danzero567")[-1] == ("action", 513, 54, 0.0, 2.0)


@pytest.mark.parametrize("opponents", [None, [None, "greedy", None, "greedy"]])
def test_vector_env_rows_are_the_tables_rows(opponents) -> None:
    env = gf.VectorEnv(6, seed=3, opponents=opponents)
    d = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        rows = env.danzero_actions(card_order="suit-major")
        off = d["legal_offset"]
        assert rows.shape == (off[-1], ROW)
        for i in range(6):
            game = env.episode(i)
            assert np.array_equal(rows[off[i] : off[i + 1]], gf.danzero_actions(game, card_order="suit-major"))
            assert np.array_equal(d["legal"][off[i] : off[i + 1]], game.legal_action_indices())
        pick = [int(rng.choice(d["legal"][off[i] : off[i + 1]])) for i in range(6)]
        d = env.step(np.array(pick))
    buf = np.zeros((int(d["legal_offset"][-1]), ROW), np.float32)
    assert env.danzero_actions(buf) is buf
    with pytest.raises(gf.InvalidArgumentError, match="out must be"):
        env.danzero_actions(np.zeros((1, 3), np.float32))
    env.close()
    with pytest.raises(gf.InvalidStateError, match="closed"):
        env.danzero_actions()
