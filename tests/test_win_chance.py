"""`win_chance`: the game model of the `+win` searches, checked against its
own definition (each state's chance is the chance-weighted mean of the
states its six deal outcomes lead to, settled by `settle_deal`), and its
argument errors."""

from __future__ import annotations

import itertools
from typing import Optional

import pytest

import guandan_fast as gf

PLATFORM = gf.Rules(a_pass="double_down", a_max_attempts=2)
RANKS = "23456789TJQKA"

# The model's deal chances as documented (rust/search/value.rs): on a game's
# first deal the winner's partner finishes 2nd, 3rd, 4th with these chances,
# either team winning half; after a single (double) tribute the receivers'
# outcomes (双上, partner 3rd, partner 4th) and then the payers'.
PARTNER_PLACE = [0.50, 0.18, 0.32]
AFTER_SINGLE = [0.353, 0.101, 0.163, 0.160, 0.069, 0.153]
AFTER_DOUBLE = [0.394, 0.099, 0.133, 0.146, 0.059, 0.169]
# One finishing order for each (winning team, partner's place), team 0's side first.
OUTCOMES = [[0, 2, 1, 3], [0, 1, 2, 3], [0, 1, 3, 2], [1, 3, 0, 2], [1, 0, 3, 2], [1, 0, 2, 3]]


def chances(declarer: Optional[int], after: Optional[list[int]]) -> list[tuple[float, list[int]]]:
    """(chance, finishing order) of each outcome of the next deal, by the model."""
    if declarer is None:
        raw = [0.5 * PARTNER_PLACE[k % 3] for k in range(6)]
        receiver = 0
    else:
        double = after is not None and after[1] % 2 == after[0] % 2
        raw = AFTER_DOUBLE if double else AFTER_SINGLE
        receiver = declarer
    total = sum(raw)
    return [(raw[k] / total, OUTCOMES[k if receiver == 0 else (k + 3) % 6]) for k in range(6)]


def expected(levels: tuple[str, str], a_fails: tuple[int, int], declarer: Optional[int], after: Optional[list[int]],
             rules: gf.Rules) -> float:
    """Team 0's chance from its definition: over the next deal's outcomes, 1 or 0 for a game
    decided, else the model's chance of the state the deal leaves."""
    value = 0.0
    for p, order in chances(declarer, after):
        s = gf.settle_deal(order, levels=levels, a_fails=a_fails, declarer=declarer, rules=rules)
        if s["game_winner"] is not None:
            value += p * (s["game_winner"] == 0)
        else:
            value += p * gf.win_chance(levels=s["levels"], a_fails=s["a_fails"], declarer=s["declarer"], after=order, rules=rules)
    return value


@pytest.mark.parametrize("rules", [PLATFORM, gf.Rules()], ids=["platform", "default"])
def test_every_chance_is_the_mean_of_the_chances_after_its_deal(rules: gf.Rules) -> None:
    a_max = rules.a_max_attempts or 3
    cases = 0
    for l0, l1 in itertools.product("25TKA", "36QA"):
        for f0, f1 in itertools.product(range(a_max), range(a_max)):
            for declarer, after in [(None, None), (0, None), (0, [0, 2, 1, 3]), (1, [1, 0, 2, 3]), (1, [3, 1, 0, 2])]:
                got = gf.win_chance(levels=(l0, l1), a_fails=(f0, f1), declarer=declarer, after=after, rules=rules)
                want = expected((l0, l1), (f0, f1), declarer, after, rules)
                assert got == pytest.approx(want, abs=1e-8), ((l0, l1), (f0, f1), declarer, after)
                cases += 1
    assert cases == 5 * 4 * a_max * a_max * 5


def test_the_chances_of_the_two_teams_add_up_and_the_start_is_even() -> None:
    assert gf.win_chance(rules=PLATFORM) == pytest.approx(0.5, abs=1e-8)
    for levels in [("2", "2"), ("9", "4"), ("A", "K")]:
        for declarer, after in [(0, None), (1, [1, 3, 0, 2])]:
            c0 = gf.win_chance(levels=levels, declarer=declarer, after=after, rules=PLATFORM)
            c1 = gf.win_chance(levels=levels, declarer=declarer, after=after, team=1, rules=PLATFORM)
            assert c0 + c1 == pytest.approx(1.0, abs=1e-12)


def test_a_higher_level_a_double_tribute_and_fewer_failures_are_worth_more() -> None:
    chance = [gf.win_chance(levels=(r, "5"), declarer=0, rules=PLATFORM) for r in RANKS]
    assert chance == sorted(chance) and len(set(chance)) == len(chance)
    single = gf.win_chance(levels=("8", "8"), declarer=0, after=[0, 1, 2, 3], rules=PLATFORM)
    double = gf.win_chance(levels=("8", "8"), declarer=0, after=[0, 2, 1, 3], rules=PLATFORM)
    assert double > single > 0.5
    assert gf.win_chance(levels=("8", "8"), declarer=0, rules=PLATFORM) == single  # no `after`: a single tribute
    first = gf.win_chance(levels=("A", "8"), declarer=0, rules=PLATFORM)
    last = gf.win_chance(levels=("A", "8"), a_fails=(1, 0), declarer=0, rules=PLATFORM)
    assert first > last > 0.5


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(after=[0, 2, 1, 3]), gf.InvalidArgumentError, "needs the declarer"),
        (dict(after=[1, 0, 2, 3], declarer=0), gf.InvalidArgumentError, "won by team 1"),
        (dict(after=[0, 0, 1, 2], declarer=0), gf.InvalidArgumentError, "seats 0..3 each once"),
        (dict(levels=("X", "2")), gf.InvalidLevelError, "levels[0]"),
        (dict(a_fails=(2, 0)), gf.InvalidStateError, "a_max_attempts"),
        (dict(team=2), gf.InvalidArgumentError, "team"),
        (dict(declarer=3), gf.InvalidArgumentError, "declarer"),
        (dict(levels="22"), gf.InvalidArgumentError, "two ranks"),
        (dict(rules="platform"), gf.GuandanError, "rules"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, object], error: type[Exception], words: str) -> None:
    kwargs.setdefault("rules", PLATFORM)
    with pytest.raises(error, match=words.replace("[", r"\[").replace(".", r"\.")):
        gf.win_chance(**kwargs)  # type: ignore[arg-type]
