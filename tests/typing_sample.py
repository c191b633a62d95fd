"""Typical uses of guandan_fast, type-checked with ``mypy --strict`` by
tests/test_stubs.py (not a pytest module: its name does not start with
``test_``). It also runs: ``python tests/typing_sample.py``.
"""

from __future__ import annotations

import copy
import pickle
from typing import Literal

import numpy as np
from numpy.typing import NDArray

import guandan_fast as gf


def cards_and_hands() -> None:
    c = gf.Card("Th")
    idx: int = c.index
    rank: str = c.rank
    suit: str | None = c.suit
    assert gf.Card.from_index(idx) == c and rank == "T" and suit == "h"
    assert c.is_wildcard("T") and not c.is_wildcard(2)
    assert sorted([gf.Card("As"), gf.Card("2h")])[0] == gf.Card("2h")
    cards: list[gf.Card] = gf.parse_cards("Th 4s, BJ")
    hand = gf.Hand("3c 4d 5s 6h 2h 2h 9s 9d BJ")
    hand2 = gf.Hand(cards) + "RJ" - gf.Card("BJ")
    assert len(hand2) == 3 and gf.Card("RJ") in hand2 and "Th 4s" in hand2
    counts: list[int] = hand.counts()
    arr: NDArray[np.uint8] = hand.to_array()
    assert gf.Hand.from_counts(arr) == gf.Hand.from_counts(counts) == hand
    assert hand.count("2h") == 2 and hand.wildcards("2") == 2
    weakest: gf.Card = hand.sorted("2")[0]
    assert weakest == gf.Card("3c")
    for card in hand:
        assert isinstance(card, gf.Card)
    hands: list[gf.Hand] = gf.deal(7)
    assert sum(len(h) for h in hands) == 108


def combos() -> None:
    found: list[gf.Combo] = gf.classify("3c 4d 5s 6h 2h", level="2")
    ranks = sorted(c.rank for c in found)
    assert ranks == ["2", "3"]
    top: gf.Move = gf.Combo("7s 7d", level="2")
    kind: Literal["Pair"] | str = top.kind
    assert kind == "Pair" and gf.KINDS[top.kind_code] == "Pair" and top.rank_code == 5
    fh = gf.Combo("5s 5c 5d 2h 2h", "FullHouse", level=2)
    wild: tuple[gf.Card, ...] = fh.wildcards
    assert len(wild) == fh.wildcard_count == 2 and not fh.is_bomb and fh.size == len(fh) == 5
    assert fh.cards == gf.Hand("5s 5c 5d 2h 2h") and fh.level == "2" and fh.suit is None
    hand = gf.Hand("9s 9h Ts Tc 3s 3c BJ RJ")
    follow = gf.legal_moves(hand, "2", top, mode="pattern")
    assert all(m.beats(top) for m in follow)
    n: int = gf.count_moves(hand, 2, "7s 7d")
    assert n == len(gf.legal_moves(hand, 2, top))
    arrays = gf.legal_moves_array(hand, "2")
    matrix: NDArray[np.uint8] = arrays["cards"]
    assert matrix.shape == (len(arrays["kind"]), 54)
    h: gf.Hand = pickle.loads(pickle.dumps(fh.cards))
    assert h == fh.cards and pickle.loads(pickle.dumps(gf.Card("RJ"))) == gf.Card("RJ")


def rules_and_settlement() -> None:
    rules = gf.Rules(upgrade={2: 4, 3: 2, 4: 1}, a_pass="double_down", max_deals=10)
    again = gf.Rules(**rules.to_dict())
    assert again == rules and rules.upgrade[2] == 4 and rules.a_max_attempts == 3
    reset: str = rules.a_fail_reset
    assert reset == "2" and rules.return_max_rank == "T"
    s = gf.settle_deal([0, 2, 1, 3], levels=("2", "2"), rules=rules)
    levels: tuple[str, str] = s["levels"]
    winner_game: int | None = s["game_winner"]
    assert levels == ("6", "2") and winner_game is None and s["gain"] == 4
    plan = gf.tribute_plan(gf.deal(1), [0, 1, 2, 3], "2")
    for giver, receiver in plan["payments"]:
        options: list[gf.Card] = plan["options"][giver]
        assert options and receiver == 0
    back: list[gf.Card] = gf.return_options("3s As 4d", "4")
    assert back == [gf.Card("3s")]


def games() -> None:
    g = gf.Game(seed=3)
    while not g.is_over and g.phase == "play":
        actions = g.legal_actions(mode="pattern")
        a = actions[0]
        if isinstance(a, gf.Combo):
            assert a.level == g.level
        g.apply(a)
        if g.deal_number >= 1:
            break
    replayed = gf.Game.replay(g.actions, seed=3)
    assert replayed.position() == g.position()
    if g.phase in ("deal_over", "game_over"):
        g.next_deal()
    seat: int | None = g.current_player
    assert seat is not None
    obs = g.observation(seat)
    unseen: gf.Hand = obs.unseen
    sizes: tuple[int, int, int, int] = obs.hand_sizes
    assert len(unseen) + len(obs.hand) + sum(len(p) for p in obs.played) == 108
    assert sum(sizes) + sum(len(p) for p in obs.played) == 108
    info = g.tribute
    if info is not None:
        for giver, receiver, card in info["tributes"]:
            assert isinstance(card, gf.Card) and giver != receiver
    arrays = g.legal_actions_array()
    can_pass: bool = arrays["can_pass"]
    assert can_pass == any(a == gf.PASS for a in g.legal_actions())
    for seat_no, action in g.history:
        assert 0 <= seat_no <= 3 and isinstance(action, (gf.Combo, gf.Pass, gf.Tribute, gf.Return))
    restored = gf.Game.from_position(g.position())
    assert restored.hands == g.hands
    c1: gf.Game = copy.deepcopy(g)
    c2: gf.Game = pickle.loads(pickle.dumps(g))
    assert c1.position() == c2.position() == g.clone().position()
    for record in g.deals:
        assert record["finish_order"][0] in (0, 1, 2, 3)


def simulation() -> None:
    deals = gf.simulate(8, seed=1, threads=1)
    finish: NDArray[np.uint8] = deals["finish"]
    assert finish.shape == (8, 4)
    games = gf.simulate(2, seed=1, unit="game", threads=1, rules=gf.Rules(max_deals=20))
    assert games["levels"].shape == (2, 2) and games["deals"].dtype == np.uint32


if __name__ == "__main__":
    cards_and_hands()
    combos()
    rules_and_settlement()
    games()
    simulation()
    print("typing_sample: ok")
