"""`Observation`: what a seat may know, recomputed here from the game's public
record; pickling and copying; hostile pickle data refused."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from typing import Any, Iterator

import sys
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast._core import _rebuild_observation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pickles_0_1_0 import OBSERVATIONS, blob, rebuild_args  # noqa: E402
from pickles_0_1_0 import observation_states as states  # noqa: E402

RANKS = "23456789TJQKA"


def strength(card: gf.Card, level: str) -> int:
    """§2 strength: 2..A = 0..12 skipping nothing, the level rank 13, BJ 14, RJ 15."""
    if card.rank == "BJ":
        return 14
    if card.rank == "RJ":
        return 15
    if card.rank == level:
        return 13
    return RANKS.index(card.rank)


def sampled_states() -> list[gf.Game]:
    """A spread of states: every 7th step of a few matches, and every
    tribute / return state."""
    out = []
    for seed, rules in ((1, gf.Rules(best_of=3)), (2, gf.Rules()), (3, gf.Rules(best_of=3, max_deals=2))):
        for i, g in enumerate(states(seed, rules, 1500)):
            if i % 7 == 0 or g.phase in ("tribute", "return", "deal_over", "game_over"):
                out.append(g.clone())
    return out


STATES = sampled_states()


def test_the_states_cover_every_phase() -> None:
    phases = Counter(g.phase for g in STATES)
    assert {"tribute", "return", "play", "deal_over", "game_over"} <= set(phases)
    assert any(g.tribute is not None and g.tribute["kind"] == "double" for g in STATES)
    assert any(g.tribute is not None and g.tribute["kind"] == "single" for g in STATES)


def expected(g: gf.Game, seat: int) -> dict[str, Any]:
    """The observation of `seat` recomputed from the game's public record."""
    level = g.level
    played = [Counter[gf.Card]() for _ in range(4)]
    known = [Counter[gf.Card]() for _ in range(4)]
    caps: list[int | None] = [None] * 4
    # The cards of the tribute (return) step in progress are not public yet (docs/rules.md §6).
    hidden = {"tribute": gf.Tribute, "return": gf.Return}.get(g.phase)
    history = [(s, a) for s, a in g.history if hidden is None or not isinstance(a, hidden)]
    t = g.tribute
    if t is not None and hidden is not None:
        t = {**t, "tributes" if hidden is gf.Tribute else "returns": []}
    if t is not None:
        paid = len(t["tributes"]) == len(t["givers"])
        for giver, receiver, card in t["tributes"]:
            caps[giver] = strength(card, level)
            if paid:
                assert receiver is not None
                known[receiver][card] += 1
        for receiver, giver, card in t["returns"]:
            if known[receiver][card]:
                known[receiver][card] -= 1
            known[giver][card] += 1
    for s, a in history:
        if isinstance(a, gf.Combo):
            for c in a.cards:
                played[s][c] += 1
            for c in set(a.cards):
                if known[s][c]:
                    known[s][c] -= 1
    hands = g.hands
    known[seat] = Counter(hands[seat])
    unseen = Counter({c: 2 for c in map(gf.Card.from_index, range(54))})
    unseen.subtract(hands[seat])
    for p in played:
        unseen.subtract(p)

    def hand(c: Counter[gf.Card]) -> gf.Hand:
        return gf.Hand(list(c.elements()))

    return {
        "seat": seat,
        "hand": hands[seat],
        "hand_sizes": tuple(len(h) for h in hands),
        "level": level,
        "levels": g.levels,
        "a_fails": g.a_fails,
        "declarer": g.declarer,
        "phase": g.phase,
        "current_player": g.current_player,
        "top": g.top,
        "top_seat": g.top_seat,
        "finish_order": g.finish_order,
        "history": history,
        "tribute": t,
        "played": tuple(hand(p) for p in played),
        "known": tuple(hand(k) for k in known),
        "tribute_caps": tuple(caps),
        "unseen": hand(unseen),
    }


def properties(o: gf.Observation) -> dict[str, Any]:
    return {k: getattr(o, k) for k in expected(STATES[0], 0)}


