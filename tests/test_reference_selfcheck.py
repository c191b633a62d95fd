"""Tests of the pure-Python reference (tests/reference.py) on its own.

They need no extension: `python -m pytest tests/test_reference_selfcheck.py`.
Expected values here are written out by hand from RULES.md, not computed.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref  # noqa: E402


def D(kind, rank, size, suit=None):
    return ref.Decl(kind, rank, size, suit)


def decls(text, level):
    return set(ref.classify(text, level))


# --------------------------------------------------------------------------
# Card text
# --------------------------------------------------------------------------

def test_face_indices_of_canonical_text():
    assert ref.parse_card("2h") == 0
    assert ref.parse_card("2s") == 1
    assert ref.parse_card("2c") == 2
    assert ref.parse_card("2d") == 3
    assert ref.parse_card("Th") == 32
    assert ref.parse_card("As") == 49
    assert ref.parse_card("Ad") == 51
    assert ref.parse_card("BJ") == 52
    assert ref.parse_card("RJ") == 53


def test_card_text_round_trip():
    texts = [r + s for r in "23456789TJQKA" for s in "hscd"] + ["BJ", "RJ"]
    assert [ref.card_text(i) for i in range(54)] == texts
    assert [ref.parse_card(t) for t in texts] == list(range(54))


@pytest.mark.parametrize("text,face", [
    ("10h", 32), ("th", 32), ("T\u2665", 32), ("T\u2661", 32),
    ("A\u2660", 49), ("A\u2664", 49), ("K\u2663", 46), ("K\u2667", 46),
    ("Q\u2666", 43), ("Q\u2662", 43), ("jd", 39), ("qc", 42), ("ks", 45), ("ah", 48),
    ("H5", 12), ("ST", 33), ("CA", 50), ("DQ", 43), ("SB", 52), ("HR", 53),
])
def test_accepted_input_forms(text, face):
    assert ref.parse_card(text) == face


@pytest.mark.parametrize("text", ["", "1h", "11h", "0h", "Xh", "Ax", "A", "h", "Ahh", "JJ", "SS", "H1", "BK"])
def test_bad_card_text(text):
    with pytest.raises(ValueError):
        ref.parse_card(text)


def test_parse_cards_separators():
    assert ref.parse_cards("Ah Ks,Qd, 10c  ,BJ") == [48, 45, 43, 34, 52]


@pytest.mark.parametrize("level,code", [("2", 0), (2, 0), ("10", 8), ("T", 8), (10, 8), ("A", 12), (14, 12), ("5", 3)])
def test_level_code(level, code):
    assert ref.level_code(level) == code
    assert ref.wildcard_face(level) == 4 * code


@pytest.mark.parametrize("level", ["1", "BJ", "", 1, 15, 0, "X", True])
def test_bad_level(level):
    with pytest.raises(ValueError):
        ref.level_code(level)


# --------------------------------------------------------------------------
# classify: hand-written cases (level given with each)
# --------------------------------------------------------------------------

CASES = [
    # singles and pairs, jokers
    ("7d", 2, {D("Single", "7", 1)}),
    ("BJ", 2, {D("Single", "BJ", 1)}),
    ("BJ BJ", 2, {D("Pair", "BJ", 2)}),
    ("RJ RJ", 2, {D("Pair", "RJ", 2)}),
    ("BJ RJ", 2, set()),
    ("7d 7s", 2, {D("Pair", "7", 2)}),
    ("7d 8d", 2, set()),
    # wildcards never stand for jokers
    ("BJ 2h", 2, set()),
    ("RJ 2h", 2, set()),
    ("BJ BJ 2h", 2, set()),
    ("BJ RJ RJ 2h", 2, set()),
    ("BJ 2h 2h", 2, set()),
    # wildcards alone: only the level single / pair
    ("2h", 2, {D("Single", "2", 1)}),
    ("7h 7h", 7, {D("Pair", "7", 2)}),
    ("7h 9s", 7, {D("Pair", "9", 2)}),
    ("7h 7s", 7, {D("Pair", "7", 2)}),
    # triples
    ("9s 9c 9d", 2, {D("Triple", "9", 3)}),
    ("9s 9c 2h", 2, {D("Triple", "9", 3)}),
    ("9s 2h 2h", 2, {D("Triple", "9", 3)}),
    # full houses
    ("5s 5c 5d 3h 3s", 2, {D("FullHouse", "5", 5)}),
    ("5s 5c 5d BJ BJ", 2, {D("FullHouse", "5", 5)}),
    ("5s 5c 5d RJ RJ", 2, {D("FullHouse", "5", 5)}),
    ("5s 5c 5d BJ RJ", 2, set()),
    ("5s 5s 5c 5d 5d", 2, {D("Bomb", "5", 5)}),
    ("5s 5c 5d 2h 2h", 2, {D("FullHouse", "5", 5), D("Bomb", "5", 5)}),
    ("5s 5c 9d 2h 2h", 2, {D("FullHouse", "5", 5), D("FullHouse", "9", 5)}),
    ("5s 5c 2h BJ BJ", 2, {D("FullHouse", "5", 5)}),
    # straights
    ("3c 4d 5s 6h 7c", 2, {D("Straight", "3", 5)}),
    ("Ah 2s 3c 4d 5s", 9, {D("Straight", "A", 5)}),
    ("Ts Jc Qd Kh Ac", 9, {D("Straight", "T", 5)}),
    ("Qs Kc Ad 2h 3s", 9, set()),
    ("Js Qc Kd As 2c", 9, set()),
    ("Ks As 2d 3c 4h", 9, set()),
    ("3c 4d 5s 6h 7c 8s", 9, set()),
    ("3c 4d 5s 6h", 9, set()),
    ("BJ 3c 4d 5s 6h", 9, set()),
    ("3c 4d 5s 6c 7c", 5, {D("Straight", "3", 5)}),
    ("Jc Qd Kh As 5s", 5, set()),
    ("3c 4d 5s 6h 9h", 9, {D("Straight", "2", 5), D("Straight", "3", 5)}),
    ("3c 4d 5h 6h 7c", 5, {D("Straight", "3", 5)}),
    # straight flushes
    ("3s 4s 5s 6s 7s", 9, {D("Straight", "3", 5), D("StraightFlush", "3", 5, "s")}),
    ("As 2s 3s 4s 5s", 9, {D("Straight", "A", 5), D("StraightFlush", "A", 5, "s")}),
    ("Td Jd Qd Kd Ad", 9, {D("Straight", "T", 5), D("StraightFlush", "T", 5, "d")}),
    ("3s 4s 5s 6s 9h", 9, {D("Straight", "2", 5), D("Straight", "3", 5),
                           D("StraightFlush", "2", 5, "s"), D("StraightFlush", "3", 5, "s")}),
    ("3h 4h 5h 6h 7h", 5, {D("Straight", "3", 5), D("StraightFlush", "3", 5, "h")}),
    ("3h 4h 6h 7h 5h", 9, {D("Straight", "3", 5), D("StraightFlush", "3", 5, "h")}),
    # tubes
    ("3s 3c 4d 4h 5s 5c", 9, {D("Tube", "3", 6)}),
    ("As Ac 2d 2h 3s 3c", 9, {D("Tube", "A", 6)}),
    ("Qs Qc Kd Kh As Ac", 9, {D("Tube", "Q", 6)}),
    ("Ks Kc As Ac 2s 2c", 9, set()),
    ("3s 3c 4d 4h", 9, set()),
    ("3s 3c 4d 4h 5s 5c 6s 6c", 9, set()),
    ("3s 3c 4d 9h 5s 5c", 9, {D("Tube", "3", 6)}),
    ("3s 3c 4d 4h 9h 9h", 9, {D("Tube", "2", 6), D("Tube", "3", 6), D("Plate", "3", 6)}),
    # plates
    ("3s 3c 3d 4s 4c 4d", 9, {D("Plate", "3", 6)}),
    ("As Ac Ad 2s 2c 2d", 9, {D("Plate", "A", 6)}),
    ("Ks Kc Kd As Ac Ad", 9, {D("Plate", "K", 6)}),
    ("3s 3c 3d 5s 5c 5d", 9, set()),
    # bombs
    ("7s 7c 7d 7h", 2, {D("Bomb", "7", 4)}),
    ("7s 7c 7d 2h", 2, {D("Bomb", "7", 4)}),
    ("7s 7s 7c 7c 7d 7d 7h 7h", 2, {D("Bomb", "7", 8)}),
    ("7s 7s 7c 7c 7d 7d 7h 7h 2h", 2, {D("Bomb", "7", 9)}),
    ("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h", 2, {D("Bomb", "7", 10)}),
    ("7s 7s 7c 7c 7d 7d 7h 7h", 7, {D("Bomb", "7", 8)}),
    ("BJ BJ RJ RJ", 2, {D("JokerBomb", "RJ", 4)}),
    ("BJ BJ RJ", 2, set()),
]


@pytest.mark.parametrize("text,level,expected", CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_classify_hand_written(text, level, expected):
    assert decls(text, level) == expected


@pytest.mark.parametrize("text,level,expected", CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_classify_exhaustive_hand_written(text, level, expected):
    assert set(ref.classify_exhaustive(text, level)) == expected


# --------------------------------------------------------------------------
# classify == classify_exhaustive (52**k brute force) on random sets
# --------------------------------------------------------------------------

def _random_sets(seed, count, n_wild):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        level = rng.randint(2, 14)
        if rng.random() < 0.6:
            faces = ref.random_combo_faces(rng, level, rng.choice(ref.KINDS), wild_prob=0.0)
            if faces is None:
                continue
            w = ref.wildcard_face(level)
            faces = [f for f in faces if f != w]
            # replace up to n_wild random cards by wildcards (or add them)
            for _ in range(n_wild):
                if faces and rng.random() < 0.7:
                    faces.pop(rng.randrange(len(faces)))
                faces.append(w)
            if len(faces) > 10 or any(faces.count(f) > 2 for f in set(faces)):
                continue
        else:
            n = rng.randint(max(1, n_wild), 7)
            faces = ref.random_hand(rng, n, level, n_wild)
        out.append((sorted(faces), level))
    return out


@pytest.mark.parametrize("n_wild,count", [(0, 500), (1, 400), (2, 150)])
def test_classify_matches_exhaustive(n_wild, count):
    for faces, level in _random_sets(1000 + n_wild, count, n_wild):
        assert ref.classify(faces, level) == ref.classify_exhaustive(faces, level), (
            [ref.card_text(f) for f in faces], level)


@pytest.mark.slow
def test_classify_matches_exhaustive_slow():
    for faces, level in _random_sets(77, 1500, 2):
        assert ref.classify(faces, level) == ref.classify_exhaustive(faces, level)


def test_random_combo_faces_form_their_kind():
    rng = random.Random(5)
    for _ in range(600):
        level = rng.randint(2, 14)
        kind = rng.choice(ref.KINDS)
        faces = ref.random_combo_faces(rng, level, kind)
        if faces is None:
            continue
        assert all(faces.count(f) <= 2 for f in faces)
        assert kind in {d.kind for d in ref.classify(faces, level)}, (
            kind, [ref.card_text(f) for f in faces], level)


def test_declaration_sizes():
    allowed = {"Single": {1}, "Pair": {2}, "Triple": {3}, "FullHouse": {5}, "Straight": {5},
               "Tube": {6}, "Plate": {6}, "Bomb": set(range(4, 11)), "StraightFlush": {5},
               "JokerBomb": {4}}
    for faces, level in _random_sets(9, 300, 1):
        for d in ref.classify(faces, level):
            assert d.size == len(faces)
            assert d.size in allowed[d.kind]
            assert (d.suit is not None) == (d.kind == "StraightFlush")


# --------------------------------------------------------------------------
# Wildcard assignments
# --------------------------------------------------------------------------

@pytest.mark.parametrize("cards,wilds,level,kind,rank,suit,ok", [
    ("3c 4d 5s 6h 9h", ["7h"], 9, "Straight", "3", None, True),
    ("3c 4d 5s 6h 9h", ["2h"], 9, "Straight", "2", None, True),
    ("3c 4d 5s 6h 9h", ["7s"], 9, "Straight", "3", None, False),  # suit 'h' convention
    ("3c 4d 5s 6h 9h", ["2h"], 9, "Straight", "3", None, False),
    ("3c 4d 5s 6h 9h", [], 9, "Straight", "3", None, False),
    ("3s 4s 5s 6s 9h", ["7s"], 9, "StraightFlush", "3", "s", True),
    ("3s 4s 5s 6s 9h", ["7h"], 9, "StraightFlush", "3", "h", False),
    ("3h 4h 5h 6h 7h", ["5h"], 5, "StraightFlush", "3", "h", True),
    ("2h 2h", ["2h", "2h"], 2, "Pair", "2", None, True),
    ("2h 2h", ["9h", "9h"], 2, "Pair", "9", None, False),
    ("2h", ["2h"], 2, "Single", "2", None, True),
    ("5s 5c 5d 2h 2h", ["9h", "9h"], 2, "FullHouse", "5", None, True),
    ("5s 5c 5d 2h 2h", ["9h", "8h"], 2, "FullHouse", "5", None, False),
    ("5s 5c 5d 2h 2h", ["5h", "5h"], 2, "Bomb", "5", None, True),
    ("BJ 2h", ["BJ"], 2, "Pair", "BJ", None, False),
    ("7s 7s 7c 7c 7d 7d 7h 7h 2h 2h", ["7h", "7h"], 2, "Bomb", "7", None, True),
])
def test_is_valid_assignment(cards, wilds, level, kind, rank, suit, ok):
    assert ref.is_valid_assignment(cards, wilds, level, kind, rank, suit) is ok


# --------------------------------------------------------------------------
# Beating
# --------------------------------------------------------------------------

def one(text, level, kind, rank=None):
    ds = [d for d in ref.classify(text, level) if d.kind == kind and (rank is None or d.rank == rank)]
    assert len(ds) == 1, (text, kind, ref.classify(text, level))
    return ds[0]


def test_single_order_with_level_lifted():
    # level T: 2 < 3 < ... < 9 < J < Q < K < A < T < BJ < RJ
    order = ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Js", "Qs", "Ks", "As", "Ts", "BJ", "RJ"]
    singles = [one(t, "T", "Single") for t in order]
    for i, a in enumerate(singles):
        for j, b in enumerate(singles):
            assert ref.beats(a, b, "T") == (i > j), (a, b)


def test_bomb_ladder():
    level = 5
    ladder = [
        one("As Ac Ad Ah", level, "Bomb"),                      # highest 4-bomb but level
        one("2s 2c 2d 2h 2s", level, "Bomb"),                   # lowest 5-bomb
        one("5s 5c 5d 5s 5c", level, "Bomb"),                   # highest 5-bomb (level)
        one("As 2s 3s 4s 5s", level, "StraightFlush"),           # lowest SF
        one("Th Jh Qh Kh Ah", level, "StraightFlush"),           # highest SF
        one("2s 2c 2d 2h 2s 2c", level, "Bomb"),                # 6
        one("2s 2c 2d 2h 2s 2c 2d", level, "Bomb"),             # 7
        one("2s 2c 2d 2h 2s 2c 2d 2h", level, "Bomb"),          # 8
        one("3s 3c 3d 3h 3s 3c 3d 3h 5h", level, "Bomb"),       # 9
        one("3s 3c 3d 3h 3s 3c 3d 3h 5h 5h", level, "Bomb"),    # 10
        one("BJ BJ RJ RJ", level, "JokerBomb"),
    ]
    for i, a in enumerate(ladder):
        for j, b in enumerate(ladder):
            assert ref.beats(a, b, level) == (i > j), (a, b)


def test_bombs_beat_non_bombs_and_not_conversely():
    level = 2
    bomb = one("3s 3c 3d 3h", level, "Bomb")
    others = [one("RJ", level, "Single"), one("RJ RJ", level, "Pair"),
              one("Ts Jc Qd Kh Ac", level, "Straight"), one("Ks Kc Kd As Ac Ad", level, "Plate")]
    for o in others:
        assert ref.beats(bomb, o, level)
        assert not ref.beats(o, bomb, level)


def test_equal_and_different_kind_never_beat():
    level = 2
    a = one("As", level, "Single")
    b = one("Ah", level, "Single")
    assert not ref.beats(a, b, level) and not ref.beats(b, a, level)
    assert not ref.beats(one("As Ac", level, "Pair"), one("3s", level, "Single"), level)
    assert not ref.beats(one("Ks Kc Kd As Ac Ad", level, "Plate"), one("3s 3c 4d 4h 5s 5c", level, "Tube"), level)
    sf_s = one("3s 4s 5s 6s 7s", level, "StraightFlush")
    sf_d = one("3d 4d 5d 6d 7d", level, "StraightFlush")
    assert not ref.beats(sf_s, sf_d, level) and not ref.beats(sf_d, sf_s, level)


def test_sequences_compare_by_position_not_level():
    level = 5
    low = one("5s 6c 7d 8h 9s", level, "Straight")
    high = one("9s Tc Jd Qh Ks", level, "Straight")
    assert ref.beats(high, low, level) and not ref.beats(low, high, level)
    a_low = one("As 2c 3d 4h 5s", level, "Straight")
    assert ref.beats(one("2s 3c 4d 5h 6s", level, "Straight"), a_low, level)


def test_beats_is_antisymmetric_on_random_declarations():
    rng = random.Random(3)
    pool = []
    while len(pool) < 150:
        faces = ref.random_combo_faces(rng, 9, rng.choice(ref.KINDS))
        if faces:
            pool += ref.classify(faces, 9)
    for a, b in itertools.product(pool, repeat=2):
        assert not (ref.beats(a, b, 9) and ref.beats(b, a, 9))
        if a == b:
            assert not ref.beats(a, b, 9)


# --------------------------------------------------------------------------
# Legal moves
# --------------------------------------------------------------------------

def keys(moves):
    return {(tuple(ref.card_text(f) for f in m.cards), m.kind, m.rank) for m in moves}


def test_legal_moves_hand_written():
    assert keys(ref.legal_moves("As Ac", 2)) == {
        (("As",), "Single", "A"), (("Ac",), "Single", "A"), (("As", "Ac"), "Pair", "A")}
    assert keys(ref.legal_moves("As Ac", 2, mode="pattern")) == {
        (("As",), "Single", "A"), (("As", "Ac"), "Pair", "A")}
    assert keys(ref.legal_moves("As As", 2)) == {(("As",), "Single", "A"), (("As", "As"), "Pair", "A")}
    assert keys(ref.legal_moves("2h 5s", 2)) == {
        (("2h",), "Single", "2"), (("5s",), "Single", "5"), (("2h", "5s"), "Pair", "5")}
    assert keys(ref.legal_moves("2h 2s", 2, mode="pattern")) == {
        (("2h",), "Single", "2"), (("2s",), "Single", "2"), (("2h", "2s"), "Pair", "2")}
    top = one("9s", 2, "Single")
    assert keys(ref.legal_moves("As 3c 9d BJ", 2, top)) == {(("As",), "Single", "A"), (("BJ",), "Single", "BJ")}
    jb = one("BJ BJ RJ RJ", 2, "JokerBomb")
    assert ref.legal_moves("As As Ac Ac Ad Ad Ah Ah 2h 2h", 2, jb) == []


def test_pattern_cards_choice():
    # lowest-index non-wildcard cards of each rank; flush-suit card for SF
    assert keys(ref.legal_moves("5d 5s 5c", 2, mode="pattern")) >= {
        (("5s",), "Single", "5"), (("5s", "5c"), "Pair", "5"), (("5s", "5c", "5d"), "Triple", "5")}
    pm = keys(ref.legal_moves("3h 3s 4s 5s 6s 7s", 9, mode="pattern"))
    assert (("3h", "4s", "5s", "6s", "7s"), "Straight", "3") in pm
    assert (("3s", "4s", "5s", "6s", "7s"), "StraightFlush", "3") in pm
    assert (("3s", "4s", "5s", "6s", "7s"), "Straight", "3") not in pm
    assert keys(ref.legal_moves("5s 5s 5d", 2, mode="pattern")) >= {(("5s", "5s"), "Pair", "5")}


def _small_hands(seed, count, lo, hi):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        level = rng.randint(2, 14)
        n = rng.randint(lo, hi)
        out.append((ref.random_hand(rng, n, level, min(i % 3, n)), level))
    return out


@pytest.mark.parametrize("mode", ["cards", "pattern"])
def test_pruned_enumeration_matches_naive(mode):
    for hand, level in _small_hands(11, 60, 3, 9):
        assert ref.legal_moves(hand, level, mode=mode) == ref.legal_moves_naive(hand, level, mode=mode), (
            [ref.card_text(f) for f in hand], level)


def test_pruned_enumeration_matches_naive_structured():
    # hands rich in sequences and bombs, where the pruning matters most
    rng = random.Random(12)
    for _ in range(25):
        level = rng.randint(2, 14)
        hand = []
        while len(hand) < 8:
            faces = ref.random_combo_faces(rng, level, rng.choice(["Straight", "StraightFlush", "Tube", "Plate", "FullHouse", "Bomb"]))
            if faces:
                hand += faces
        hand = hand[:10]
        w = ref.wildcard_face(level)
        if any(hand.count(f) > 2 for f in hand):
            continue
        assert hand.count(w) <= 2
        assert ref.legal_moves(hand, level) == ref.legal_moves_naive(hand, level), (
            [ref.card_text(f) for f in hand], level)


@pytest.mark.slow
def test_pruned_enumeration_matches_naive_slow():
    for hand, level in _small_hands(13, 120, 9, 12):
        assert ref.legal_moves(hand, level) == ref.legal_moves_naive(hand, level)


def test_legal_moves_invariants():
    rng = random.Random(21)
    for i in range(30):
        level = rng.randint(2, 14)
        hand = ref.random_hand(rng, rng.randint(6, 12), level, i % 3)
        counts = ref.to_counts(hand)
        tops = [None] + [d for d in ref.classify(ref.random_combo_faces(rng, level, rng.choice(ref.KINDS)) or "2s", level)]
        top = rng.choice(tops)
        card_moves = ref.legal_moves(hand, level, top)
        pattern_moves = ref.legal_moves(hand, level, top, mode="pattern")
        w = ref.wildcard_face(level)
        assert len(set(card_moves)) == len(card_moves)
        for m in card_moves + pattern_moves:
            c = ref.to_counts(m.cards)
            assert all(c[f] <= counts[f] for f in range(54))
            assert ref.Decl(m.kind, m.rank, m.size, m.suit) in ref.classify(m.cards, level)
            assert m.wildcards == m.cards.count(w)
            if top is not None:
                assert ref.beats(m, top, level)
        card_keys = {ref.pattern_key(m.cards, m.kind, m.rank, m.suit, level) for m in card_moves}
        pattern_keys = [ref.pattern_key(m.cards, m.kind, m.rank, m.suit, level) for m in pattern_moves]
        assert len(pattern_keys) == len(set(pattern_keys))
        assert set(pattern_keys) == card_keys
        assert set(pattern_moves) <= set(card_moves)
