"""The native episode every framework adapter steps (`_core.Episode`): its
rewards, its native seats' draws, pickling and refusals; RLCard's action
features against a reference written from `actions.fields`."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast._core import Episode, action_features

OPPONENTS = [None, "random", None, "greedy"]


def first_legal(ep: Episode, rng: np.random.Generator) -> int:
    legal = ep.legal_indices()
    return int(legal[rng.integers(len(legal))])


def test_an_episode_is_its_game_with_the_settlements_rewards() -> None:
    ep = Episode(unit="game", reward="deal")
    ep.reset(3)
    rng = np.random.default_rng(3)
    g = gf.Game(seed=3)
    total = np.zeros(4)
    while not ep.over:
        assert ep.current_player == g.current_player
        np.testing.assert_array_equal(ep.action_mask(), g.legal_action_mask().view(np.int8))
        np.testing.assert_array_equal(ep.observe(1), gf.danzero_state(g.observation(1)))
        i = first_legal(ep, rng)
        r = ep.step(i)
        g.apply_index(i)
        if g.phase == "deal_over":
            result = g.last_result
            assert result is not None
            assert r == tuple(result["gain"] * (1 if s % 2 == result["winner"] else -1) for s in range(4))
            g.next_deal()
        else:
            assert r == (0.0,) * 4
        total += r
    assert ep.game.position() == g.position() and g.phase in ("game_over", "match_over")
    assert tuple(total) == ep.returns and ep.current_player is None and not ep.action_mask().any()


class CountingGenerator(np.random.Generator):
    """A Generator whose own `integers` must be the one asked."""

    calls = 0

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return super().integers(*args, **kwargs)


@pytest.mark.parametrize("bits", ["pcg64", "pcg64-buffered", "mt19937", "sfc64", "subclass"])
def test_native_seats_draw_one_seed_a_move_from_the_generator(bits: str) -> None:
    """A native move is `policy_action(game, policy, seed=draws.integers(0, 2**63))`,
    and the generator is left as those draws leave it; a subclass's own
    `integers` is called for each."""

    def generator() -> np.random.Generator:
        if bits == "mt19937":
            return np.random.Generator(np.random.MT19937(5))
        if bits == "sfc64":
            return np.random.Generator(np.random.SFC64(5))
        if bits == "subclass":
            return CountingGenerator(np.random.PCG64(5))
        return np.random.default_rng(5)

    draws, mirror = generator(), generator()
    ep = Episode(opponents=OPPONENTS)
    ep.reset(11, draws)
    rng = np.random.default_rng(0)
    learner: list[int] = []
    while not ep.over:
        if bits == "pcg64-buffered":
            draws.integers(0, 10, dtype=np.int32)  # leaves half a draw buffered
        learner.append(first_legal(ep, rng))
        ep.step(learner[-1], draws)
    g, moves = gf.Game(seed=11), iter(learner)
    for action in ep.game.actions:
        policy = OPPONENTS[g.current_player]
        if policy is None:
            if bits == "pcg64-buffered":
                mirror.integers(0, 10, dtype=np.int32)
            assert actions.index(action, g.level) == next(moves)
        else:
            assert action == gf.policy_action(g, policy, seed=int(mirror.integers(0, 2**63)), threads=1)
        g.apply(action)
    if bits not in ("mt19937", "sfc64"):  # their states hold arrays
        assert draws.bit_generator.state == mirror.bit_generator.state
    assert draws.bit_generator.random_raw(4).tolist() == mirror.bit_generator.random_raw(4).tolist()
    if isinstance(draws, CountingGenerator):
        assert draws.calls == len(ep.game.actions) - len(learner) > 0


def test_refusals_change_nothing() -> None:
    ep = Episode()
    for call in (lambda: ep.step(0), lambda: ep.observe(0), lambda: ep.action_mask(), lambda: ep.current_player):
        with pytest.raises(gf.InvalidStateError, match="reset"):
            call()
    ep.reset(2)
    before = ep.game.position()
    illegal = int(np.flatnonzero(ep.action_mask() == 0)[0])
    with pytest.raises(gf.IllegalMoveError, match=f"action index {illegal}"):
        ep.step(illegal)
    for bad in (-1, actions.SIZE, 1.5, "3", None, True):
        with pytest.raises(gf.InvalidArgumentError):
            ep.step(bad)
    for bad_seat in (4, -1, "0"):
        with pytest.raises(gf.InvalidArgumentError):
            ep.observe(bad_seat)
    with pytest.raises(gf.InvalidArgumentError, match="out"):
        ep.observe(0, out=np.zeros(3, np.float32))
    assert ep.game.position() == before and ep.returns == (0.0,) * 4
    with pytest.raises(gf.InvalidArgumentError, match="reward"):
        Episode(reward="game")
    with pytest.raises(gf.InvalidArgumentError):
        Episode(opponents=["nobody", None, None, None])
    with pytest.raises(gf.InvalidRulesError):
        Episode(rules="tournament")  # type: ignore[arg-type]


def test_observe_writes_into_out() -> None:
    ep = Episode(observation="guandan")
    ep.reset(4)
    buf = np.full(gf.OBSERVATION_SIZE, 9, np.float32)
    assert ep.observe(2, out=buf) is buf
    np.testing.assert_array_equal(buf, gf.encode_observation(ep.view(2)))


def test_pickle_and_copies_go_on_alike() -> None:
    ep = Episode(unit="game", opponents=[None, "random", None, "random"], observation="guandan")
    ep.reset(6)
    rng = np.random.default_rng(1)
    for _ in range(30):
        ep.step(first_legal(ep, rng))
    for other in (pickle.loads(pickle.dumps(ep)), copy.copy(ep), copy.deepcopy(ep)):
        assert other.game.position() == ep.game.position() and other.returns == ep.returns
        assert (other.seed, other.opponents, other.unit, other.observation) == (6, ep.opponents, "game", "guandan")
        a, b = np.random.default_rng(2), np.random.default_rng(2)
        for _ in range(40):
            if ep.over:
                break
            i = first_legal(ep, a)
            assert i == first_legal(other, b)
            x, y = copy.copy(ep), copy.copy(other)
            assert x.step(i) == y.step(i) and x.game.position() == y.game.position()
    assert pickle.loads(pickle.dumps(Episode())).started is False


def reference_features(level: str) -> np.ndarray:
    """RLCard's action features rebuilt from `actions.fields` (the cards of each
    index's pattern from the lowest faces; see `envs.rlcard.action_features`)."""
    ranks, suits = "23456789TJQKA", "hscd"
    lv = ranks.index(level)
    table = np.zeros((actions.SIZE, 54), np.int8)
    for i in range(actions.SIZE):
        f = actions.fields(i)
        if f["type"] in ("tribute", "return"):
            table[i, gf.Hand([f["card"]]).to_array().argmax()] = 1  # type: ignore[list-item]
        if f["type"] != "play":
            continue
        for r, n in enumerate(f["naturals"]):  # type: ignore[arg-type]
            if n and r >= 13:
                table[i, 52 + r - 13] = n
            elif n:
                order = [suits.index(str(f["suit"]))] if f["suit"] else ([1, 2, 3, 0] if r == lv else [0, 1, 2, 3])
                for s in order:
                    table[i, 4 * r + s] = min(n, 2)
                    n -= min(n, 2)
                    if n == 0:
                        break
        table[i, 4 * lv] += f["wildcards"]  # type: ignore[operator]
    return table


@pytest.mark.parametrize("level", ["2", "9", "A"])
def test_action_features_are_the_reference(level: str) -> None:
    np.testing.assert_array_equal(action_features(level), reference_features(level))
