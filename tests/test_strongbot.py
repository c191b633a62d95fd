"""Hand decomposition, the rule policy and the search policies from Python."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

import guandan_fast as gf
from guandan_fast import _core
from guandan_fast.bots import Bot


def brute(cards: list[str], level: str, cost: Callable[[gf.Combo], int] = lambda m: 1) -> int:
    """The least total `cost` (by default the fewest plays) by trying every
    legal lead of every sub-hand."""
    memo: dict[tuple[str, ...], int] = {}

    def go(hand: tuple[str, ...]) -> int:
        if not hand:
            return 0
        if hand not in memo:
            best = 1 << 30
            for m in gf.legal_moves(" ".join(hand), level, mode="cards"):
                rest = list(hand)
                for c in m.cards:
                    rest.remove(str(c))
                best = min(best, cost(m) + go(tuple(sorted(rest))))
            memo[hand] = best
        return memo[hand]

    return go(tuple(sorted(cards)))


# The rule policy's costs (rust/search/choosers/rule_based.rs, VALUE), by
# kind: singles, pairs and triples (a full house as its triple) by rank
# value, bombs by size, runs (a straight flush as a straight) by position on
# the ladder A 2 ... K A.
RULE_COSTS = {
    "Single": [100, 100, 100, 100, 100, 100, 100, 95, 90, 85, 80, 72, 62, 48, 32, 15],
    "Pair": [100, 100, 100, 100, 100, 100, 100, 95, 90, 84, 78, 70, 55, 40, 8, 0],
    "Triple": [100, 100, 100, 100, 100, 100, 100, 96, 92, 88, 84, 78, 70, 60],
    "Bomb": [0, 0, 0, 0, -20, -30, -45, -60, -70, -80, -90],
    "Straight": [100, 100, 100, 98, 95, 92, 88, 84, 78, 70],
    "Tube": [100, 100, 100, 100, 97, 94, 91, 88, 85, 80, 75, 70],
    "Plate": [100, 100, 100, 100, 97, 94, 91, 88, 85, 82, 78, 74, 70],
    "JokerBomb": [-100],
}


def test_rule_costs_pin_the_table_played() -> None:
    order = ("Single", "Pair", "Triple", "Bomb", "Straight", "Tube", "Plate", "JokerBomb")
    assert [c for kind in order for c in RULE_COSTS[kind]] == _core._rule_value()


def rule_cost(level: str) -> Callable[[gf.Combo], int]:
    """What a play costs in the rule policy's hand value at `level`."""
    ranks = "23456789TJQKA"

    def cost(m: gf.Combo) -> int:
        kind, rank = m.kind, str(m.rank)
        if kind in ("Straight", "StraightFlush", "Tube", "Plate"):
            return RULE_COSTS["Straight" if kind == "StraightFlush" else kind][0 if rank == "A" else ranks.index(rank) + 1]
        if kind in ("Bomb", "JokerBomb"):
            return RULE_COSTS[kind][len(m) if kind == "Bomb" else 0]
        value = {"BJ": 14, "RJ": 15}.get(rank, 13 if rank == level else ranks.find(rank))
        return RULE_COSTS["Triple" if kind == "FullHouse" else kind][value]

    return cost


@pytest.mark.parametrize(
    "hand, level, want",
    [
        ("", "2", 0),
        ("3s 4s 5d 6c 7h", "2", 1),
        ("3s 4s 6c 7h 2h", "2", 1),  # the wildcard 2h fills the gap
        ("As 2s 3d 4c 5h", "K", 1),
        ("3s 3d 3c 5s 5d 5c 9s 9d 9c 9h", "2", 2),  # the four split into two pairs
        ("BJ BJ RJ RJ", "2", 1),
        ("8s 8d 8c BJ BJ", "2", 1),
        ("3s 3d 4c 4h 5s 5d 9c", "2", 2),
    ],
)
def test_decompose_hand_made(hand: str, level: str, want: int) -> None:
    n, plays = gf.decompose(hand, level)
    assert n == want == len(plays)
    assert sorted(str(c) for p in plays for c in p.cards) == sorted(str(c) for c in gf.parse_cards(hand))
    for p in plays:
        assert p.kind in gf.KINDS


def test_decompose_matches_brute_force() -> None:
    deck = [str(c) for c in gf.parse_cards("3s 3d 4s 4d 5s 5c 6h 6s 7d 8c 2h 2h BJ RJ Ts")]
    for k, level in itertools.product(range(40), ("2", "5")):
        hand = [deck[(k * 7 + 3 * j) % len(deck)] for j in range(4 + k % 5)]
        if any(hand.count(c) > 2 for c in hand):
            continue
        assert gf.decompose(" ".join(hand), level)[0] == brute(hand, level), (hand, level)


