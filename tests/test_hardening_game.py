"""Hostile input to the game state: position strings, pickles, failed
calls, full counts and replayed pairs (issue 8, items 1, 2, 5, 8, 9, 12).

Every refusal is a ``GuandanError``; a refused call leaves the game exactly
as it was (position, history, pickle)."""

from __future__ import annotations

import io
import pickle
import random
from typing import Any, Callable

import pytest

import guandan_fast as gf
from guandan_fast import _core

TOP, TOP_SEAT, OUT, PREV, LEADER, TRIBUTE = 18, 19, 20, 21, 22, 23
HANDS, PLAYED, CURRENT = 9, 13, 17
ZERO = "0" * 27


def snapshot(g: gf.Game) -> tuple[Any, ...]:
    return (g.position(), g.history, pickle.dumps(g))


def act(g: gf.Game, rng: random.Random) -> None:
    acts = g.legal_actions()
    g.apply(acts[rng.randrange(len(acts))])


SHORT = gf.Rules(best_of=3, max_deals=3)


def random_states(n_games: int, seed: int, rules: gf.Rules = SHORT) -> list[gf.Game]:
    """Copies of seeded random matches (short ones unless `rules` say
    otherwise) at every decision and between deals."""
    rng = random.Random(seed)
    out = []
    for k in range(n_games):
        g = gf.Game(rules, seed=seed * 1000 + k)
        while g.phase != "match_over":
            out.append(g.clone())
            if g.phase in ("deal_over", "game_over"):
                g.next_deal()
            else:
                act(g, rng)
        out.append(g)
    return out


def mid_play() -> gf.Game:
    """A deal in play where seat 1 has played and seat 2 is to follow."""
    g = gf.Game(seed=3)
    while not (g.phase == "play" and g.top is not None and g.top_seat != g.current_player):
        g.apply(g.legal_actions()[-1])
    return g


def in_tribute() -> gf.Game:
    for g in random_states(2, 5):
        if g.phase == "tribute" and g.tribute is not None and g.tribute["kind"] == "double":
            return g
    raise AssertionError("no tribute phase reached")


def with_field(p: str, i: int, value: str) -> str:
    f = p.split(" ")
    f[i] = value
    return " ".join(f)


def refused(text: str, rules: gf.Rules | None = None) -> str:
    with pytest.raises(gf.GuandanError) as e:
        gf.Game.from_position(text, rules)
    return str(e.value)


# ---------------------------------------------------------------- 1: from_position


def test_from_position_refuses_every_example_of_the_issue() -> None:
    g = mid_play()
    p = g.position()
    assert gf.Game.from_position(p).position() == p
    f = p.split(" ")
    seat = g.top_seat
    assert seat is not None
    top_cards = f[TOP].split(":")[0]
    # A top play with rank code >= 15 or suit code > 3 (it panicked formatting its error).
    assert "rank code 99" in refused(with_field(p, TOP, "000000000000000000000000004:0:99:255:0"))
    assert "suit code 7" in refused(with_field(p, TOP, f"{top_cards}:0:3:7:0"))
    # A top whose seat is the seat to act.
    assert "own play" in refused(with_field(p, TOP_SEAT, f[CURRENT]))
    # A seat with no cards that is not listed as out (its cards moved to its played cards).
    moved = f.copy()
    hand = int(f[HANDS + seat], 16) + int(f[PLAYED + seat], 16)
    moved[HANDS + seat], moved[PLAYED + seat] = ZERO, f"{hand:027x}"
    assert "not listed as out" in refused(" ".join(moved))
    # An out list with a seat twice.
    assert "twice" in refused(with_field(p, OUT, "22"))
    # Trailing junk in numbers and seats.
    for i in (6, 7, CURRENT, TOP_SEAT, LEADER):
        refused(with_field(p, i, "0junk"))
    refused(with_field(p, 3, "0,0junk"))
    # A failures at or above a_max_attempts.
    assert "a_max_attempts" in refused(with_field(p, 3, "3,0"))
    assert "a_max_attempts" in refused(with_field(p, 3, "1,0"), gf.Rules(a_max_attempts=1))
    # Integer fields that overflow are refused, not wrapped.
    assert "too large" in refused(with_field(p, 6, "4294967296"))
    assert "too large" in refused(with_field(p, 3, "256,0"))


def test_from_position_refuses_bad_tribute_states() -> None:
    g = in_tribute()
    p = g.position()
    assert gf.Game.from_position(p).position() == p
    t = p.split(" ")[TRIBUTE].split(":")
    for i, value in ((2, "3"), (9, "2"), (9, "1"), (0, "0"), (1, "01")):
        bad = t.copy()
        bad[i] = value
        refused(with_field(p, TRIBUTE, ":".join(bad)))
    # The tribute phase without a tribute, or without the previous finish.
    refused(with_field(p, TRIBUTE, "-"))
    refused(with_field(p, PREV, "-"))


