"""The fixed action space (guandan_fast.actions) and the legal-action masks.

Every legal action of many seeded random positions (first deals at every
level, later deals with tribute and return, mid-deal positions, hands with
0, 1 and 2 wildcards) has a unique index; the index maps back to the same
action; its fields describe the action (checked against the action's own
cards, the slow obvious reference); the mask, the sorted indices and the
rows equal the legal set; bad input raises and changes nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast import actions

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ")
LEVELS = RANKS[:13]


def naturals_of(combo: gf.Combo) -> list[int]:
    """Natural (non-wildcard) cards per rank of a play: the reference of `fields()['naturals']`."""
    counts = [0] * 15
    for card in combo.cards:
        if not card.is_wildcard(combo.level):
            counts[RANKS.index(card.rank)] += 1
    return counts


def expected_fields(a: object) -> dict[str, object]:
    if isinstance(a, gf.Combo):
        return {
            "type": "play", "kind": a.kind, "rank": a.rank, "size": a.size, "suit": a.suit,
            "wildcards": a.wildcard_count, "naturals": naturals_of(a),
        }
    if isinstance(a, gf.Pass):
        return {"type": "pass"}
    assert isinstance(a, (gf.Tribute, gf.Return))
    return {"type": "tribute" if isinstance(a, gf.Tribute) else "return", "card": a.card}


def positions(n_matches: int, seed: int):
    """Seeded random positions: every decision of random matches from every level."""
    rng = random.Random(seed)
    for m in range(n_matches):
        level = LEVELS[m % 13]
        g = gf.Game(seed=seed * 1000 + m, levels=(level, LEVELS[(m * 5) % 13]), declarer=m % 2)
        for _ in range(400):
            if g.is_over:
                break
            if g.current_player is None:
                g.next_deal()
                continue
            yield g
            acts = g.legal_actions(mode="pattern")
            g.apply(rng.choice(acts))


def check_position(g: gf.Game) -> None:
    legal = g.legal_actions(mode="pattern")
    idx = [actions.index(a, g.level) for a in legal]
    assert len(set(idx)) == len(idx), "two legal actions share an index"
    assert g.legal_action_indices().tolist() == sorted(idx)
    mask = g.legal_action_mask()
    assert mask.dtype == np.uint8 and mask.shape == (actions.SIZE,)
    assert np.flatnonzero(mask).tolist() == sorted(idx)
    obs = g.observation(g.current_player)
    assert np.array_equal(obs.legal_action_mask(), mask)
    for i, a in zip(idx, legal):
        assert actions.action(i, g) == a
        assert actions.action(i, obs) == a
        assert actions.fields(i) == expected_fields(a)
    rows = g.legal_action_rows()
    assert rows["index"].tolist() == sorted(idx)
    by_index = dict(zip(idx, legal))
    for i, row in zip(rows["index"].tolist(), rows["cards"]):
        a = by_index[i]
        want = np.zeros(54, np.uint8)
        if isinstance(a, gf.Combo):
            want = np.array(a.cards.counts(), np.uint8)
        elif isinstance(a, (gf.Tribute, gf.Return)):
            want[a.card.index] = 1
        assert row.tolist() == want.tolist()
    # Every physical choice of a pattern shares its index.
    if g.phase == "play":
        for a in g.legal_actions(mode="cards"):
            assert actions.index(a) in by_index


def test_size_and_fixed_entries() -> None:
    assert actions.SIZE == actions.size() == len(gf.Game().legal_action_mask()) == 2321
    assert actions.index(gf.PASS) == actions.PASS_INDEX == 0
    assert actions.describe(0) == "Pass"
    assert actions.index(gf.Tribute("Ah")) == actions.TRIBUTE_BASE + gf.Card("Ah").index
    assert actions.index(gf.Return("RJ")) == actions.RETURN_BASE + 53 == actions.SIZE - 1
    assert actions.describe(actions.TRIBUTE_BASE) == "Tribute 2h"


def test_round_trips_on_random_positions() -> None:
    phases: Counter[str] = Counter()
    wilds: Counter[int] = Counter()
    levels = set()
    for g in positions(26, seed=1):
        phases[g.phase] += 1
        levels.add(g.level)
        hand = g.hands[g.current_player]
        wilds[sum(1 for c in hand if c.is_wildcard(g.level))] += 1
        check_position(g)
    assert phases["tribute"] and phases["return"] and phases["play"] > 1000
    assert set(wilds) == {0, 1, 2}
    assert levels == set(LEVELS)


def test_index_ignores_physical_choice() -> None:
    a = gf.Combo("3h 3s 3c 5d 5d", level="2")
    b = gf.Combo("3d 3d 3s 5h 5c", level="2")
    assert actions.index(a) == actions.index(b)
    # A wildcard standing in: a different pattern from the natural play.
    w = gf.Combo("3h 3s 2h 5d 5d", level="2", kind="FullHouse", rank="3")
    assert actions.index(w) != actions.index(a)
    assert actions.fields(actions.index(w))["wildcards"] == 1


def test_apply_index_is_apply() -> None:
    rng = random.Random(5)
    for g in positions(3, seed=2):
        legal = g.legal_actions(mode="pattern")
        a = rng.choice(legal)
        h = g.clone()
        h.apply_index(actions.index(a, g.level))
        g2 = g.clone()
        g2.apply(a)
        assert h.position() == g2.position() and h.history == g2.history


def test_illegal_index_raises_and_changes_nothing() -> None:
    g = gf.Game(seed=3)
    before = g.position()
    legal = set(g.legal_action_indices().tolist())
    bad = next(i for i in range(actions.SIZE) if i not in legal)
    with pytest.raises(gf.IllegalMoveError, match=f"index {bad}"):
        g.apply_index(bad)
    with pytest.raises(gf.IllegalMoveError, match="not legal"):
        actions.action(bad, g)
    for wrong in (-1, actions.SIZE, 10**30):
        with pytest.raises(gf.InvalidArgumentError, match="index"):
            g.apply_index(wrong)
    with pytest.raises(gf.InvalidArgumentError, match="index"):
        g.apply_index("3")  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="state"):
        actions.action(0, "game")  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="action"):
        actions.index("3h")  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="level"):
        actions.index(gf.Combo("3h", level="2"), "5")
    assert g.position() == before and g.history == []


def test_mask_out_buffer() -> None:
    g = gf.Game(seed=4)
    out = np.full(actions.SIZE, 7, np.uint8)
    r = g.legal_action_mask(out=out)
    assert r is out and np.array_equal(out, g.legal_action_mask())
    for bad in (np.zeros(actions.SIZE, np.int64), np.zeros(actions.SIZE - 1, np.uint8), np.zeros((2, actions.SIZE), np.uint8), [0] * actions.SIZE):
        with pytest.raises(gf.InvalidArgumentError, match="out"):
            g.legal_action_mask(out=bad)  # type: ignore[arg-type]


def test_observation_of_another_seat_has_no_legal_action() -> None:
    g = gf.Game(seed=6)
    other = (g.current_player + 1) % 4
    assert g.observation(other).legal_action_mask().sum() == 0
    assert g.observation(other).legal_action_indices().tolist() == []
    with pytest.raises(gf.IllegalMoveError):
        actions.action(int(g.legal_action_indices()[0]), g.observation(other))


def test_no_action_between_deals() -> None:
    g = gf.Game(seed=8)
    while g.phase == "play":
        g.apply_index(int(g.legal_action_indices()[0]))
    assert g.legal_action_mask().sum() == 0
    assert g.legal_action_rows()["cards"].shape == (0, 54)
    with pytest.raises(gf.IllegalMoveError):
        g.apply_index(0)
