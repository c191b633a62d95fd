"""Pickle/copy round trips of every class, and bad arguments raising the package's own errors."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any, Callable

import pytest

import guandan_fast as gf


def _played_game() -> gf.Game:
    g = gf.Game(gf.Rules(best_of=3), seed=8)
    rng = random.Random(3)
    for _ in range(400):
        if g.phase in ("deal_over", "game_over"):
            g.next_deal()
            continue
        g.apply(rng.choice(g.legal_actions("pattern")))
    return g


OBJECTS: list[Callable[[], Any]] = [
    lambda: gf.Card("Th"),
    lambda: gf.Hand("3s 3s BJ RJ 9h"),
    lambda: gf.Combo("5s 5c 5d 9h 9h", "Bomb", level="9"),
    lambda: gf.Combo("3h 4h 5h 6h 7h", "StraightFlush", level="2"),
    lambda: gf.Rules(upgrade={2: 4, 3: 2, 4: 1}, a_pass="double_down", return_max_rank=None),
    lambda: gf.PASS,
    lambda: gf.Tribute("As"),
    lambda: gf.Return("3d"),
]


@pytest.mark.parametrize("make", OBJECTS)
def test_round_trips(make: Callable[[], Any]) -> None:
    x = make()
    assert pickle.loads(pickle.dumps(x)) == x
    assert copy.copy(x) == x
    assert copy.deepcopy(x) == x
    assert repr(x)


def test_game_round_trips_exactly() -> None:
    g = _played_game()
    for other in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g), g.clone()):
        assert other.position() == g.position()
        assert other.history == g.history
        assert other.deals == g.deals
        assert other.legal_actions() == g.legal_actions()
    # A copy is independent.
    c = g.clone()
    if c.phase == "play":
        c.apply(c.legal_actions()[-1])
        assert c.position() != g.position()


def test_game_from_position_round_trips_and_pickles() -> None:
    g = _played_game()
    p = g.position()
    h = gf.Game.from_position(p, g.rules)
    assert h.position() == p
    assert pickle.loads(pickle.dumps(h)).position() == p
    assert eval(repr(h), {"Game": gf.Game}).position() == p


def test_replay_reproduces_the_match() -> None:
    g = _played_game()
    r = gf.Game.replay(g.actions, seed=8, rules=gf.Rules(best_of=3))
    assert r.position() == g.position()
    assert r.deals == g.deals


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: gf.legal_moves("3s", "2", mode="x"), gf.InvalidArgumentError),
        (lambda: gf.Game(seed=1).observation(-1), gf.InvalidArgumentError),
        (lambda: gf.Game(seed=1).observation(4), gf.InvalidArgumentError),
        (lambda: gf.Game(leader=7), gf.InvalidArgumentError),
        (lambda: gf.settle_deal([0, 1, 2, 3], declarer=2), gf.InvalidArgumentError),
        (lambda: gf.simulate(3, unit="hand"), gf.InvalidArgumentError),
        (lambda: gf.simulate(3, policy="clever"), gf.InvalidArgumentError),
        (lambda: gf.Rules(return_max_rank=15), gf.InvalidRulesError),
        (lambda: gf.Rules(best_of=2), gf.InvalidRulesError),
        (lambda: gf.Rules(a_fail_reset="A"), gf.InvalidRulesError),
        (lambda: gf.Rules(upgrade={2: 1, 3: 2, 4: 3}), gf.InvalidRulesError),
        (lambda: gf.Game.from_position("gf1 nonsense"), gf.InvalidStateError),
        (lambda: gf.Combo("3s 4s", level="2"), gf.InvalidComboError),
        (lambda: gf.Hand("3s") - gf.Hand("4s"), gf.CardsNotInHandError),
        (lambda: gf.Hand("3s 3s") + gf.Hand("3s"), gf.DuplicateCardError),
    ],
)
def test_bad_arguments_raise_the_packages_errors(call: Callable[[], Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        call()
    assert issubclass(error, gf.GuandanError) and issubclass(error, ValueError)


def test_rank_options_take_text_or_face_value() -> None:
    assert gf.Rules(return_max_rank=10).return_max_rank == "T"
    assert gf.Rules(return_max_rank="10").return_max_rank == "T"
    assert gf.Rules(return_max_rank=None).return_max_rank is None
    assert gf.Rules().return_max_rank == "T"
    assert gf.Rules(a_fail_reset=11).a_fail_reset == "J"


def test_negative_seeds_are_seeds() -> None:
    assert gf.Game(seed=-1).position() == gf.Game(seed=-1).position()
    assert gf.deal(-1) != gf.deal(1)


def test_illegal_action_leaves_the_game_unchanged() -> None:
    g = gf.Game(seed=5)
    before = (g.position(), g.history, g.hands)
    other = gf.Combo("RJ", level=g.level) if gf.Card("RJ") not in g.hands[g.current_player] else None
    bad: list[Any] = [gf.PASS, gf.Tribute("As"), "nonsense"]
    if other is not None:
        bad.append(other)
    for action in bad:
        with pytest.raises(gf.GuandanError):
            g.apply(action)
        assert (g.position(), g.history, g.hands) == before


def test_game_set_up_at_any_level() -> None:
    g = gf.Game(seed=3, levels=("9", "A"), declarer=1, a_fails=(0, 2), leader=2)
    assert g.level == "A" and g.levels == ("9", "A") and g.a_fails == (0, 2) and g.declarer == 1
    assert g.current_player == 2 and g.phase == "play" and g.tribute is None
    assert all(m.level == "A" for m in g.legal_actions()[:5])
    assert pickle.loads(pickle.dumps(g)).position() == g.position()
    with pytest.raises(gf.GuandanError):
        gf.Game(levels=("2", "2"), a_fails=(3, 0))
    with pytest.raises(gf.InvalidArgumentError):
        gf.Game(declarer=2)
