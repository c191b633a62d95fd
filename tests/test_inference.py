"""Hidden hands inferred from the play: `infer_hands` and `hand_log_likelihood`."""

from __future__ import annotations

import numpy as np
import pytest

import guandan_fast as gf


def rule_position(seed: int, actions: int) -> gf.Game:
    g = gf.Game(seed=seed)
    for _ in range(actions):
        g.apply(gf.policy_action(g, "rule"))
    return g


def truth(g: gf.Game) -> np.ndarray:
    return np.stack([h.to_array() for h in g.hands])[None]


def test_true_hands_explain_rule_play() -> None:
    g = rule_position(3, 30)
    for seat in range(4):
        o = g.observation(seat)
        assert gf.hand_log_likelihood(o, truth(g), epsilon=0.1).tolist() == [0.0]


def test_epsilon_one_is_the_uniform_sampler() -> None:
    o = rule_position(2, 40).observation(1)
    u = gf.sample_hands(o, 30, seed=4)
    assert np.array_equal(gf.infer_hands(o, 30, seed=4, epsilon=1.0, batch=30), u)
    assert (gf.hand_log_likelihood(o, u, epsilon=1.0) == 0).all()


def test_inferred_hands_fit_the_observation_and_repeat_for_a_seed() -> None:
    g = rule_position(5, 45)
    o = g.observation(g.current_player)
    h = gf.infer_hands(o, 12, seed=1, epsilon=0.2, max_cards=16, moves=3, threads=1)
    assert h.shape == (12, 4, 54) and h.dtype == np.uint8
    assert (h[:, o.seat] == o.hand.to_array()).all()
    assert (h.sum(axis=2) == np.array(o.hand_sizes)).all()
    assert np.array_equal(h, gf.infer_hands(o, 12, seed=1, epsilon=0.2, max_cards=16, moves=3, threads=2))
    lw = gf.hand_log_likelihood(o, h, epsilon=0.2, max_cards=16)
    assert lw.shape == (12,) and (lw <= 0).all()
    assert gf.infer_hands(o, 0).shape == (0, 4, 54)


@pytest.mark.parametrize(
    "kw",
    [
        {"epsilon": 0},
        {"epsilon": 1.5},
        {"epsilon": True},
        {"epsilon": "0.1"},
        {"partner_epsilon": -1.0},
        {"max_cards": -1},
        {"batch": 0},
        {"moves": -2},
        {"n": -1},
    ],
)
def test_bad_arguments_raise(kw: dict) -> None:
    o = rule_position(1, 10).observation(0)
    n = kw.pop("n", 2)
    with pytest.raises(gf.InvalidArgumentError):
        gf.infer_hands(o, n, **kw)


def test_deals_that_do_not_fit_raise() -> None:
    g = rule_position(4, 20)
    o = g.observation(0)
    t = truth(g)
    with pytest.raises(gf.InvalidArgumentError, match="deal 0"):
        gf.hand_log_likelihood(o, t[:, ::-1].copy())
    for bad in [t[0], t.astype(np.int64), np.zeros((1, 4, 53), np.uint8), "3s 4s"]:
        with pytest.raises(gf.GuandanError):
            gf.hand_log_likelihood(o, bad)  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError):
        gf.infer_hands("not an observation", 1)  # type: ignore[arg-type]


def test_observations_rebuilt_from_public_messages_infer_alike() -> None:
    g = rule_position(6, 35)
    o = g.observation(2)
    top = g.top
    p = gf._core._observation_from_public(
        seat=2,
        rules=g.rules,
        levels=g.levels,
        a_fails=g.a_fails,
        declarer=g.declarer,
        phase=g.phase,
        current=g.current_player,
        hand=g.hands[2],
        sizes=g.hand_sizes,
        top=None if top is None else (top, g.top_seat),
        finish=g.finish_order,
        history=g.history,
        prev_finish=None,
        resisted=False,
    )
    assert np.array_equal(gf.infer_hands(p, 5, seed=3, max_cards=14), gf.infer_hands(o, 5, seed=3, max_cards=14))