def test_from_position_is_strict_about_the_text() -> None:
    p = mid_play().position()
    for text in (p + " ", " " + p, p.replace(" ", "  ", 1), p + "\n", p.upper(), p + " extra"):
        refused(text)
    assert "gf1" in refused("gf1" + p[3:])
    huge = refused(with_field(p, 6, "9" * 10_000_000))
    assert len(huge) < 300


def test_mutated_positions_never_panic_and_what_parses_round_trips() -> None:
    rng = random.Random(12)
    games = random_states(3, 7)
    fields = [gm.position().split(" ") for gm in games]
    seen = {gm.position(): gm for gm in games}
    parsed = 0
    for k in range(3000):
        f = rng.choice(fields).copy()
        if k % 2:
            i = rng.randrange(len(f))
            f[i] = rng.choice(fields)[i] if rng.random() < 0.7 else rng.choice(["-", "0", "3", "99", "255", "01", "22", "A,A", "4294967295"])
            text = " ".join(f)
        else:
            b = bytearray(" ".join(f).encode())
            b[rng.randrange(len(b))] = rng.choice(b"0123456789abcdef-:, xA")
            text = b.decode()
        try:
            h = gf.Game.from_position(text, SHORT)
        except gf.GuandanError:
            continue
        parsed += 1
        assert h.position() == text
        if text in seen:
            assert h.legal_actions() == seen[text].legal_actions()
    assert parsed > 300


# ---------------------------------------------------------------- 2: pickles


def reduce_args(g: gf.Game) -> tuple[Callable[..., gf.Game], tuple[Any, ...]]:
    f, args = g.__reduce__()  # type: ignore[misc]
    return f, args


def test_hostile_pickles_are_refused() -> None:
    g = gf.Game(seed=1)
    g.apply(g.legal_actions()[0])
    f, (rules, record) = reduce_args(g)
    assert f(rules, record).position() == g.position()
    origin, log = record.split("\n")
    cards = log.split(":")[0]
    three = ",".join(f"{sum(1 << (2 * c.index) for c in h):027x}" for h in gf.Game(seed=1).hands[:3])
    cases: list[tuple[Any, ...]] = [
        (rules, f"gr1 seed 0 {three} 0 -\n"),
        (rules, f"{origin}\n{cards}:0:99:255:0"),
        (rules, f"{origin}\nn:{ZERO}:-"),
        (rules, f"{origin}\nt999"),
        (rules, f"{origin}\nfly"),
        (rules, f"{origin}\n{log} n:-:-"),  # a next deal while the deal is in play
        (rules, origin),
        (rules, None),
        (rules, "gr1 gf2 nonsense\n"),
        (rules, "gr7 seed 1 - - -\n"),
        ("rules", record),
        (rules,),
        (),
    ]
    for args in cases:
        with pytest.raises(gf.GuandanError):
            f(*args)


