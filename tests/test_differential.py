"""Differential tests: guandan_fast against the pure-Python reference
(tests/reference.py) on many seeded random hands.

Card mode is compared as sets of (sorted face indices, kind, rank); pattern
mode the same, with the reference's deterministic physical cards.  Every
engine Combo's .wildcards must be a valid assignment, legal_moves_array must
match legal_moves row for row, and Combo.beats must agree with the reference.
All randomness is seeded (random.Random), so every run is the same.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref  # noqa: E402

LEVELS = list(range(2, 15))


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def level_arg(level: int, salt: int):
    """The level in one of its accepted forms: int 2..14, rank text, '10'."""
    forms = [level, ref.RANK_TEXT[level - 2]]
    if level == 10:
        forms.append("10")
    return forms[salt % len(forms)]


def texts(faces):
    return " ".join(ref.card_text(f) for f in sorted(faces))


def engine_hand(faces):
    return gf.Hand.from_counts(ref.to_counts(faces))


def combo_faces(combo):
    return tuple(ref.faces_from_counts(combo.cards.counts()))


def engine_key(combo):
    return (combo_faces(combo), combo.kind, combo.rank)


def ref_key(move):
    return (tuple(move.cards), move.kind, move.rank)


def show_keys(keys):
    return sorted(f"{texts(k[0])} -> {k[1]} {k[2]}" for k in keys)


def check_combo(combo, level):
    """Attributes of one engine Combo are consistent, and its wildcards make
    the declared combination (checked by the reference's definitions)."""
    faces = combo_faces(combo)
    assert combo.size == len(faces)
    assert combo.kind in ref.KINDS
    assert combo.is_bomb == ref.is_bomb(combo.kind)
    assert (combo.suit is None) == (combo.kind != "StraightFlush")
    wilds = [c.index for c in combo.wildcards]
    assert ref.is_valid_assignment(faces, wilds, level, combo.kind, combo.rank, combo.suit), (
        texts(faces), combo.kind, combo.rank, combo.suit, [str(c) for c in combo.wildcards], level)


def check_array(arr, moves, level):
    w = ref.wildcard_face(level)
    n = len(moves)
    for key in ("cards", "kind", "rank", "size", "wildcards"):
        assert isinstance(arr[key], np.ndarray), key
        assert arr[key].dtype == np.uint8, key
    assert arr["cards"].shape == (n, 54)
    cards = np.array([m.cards.counts() for m in moves], dtype=np.uint8).reshape(n, 54)
    assert np.array_equal(arr["cards"], cards)
    for key, want in (
        ("kind", [ref.KIND_CODE[m.kind] for m in moves]),
        ("rank", [ref.RANK_CODE[m.rank] for m in moves]),
        ("size", [m.size for m in moves]),
        ("wildcards", [len(m.wildcards) for m in moves]),
    ):
        assert arr[key].shape == (n,), key
        assert arr[key].tolist() == want, key
    assert arr["wildcards"].tolist() == cards[:, w].tolist()


def check_legal_moves(faces, level, top, mode, salt=0):
    hand = engine_hand(faces)
    lv = level_arg(level, salt)
    got = gf.legal_moves(hand, lv, top, mode=mode)
    want = ref.legal_moves(faces, level, top, mode=mode)
    got_keys = [engine_key(c) for c in got]
    dupes = [k for k, n in Counter(got_keys).items() if n > 1]
    ctx = f"hand={texts(faces)!r} level={level} top={top and (top.kind, top.rank, top.size)} mode={mode}"
    assert not dupes, f"{ctx} duplicates {show_keys(dupes)[:10]}"
    got_set, want_set = set(got_keys), {ref_key(m) for m in want}
    if got_set != want_set:
        missing = show_keys(want_set - got_set)
        extra = show_keys(got_set - want_set)
        pytest.fail(f"{ctx}\nmissing ({len(missing)}): {missing[:15]}\nextra ({len(extra)}): {extra[:15]}")
    for c in got:
        check_combo(c, level)
        if top is not None:
            assert c.beats(top), (ctx, engine_key(c))
    check_array(gf.legal_moves_array(hand, lv, top, mode=mode), got, level)
    return got


def make_hand(rng, level, n, n_wild, seeds=(), n_jokers=None):
    """n random cards (sorted faces) with exactly n_wild wildcards; the hand
    is built around random combinations of the kinds in `seeds` (as far as
    they fit); with n_jokers, exactly that many jokers."""
    w = ref.wildcard_face(level)
    counts = [0] * 54
    counts[w] = n_wild
    if n_jokers is not None:
        for f in rng.sample([ref.BJ, ref.BJ, ref.RJ, ref.RJ], n_jokers):
            counts[f] += 1
    for kind in seeds:
        combo = (kind and ref.random_combo_faces(rng, level, kind, wild_prob=0.0)) or []
        for f in combo:
            if f != w and counts[f] < 2 and sum(counts) < n and (n_jokers is None or f < 52):
                counts[f] += 1
    pool = [f for f in range(54) if f != w and (n_jokers is None or f < 52)
            for _ in range(2 - counts[f])]
    rng.shuffle(pool)
    while sum(counts) < n:
        counts[pool.pop()] += 1
    return ref.faces_from_counts(counts)


def following_seeds(rng, kind):
    if rng.random() < 0.6:
        return (kind, kind)
    return (rng.choice([None, "Bomb", "StraightFlush", "JokerBomb"]),)


def engine_tops(rng, level, kind, tries=20):
    """A random engine Combo of `kind` (from classify of random card sets)."""
    for _ in range(tries):
        faces = ref.random_combo_faces(rng, level, kind)
        if not faces:
            continue
        combos = [c for c in gf.classify(engine_hand(faces), level) if c.kind == kind]
        if combos:
            return rng.choice(combos)
    raise AssertionError(f"could not build a {kind} at level {level}")


# --------------------------------------------------------------------------
# cards, hands
# --------------------------------------------------------------------------

def test_every_face_matches_reference():
    for i in range(54):
        c = gf.Card.from_index(i)
        assert str(c) == ref.card_text(i)
        assert gf.Card(ref.card_text(i)).index == i
        assert c.rank == ref.RANK_TEXT[ref.face_rank(i)]
        assert c.suit == (None if i >= 52 else ref.SUITS[i % 4])


def test_hand_counts_round_trip():
    rng = random.Random(1)
    for _ in range(300):
        counts = [rng.choice([0, 0, 0, 1, 2]) for _ in range(54)]
        h = gf.Hand.from_counts(counts)
        assert h.counts() == counts
        assert len(h) == sum(counts)
        assert sorted(c.index for c in h) == ref.faces_from_counts(counts)
        assert gf.Hand(str(h)).counts() == counts
        assert gf.Hand([ref.card_text(f) for f in ref.faces_from_counts(counts)]).counts() == counts


# --------------------------------------------------------------------------
# classify
# --------------------------------------------------------------------------

def _random_sets(rng, count, n_wild):
    out = []
    while len(out) < count:
        level = rng.choice(LEVELS)
        w = ref.wildcard_face(level)
        if rng.random() < 0.7:
            faces = ref.random_combo_faces(rng, level, rng.choice(ref.KINDS), wild_prob=0.0)
            if faces is None:
                continue
            faces = [f for f in faces if f != w]
            for _ in range(n_wild):
                if faces and rng.random() < 0.7:
                    faces.pop(rng.randrange(len(faces)))
                faces.append(w)
            if not faces or len(faces) > 10 or any(faces.count(f) > 2 for f in faces):
                continue
        else:
            faces = ref.random_hand(rng, rng.randint(max(1, n_wild), 8), level, n_wild)
        out.append((sorted(faces), level))
    return out


def check_classify(faces, level, salt):
    got = gf.classify(engine_hand(faces), level_arg(level, salt))
    got_keys = [(c.kind, c.rank, c.size, c.suit) for c in got]
    want = {tuple(d) for d in ref.classify(faces, level)}
    assert len(got_keys) == len(set(got_keys)), (texts(faces), level, got_keys)
    assert set(got_keys) == want, (texts(faces), level)
    for c in got:
        check_combo(c, level)
        assert combo_faces(c) == tuple(faces)


@pytest.mark.parametrize("n_wild", [0, 1, 2])
def test_classify_matches_reference(n_wild):
    rng = random.Random(100 + n_wild)
    for i, (faces, level) in enumerate(_random_sets(rng, 1500, n_wild)):
        check_classify(faces, level, i)


def test_classify_every_bomb_and_straight_flush():
    # every same-rank set of 4..10 cards and every 5-card suited run, every level
    for level in LEVELS:
        w = ref.wildcard_face(level)
        for r in range(13):
            naturals = [f for f in range(4 * r, 4 * r + 4) if f != w for _ in range(2)]
            for n_wild in range(3):
                for n_nat in range(0, len(naturals) + 1):
                    faces = naturals[:n_nat] + [w] * n_wild
                    if 1 <= len(faces) <= 10:
                        check_classify(sorted(faces), level, r)
        for s in range(4):
            for p in range(10):
                run = [ref.face_index(ref._pos_rank(q), s) for q in range(p, p + 5)]
                for n_wild in range(3):
                    for drop in itertools.combinations(range(5), n_wild):
                        faces = [f for j, f in enumerate(run) if j not in drop and f != w]
                        faces += [w] * (5 - len(faces))
                        if faces.count(w) <= 2:
                            check_classify(sorted(faces), level, p)


@pytest.mark.slow
def test_classify_matches_reference_slow():
    rng = random.Random(7)
    for n_wild in (0, 1, 2):
        for i, (faces, level) in enumerate(_random_sets(rng, 6000, n_wild)):
            check_classify(faces, level, i)


# --------------------------------------------------------------------------
# beats
# --------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_beats_matches_reference(level):
    rng = random.Random(200 + level)
    pool = []
    for kind in ref.KINDS:
        for _ in range(6):
            pool.append(engine_tops(rng, level, kind))
    for a, b in itertools.product(pool, repeat=2):
        assert a.beats(b) == ref.beats(a, b, level), (
            level, (a.kind, a.rank, a.size), (b.kind, b.rank, b.size))


# --------------------------------------------------------------------------
# legal moves
# --------------------------------------------------------------------------

@pytest.mark.parametrize("n_wild", [0, 1, 2])
@pytest.mark.parametrize("level", LEVELS)
def test_leading(level, n_wild):
    rng = random.Random(1000 * level + n_wild)
    for i in range(6):
        n_jokers = rng.choice([None, None, 0, 1, 2, 3, 4])
        seeds = rng.sample(ref.KINDS, rng.randint(0, 2))
        faces = make_hand(rng, level, rng.randint(max(6, n_wild + 4), 12), n_wild, seeds, n_jokers)
        for mode in ("cards", "pattern"):
            check_legal_moves(faces, level, None, mode, salt=i)


@pytest.mark.parametrize("kind", ref.KINDS)
def test_following(kind):
    rng = random.Random(300 + ref.KIND_CODE[kind])
    for i in range(26):
        level = LEVELS[i % 13]
        n_wild = i % 3
        top = engine_tops(rng, level, kind)
        faces = make_hand(rng, level, rng.randint(max(6, n_wild + 4), 12), n_wild,
                          following_seeds(rng, kind), rng.choice([None, 0, 2, 4]))
        for mode in ("cards", "pattern"):
            check_legal_moves(faces, level, top, mode, salt=i)


def test_following_many_tops_per_hand():
    # one hand, every kind of top: the moves are exactly the leading moves that beat it
    rng = random.Random(400)
    for i in range(8):
        level = rng.choice(LEVELS)
        faces = make_hand(rng, level, 12, i % 3, rng.sample(ref.KINDS, 3), rng.choice([None, 2, 4]))
        hand = engine_hand(faces)
        leading = {engine_key(c): c for c in gf.legal_moves(hand, level)}
        for kind in ref.KINDS:
            top = engine_tops(rng, level, kind)
            got = {engine_key(c) for c in gf.legal_moves(hand, level, top)}
            assert got == {k for k, c in leading.items() if ref.beats(c, top, level)}
            check_legal_moves(faces, level, top, "cards", salt=i)


@pytest.mark.slow
@pytest.mark.parametrize("n_wild", [0, 1, 2])
def test_leading_slow(n_wild):
    rng = random.Random(5000 + n_wild)
    for i in range(300):
        level = rng.choice(LEVELS)
        faces = make_hand(rng, level, rng.randint(8, 14), n_wild, rng.sample(ref.KINDS, rng.randint(0, 3)),
                          rng.choice([None, None, 0, 2, 4]))
        for mode in ("cards", "pattern"):
            check_legal_moves(faces, level, None, mode, salt=i)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ref.KINDS)
def test_following_slow(kind):
    rng = random.Random(6000 + ref.KIND_CODE[kind])
    for i in range(100):
        level = rng.choice(LEVELS)
        n_wild = rng.randrange(3)
        top = engine_tops(rng, level, kind)
        faces = make_hand(rng, level, rng.randint(8, 14), n_wild,
                          following_seeds(rng, kind), rng.choice([None, 0, 4]))
        for mode in ("cards", "pattern"):
            check_legal_moves(faces, level, top, mode, salt=i)


@pytest.mark.slow
def test_full_27_card_hands():
    rng = random.Random(27)
    for i in range(12):
        level = rng.choice(LEVELS)
        faces = make_hand(rng, level, 27, i % 3, rng.sample(ref.KINDS, 3))
        for mode in ("cards", "pattern"):
            check_legal_moves(faces, level, None, mode, salt=i)
        for kind in ("Single", "Pair", "FullHouse", "Straight", "Tube", "Bomb"):
            top = engine_tops(rng, level, kind)
            check_legal_moves(faces, level, top, "pattern", salt=i)
