"""Hand-written rule tests (RULES.md sections 1-4) against guandan_fast's
public API.  Every expected value is written out by hand; none is computed
by the reference implementation."""

from __future__ import annotations

import pytest

import guandan_fast as gf
from guandan_fast import Card, Hand, classify, legal_moves, legal_moves_array, parse_cards

KINDS = ["Single", "Pair", "Triple", "FullHouse", "Straight", "Tube", "Plate",
         "Bomb", "StraightFlush", "JokerBomb"]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def decl(c):
    if c.kind == "StraightFlush":
        return (c.kind, c.rank, c.suit)
    return (c.kind, c.rank)


def decls(cards, level):
    """Sorted declarations (duplicates kept, so a duplicate shows up)."""
    return sorted(decl(c) for c in classify(cards, level))


def one(cards, level, kind, rank=None):
    found = [c for c in classify(cards, level) if c.kind == kind and (rank is None or c.rank == rank)]
    assert len(found) == 1, (cards, level, kind, rank, decls(cards, level))
    return found[0]


def card_texts(hand):
    return tuple(str(c) for c in sorted(hand, key=lambda c: c.index))


def move_keys(moves):
    return sorted((card_texts(m.cards), m.kind, m.rank) for m in moves)


def wild_texts(combo):
    return sorted(str(c) for c in combo.wildcards)


# --------------------------------------------------------------------------
# exceptions
# --------------------------------------------------------------------------

def test_exception_hierarchy():
    assert issubclass(gf.GuandanError, ValueError)
    for name in ["InvalidCardError", "DuplicateCardError", "InvalidLevelError",
                 "InvalidComboError", "CardsNotInHandError"]:
        exc = getattr(gf, name)
        assert issubclass(exc, gf.GuandanError), name


def test_move_is_combo():
    assert gf.Move is gf.Combo
    assert isinstance(classify("As", 2)[0], gf.Combo)


# --------------------------------------------------------------------------
# cards: text, index, attributes
# --------------------------------------------------------------------------

@pytest.mark.parametrize("text,index,rank,suit", [
    ("2h", 0, "2", "h"), ("2s", 1, "2", "s"), ("2c", 2, "2", "c"), ("2d", 3, "2", "d"),
    ("3h", 4, "3", "h"), ("9d", 31, "9", "d"), ("Th", 32, "T", "h"), ("Js", 37, "J", "s"),
    ("Qc", 42, "Q", "c"), ("Kd", 47, "K", "d"), ("Ah", 48, "A", "h"), ("Ad", 51, "A", "d"),
    ("BJ", 52, "BJ", None), ("RJ", 53, "RJ", None),
])
def test_card_index_rank_suit(text, index, rank, suit):
    c = Card(text)
    assert c.index == index
    assert c.rank == rank
    assert c.suit == suit
    assert str(c) == text
    assert Card.from_index(index) == c


def test_every_face_round_trips():
    texts = [r + s for r in "23456789TJQKA" for s in "hscd"] + ["BJ", "RJ"]
    for i, t in enumerate(texts):
        c = Card.from_index(i)
        assert str(c) == t
        assert Card(str(c)).index == i


@pytest.mark.parametrize("text,canonical", [
    ("10h", "Th"), ("10s", "Ts"), ("th", "Th"), ("jd", "Jd"), ("qc", "Qc"), ("ks", "Ks"), ("ah", "Ah"),
    ("T\u2665", "Th"), ("T\u2661", "Th"), ("A\u2660", "As"), ("A\u2664", "As"),
    ("K\u2663", "Kc"), ("K\u2667", "Kc"), ("Q\u2666", "Qd"), ("Q\u2662", "Qd"), ("10\u2666", "Td"),
    ("H5", "5h"), ("ST", "Ts"), ("CA", "Ac"), ("DQ", "Qd"), ("S2", "2s"),
    ("SB", "BJ"), ("HR", "RJ"),
])
def test_accepted_card_forms(text, canonical):
    assert str(Card(text)) == canonical
    assert Card(text) == Card(canonical)


@pytest.mark.parametrize("text", ["", "1h", "11h", "0h", "Xh", "Ax", "A", "h", "Ahh", "JJ", "SS", "H1", "BK", "\u2660"])
def test_bad_card_text(text):
    with pytest.raises(gf.InvalidCardError):
        Card(text)


def test_card_equality_and_hash():
    a, b, c = Card("Ah"), Card("HA"), Card.from_index(48)
    assert a == b == c
    assert len({a, b, c}) == 1
    assert Card("Ah") != Card("As")
    assert Card("BJ") != Card("RJ")


def test_parse_cards():
    cards = parse_cards("Ah Ks,Qd, 10c  ,BJ")
    assert [c.index for c in cards] == [48, 45, 43, 34, 52]
    assert [str(c) for c in cards] == ["Ah", "Ks", "Qd", "Tc", "BJ"]
    with pytest.raises(gf.InvalidCardError):
        parse_cards("Ah Zz")


# --------------------------------------------------------------------------
# hands
# --------------------------------------------------------------------------