def test_rule_plan_matches_brute_force() -> None:
    deck = [str(c) for c in gf.parse_cards("3s 3d 4s 4d 5s 5c 6h 6s 7d 8c 2h 2h BJ RJ Ts Ah Ad Kc Qs Jd 9h")]
    for k, level in itertools.product(range(40), ("2", "5", "A")):
        hand = [deck[(k * 5 + 4 * j) % len(deck)] for j in range(4 + k % 6)]
        if any(hand.count(c) > 2 for c in hand):
            continue
        cost, plays = gf.decompose(" ".join(hand), level, costs="rule")
        assert cost == brute(hand, level, rule_cost(level)), (hand, level)
        assert sorted(str(c) for p in plays for c in p.cards) == sorted(hand)
        assert sum(rule_cost(level)(p) for p in plays) >= cost  # a triple and a pair of its rank: a bomb


def test_rule_plan_keeps_bombs_whole() -> None:
    # Two plays either way; the rule plan keeps the four sevens as a bomb.
    assert gf.decompose("7s 7d 7c 7h 9s 9d", "2")[0] == 2
    cost, plays = gf.decompose("7s 7d 7c 7h 9s 9d", "2", costs="rule")
    assert sorted(p.kind for p in plays) == ["Bomb", "Pair"] and cost == -20 + 95


@pytest.mark.parametrize("costs", ["value", "", "RULE", None, 1, 2**63, b"rule", 1.0, ["rule"], "r" * 1_000_000])
def test_decompose_refuses_bad_costs(costs: object) -> None:
    with pytest.raises(gf.InvalidArgumentError, match="costs") as e:
        gf.decompose("3s", "2", costs=costs)  # type: ignore[arg-type]
    assert len(str(e.value)) < 300


def test_joker_pair_rule() -> None:
    assert gf.decompose("8s 8d 8c BJ BJ", "2", joker_pair_in_full_house=False)[0] == 2


@pytest.mark.parametrize(
    "args, error",
    [
        (("3s 3s 3s", "2"), gf.GuandanError),
        (("3x", "2"), gf.InvalidCardError),
        (("3s", "1"), gf.InvalidLevelError),
        ((5, "2"), gf.GuandanError),
    ],
)
def test_decompose_bad_arguments(args: tuple[object, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        gf.decompose(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["rule:3", "sh:0", "sh+fun:5", "sh:5@0ms", "sh:5@10", "greedy+game", "ismcts:x", "ismcts-fast:3"])
def test_bad_policy_names(name: str) -> None:
    with pytest.raises(gf.InvalidArgumentError):
        gf.pit(name, "greedy", n=1)
    with pytest.raises(gf.InvalidArgumentError):
        gf.SearchBot(name)
    with pytest.raises(gf.InvalidArgumentError):
        gf.policy_action(gf.Game(seed=1), name)


@pytest.mark.parametrize("bot", [gf.RuleBot(), gf.SearchBot("sh:12", seed=3), gf.SearchBot("mc-rule+game:8", seed=1), gf.SearchBot("ismcts:30", seed=2)])
def test_bots_play_legal_deals(bot: Bot) -> None:
    game = gf.Game(seed=9)
    order = gf.play_deal(game, [bot, gf.GreedyBot(), bot, gf.RandomBot(2)])
    assert sorted(order) == [0, 1, 2, 3]


def test_search_is_the_same_for_any_thread_count() -> None:
    for seed in range(3):
        g = gf.Game(seed=seed)
        for policy in ("sh-greedy:60", "ismcts:60"):
            picks = {str(gf.policy_action(g, policy, seed=5, threads=t)) for t in (1, 2, 3)}
            assert len(picks) == 1, policy


def test_names_are_the_engine_s() -> None:
    assert gf.SearchBot("sh").policy == "sh:200"
    assert gf.SearchBot("mc-rule+game:10@50ms").policy == "mc-rule+game:10@50ms"


def test_a_timed_search_stops_at_its_clock_within_a_round() -> None:
    # Budgets no machine spends: only the clock, looked at between worlds, ends these searches.
    g = gf.Game(seed=4)
    for policy in ("focus+win+infer+exact:10000000@50ms", "best@50ms"):
        assert gf.policy_action(g, policy, seed=1) in g.legal_actions("pattern")


def test_rule_beats_greedy_more_often_than_not() -> None:
    r = gf.pit("rule", "greedy", n=60, seed=3)
    assert r.win_rate > 0.5, r