@pytest.mark.parametrize("i", range(0, len(STATES), max(1, len(STATES) // 60)))
def test_every_seat_sees_what_the_public_record_says(i: int) -> None:
    g = STATES[i]
    for seat in range(4):
        assert properties(g.observation(seat)) == expected(g, seat)


def test_unseen_is_what_the_other_seats_hold() -> None:
    # In a deal of both decks the cards neither held nor played are the others' hands.
    for g in STATES[::5]:
        for seat in range(4):
            others = Counter[gf.Card]()
            for s in range(4):
                if s != seat:
                    others.update(g.hands[s])
            assert g.observation(seat).unseen == gf.Hand(list(others.elements()))


def test_an_observation_is_a_snapshot() -> None:
    g = gf.Game(seed=4)
    o = g.observation(g.current_player or 0)
    before = properties(o)
    g.apply(g.legal_actions()[0])
    assert properties(o) == before


# ---------------------------------------------------------------- pickling and copying


def test_pickle_and_copy_rebuild_the_same_observation() -> None:
    for g in STATES[::3]:
        for seat in range(4):
            o = g.observation(seat)
            for p in (pickle.loads(pickle.dumps(o)), copy.copy(o), copy.deepcopy(o), _rebuild_observation(*o.__reduce__()[1])):
                assert p == o == g.observation(seat)
                assert properties(p) == properties(o)
                assert np.array_equal(gf.encode_observation(p), gf.encode_observation(o))
                assert np.array_equal(gf.danzero_state(p), gf.danzero_state(o))


def test_an_unpickled_observation_samples_and_evaluates_as_the_original() -> None:
    done = 0
    for g in STATES[::4]:
        seat = g.current_player
        if g.phase != "play" or seat is None:
            continue
        o = g.observation(seat)
        p = pickle.loads(pickle.dumps(o))
        assert np.array_equal(gf.sample_hands(p, 5, seed=2), gf.sample_hands(o, 5, seed=2))
        if done < 5:
            a, b = gf.evaluate(o, playouts=8, seed=3, threads=1), gf.evaluate(p, playouts=8, seed=3, threads=1)
            assert a["actions"] == b["actions"] and np.array_equal(a["mean"], b["mean"])
            done += 1
    assert done == 5


def test_observations_compare_by_content() -> None:
    g = gf.Game(seed=9)
    assert g.observation(0) == g.observation(0)
    assert g.observation(0) != g.observation(1)
    assert g.observation(0) != "observation"
    with pytest.raises(TypeError):
        hash(g.observation(0))


# ---------------------------------------------------------------- hostile pickle data
#
# The state tuples of the pickles of release 0.1.0 (tests/pickles_0_1_0.py),
# changed; the text of today's pickles is changed in tests/test_pickles.py.


def state_of(entry: dict[str, Any]) -> list[Any]:
    (state,) = rebuild_args(blob(entry))
    return list(state)


def rebuild(state: list[Any]) -> gf.Observation:
    return _rebuild_observation(tuple(state))


LEGACY = [(e, pickle.loads(blob(e))) for e in OBSERVATIONS]
PLAY = state_of(next(e for e, o in LEGACY if o.phase == "play" and o.top is not None and len(o.history) > 4))
RETURN = state_of(next(e for e, o in LEGACY if o.phase == "return"))


def with_item(state: list[Any], path: tuple[int, ...], value: Any) -> list[Any]:
    """`state` with the item at `path` (indexes into nested tuples/lists) replaced."""

    def put(x: Any, p: tuple[int, ...]) -> Any:
        if not p:
            return value
        items = list(x)
        items[p[0]] = put(items[p[0]], p[1:])
        return tuple(items) if isinstance(x, tuple) else items

    return list(put(state, path))


def leaves(x: Any, path: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    if isinstance(x, (tuple, list)) and not isinstance(x, str):
        yield path
        for i, y in enumerate(x):
            yield from leaves(y, path + (i,))
    else:
        yield path


@pytest.mark.parametrize(
    "state, path, value",
    [
        (PLAY, (0,), 2),  # unknown version
        (PLAY, (1,), 4),  # seat
        (PLAY, (1,), -1),
        (PLAY, (2,), "rules"),
        (PLAY, (3,), "lunch"),  # phase
        (PLAY, (4, 3), 13),  # level code beyond A
        (PLAY, (4, 0, 0), 99),
        (PLAY, (4, 2), 2),  # declarer
        (PLAY, (5, 0), None),  # no seat to act in play
        (PLAY, (5, 0), 7),
        (PLAY, (5, 2, 0), 26),  # hand sizes do not add up
        (PLAY, (5, 2, 1), 10**30),
        (PLAY, (5, 1), "3s 3s 3s"),  # a third copy
        (PLAY, (6, 0, 1), 99),  # rank kind code
        (PLAY, (6, 0, 2), 99),  # rank code 99
        (PLAY, (6, 0, 0), "3s"),  # cards not the declaration
        (PLAY, (7,), [0, 0]),  # finish order repeats
        (PLAY, (7,), [0, 1, 2, 3, 0]),
        (PLAY, (8, 0, 0), 9),  # history seat
        (PLAY, (8, 0, 1), ("next", None)),
        (PLAY, (8, 0, 1), ("tribute", 54)),
        (PLAY, (10, 3), "RJ RJ"),  # cards gone do not match
        (PLAY, (10, 0, 0), "RJ RJ RJ"),
        (PLAY, (10, 2, 0), 16),  # cap
        (RETURN, (9, 0, 2), 3),  # three givers
        (RETURN, (9, 0, 0), 7),  # tribute kind
        (RETURN, (9, 2, 1), 5),  # step beyond the givers
        (RETURN, (9, 1, 0, 0), 200),  # gift card index
        (RETURN, (9, 0, 1, 0), 4),  # giver seat
        (RETURN, (9,), None),  # return phase without tribute
    ],
)
def test_hostile_pickle_data_is_refused(state: list[Any], path: tuple[int, ...], value: Any) -> None:
    assert rebuild(state) is not None
    with pytest.raises(gf.InvalidStateError):
        rebuild(with_item(state, path, value))


@pytest.mark.parametrize("state", [None, (), (1,), "state", (1,) * 11, [1] * 11, tuple(range(11))])
def test_malformed_states_are_refused(state: Any) -> None:
    with pytest.raises(gf.InvalidStateError):
        _rebuild_observation(state)


JUNK: list[Any] = [None, -1, 0, 1, 3, 4, 15, 99, 255, 256, 2**40, 2**70, -(2**70), "", "x", "3s", "RJ RJ", (), [], (0, 0), [0] * 4, 1.5, b"3s"]


def test_random_corruptions_are_refused_or_harmless() -> None:
    rng = random.Random(7)
    bases = [state_of(e) for e in OBSERVATIONS]
    accepted = 0
    for _ in range(3000):
        s = rng.choice(bases)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice([p for p in leaves(s) if p])
            s = with_item(s, path, rng.choice(JUNK))
        try:
            o = rebuild(s)
        except gf.GuandanError:
            continue
        accepted += 1
        properties(o)
        gf.encode_observation(o)
        gf.danzero_state(o)
        repr(o)
        assert pickle.loads(pickle.dumps(o)) == o
        try:
            gf.sample_hands(o, 2)
            if o.phase == "play" and o.current_player == o.seat:
                gf.evaluate(o, playouts=2, threads=1)
        except gf.GuandanError:
            pass
    assert accepted > 0


def test_corrupted_pickle_bytes_never_panic() -> None:
    # A changed byte may break the pickle format itself (the pickle module's
    # errors); whatever reaches the engine is refused with its own error or
    # gives an observation that works. A panic is a BaseException and fails here.
    rng = random.Random(11)
    blobs = [pickle.dumps(g.observation(s)) for g in STATES[::60] for s in (0, 3)]
    for _ in range(2000):
        b = bytearray(rng.choice(blobs))
        # Leave the reference to the rebuild function alone: a changed module
        # name makes the pickle module import whatever it names.
        start = b.rindex(b"_rebuild_observation") + len("_rebuild_observation")
        b[rng.randrange(start, len(b))] = rng.randrange(256)
        try:
            o = pickle.loads(bytes(b))
        except Exception:
            continue
        if isinstance(o, gf.Observation):
            properties(o)
            gf.encode_observation(o)