def test_hand_basics():
    h = Hand("Ah Ah Ks")
    assert len(h) == 3
    assert Card("Ah") in h
    assert Card("Ks") in h
    assert Card("Qs") not in h
    assert h.count(Card("Ah")) == 2
    assert h.count(Card("Ks")) == 1
    assert h.count(Card("Qs")) == 0
    assert sorted(c.index for c in h) == [45, 48, 48]
    counts = h.counts()
    assert len(counts) == 54
    assert counts[48] == 2 and counts[45] == 1 and sum(counts) == 3


def test_hand_constructors_agree():
    want = Hand("Ah Ks").counts()
    assert Hand(["Ah", "Ks"]).counts() == want
    assert Hand([Card("Ah"), Card("Ks")]).counts() == want
    assert Hand(["Ah", Card("Ks")]).counts() == want
    assert Hand("Ah,Ks").counts() == want
    assert Hand.from_counts(want).counts() == want


def test_hand_str_round_trip():
    h = Hand("RJ 2h 2h Td BJ 10s As")
    assert Hand(str(h)).counts() == h.counts()
    full = Hand.from_counts([2] * 54)
    assert len(full) == 108
    assert Hand(str(full)).counts() == [2] * 54


def test_third_copy_raises():
    with pytest.raises(gf.DuplicateCardError):
        Hand("Ah Ah Ah")
    with pytest.raises(gf.DuplicateCardError):
        Hand(["BJ", "BJ", "BJ"])
    counts = [0] * 54
    counts[10] = 3
    with pytest.raises(gf.DuplicateCardError):
        Hand.from_counts(counts)


def test_hand_bad_card():
    with pytest.raises(gf.InvalidCardError):
        Hand("Ah Qx")


# --------------------------------------------------------------------------
# levels
# --------------------------------------------------------------------------

@pytest.mark.parametrize("forms", [("2", 2), ("5", 5), ("10", "T", 10), ("J", 11), ("A", 14)])
def test_level_forms_agree(forms):
    cards = "Th Ts 5h 5s 2h 2s Ah As Jh Js"
    results = [sorted((c.kind, c.rank, c.size) for c in legal_moves(Hand(cards), f)) for f in forms]
    assert all(r == results[0] for r in results)


@pytest.mark.parametrize("level", ["1", "11", "0", "BJ", "RJ", "X", "", 1, 0, 15, -2])
def test_bad_level(level):
    with pytest.raises(gf.InvalidLevelError):
        classify("As", level)
    with pytest.raises(gf.InvalidLevelError):
        legal_moves(Hand("As"), level)


# --------------------------------------------------------------------------
# classify: one group per rule
# --------------------------------------------------------------------------

def test_classify_accepts_cards_in_every_form():
    want = [("Pair", "9")]
    assert decls("9s 9d", 2) == want
    assert decls(["9s", "9d"], 2) == want
    assert decls([Card("9s"), Card("9d")], 2) == want
    assert decls(Hand("9s 9d"), 2) == want


