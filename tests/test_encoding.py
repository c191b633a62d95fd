"""guandan_fast.encoding: the numpy encodings of an Observation.

Hand-made positions check that every field lands where the layout table says
(with the values written out by hand), that an observation leaks nothing a
seat may not know (docs/rules.md §8: two games that differ only in other seats' hidden
cards encode identically), and DanZero's 513-value state field by field.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast import encoding as enc

OBS = gf.OBSERVATION_LAYOUT
DZ = enc.DANZERO_LAYOUT
RANKS = "23456789TJQKA"
SUITS = "hscd"


def idx(card: str) -> int:
    """Face index of card text: 4 * rank + suit (h s c d), BJ 52, RJ 53."""
    if card == "BJ":
        return 52
    if card == "RJ":
        return 53
    return 4 * RANKS.index(card[0]) + SUITS.index(card[1])


def counts(*cards: str) -> np.ndarray:
    v = np.zeros(54, dtype=np.float32)
    for c in cards:
        v[idx(c)] += 1
    return v


def one_hot(n: int, i: int) -> np.ndarray:
    v = np.zeros(n, dtype=np.float32)
    v[i] = 1
    return v


def play(g: gf.Game, *texts: str) -> None:
    """Applies plays (card text) and passes ("pass") at the game's level."""
    for t in texts:
        g.apply(gf.PASS if t == "pass" else gf.Combo(t, level=g.level))


def f(vec, name):
    return gf.field(vec, name)


def dz(vec, name):
    return gf.field(vec, name, enc.DANZERO_LAYOUT)


# --------------------------------------------------------------------------
# layouts, shapes, dtypes
# --------------------------------------------------------------------------

def test_layout_tables_are_contiguous_and_sized():
    for fields, layout, size in (
        (enc.OBSERVATION_FIELDS, gf.OBSERVATION_LAYOUT, gf.OBSERVATION_SIZE),
        (enc.DANZERO_FIELDS, enc.DANZERO_LAYOUT, enc.DANZERO_STATE_SIZE),
    ):
        assert list(layout) == [n for n, _ in fields]
        offset = 0
        for name, length in fields:
            assert layout[name] == slice(offset, offset + length), name
            offset += length
        assert offset == size
    assert gf.OBSERVATION_SIZE == 636
    assert enc.DANZERO_STATE_SIZE == 513
    # DanZero's field lengths, in its order.
    assert [n for _, n in enc.DANZERO_FIELDS] == [54, 12, 54, 54, 54, 54, 54, 54, 28, 28, 28, 13, 13, 13]
    with pytest.raises(TypeError):
        gf.OBSERVATION_LAYOUT["hand"] = slice(0, 1)  # read-only