class Spy(pickle.Unpickler):
    """Records whether the engine's functions were reached, and what they raised."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.engine_errors: list[BaseException] = []

    def find_class(self, module: str, name: str) -> Any:
        obj = super().find_class(module, name)
        if module != "guandan_fast._core" or name != "_rebuild_game":
            return obj

        def wrapped(*args: Any) -> Any:
            try:
                return obj(*args)
            except BaseException as e:
                self.engine_errors.append(e)
                raise

        return wrapped


def test_a_changed_byte_in_a_pickle_never_panics() -> None:
    g = gf.Game(gf.Rules(best_of=3), seed=2)
    rng = random.Random(2)
    for _ in range(60):
        act(g, rng)
    data = pickle.dumps(g)
    counts = {"ok": 0, "engine": 0, "pickle": 0}
    for _ in range(3000):
        b = bytearray(data)
        b[rng.randrange(len(b))] = rng.randrange(256)
        spy = Spy(bytes(b))
        try:
            spy.load()
            counts["ok"] += 1
        except Exception as e:
            if spy.engine_errors:
                assert spy.engine_errors[-1] is e and isinstance(e, gf.GuandanError), repr(e)
                counts["engine"] += 1
            else:
                counts["pickle"] += 1  # the framing itself (or another object) is broken
        assert all(isinstance(e, gf.GuandanError) for e in spy.engine_errors), spy.engine_errors
    assert counts["engine"] > 300 and counts["ok"] > 0, counts


# ---------------------------------------------------------------- 5: failed calls change nothing


def test_a_failed_next_deal_in_game_over_changes_nothing() -> None:
    g = gf.Game(gf.Rules(best_of=3, max_deals=1), hands=["Ks", "3s 3d", "As", "4s 4d"], leader=0)
    for cards in ("Ks", None, "As"):
        plays = [a for a in g.legal_actions() if a != gf.PASS]
        g.apply(gf.PASS if cards is None else next(a for a in plays if str(a.cards) == cards))
    assert g.phase == "game_over"
    before = snapshot(g)
    for _ in range(3):
        with pytest.raises(gf.GuandanError):
            g.next_deal(hands=["3s", "", "4s", "5s"])
        assert snapshot(g) == before
    with pytest.raises(gf.GuandanError):
        g.next_deal(leader=9)
    assert snapshot(g) == before
    assert pickle.loads(pickle.dumps(g)).position() == g.position()
    g.next_deal()
    assert g.game_number == 1 and g.phase == "play"


def test_every_refused_call_leaves_the_game_as_it_was() -> None:
    games = random_states(2, 9)
    phases = set()
    for g in [g for i, g in enumerate(games) if i % 5 == 0 or g.phase != "play"]:
        phases.add(g.phase)
        before = snapshot(g)
        calls: list[Callable[[], object]] = [
            lambda: g.apply(gf.Tribute("RJ")),
            lambda: g.apply(gf.Return("2h")),
            lambda: g.apply(gf.Combo("RJ RJ BJ BJ", level=g.level)),
            lambda: g.apply("nonsense"),
            lambda: g.next_deal(hands=["3s", "3s", "3s", "4s"]),
            lambda: g.next_deal(leader=1),
        ]
        if g.phase == "play" and g.top is None:
            calls.append(lambda: g.apply(gf.PASS))
        for call in calls:
            try:
                call()
            except gf.GuandanError:
                assert snapshot(g) == before
            else:
                before = snapshot(g)  # a legal call, in a state where it is legal
    assert {"tribute", "return", "play", "deal_over", "game_over", "match_over"} <= phases


# ---------------------------------------------------------------- 8: no wrap-around


def test_full_counts_are_refused_not_wrapped() -> None:
    unlimited = gf.Rules(a_max_attempts=None)
    r = gf.settle_deal([1, 0, 2, 3], levels=("A", "5"), a_fails=(254, 0), declarer=0, rules=unlimited)
    assert tuple(r["a_fails"]) == (255, 0)
    with pytest.raises(gf.InvalidStateError):
        gf.settle_deal([1, 0, 2, 3], levels=("A", "5"), a_fails=(255, 0), declarer=0, rules=unlimited)
    # Passing A does not count a failure, so it settles.
    assert gf.settle_deal([0, 2, 1, 3], levels=("A", "5"), a_fails=(255, 0), declarer=0, rules=unlimited)["game_winner"] == 0
    # A deal at a team's A with 255 failures cannot be started.
    with pytest.raises(gf.InvalidStateError):
        gf.Game(unlimited, levels=("A", "5"), declarer=0, a_fails=(255, 0))
    # Games won cannot reach 255: a team with a majority has won the match.
    p = mid_play().position()
    refused(with_field(p, 5, "255,0"), gf.Rules(best_of=255))
    refused(with_field(p, 5, "1,0"))
    # Deal and game numbers at the largest u32.
    refused(with_field(p, 7, "4294967295"))
    refused(with_field(p, 6, "4294967295"))
    over = next(g for g in random_states(1, 3, gf.Rules()) if g.phase == "deal_over" and g.deal_number >= 2)
    q = with_field(over.position(), 7, "4294967295")
    h = gf.Game.from_position(q)
    before = snapshot(h)
    with pytest.raises(gf.InvalidStateError):
        h.next_deal()
    assert snapshot(h) == before


# ---------------------------------------------------------------- 9: replay pairs


def test_replay_refuses_a_pair_whose_seat_is_not_the_seat_to_act() -> None:
    g = gf.Game(seed=4)
    rng = random.Random(4)
    pairs = []
    for _ in range(12):
        seat = g.current_player
        acts = g.legal_actions()
        a = acts[rng.randrange(len(acts))]
        pairs.append((seat, a))
        g.apply(a)
    assert gf.Game.replay(pairs, seed=4).position() == g.position()
    for k in (0, 5, 11):
        seat, a = pairs[k]
        wrong = pairs[:k] + [((seat + 1) % 4, a)] + pairs[k + 1 :]
        with pytest.raises(gf.IllegalMoveError, match=f"action {k}"):
            gf.Game.replay(wrong, seed=4)
    for bad_seat in (7, "0", None, True):
        with pytest.raises(gf.GuandanError):
            gf.Game.replay([(bad_seat, pairs[0][1])], seed=4)


# ---------------------------------------------------------------- 12: a restored game knows what was played


def test_a_restored_game_observes_what_the_original_did() -> None:
    games = random_states(3, 11)
    phases = set()
    for g in games:
        h = gf.Game.from_position(g.position(), g.rules)
        phases.add(g.phase)
        assert h.position() == g.position() and h.dealt == g.dealt
        for s in range(4):
            o, r = g.observation(s), h.observation(s)
            assert (o.unseen, o.played, o.known, o.tribute_caps) == (r.unseen, r.played, r.known, r.tribute_caps)
            assert o.hand == r.hand and o.top == r.top and o.tribute == r.tribute
    assert {"tribute", "return", "play", "deal_over", "match_over"} <= phases