@pytest.mark.parametrize("cards,level,expected", [
    ("7d", 2, [("Single", "7")]),
    ("BJ", 2, [("Single", "BJ")]),
    ("RJ", 2, [("Single", "RJ")]),
    ("7d 7s", 2, [("Pair", "7")]),
    ("7d 7d", 2, [("Pair", "7")]),
    ("BJ BJ", 2, [("Pair", "BJ")]),
    ("RJ RJ", 2, [("Pair", "RJ")]),
    ("BJ RJ", 2, []),           # small + big joker is not a pair
    ("7d 8d", 2, []),
    ("9s 9c 9d", 2, [("Triple", "9")]),
    ("BJ BJ RJ", 2, []),
])
def test_singles_pairs_triples(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


@pytest.mark.parametrize("cards,level", [
    ("BJ 2h", 2), ("RJ 2h", 2), ("BJ BJ 2h", 2), ("BJ 2h 2h", 2), ("RJ RJ 2h", 2),
    ("BJ RJ RJ 2h", 2), ("BJ BJ RJ 2h", 2), ("BJ BJ 2h 2h", 2), ("BJ Kh", 13),
])
def test_wildcards_never_stand_for_jokers(cards, level):
    assert decls(cards, level) == []


@pytest.mark.parametrize("cards,level,expected,wilds", [
    ("2h", 2, [("Single", "2")], ["2h"]),
    ("2h 2h", 2, [("Pair", "2")], ["2h", "2h"]),
    ("7h", 7, [("Single", "7")], ["7h"]),
    ("7h 7h", 7, [("Pair", "7")], ["7h", "7h"]),
    ("Ah Ah", "A", [("Pair", "A")], ["Ah", "Ah"]),
])
def test_wildcards_alone_are_only_the_level_single_or_pair(cards, level, expected, wilds):
    assert decls(cards, level) == expected
    assert wild_texts(classify(cards, level)[0]) == wilds


@pytest.mark.parametrize("cards,level,expected", [
    ("7h 9s", 7, [("Pair", "9")]),        # the wildcard stands for a 9
    ("7h 7s", 7, [("Pair", "7")]),
    ("7s 9c", 7, []),                     # only the HEART level card is wild
    ("7d 7c 7s", 7, [("Triple", "7")]),
    ("9s 9c 2h", 2, [("Triple", "9")]),
    ("9s 2h 2h", 2, [("Triple", "9")]),
    ("7s 7c 7d 2h", 2, [("Bomb", "7")]),
])
def test_wildcard_completes_same_rank(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


@pytest.mark.parametrize("cards,level,expected", [
    ("5s 5c 5d 3h 3s", 2, [("FullHouse", "5")]),
    ("3h 3s 5s 5c 5d", 2, [("FullHouse", "5")]),
    ("5s 5c 5d BJ BJ", 2, [("FullHouse", "5")]),      # joker pair allowed
    ("5s 5c 5d RJ RJ", 2, [("FullHouse", "5")]),
    ("5s 5c 5d BJ RJ", 2, []),                         # BJ+RJ not a pair
    ("BJ BJ RJ RJ 5s", 2, []),
    ("5s 5s 5c 5d 5d", 2, [("Bomb", "5")]),            # five of one rank: no FullHouse
    ("5s 5c 5d 5h 2h", 2, [("Bomb", "5")]),
    ("5s 5c 2h BJ BJ", 2, [("FullHouse", "5")]),       # 5 5 W + joker pair
    ("5s 5c 9d 2h 2h", 2, [("FullHouse", "5"), ("FullHouse", "9")]),
    ("5s 5c 5d 9s 2h", 2, [("FullHouse", "5")]),
])
def test_full_house(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


def test_triple_plus_two_wildcards_is_full_house_and_bomb():
    # RULES 3: 5s 5c 5d Xh Xh as FullHouse 555+XX or as Bomb of five 5s
    assert decls("5s 5c 5d 2h 2h", 2) == [("Bomb", "5"), ("FullHouse", "5")]
    assert decls("5s 5c 5d 9h 9h", 9) == [("Bomb", "5"), ("FullHouse", "5")]
    fh = one("5s 5c 5d 2h 2h", 2, "FullHouse")
    ws = fh.wildcards
    assert len(ws) == 2 and ws[0].rank == ws[1].rank != "5"
    assert ws[0].rank not in ("BJ", "RJ")
    assert wild_texts(one("5s 5c 5d 2h 2h", 2, "Bomb")) == ["5h", "5h"]
    assert wild_texts(one("5s 5c 9d 2h 2h", 2, "FullHouse", "5")) == ["5h", "9h"]
    assert wild_texts(one("5s 5c 9d 2h 2h", 2, "FullHouse", "9")) == ["9h", "9h"]


@pytest.mark.parametrize("cards,level,expected", [
    ("3c 4d 5s 6h 7c", 2, [("Straight", "3")]),
    ("7c 6h 5s 4d 3c", 2, [("Straight", "3")]),
    ("Ah 2s 3c 4d 5s", 9, [("Straight", "A")]),        # A low: rank 'A'
    ("Ts Jc Qd Kh Ac", 9, [("Straight", "T")]),        # A high
    ("9s Tc Jd Qh Ks", 9, [("Straight", "9")]),
    ("Qs Kc Ad 2h 3s", 9, []),                         # no wrap-around
    ("Js Qc Kd As 2c", 9, []),
    ("Ks As 2d 3c 4h", 9, []),
    ("3c 4d 5s 6h 7c 8s", 9, []),                      # exactly five
    ("3c 4d 5s 6h", 9, []),
    ("3c 4d 5s 6h 8c", 9, []),
    ("BJ 3c 4d 5s 6h", 9, []),                         # no jokers
    ("3c 4d 5s 6c 7c", 5, [("Straight", "3")]),        # level 5 natural in a sequence
    ("5c 6d 7s 8c 9c", 5, [("Straight", "5")]),
    ("Jc Qd Kh As 5s", 5, []),                         # the level is not above A in sequences
    ("Tc Jd Qh Ks Ad", "A", [("Straight", "T")]),      # level A: still natural
    ("Ac 2d 3h 4s 5d", "A", [("Straight", "A")]),
])
def test_straight(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


def test_same_cards_several_straights():
    # 3c 4d 5s 6h + wildcard: Straight 2-6 (W = 2) or 3-7 (W = 7)
    assert decls("3c 4d 5s 6h 9h", 9) == [("Straight", "2"), ("Straight", "3")]
    assert wild_texts(one("3c 4d 5s 6h 9h", 9, "Straight", "2")) == ["2h"]
    assert wild_texts(one("3c 4d 5s 6h 9h", 9, "Straight", "3")) == ["7h"]
    # a wildcard standing for itself
    assert decls("3c 4d 5h 6h 7c", 5) == [("Straight", "3")]
    assert wild_texts(one("3c 4d 5h 6h 7c", 5, "Straight")) == ["5h"]
    # wildcard inside A-high and A-low straights
    assert decls("Tc Jd 4h Kh Ac", 4) == [("Straight", "T")]
    assert decls("Ac 2d 3h 9h 5d", 9) == [("Straight", "A")]


@pytest.mark.parametrize("cards,level,expected", [
    ("3s 4s 5s 6s 7s", 9, [("Straight", "3"), ("StraightFlush", "3", "s")]),
    ("As 2s 3s 4s 5s", 9, [("Straight", "A"), ("StraightFlush", "A", "s")]),
    ("Td Jd Qd Kd Ad", 9, [("Straight", "T"), ("StraightFlush", "T", "d")]),
    ("3h 4h 6h 7h 5h", 9, [("Straight", "3"), ("StraightFlush", "3", "h")]),
    ("3c 4c 5c 6c 7d", 9, [("Straight", "3")]),
    ("Qs Ks As 2s 3s", 9, []),
    ("3s 4s 5s 6s 9h", 9, [("Straight", "2"), ("Straight", "3"),
                           ("StraightFlush", "2", "s"), ("StraightFlush", "3", "s")]),
    ("3h 4h 5h 6h 7h", 5, [("Straight", "3"), ("StraightFlush", "3", "h")]),   # 5h wild = 5h
    ("3c 4c 2h 2h 7c", 2, [("Straight", "3"), ("StraightFlush", "3", "c")]),
])
def test_straight_flush(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


def test_straight_flush_attributes():
    sf = one("3s 4s 5s 6s 9h", 9, "StraightFlush", "3")
    assert sf.suit == "s"
    assert wild_texts(sf) == ["7s"]           # flush suit for the wildcard
    assert sf.is_bomb
    st = one("3s 4s 5s 6s 9h", 9, "Straight", "3")
    assert st.suit is None
    assert wild_texts(st) == ["7h"]           # suit 'h' where suits do not matter
    assert not st.is_bomb
    sfh = one("3h 4h 5h 6h 7h", 5, "StraightFlush")
    assert sfh.suit == "h" and wild_texts(sfh) == ["5h"]


@pytest.mark.parametrize("cards,level,expected", [
    ("3s 3c 4d 4h 5s 5c", 9, [("Tube", "3")]),
    ("As Ac 2d 2h 3s 3c", 9, [("Tube", "A")]),
    ("Qs Qc Kd Kh As Ac", 9, [("Tube", "Q")]),
    ("Ks Kc As Ac 2s 2c", 9, []),
    ("3s 3c 4d 4h", 9, []),
    ("3s 3c 4d 4h 5s 5c 6s 6c", 9, []),
    ("3s 3c 4d 4h 6s 6c", 9, []),
    ("3s 3c 4d 9h 5s 5c", 9, [("Tube", "3")]),
    ("3s 3c 4d 4h 9h 9h", 9, [("Plate", "3"), ("Tube", "2"), ("Tube", "3")]),
    ("5s 5c 6d 6h 7s 7c", 5, [("Tube", "5")]),
])
def test_tube(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


@pytest.mark.parametrize("cards,level,expected", [
    ("3s 3c 3d 4s 4c 4d", 9, [("Plate", "3")]),
    ("As Ac Ad 2s 2c 2d", 9, [("Plate", "A")]),
    ("Ks Kc Kd As Ac Ad", 9, [("Plate", "K")]),
    ("3s 3c 3d 5s 5c 5d", 9, []),
    ("3s 3c 3d 4s 4c 4d 5s 5c 5d", 9, []),
    ("3s 3c 3d 4s 4c 9h", 9, [("Plate", "3")]),
    ("Ks Kc Kd As Ac Ad", "K", [("Plate", "K")]),
])
def test_plate(cards, level, expected):
    assert decls(cards, level) == sorted(expected)


@pytest.mark.parametrize("cards,level,size", [
    ("7s 7c 7d 7h", 2, 4),
    ("7s 7c 7d 7h 7s", 2, 5),
    ("7s 7c 7d 7h 7s 7c", 2, 6),
    ("7s 7c 7d 7h 7s 7c 7d", 2, 7),
    ("7s 7s 7c 7c 7d 7d 7h 7h", 2, 8),
    ("7s 7s 7c 7c 7d 7d 7h 7h 2h", 2, 9),      # wildcard = a 7 whose two copies are in
    ("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h", 2, 10),
    ("7s 7s 7c 7c 7d 7d 2h 2h", 2, 8),
    ("7s 7s 7c 7c 7d 7d 7h 7h", 7, 8),         # the level rank: at most 8
    ("7s 7s 7c 7c 7d 7d", 7, 6),
])
def test_bomb_sizes(cards, level, size):
    assert decls(cards, level) == [("Bomb", "7")]
    b = one(cards, level, "Bomb")
    assert b.size == size and b.is_bomb


def test_joker_bomb():
    assert decls("BJ BJ RJ RJ", 2) == [("JokerBomb", "RJ")]
    jb = one("RJ BJ RJ BJ", 5, "JokerBomb")
    assert jb.size == 4 and jb.is_bomb and jb.wildcards == ()


def test_combo_attributes():
    fh = one("5s 5c 5d BJ BJ", 2, "FullHouse")
    assert fh.rank == "5" and fh.size == 5 and fh.suit is None and not fh.is_bomb
    assert fh.cards.counts() == Hand("5s 5c 5d BJ BJ").counts()
    assert fh.wildcards == ()
    b = one("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h", 2, "Bomb")
    assert b.cards.counts() == Hand("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h").counts()
    assert wild_texts(b) == ["7h", "7h"]
    for kind, cards in [("Single", "3d"), ("Pair", "3d 3s"), ("Triple", "3d 3s 3c"),
                        ("Tube", "3s 3c 4d 4h 5s 5c"), ("Plate", "3s 3c 3d 4s 4c 4d")]:
        c = one(cards, 9, kind)
        assert c.kind == kind and not c.is_bomb and c.suit is None


# --------------------------------------------------------------------------
# beating
# --------------------------------------------------------------------------

def test_single_order_level_ten():
    # RULES 2 example, level 10: RJ > BJ > 10 > A > K > ... > 2
    order = ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Js", "Qs", "Ks", "As", "Ts", "BJ", "RJ"]
    singles = [one(t, "10", "Single") for t in order]
    for i, a in enumerate(singles):
        for j, b in enumerate(singles):
            assert a.beats(b) == (i > j), (order[i], order[j])


@pytest.mark.parametrize("high,low,level", [
    ("5s", "As", 5),                           # level lifted above A
    ("2d", "Ad", 2),
    ("BJ", "5s", 5),
    ("RJ", "BJ", 5),
    ("As", "Ks", 5),
    ("6s", "4s", 5),                           # other ranks keep their order
    ("5s 5c", "As Ac", 5),
    ("BJ BJ", "5s 5c", 5),
    ("RJ RJ", "BJ BJ", 5),
    ("5s 5c 5d", "As Ac Ad", 5),
    ("5s 5c 5d 3s 3c", "As Ac Ad Ks Kc", 5),
    ("6s 6c 6d 3s 3c", "4s 4c 4d As Ac", 9),   # full house by the triple only
    ("6s 6c 6d 3s 3c", "4s 4c 4d BJ BJ", 9),
    ("5s 5c 5d 5s", "As Ac Ad As", 5),
    ("3s 3c 3d 3h 3s", "Ks Kc Kd Kh Ks", 3),
])
def test_same_rank_kinds_by_single_order(high, low, level):
    kind = classify(high, level)[0].kind
    a, b = one(high, level, kind), one(low, level, kind)
    assert a.beats(b)
    assert not b.beats(a)


@pytest.mark.parametrize("kind,high,low,level", [
    ("Straight", "9s Tc Jd Qh Ks", "5s 6c 7d 8h 9s", 5),    # level 5 not lifted in sequences
    ("Straight", "2s 3c 4d 5h 6s", "As 2c 3d 4h 5s", 9),    # A-low is the lowest
    ("Straight", "Ts Jc Qd Kh As", "9s Tc Jd Qh Ks", 9),    # A-high is the highest
    ("Straight", "2s 3c 4d 5h 6s", "As 2c 3d 4h 5s", "A"),
    ("Straight", "Ts Jc Qd Kh As", "9s Tc Jd Qh Ks", "A"),
    ("Tube", "2s 2c 3d 3h 4s 4c", "As Ac 2d 2h 3s 3c", 9),
    ("Tube", "Qs Qc Kd Kh As Ac", "Js Jc Qd Qh Ks Kc", 9),
    ("Tube", "6s 6c 7d 7h 8s 8c", "5s 5c 6d 6h 7s 7c", 5),
    ("Plate", "2s 2c 2d 3s 3c 3d", "As Ac Ad 2s 2c 2d", 9),
    ("Plate", "Ks Kc Kd As Ac Ad", "Qs Qc Qd Ks Kc Kd", 9),
    ("StraightFlush", "2h 3h 4h 5h 6h", "As 2s 3s 4s 5s", 9),
    ("StraightFlush", "Td Jd Qd Kd Ad", "9s Ts Js Qs Ks", 9),
])
def test_sequences_by_position(kind, high, low, level):
    a, b = one(high, level, kind), one(low, level, kind)
    assert a.beats(b)
    assert not b.beats(a)


# bombs from lowest to highest at level 5: each beats every earlier one
BOMB_LADDER = [
    ("Bomb", "As Ac Ad Ah"),                                  # 4 cards, A
    ("Bomb", "5s 5c 5d 5s"),                                  # 4 cards, the level
    ("Bomb", "2s 2c 2d 2h 2s"),                               # lowest 5-card
    ("Bomb", "5s 5c 5d 5s 5c"),                               # highest 5-card
    ("StraightFlush", "As 2s 3s 4s 5s"),                      # lowest straight flush
    ("StraightFlush", "Th Jh Qh Kh Ah"),                      # highest straight flush
    ("Bomb", "2s 2c 2d 2h 2s 2c"),                            # lowest 6
    ("Bomb", "5s 5c 5d 5s 5c 5d"),                            # highest 6 (the level)
    ("Bomb", "2s 2c 2d 2h 2s 2c 2d"),                         # 7
    ("Bomb", "2s 2c 2d 2h 2s 2c 2d 2h"),                      # 8
    ("Bomb", "3s 3c 3d 3h 3s 3c 3d 3h 5h"),                   # 9 (with a wildcard)
    ("Bomb", "As Ac Ad Ah As Ac Ad Ah 5h"),                   # 9, higher rank
    ("Bomb", "3s 3c 3d 3h 3s 3c 3d 3h 5h 5h"),                # 10
    ("JokerBomb", "BJ BJ RJ RJ"),
]


@pytest.mark.parametrize("i", range(len(BOMB_LADDER) - 1))
def test_bomb_ladder_adjacent(i):
    lo = one(BOMB_LADDER[i][1], 5, BOMB_LADDER[i][0])
    hi = one(BOMB_LADDER[i + 1][1], 5, BOMB_LADDER[i + 1][0])
    assert hi.beats(lo), (BOMB_LADDER[i + 1], BOMB_LADDER[i])
    assert not lo.beats(hi)


def test_bomb_ladder_all_pairs():
    bombs = [one(cards, 5, kind) for kind, cards in BOMB_LADDER]
    for i, a in enumerate(bombs):
        for j, b in enumerate(bombs):
            assert a.beats(b) == (i > j), (BOMB_LADDER[i], BOMB_LADDER[j])


NON_BOMBS = [
    ("Single", "RJ"), ("Pair", "RJ RJ"), ("Triple", "As Ac Ad"), ("FullHouse", "2s 2c 2d BJ BJ"),
    ("Straight", "Ts Jc Qd Kh As"), ("Tube", "Qs Qc Kd Kh As Ac"), ("Plate", "Ks Kc Kd As Ac Ad"),
]


@pytest.mark.parametrize("kind,cards", NON_BOMBS)
def test_any_bomb_beats_any_non_bomb(kind, cards):
    level = 2
    top = one(cards, level, kind)
    for bkind, bcards in [("Bomb", "3s 3c 3d 3h"), ("StraightFlush", "As 2s 3s 4s 5s"),
                          ("JokerBomb", "BJ BJ RJ RJ")]:
        bomb = one(bcards, level, bkind)
        assert bomb.beats(top)
        assert not top.beats(bomb)


def test_equal_never_beats():
    level = 2
    pairs = [
        ("As", "Ah", "Single"), ("As Ac", "Ad Ah", "Pair"), ("9s 9c 9d", "9h 9s 9c", "Triple"),
        ("5s 5c 5d 3s 3c", "5h 5s 5c 4s 4c", "FullHouse"),   # same triple, different pair
        ("3c 4d 5s 6h 7c", "3d 4c 5h 6s 7d", "Straight"),
        ("3s 4s 5s 6s 7s", "3d 4d 5d 6d 7d", "StraightFlush"),  # suits never break ties
        ("9s 9c 9d 9h", "9s 9c 9d 9h", "Bomb"),
        ("BJ BJ RJ RJ", "BJ BJ RJ RJ", "JokerBomb"),
    ]
    for x, y, kind in pairs:
        a, b = one(x, level, kind), one(y, level, kind)
        assert not a.beats(b) and not b.beats(a), (x, y)
        assert not a.beats(a)


@pytest.mark.parametrize("x,kx,y,ky", [
    ("As Ac", "Pair", "3s", "Single"),
    ("3s", "Single", "As Ac", "Pair"),
    ("As Ac Ad", "Triple", "3s 3c", "Pair"),
    ("As Ac Ad", "Triple", "3s 3c 3d 4s 4c", "FullHouse"),
    ("Ts Jc Qd Kh As", "Straight", "3s 3c 3d 4s 4c", "FullHouse"),
    ("Ks Kc Kd Ah Ac", "FullHouse", "3s 4c 5d 6h 7s", "Straight"),
    ("Ks Kc Kd As Ac Ad", "Plate", "3s 3c 4d 4h 5s 5c", "Tube"),
    ("Qs Qc Kd Kh As Ac", "Tube", "3s 3c 3d 4s 4c 4d", "Plate"),
    ("RJ", "Single", "3s 3c", "Pair"),
])
def test_different_kind_or_size_never_beats(x, kx, y, ky):
    assert not one(x, 2, kx).beats(one(y, 2, ky))


# --------------------------------------------------------------------------
# legal moves (hand-written)
# --------------------------------------------------------------------------

def test_leading_card_mode():
    assert move_keys(legal_moves(Hand("As Ac"), 2)) == sorted([
        (("As",), "Single", "A"), (("Ac",), "Single", "A"), (("As", "Ac"), "Pair", "A")])
    assert move_keys(legal_moves(Hand("As As"), 2)) == sorted([
        (("As",), "Single", "A"), (("As", "As"), "Pair", "A")])
    assert move_keys(legal_moves(Hand("BJ RJ"), 2)) == sorted([
        (("BJ",), "Single", "BJ"), (("RJ",), "Single", "RJ")])


def test_leading_pattern_mode():
    assert move_keys(legal_moves(Hand("As Ac"), 2, mode="pattern")) == sorted([
        (("As",), "Single", "A"), (("As", "Ac"), "Pair", "A")])
    assert move_keys(legal_moves(Hand("5d 5s 5c"), 2, mode="pattern")) == sorted([
        (("5s",), "Single", "5"), (("5s", "5c"), "Pair", "5"), (("5s", "5c", "5d"), "Triple", "5")])
    assert move_keys(legal_moves(Hand("5s 5s 5d"), 2, mode="pattern")) == sorted([
        (("5s",), "Single", "5"), (("5s", "5s"), "Pair", "5"), (("5s", "5s", "5d"), "Triple", "5")])


def test_pattern_mode_straight_flush_uses_flush_suit():
    moves = legal_moves(Hand("3h 3s 4s 5s 6s 7s"), 9, mode="pattern")
    keys = [k for k in move_keys(moves) if len(k[0]) == 5]
    assert keys == sorted([
        (("3h", "4s", "5s", "6s", "7s"), "Straight", "3"),
        (("3s", "4s", "5s", "6s", "7s"), "StraightFlush", "3")])
    card_keys = [k for k in move_keys(legal_moves(Hand("3h 3s 4s 5s 6s 7s"), 9)) if len(k[0]) == 5]
    assert card_keys == sorted([
        (("3h", "4s", "5s", "6s", "7s"), "Straight", "3"),
        (("3s", "4s", "5s", "6s", "7s"), "Straight", "3"),
        (("3s", "4s", "5s", "6s", "7s"), "StraightFlush", "3")])


def test_wildcards_in_legal_moves():
    # level 2: 2h is a wildcard; alone it is the level single
    assert move_keys(legal_moves(Hand("2h 5s"), 2)) == sorted([
        (("2h",), "Single", "2"), (("5s",), "Single", "5"), (("2h", "5s"), "Pair", "5")])
    # natural 2s and wildcard 2h are different patterns
    assert move_keys(legal_moves(Hand("2h 2s"), 2, mode="pattern")) == sorted([
        (("2h",), "Single", "2"), (("2s",), "Single", "2"), (("2h", "2s"), "Pair", "2")])
    # the two wildcards alone: the level single and pair, nothing else
    assert move_keys(legal_moves(Hand("7h 7h"), 7)) == sorted([
        (("7h",), "Single", "7"), (("7h", "7h"), "Pair", "7")])
    # a wildcard never makes a joker pair
    assert move_keys(legal_moves(Hand("BJ 2h"), 2)) == sorted([
        (("2h",), "Single", "2"), (("BJ",), "Single", "BJ")])


def test_following():
    top = one("9s", 2, "Single")
    assert move_keys(legal_moves(Hand("As 3c 9d BJ"), 2, top)) == sorted([
        (("As",), "Single", "A"), (("BJ",), "Single", "BJ")])
    top = one("9d 9c", 2, "Pair")
    assert move_keys(legal_moves(Hand("9s 9h Ts Tc 3s 3c BJ RJ"), 2, top)) == [
        (("Ts", "Tc"), "Pair", "T")]
    top = one("Ks Kc", 2, "Pair")
    assert move_keys(legal_moves(Hand("As 2h 3c"), 2, top)) == [(("2h", "As"), "Pair", "A")]
    # level lifted: the level single beats an A
    top = one("As", 5, "Single")
    assert move_keys(legal_moves(Hand("5s Ks"), 5, top)) == [(("5s",), "Single", "5")]
    top = one("As", 2, "Single")
    assert move_keys(legal_moves(Hand("2h 3c"), 2, top)) == [(("2h",), "Single", "2")]
    top = one("3c 4d 5s 6h 7c", 2, "Straight")
    assert move_keys(legal_moves(Hand("4s 5c 6d 7s 8s 9s"), 2, top)) == sorted([
        (("4s", "5c", "6d", "7s", "8s"), "Straight", "4"),
        (("5c", "6d", "7s", "8s", "9s"), "Straight", "5")])
    top = one("As Ac", 7, "Pair")
    assert move_keys(legal_moves(Hand("7h 7h"), 7, top)) == [(("7h", "7h"), "Pair", "7")]


def test_following_bombs():
    top = one("3s 3c 3d 3h", 2, "Bomb")
    assert move_keys(legal_moves(Hand("As Ac Ad Ah Kd 2s 2c 2d"), 2, top)) == [
        (("Ah", "As", "Ac", "Ad"), "Bomb", "A")]
    # only a 10-card bomb beats a 9-card bomb of aces
    top = one("As As Ac Ac Ad Ad Ah Ah 2h", 2, "Bomb")
    hand = Hand("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h")
    assert move_keys(legal_moves(hand, 2, top)) == [
        (("2h", "2h", "7h", "7h", "7s", "7s", "7c", "7c", "7d", "7d"), "Bomb", "7")]
    top = one("BJ BJ RJ RJ", 2, "JokerBomb")
    assert legal_moves(hand, 2, top) == []
    assert legal_moves(Hand("3s 3c 3d 3h 3s"), 2, one("3c 4c 5c 6c 7c", 2, "StraightFlush")) == []


def test_legal_moves_array():
    np = pytest.importorskip("numpy")
    hand = Hand("As Ac 2h")
    moves = legal_moves(hand, 2)
    arr = legal_moves_array(hand, 2)
    n = len(moves)
    assert n == 7   # singles As, Ac, 2h; pairs (A) As Ac, As 2h, Ac 2h; triple (A) As Ac 2h
    for key in ("cards", "kind", "rank", "size", "wildcards"):
        assert arr[key].dtype == np.uint8, key
    assert arr["cards"].shape == (n, 54)
    for key in ("kind", "rank", "size", "wildcards"):
        assert arr[key].shape == (n,)
    for i, m in enumerate(moves):
        assert list(arr["cards"][i]) == m.cards.counts()
        assert arr["kind"][i] == KINDS.index(m.kind)
        assert arr["size"][i] == m.size
        assert arr["wildcards"][i] == m.cards.count(Card("2h"))
        assert arr["rank"][i] == {"A": 12, "2": 0}[m.rank]
    empty = legal_moves_array(hand, 2, one("BJ BJ RJ RJ", 2, "JokerBomb"))
    assert empty["cards"].shape == (0, 54)
    assert empty["kind"].shape == (0,)


def test_legal_moves_array_codes():
    pytest.importorskip("numpy")
    cases = [
        ("As 2s 3c 4d 5h", 9, "Straight", 4, 12),      # A-low: rank code 12
        ("Ts Jc Qd Kh As", 9, "Straight", 4, 8),
        ("BJ", 9, "Single", 0, 13),
        ("RJ RJ", 9, "Pair", 1, 14),
        ("BJ BJ RJ RJ", 9, "JokerBomb", 9, 14),
        ("3s 4s 5s 6s 7s", 9, "StraightFlush", 8, 1),
        ("Ks Kc Kd As Ac Ad", 9, "Plate", 6, 11),
        ("As Ac 2d 2c 3s 3c", 9, "Tube", 5, 12),
        ("5s 5c 5d BJ BJ", 9, "FullHouse", 3, 3),
        ("9s 9c 9d 9s", 9, "Bomb", 7, 7),
        ("9s 9c 9d", 9, "Triple", 2, 7),
    ]
    for cards, level, kind, kcode, rcode in cases:
        top = None
        arr = legal_moves_array(Hand(cards), level, top)
        moves = legal_moves(Hand(cards), level, top)
        full = [i for i, m in enumerate(moves) if m.size == len(Hand(cards)) and m.kind == kind]
        assert len(full) == 1, (cards, kind)
        i = full[0]
        assert arr["kind"][i] == kcode and arr["rank"][i] == rcode, (cards, kind)


def test_count_moves_is_the_length_of_legal_moves():
    # Seeded hands of every size (whole deals and random sub-hands), every
    # level, leading and following tops of every kind drawn from another
    # seat's plays, both modes and both full-house rules.
    import random

    rng = random.Random(20261201)
    levels = "23456789TJQKA"
    kinds_seen: set[str] = set()
    checked = 0
    for seed in range(60):
        hands = gf.deal(seed)
        level = levels[seed % 13]
        cards = list(hands[0])
        hand = hands[0] if seed % 3 == 0 else Hand(rng.sample(cards, rng.randint(1, 27)))
        others = legal_moves(hands[1], level, mode="pattern")
        by_kind: dict[str, list[gf.Combo]] = {}
        for m in others:
            by_kind.setdefault(m.kind, []).append(m)
        tops: list[gf.Combo | str | None] = [None] + [rng.choice(ms) for ms in by_kind.values()]
        tops.append(str(rng.choice(by_kind["Single"]).cards))  # a top given as cards
        for top in tops:
            for mode in ("cards", "pattern"):
                jp = seed % 4 != 1
                n = gf.count_moves(hand, level, top, mode=mode, joker_pair_in_full_house=jp)
                assert n == len(legal_moves(hand, level, top, mode=mode, joker_pair_in_full_house=jp)), (
                    str(hand), level, str(top), mode, jp)
                checked += 1
            if isinstance(top, gf.Combo):
                kinds_seen.add(top.kind)
    assert checked > 1000
    assert set(KINDS) - kinds_seen <= {"JokerBomb"}
    # The same errors as legal_moves.
    for args in [("As", "1"), ("As As As", 2), ("As", 2, "BJ RJ"), ("As", 2, gf.Combo("9s", level=3))]:
        with pytest.raises(gf.GuandanError) as want:
            legal_moves(*args)
        with pytest.raises(want.type):
            gf.count_moves(*args)
    with pytest.raises(gf.InvalidArgumentError):
        gf.count_moves("As", 2, mode="all")