def doc_table(heading: str) -> list[tuple[int, int, str]]:
    """The (offset, length, field) rows of the table under `heading` in docs/encodings.md."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "encodings.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| (\d+) \| (\d+) \| `(\w+)` \|", section, re.MULTILINE)
    return [(int(a), int(n), name) for a, n, name in rows]


@pytest.mark.parametrize(
    "observation,heading", [("guandan", "### `encode_observation` layout"), ("danzero", "### `danzero_state` layout")]
)
def test_the_docs_tables_are_the_engines(observation, heading):
    engine = [(at, n, name) for name, at, n, _, _ in gf._core.observation_fields(observation)]
    assert doc_table(heading) == engine
    fields = enc.OBSERVATION_FIELDS if observation == "guandan" else enc.DANZERO_FIELDS
    assert [(name, n) for _, n, name in engine] == list(fields)


def test_the_docs_row_table_is_the_engines():
    engine = [(at, n, name) for name, at, n, _, _ in gf._core.observation_fields("danzero567")]
    state = [(at, n, name) for name, at, n, _, _ in gf._core.observation_fields("danzero")]
    assert engine[: len(state)] == state and doc_table("### `danzero_actions` layout") == engine[len(state) :]
    assert [(name, n) for _, n, name in engine] == list(enc.DANZERO_ROW_FIELDS)
    assert engine[-1][0] + engine[-1][1] == gf.DANZERO_ROW_SIZE == 567


def test_field_bounds_are_the_spaces_bounds():
    from guandan_fast.envs._episode import observation_bounds

    low, high = observation_bounds("guandan")
    expected = np.full(gf.OBSERVATION_SIZE, 2.0, np.float32)
    expected[OBS["hand_sizes"]] = 28 / 27
    expected[OBS["a_fails"]] = 3.0
    assert (low == 0).all() and np.array_equal(high, expected)
    low, high = observation_bounds("danzero")
    assert (low == -1).all() and (high == 2).all() and low.shape == (gf.DANZERO_SIZE,)
    with pytest.raises(gf.InvalidArgumentError, match="observation"):
        gf._core.observation_fields("pixels")


def test_package_exports():
    for name in ("OBSERVATION_LAYOUT", "OBSERVATION_SIZE", "danzero_state", "encode_observation", "field"):
        assert name in gf.__all__
        assert getattr(gf, name) is getattr(enc, name)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_shapes_and_dtypes_through_a_match(seed):
    rng = random.Random(seed)
    g = gf.Game(seed=seed)
    n = 0
    while not g.is_over and n < 400:
        if g.phase in ("deal_over", "game_over"):
            g.next_deal()
            continue
        for seat in range(4):
            o = g.observation(seat)
            v = gf.encode_observation(o)
            s = gf.danzero_state(o)
            assert v.shape == (gf.OBSERVATION_SIZE,) and v.dtype == np.float32
            assert s.shape == (513,) and s.dtype == np.float32
            assert np.isfinite(v).all() and np.isfinite(s).all()
            assert v.min() >= 0 and v.max() <= 2
            # one-hots hold exactly one 1
            for name in ("level", "level_own_team", "level_other_team"):
                assert f(v, name).sum() == 1
            for name in ("size_down", "size_partner", "size_up", "level_own_team", "level_other_team", "level"):
                assert dz(s, name).sum() == 1
            # the public card accounting adds up to the two decks
            total = f(v, "hand") + f(v, "unseen") + sum(f(v, k) for k in ("played_self", "played_next", "played_partner", "played_prev"))
            assert (total == np.array([2] * 54, dtype=np.float32)).all()
        g.apply(rng.choice(g.legal_actions()))
        n += 1


def test_field_helper():
    g = gf.Game(hands=["3s 3d", "4s", "5s", "6s"], leader=0)
    o = g.observation(0)
    v = gf.encode_observation(o)
    assert np.array_equal(f(v, "hand"), counts("3s", "3d"))
    batch = np.stack([v, v, v])
    assert gf.field(batch, "hand").shape == (3, 54)
    s = gf.danzero_state(o)
    assert np.array_equal(dz(s, "hand"), counts("3s", "3d"))
    with pytest.raises(gf.InvalidArgumentError, match="no field"):
        gf.field(v, "nope")
    with pytest.raises(gf.InvalidArgumentError, match="DANZERO_LAYOUT"):
        gf.field(s, "hand")  # a DanZero vector needs its layout
    with pytest.raises(gf.InvalidArgumentError):
        gf.field(v[:10], "hand")


# --------------------------------------------------------------------------
# encode_observation: each field where the layout says
# --------------------------------------------------------------------------

def trick_game():
    """Level 2, seat 0 leads: 3s3d, 4s4d, 5s5d (seat 2 goes out), 6s6d."""
    g = gf.Game(hands=["3s 3d 9c", "4s 4d Kc", "5s 5d", "6s 6d 8h"], leader=0)
    play(g, "3s 3d", "4s 4d", "5s 5d", "6s 6d")
    return g


def test_observation_fields_mid_trick():
    g = trick_game()
    assert g.current_player == 0
    v = gf.encode_observation(g.observation(1))  # observer seat 1: next 2, partner 3, prev 0
    assert v.shape == (636,)
    assert np.array_equal(f(v, "hand"), counts("Kc"))
    assert np.array_equal(f(v, "played_self"), counts("4s", "4d"))
    assert np.array_equal(f(v, "played_next"), counts("5s", "5d"))
    assert np.array_equal(f(v, "played_partner"), counts("6s", "6d"))
    assert np.array_equal(f(v, "played_prev"), counts("3s", "3d"))
    unseen = np.full(54, 2, dtype=np.float32) - counts("Kc", "3s", "3d", "4s", "4d", "5s", "5d", "6s", "6d")
    assert np.array_equal(f(v, "unseen"), unseen)
    assert f(v, "unseen").sum() == 108 - 9
    for k in ("known_next", "known_partner", "known_prev"):
        assert not f(v, k).any()
    # sizes self 1 (Kc), next 0 (seat 2 out), partner 1 (8h), prev 1 (9c)
    assert np.allclose(f(v, "hand_sizes"), np.array([1, 0, 1, 1]) / 27)
    assert np.array_equal(f(v, "level"), one_hot(13, 0))
    assert np.array_equal(f(v, "level_own_team"), one_hot(13, 0))
    assert np.array_equal(f(v, "level_other_team"), one_hot(13, 0))
    assert np.array_equal(f(v, "a_fails"), [0, 0])
    assert np.array_equal(f(v, "declarer_own"), [0])  # first deal: no declarer
    # top: the pair 6s 6d by seat 3 = observer's partner
    assert np.array_equal(f(v, "top_cards"), counts("6s", "6d"))
    assert np.array_equal(f(v, "top_kind"), one_hot(10, gf.KINDS.index("Pair")))
    assert np.array_equal(f(v, "top_rank"), one_hot(15, RANKS.index("6")))
    assert np.array_equal(f(v, "top_seat"), one_hot(4, 2))
    assert np.array_equal(f(v, "leading"), [0])
    # seat 2 (next of seat 1) went out first: row 1 (next), place 0
    assert np.array_equal(f(v, "finish_order"), one_hot(16, 4 * 1 + 0))
    assert not f(v, "tribute_caps").any()

    # The same position seen by seat 0: relative rows shift.
    w = gf.encode_observation(g.observation(0))
    assert np.array_equal(f(w, "played_self"), counts("3s", "3d"))
    assert np.array_equal(f(w, "played_next"), counts("4s", "4d"))
    assert np.array_equal(f(w, "played_prev"), counts("6s", "6d"))
    assert np.array_equal(f(w, "top_seat"), one_hot(4, 3))  # seat 3 is 0's prev
    assert np.array_equal(f(w, "finish_order"), one_hot(16, 4 * 2 + 0))  # partner first
    assert np.allclose(f(w, "hand_sizes"), np.array([1, 1, 0, 1]) / 27)


def test_observation_leading_after_trick():
    g = trick_game()
    play(g, "pass", "pass")  # seat 3's pair wins the trick; seat 3 leads
    assert g.current_player == 3 and g.top is None
    v = gf.encode_observation(g.observation(3))
    assert np.array_equal(f(v, "leading"), [1])
    for k in ("top_cards", "top_kind", "top_rank", "top_seat"):
        assert not f(v, k).any(), k


def tribute_game():
    """Deal 1 ends 0,1,2,3 (team 0 +2 -> level 4); deal 2: seat 3 pays 4d to
    seat 0, which returns Ts; seat 3 leads."""
    g = gf.Game(hands=["3s", "4s", "5s", "6s 7s"], leader=0)
    play(g, "3s", "4s", "5s")
    assert g.phase == "deal_over" and list(g.finish_order) == [0, 1, 2, 3]
    g.next_deal(hands=["3s Ts Jd 4s Qh", "5s 6s", "7s 8s", "4h As 4d 4c 9s"])
    return g


def test_observation_tribute_known_caps_levels():
    g = tribute_game()
    assert g.phase == "tribute" and g.level == "4"
    v = gf.encode_observation(g.observation(1))
    assert np.array_equal(f(v, "leading"), [0])  # not the play phase
    g.apply(gf.Tribute(gf.Card("4d")))
    g.apply(gf.Return(gf.Card("Ts")))
    assert g.phase == "play" and g.current_player == 3

    # Observer seat 1 (team 1): next 2, partner 3, prev 0.
    v = gf.encode_observation(g.observation(1))
    assert np.array_equal(f(v, "known_prev"), counts("4d"))  # seat 0 received 4d
    assert np.array_equal(f(v, "known_partner"), counts("Ts"))  # seat 3 got Ts back
    assert not f(v, "known_next").any()
    # Seat 3 paid the level card 4d: strength 13 (docs/rules.md §2) -> (13 + 1) / 16.
    assert np.allclose(f(v, "tribute_caps"), [0, 0, 14 / 16, 0])
    assert np.array_equal(f(v, "level"), one_hot(13, RANKS.index("4")))
    assert np.array_equal(f(v, "level_own_team"), one_hot(13, RANKS.index("2")))
    assert np.array_equal(f(v, "level_other_team"), one_hot(13, RANKS.index("4")))
    assert np.array_equal(f(v, "declarer_own"), [0])
    assert np.array_equal(f(v, "leading"), [1])  # seat 3 leads
    assert np.array_equal(f(v, "finish_order"), np.zeros(16))  # a new deal
    # Tribute cards are not "played": nothing played yet.
    for k in ("played_self", "played_next", "played_partner", "played_prev"):
        assert not f(v, k).any()

    # Observer seat 0 (team 0, the declarer): prev is seat 3.
    w = gf.encode_observation(g.observation(0))
    assert np.array_equal(f(w, "hand"), counts("3s", "Jd", "4s", "Qh", "4d"))
    assert np.array_equal(f(w, "known_prev"), counts("Ts"))
    assert np.allclose(f(w, "tribute_caps"), [0, 0, 0, 14 / 16])
    assert np.array_equal(f(w, "declarer_own"), [1])
    assert np.array_equal(f(w, "level_own_team"), one_hot(13, RANKS.index("4")))
    assert np.array_equal(f(w, "level_other_team"), one_hot(13, RANKS.index("2")))


# --------------------------------------------------------------------------
# nothing private leaks
# --------------------------------------------------------------------------

def both(o):
    return gf.encode_observation(o), gf.danzero_state(o)


def assert_same_view(ga, gb, seat):
    va, sa = both(ga.observation(seat))
    vb, sb = both(gb.observation(seat))
    assert np.array_equal(va, vb)
    assert np.array_equal(sa, sb)


def test_hidden_cards_do_not_leak_hand_made():
    a = gf.Game(hands=["3s 3d 9c", "4s 4d Kc Qd", "5s 5d Jh", "6s 6d 8h 2c"], leader=0)
    b = gf.Game(hands=["3s 3d 9c", "4s 4d Ac Tc", "5s 5d 7d", "6s 6d 9h 2d"], leader=0)
    for g in (a, b):
        play(g, "3s 3d", "4s 4d", "5s 5d", "6s 6d")
    assert_same_view(a, b, 0)
    # not vacuous: the seats whose hands differ see different vectors
    assert not np.array_equal(gf.encode_observation(a.observation(1)), gf.encode_observation(b.observation(1)))


def test_hidden_cards_do_not_leak_after_tribute():
    def make(second):
        g = gf.Game(hands=["3s", "4s", "5s", "6s 7s"], leader=0)
        play(g, "3s", "4s", "5s")
        g.next_deal(hands=second)
        g.apply(gf.Tribute(gf.Card("4d")))
        g.apply(gf.Return(gf.Card("Ts")))
        play(g, "9s")
        return g

    # Same tribute (4d) and return (Ts); other hidden cards differ.
    a = make(["3s Ts Jd 4s Qh", "5s 6s", "7s 8s", "4h As 4d 4c 9s"])
    b = make(["3s Ts Jd 4s Qh", "5d 6d", "7d 8c", "4h Ks 4d 4c 9s"])
    assert_same_view(a, b, 0)


def cards_list(hand) -> list:
    out = []
    for i, k in enumerate(hand.to_array()):
        out += [str(gf.Card.from_index(i))] * int(k)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_hidden_cards_do_not_leak_random(seed):
    """Random deals: redealing the cards the other seats never play among them
    (sizes kept) and replaying the same actions changes no encoding of `seat`."""
    rng = random.Random(seed)
    hands = gf.deal(seed)
    a = gf.Game(hands=hands, leader=seed % 4)
    actions = []
    while a.phase == "play" and len(actions) < 60:
        act = rng.choice(a.legal_actions(mode="pattern"))
        actions.append((a.current_player, act))
        a.apply(act)
    seat = seed % 4
    played = {s: gf.Hand() for s in range(4)}
    for s, act in actions:
        if isinstance(act, gf.Combo):
            played[s] = played[s] + act.cards
    others = [s for s in range(4) if s != seat]
    hidden = {s: cards_list(hands[s] - played[s]) for s in others}
    pool = [c for s in others for c in hidden[s]]
    rng.shuffle(pool)
    new_hands = list(hands)
    for s in others:
        take, pool = pool[: len(hidden[s])], pool[len(hidden[s]):]
        new_hands[s] = played[s] + gf.Hand(" ".join(take)) if take else played[s]
    assert any(new_hands[s] != hands[s] for s in others)
    a = gf.Game(hands=hands, leader=seed % 4)
    b = gf.Game(hands=new_hands, leader=seed % 4)
    assert_same_view(a, b, seat)
    for _, act in actions:
        a.apply(act)
        b.apply(act)
        assert_same_view(a, b, seat)


# --------------------------------------------------------------------------
# danzero_state
# --------------------------------------------------------------------------

MINUS = -np.ones(54, dtype=np.float32)
ZERO = np.zeros(54, dtype=np.float32)


def test_danzero_state_hand_made_mid_trick():
    g = trick_game()
    assert g.current_player == 0
    s = gf.danzero_state(g.observation(0))
    assert s.shape == (513,) and s.dtype == np.float32
    assert np.array_equal(dz(s, "hand"), counts("9c"))
    assert np.array_equal(dz(s, "wildcard_flags"), np.zeros(12))  # no 2h
    unseen = np.full(54, 2, dtype=np.float32) - counts("9c", "3s", "3d", "4s", "4d", "5s", "5d", "6s", "6d")
    assert np.array_equal(dz(s, "unseen"), unseen)
    # last move: the up-player's (seat 3) pair
    assert np.array_equal(dz(s, "last_move"), counts("6s", "6d"))
    # partner (seat 2) is out: -1 everywhere
    assert np.array_equal(dz(s, "partner_last_move"), MINUS)
    assert np.array_equal(dz(s, "played_down"), counts("4s", "4d"))
    assert np.array_equal(dz(s, "played_partner"), counts("5s", "5d"))
    assert np.array_equal(dz(s, "played_up"), counts("6s", "6d"))
    assert np.array_equal(dz(s, "size_down"), one_hot(28, 1))  # Kc
    assert np.array_equal(dz(s, "size_partner"), one_hot(28, 0))  # out
    assert np.array_equal(dz(s, "size_up"), one_hot(28, 1))  # 8h
    for k in ("level_own_team", "level_other_team", "level"):
        assert np.array_equal(dz(s, k), one_hot(13, 0))
    # The whole vector is the concatenation, in DanZero's order.
    expected = np.concatenate([
        counts("9c"), np.zeros(12), unseen, counts("6s", "6d"), MINUS,
        counts("4s", "4d"), counts("5s", "5d"), counts("6s", "6d"),
        one_hot(28, 1), one_hot(28, 0), one_hot(28, 1),
        one_hot(13, 0), one_hot(13, 0), one_hot(13, 0),
    ]).astype(np.float32)
    assert np.array_equal(s, expected)

    play(g, "pass")  # seat 0 passes; seat 1 to act
    s = gf.danzero_state(g.observation(1))
    assert np.array_equal(dz(s, "last_move"), ZERO)  # a pass is all zeros
    assert np.array_equal(dz(s, "partner_last_move"), counts("6s", "6d"))  # seat 3

    play(g, "pass")  # seat 1 passes; seat 3 won the trick and leads
    assert g.current_player == 3
    s = gf.danzero_state(g.observation(3))
    # The slot before seat 3 is seat 2's, which is out: DanZero's -1 placeholder,
    # although the latest real action is seat 1's pass.
    assert np.array_equal(dz(s, "last_move"), MINUS)
    assert np.array_equal(dz(s, "partner_last_move"), ZERO)  # seat 1 passed


def test_danzero_state_start_of_deal_and_jiefeng():
    g = gf.Game(hands=["3s 3d 9c", "4s 4d Kc", "5s 5d", "6s 6d 8h"], leader=0)
    s = gf.danzero_state(g.observation(0))
    assert np.array_equal(dz(s, "last_move"), MINUS)  # nothing played yet
    assert np.array_equal(dz(s, "partner_last_move"), MINUS)  # partner has not acted
    for k in ("played_down", "played_partner", "played_up"):
        assert np.array_equal(dz(s, k), ZERO)
    assert np.array_equal(dz(s, "size_down"), one_hot(28, 3))
    assert np.array_equal(dz(s, "size_partner"), one_hot(28, 2))
    assert np.array_equal(dz(s, "size_up"), one_hot(28, 3))

    play(g, "3s 3d")
    s = gf.danzero_state(g.observation(1))
    assert np.array_equal(dz(s, "last_move"), counts("3s", "3d"))
    assert np.array_equal(dz(s, "partner_last_move"), MINUS)  # seat 3 has not acted

    # Seat 2 goes out, everyone passes, the lead passes to its partner (接风).
    play(g, "4s 4d", "5s 5d", "pass", "pass", "pass")
    assert g.current_player == 0 and g.top is None
    s = gf.danzero_state(g.observation(0))
    assert np.array_equal(dz(s, "last_move"), ZERO)  # the skipped up-player's slot
    assert np.array_equal(dz(s, "partner_last_move"), MINUS)  # partner is out


def test_danzero_levels_are_own_opponent_current():
    g = tribute_game()
    g.apply(gf.Tribute(gf.Card("4d")))
    g.apply(gf.Return(gf.Card("Ts")))
    s = gf.danzero_state(g.observation(3))  # team 1 at 2, team 0 at 4, deal at 4
    assert np.array_equal(dz(s, "level_own_team"), one_hot(13, RANKS.index("2")))
    assert np.array_equal(dz(s, "level_other_team"), one_hot(13, RANKS.index("4")))
    assert np.array_equal(dz(s, "level"), one_hot(13, RANKS.index("4")))
    assert np.array_equal(dz(s, "hand"), counts("4h", "As", "4c", "9s", "Ts"))
    # 4h is the wildcard at level 4; without it, n(4) = 1 (4c), n(9) = n(T) = n(A) = 1.
    assert np.array_equal(dz(s, "wildcard_flags"), [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    # Tribute and return cards are neither unseen-by-play nor played.
    assert np.array_equal(dz(s, "unseen"), np.full(54, 2, dtype=np.float32) - counts("4h", "As", "4c", "9s", "Ts"))


@pytest.mark.parametrize(
    "hand, flags",
    [
        # No heart level card (level 2): all zero.
        ("3s 4s 5s 6s 7s 9c 9d 9h", [0] * 12),
        # 3s 4s _ 6s 7s: one gap in a spade window; n(9) = 3, n(T) = 2.
        ("2h 3s 4s 6s 7s 9c 9d 9h Tc Td", [1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0]),
        # J Q K A spades: the T-A window is never examined (DanZero), so flag 1
        # is 0; J, Q, K, A all held -> flag 8; n = J2 Q2 K2 A3 -> flags 9, 11.
        ("2h Js Qs Ks As Jc Qd Kc Ad Ac", [1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1]),
        # n(3) = 1, n(4) = 2, n(5) = 2 -> flag 10 (and 11 for the two 2s).
        ("2h 3s 4s 4c 5s 5d", [1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1]),
        # Four suits of 8 -> flag 4; two copies of a card count once.
        ("2h 2h 8h 8s 8c 8d 8d", [1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]),
        # The other three suits of the level rank count; the wildcard does not.
        ("2h 2s 2c 2d", [1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]),
    ],
)
def test_danzero_wildcard_flags(hand, flags):
    g = gf.Game(hands=[hand, "3c", "4c", "5c"], leader=0)
    s = gf.danzero_state(g.observation(0))
    assert np.array_equal(dz(s, "wildcard_flags"), np.array(flags, dtype=np.float32))
