"""Slow, obviously-correct pure-Python reference of RULES.md sections 1-4.

This module does NOT import ``guandan_fast``.  It is the oracle that the
differential tests compare the engine against, so it is written to be easy
to check by eye, not to be fast:

* every combination kind is checked by its definition on a concrete multiset
  of (rank, suit) cards (:func:`natural_decls`);
* wildcards are handled by brute force: every assignment of each wildcard to
  a non-joker card is tried (:func:`classify_exhaustive` tries all 52 faces;
  :func:`classify` tries the 13 ranks for the suit-free kinds and the 4
  suits for StraightFlush, with memoisation only -- the self-check tests
  prove the two agree);
* legal moves are every distinct sub-multiset of the hand, classified, kept
  when they beat ``top`` (:func:`legal_moves_naive` literally enumerates all
  sub-multisets of size <= 10; :func:`legal_moves` skips sub-multisets that
  cannot be a combination by a simple counting argument, again checked
  against the naive version by the self-check tests).

Card model (the engine's): face index = 4*rank + suit, rank 0..12 = 2..A,
suit 0..3 = h, s, c, d; 52 = BJ (small joker), 53 = RJ (big joker).
Rank codes: 0..12 natural ranks, 13 = BJ, 14 = RJ.
The wildcards are the two copies of face 4*level + 0 (heart level card).

Public functions (all pure; "cards" arguments accept card text, or an
iterable of face indices / card texts):

parse_card(text) -> int                face index; ValueError on bad text
parse_cards(text) -> list[int]         whitespace/comma separated
card_text(face) -> str                 canonical text ("Th", "BJ")
level_code(level) -> int               0..12; level as '2'..'A'/'10'/int 2..14
wildcard_face(level) -> int            face index of the heart level card
to_faces(cards) -> list[int]           sorted face indices
to_counts(cards) -> list[int]          54 counts
faces_from_counts(counts) -> list[int]
natural_decls(cards) -> set[Decl]      declarations of (rank, suit) cards, no wildcards
classify(cards, level) -> list[Decl]   every declaration of the whole set
classify_exhaustive(cards, level) -> list[Decl]   same, 52**k brute force
beats(a, b, level) -> bool             RULES 4; a, b need .kind .rank .size
is_bomb(kind) -> bool
single_order(rank, level) -> int       RULES 2 strength (level lifted above A)
sequence_position(rank) -> int         0 = A-low ... 13 (KA plate)
legal_moves(hand, level, top=None, mode="cards") -> list[Move]
legal_moves_naive(hand, level, top=None, mode="cards") -> list[Move]
pattern_key(cards, kind, rank, suit, level) -> tuple
pattern_cards(counts, level, natural_ranks, n_wild, suit) -> tuple[int, ...]
is_valid_assignment(cards, wildcards, level, kind, rank, suit) -> bool
random_hand(rng, n, level, n_wild, n_jokers=None) -> list[int]   test inputs
random_combo_faces(rng, level, kind, wild_prob=0.3) -> list[int] | None

``Decl`` = (kind, rank, size, suit): kind str, rank text ('2'..'A', 'BJ',
'RJ'), size int, suit 's'/'h'/'c'/'d' for StraightFlush else None.
``Move`` = (cards, kind, rank, size, suit, wildcards): cards a sorted tuple
of face indices, wildcards the number of heart level cards in the play.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter, namedtuple

RANKS = "23456789TJQKA"
SUITS = "hscd"
BJ = 52
RJ = 53
RANK_TEXT = list(RANKS) + ["BJ", "RJ"]  # rank code -> text
RANK_CODE = {t: i for i, t in enumerate(RANK_TEXT)}  # text -> rank code

KINDS = (
    "Single",
    "Pair",
    "Triple",
    "FullHouse",
    "Straight",
    "Tube",
    "Plate",
    "Bomb",
    "StraightFlush",
    "JokerBomb",
)
KIND_CODE = {k: i for i, k in enumerate(KINDS)}
BOMB_KINDS = frozenset({"Bomb", "StraightFlush", "JokerBomb"})
SEQUENCE_KINDS = frozenset({"Straight", "Tube", "Plate", "StraightFlush"})

Decl = namedtuple("Decl", "kind rank size suit")
Move = namedtuple("Move", "cards kind rank size suit wildcards")


# --------------------------------------------------------------------------
# Cards and text
# --------------------------------------------------------------------------

_SUIT_SYMBOLS = {
    "s": 1, "h": 0, "c": 2, "d": 3,
    "\u2660": 1, "\u2664": 1,  # black / white spade
    "\u2665": 0, "\u2661": 0,  # black / white heart
    "\u2663": 2, "\u2667": 2,  # black / white club
    "\u2666": 3, "\u2662": 3,  # black / white diamond
}
_PLATFORM_SUITS = {"H": 0, "S": 1, "C": 2, "D": 3}


def face_index(rank_code: int, suit_code: int | None) -> int:
    if rank_code == 13:
        return BJ
    if rank_code == 14:
        return RJ
    return 4 * rank_code + suit_code


def face_rank(face: int) -> int:
    """Rank code 0..14 of a face index."""
    if face == BJ:
        return 13
    if face == RJ:
        return 14
    return face // 4


def face_suit(face: int) -> int | None:
    """Suit code 0..3 (h s c d) of a face, None for jokers."""
    return None if face >= 52 else face % 4


def card_text(face: int) -> str:
    if face == BJ:
        return "BJ"
    if face == RJ:
        return "RJ"
    return RANKS[face // 4] + SUITS[face % 4]


def parse_card(text: str) -> int:
    """Face index of one card text; ValueError if it is not a card.

    Accepted: rank then suit ('Th', 'th', '10h', 'T\u2665'), 'BJ'/'RJ', and
    the official platform's suit-first codes ('H5', 'ST', 'SB' = BJ,
    'HR' = RJ)."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    if text.upper() in ("BJ", "SB"):
        return BJ
    if text.upper() in ("RJ", "HR"):
        return RJ
    if text.startswith("10"):
        rank, rest = 8, text[2:]
    else:
        rank, rest = (RANKS.find(text[:1].upper()) if text[:1] else -1), text[1:]
    if rank >= 0 and rest in _SUIT_SYMBOLS:
        return 4 * rank + _SUIT_SYMBOLS[rest]
    if len(text) == 2 and text[0] in _PLATFORM_SUITS and text[1] in RANKS:
        return 4 * RANKS.index(text[1]) + _PLATFORM_SUITS[text[0]]
    raise ValueError(f"not a card: {text!r}")


def parse_cards(text: str) -> list[int]:
    tokens = text.replace(",", " ").split()
    return [parse_card(tok) for tok in tokens]


def to_faces(cards) -> list[int]:
    """Sorted face indices of card text, or an iterable of faces / texts."""
    if isinstance(cards, str):
        faces = parse_cards(cards)
    else:
        faces = [c if isinstance(c, int) else parse_card(c) for c in cards]
    for f in faces:
        if not 0 <= f < 54:
            raise ValueError(f"not a face index: {f}")
    return sorted(faces)


def to_counts(cards) -> list[int]:
    counts = [0] * 54
    for f in to_faces(cards):
        counts[f] += 1
    return counts


def faces_from_counts(counts) -> list[int]:
    return [f for f in range(54) for _ in range(counts[f])]


def level_code(level) -> int:
    """Rank code 0..12 of a level given as '2'..'A' ('10' too) or int 2..14."""
    if isinstance(level, bool):
        raise ValueError(f"bad level {level!r}")
    if isinstance(level, int):
        if 2 <= level <= 14:
            return level - 2
        raise ValueError(f"bad level {level!r}")
    if isinstance(level, str):
        t = "T" if level == "10" else level.upper()
        if len(t) == 1 and t in RANKS:
            return RANKS.index(t)
    raise ValueError(f"bad level {level!r}")


def wildcard_face(level) -> int:
    return 4 * level_code(level) + 0


# --------------------------------------------------------------------------
# Definitions of the combination kinds on concrete cards (no wildcards)
# --------------------------------------------------------------------------

def _pos_rank(pos: int) -> int:
    """Sequence positions 0..13: position 0 is A played low, 1..13 are 2..A."""
    return 12 if pos == 0 else pos - 1


@functools.lru_cache(maxsize=None)
def _sequence_start(ranks: tuple, length: int, copies: int) -> int | None:
    """Start position p if `ranks` is exactly `copies` of each rank at
    positions p..p+length-1 (no wrap: p+length-1 <= 13), else None."""
    got = Counter(ranks)
    for p in range(0, 14 - length + 1):
        want = Counter({_pos_rank(q): copies for q in range(p, p + length)})
        if got == want:
            return p
    return None


@functools.lru_cache(maxsize=None)
def natural_rank_decls(ranks: tuple) -> frozenset:
    """Suit-free declarations of concrete cards given by their rank codes
    (13 = BJ, 14 = RJ): set of (kind, rank_code).  StraightFlush is not
    included (it needs suits; see natural_decls)."""
    n = len(ranks)
    cnt = Counter(ranks)
    jokers = cnt[13] + cnt[14]
    out = set()
    if n == 1:
        out.add(("Single", ranks[0]))
    if n == 2 and len(cnt) == 1:  # BJ BJ and RJ RJ included; BJ RJ is not
        out.add(("Pair", ranks[0]))
    if n == 3 and len(cnt) == 1 and jokers == 0:
        out.add(("Triple", ranks[0]))
    if n == 5 and sorted(cnt.values()) == [2, 3]:
        t = next(r for r, c in cnt.items() if c == 3)
        if t < 13:  # the triple has no jokers; the pair may be a joker pair
            out.add(("FullHouse", t))
    if n == 5 and jokers == 0:
        p = _sequence_start(ranks, 5, 1)
        if p is not None:
            out.add(("Straight", _pos_rank(p)))
    if n == 6 and jokers == 0:
        p = _sequence_start(ranks, 3, 2)
        if p is not None:
            out.add(("Tube", _pos_rank(p)))
        p = _sequence_start(ranks, 2, 3)
        if p is not None:
            out.add(("Plate", _pos_rank(p)))
    if 4 <= n <= 10 and len(cnt) == 1 and jokers == 0:
        out.add(("Bomb", ranks[0]))
    if n == 4 and cnt[13] == 2 and cnt[14] == 2:
        out.add(("JokerBomb", 14))
    return frozenset(out)


def _straight_flush(cards) -> Decl | None:
    """StraightFlush declaration of concrete (rank, suit) cards, or None."""
    if len(cards) != 5:
        return None
    suits = {s for _, s in cards}
    if len(suits) != 1 or None in suits:
        return None
    p = _sequence_start(tuple(sorted(r for r, _ in cards)), 5, 1)
    if p is None:
        return None
    return Decl("StraightFlush", RANK_TEXT[_pos_rank(p)], 5, SUITS[suits.pop()])


def natural_decls(cards) -> set:
    """Every Decl of concrete cards, given as (rank_code, suit_code) pairs
    (suit None for jokers), with every card taken at face value."""
    cards = [tuple(c) for c in cards]
    ranks = tuple(sorted(r for r, _ in cards))
    out = {
        Decl(kind, RANK_TEXT[r], len(cards), None)
        for kind, r in natural_rank_decls(ranks)
    }
    sf = _straight_flush(cards)
    if sf is not None:
        out.add(sf)
    return out


# --------------------------------------------------------------------------
# classify with wildcards
# --------------------------------------------------------------------------

def _split(faces, level):
    w = wildcard_face(level)
    naturals = [f for f in faces if f != w]
    return naturals, len(faces) - len(naturals)


def _wildcards_only(k: int, level) -> list:
    lv = RANK_TEXT[level_code(level)]
    return [Decl("Single", lv, 1, None)] if k == 1 else [Decl("Pair", lv, 2, None)]


@functools.lru_cache(maxsize=None)
def _suit_free_with_wildcards(nat_ranks: tuple, k: int) -> frozenset:
    """Union over every assignment of the k wildcards to ranks 2..A of the
    suit-free declarations (suits do not matter for those kinds)."""
    out = set()
    for extra in itertools.combinations_with_replacement(range(13), k):
        out |= natural_rank_decls(tuple(sorted(nat_ranks + extra)))
    return frozenset(out)


@functools.lru_cache(maxsize=None)
def _straight_flushes_with_wildcards(nat_cards: tuple, k: int) -> frozenset:
    """StraightFlush declarations over every assignment of the k wildcards
    to (rank 2..A, suit); a flush needs every card in one suit, so the
    wildcards are given the same suit s, for each s."""
    out = set()
    if len(nat_cards) + k != 5:
        return frozenset()
    for s in range(4):
        for extra in itertools.combinations_with_replacement(range(13), k):
            sf = _straight_flush(list(nat_cards) + [(r, s) for r in extra])
            if sf is not None:
                out.add(sf)
    return frozenset(out)


def _decl_sort_key(d):
    return (KIND_CODE[d.kind], RANK_CODE[d.rank], d.size, d.suit or "")


def classify(cards, level) -> list:
    """Every declaration (Decl) the whole set of cards can be made as."""
    faces = to_faces(cards)
    if not faces:
        return []
    naturals, k = _split(faces, level)
    if not naturals:
        return _wildcards_only(k, level)
    nat_ranks = tuple(sorted(face_rank(f) for f in naturals))
    n = len(faces)
    out = {
        Decl(kind, RANK_TEXT[r], n, None)
        for kind, r in _suit_free_with_wildcards(nat_ranks, k)
    }
    nat_cards = tuple(sorted((face_rank(f), face_suit(f)) for f in naturals))
    out |= _straight_flushes_with_wildcards(nat_cards, k)
    return sorted(out, key=_decl_sort_key)


def classify_exhaustive(cards, level) -> list:
    """classify by trying every ordered assignment of every wildcard to every
    one of the 52 non-joker faces (52**k assignments)."""
    faces = to_faces(cards)
    if not faces:
        return []
    naturals, k = _split(faces, level)
    if not naturals:
        return _wildcards_only(k, level)
    base = [(face_rank(f), face_suit(f)) for f in naturals]
    out = set()
    for assignment in itertools.product(range(52), repeat=k):
        out |= natural_decls(base + [(face_rank(f), face_suit(f)) for f in assignment])
    return sorted(out, key=_decl_sort_key)


def is_valid_assignment(cards, wildcards, level, kind, rank, suit) -> bool:
    """True when the cards, each wildcard (heart level card) in them replaced
    by the corresponding entry of `wildcards` (faces or texts, in any order),
    make the declared (kind, rank, suit) at face value.  Wildcards may only
    stand for non-joker cards, there must be exactly one entry per wildcard,
    and by the engine's convention the entries have suit 'h' except in a
    StraightFlush, where they have the flush suit."""
    naturals, k = _split(to_faces(cards), level)
    subs = to_faces(list(wildcards))
    if len(subs) != k:
        return False
    if any(f >= 52 for f in subs):
        return False
    want_suit = SUITS.index(suit) if kind == "StraightFlush" else 0
    if any(face_suit(f) != want_suit for f in subs):
        return False
    concrete = [(face_rank(f), face_suit(f)) for f in naturals + subs]
    n = len(concrete)
    if not naturals:  # wildcards alone are the level card itself
        if any(f != wildcard_face(level) for f in subs):
            return False
    return Decl(kind, rank, n, suit if kind == "StraightFlush" else None) in natural_decls(concrete)


# --------------------------------------------------------------------------
# Order and beating (RULES 2 and 4)
# --------------------------------------------------------------------------

def is_bomb(kind: str) -> bool:
    return kind in BOMB_KINDS


def single_order(rank: str, level) -> int:
    """2 < 3 < ... < K < A < level rank < BJ < RJ."""
    r = RANK_CODE[rank]
    if r == 14:
        return 15
    if r == 13:
        return 14
    if r == level_code(level):
        return 13
    return r  # 0..12 (the level's own natural slot stays empty)


def sequence_position(rank: str) -> int:
    """Position of a sequence from its lowest rank as played: 'A' can only be
    the lowest card of A-low sequences (A2345, AA2233, AAA222) -> 0."""
    return 0 if rank == "A" else RANK_CODE[rank] + 1


BOMB_LADDER = (
    ("Bomb", 4),
    ("Bomb", 5),
    ("StraightFlush", 5),
    ("Bomb", 6),
    ("Bomb", 7),
    ("Bomb", 8),
    ("Bomb", 9),
    ("Bomb", 10),
    ("JokerBomb", 4),
)


def _value(kind, rank, level) -> int:
    if kind in SEQUENCE_KINDS:
        return sequence_position(rank)
    return single_order(rank, level)


def beats(a, b, level) -> bool:
    """Does play `a` beat top play `b` (RULES 4)?  a and b are anything with
    .kind, .rank (text) and .size (a Decl, a Move, an engine Combo)."""
    a_bomb, b_bomb = is_bomb(a.kind), is_bomb(b.kind)
    if a_bomb and not b_bomb:
        return True
    if b_bomb and not a_bomb:
        return False
    if a_bomb and b_bomb:
        ta = BOMB_LADDER.index((a.kind, a.size))
        tb = BOMB_LADDER.index((b.kind, b.size))
        if ta != tb:
            return ta > tb
        return _value(a.kind, a.rank, level) > _value(b.kind, b.rank, level)
    if a.kind != b.kind or a.size != b.size:
        return False
    return _value(a.kind, a.rank, level) > _value(b.kind, b.rank, level)


# --------------------------------------------------------------------------
# Legal moves
# --------------------------------------------------------------------------

def _submultisets(items, max_size):
    """Every sub-multiset of `items` = [(face, available_count), ...] with at
    most max_size cards, as a tuple of faces (possibly empty)."""
    if not items:
        yield ()
        return
    (face, avail), rest = items[0], items[1:]
    for take in range(0, min(avail, max_size) + 1):
        for tail in _submultisets(rest, max_size - take):
            yield (face,) * take + tail


def _hand_items(counts):
    return [(f, counts[f]) for f in range(54) if counts[f]]


def _all_candidates(counts):
    """Every non-empty sub-multiset of the hand with at most 10 cards."""
    for sub in _submultisets(_hand_items(counts), 10):
        if sub:
            yield sub


def _pruned_candidates(counts, level):
    """Every sub-multiset of the hand that could be a combination.

    A combination's natural (non-wildcard) cards use either at most two
    ranks (Single, Pair, Triple, FullHouse, Bomb, JokerBomb, and sequences
    with at most two natural ranks), or three or more ranks, which only a
    Straight/StraightFlush (5 cards) or Tube (6 cards) can, all inside one
    window of 5 consecutive sequence positions (A2345 ... TJQKA).  So we
    enumerate (a) wildcards alone, (b) for each set of one or two natural
    ranks, every sub-multiset using exactly those ranks plus any wildcards,
    (c) for each 5-window, every 5- or 6-card sub-multiset of its cards plus
    wildcards using at least three natural ranks.  The self-check tests
    compare the result with _all_candidates."""
    w = wildcard_face(level)
    k = counts[w]
    wild_items = [(w, k)] if k else []
    by_rank = {}
    for f in range(54):
        if counts[f] and f != w:
            by_rank.setdefault(face_rank(f), []).append((f, counts[f]))
    seen = set()
    for j in range(1, k + 1):
        seen.add((w,) * j)
    ranks = sorted(by_rank)
    for rset in itertools.chain(itertools.combinations(ranks, 1),
                                itertools.combinations(ranks, 2)):
        items = [it for r in rset for it in by_rank[r]] + wild_items
        for sub in _submultisets(items, 10):
            used = {face_rank(f) for f in sub if f != w}
            if used == set(rset):
                seen.add(tuple(sorted(sub)))
    for start in range(0, 10):
        window = {_pos_rank(q) for q in range(start, start + 5)}
        items = [it for r in sorted(window) if r in by_rank for it in by_rank[r]] + wild_items
        for sub in _submultisets(items, 6):
            if len(sub) in (5, 6) and len({face_rank(f) for f in sub if f != w}) >= 3:
                seen.add(tuple(sorted(sub)))
    return seen


def _moves_from_candidates(candidates, counts, level, top, mode):
    w = wildcard_face(level)
    moves = []
    for sub in candidates:
        sub = tuple(sorted(sub))
        for d in classify(list(sub), level):
            if top is None or beats(d, top, level):
                moves.append(Move(sub, d.kind, d.rank, d.size, d.suit, sub.count(w)))
    if mode == "cards":
        return sorted(set(moves), key=move_sort_key)
    if mode != "pattern":
        raise ValueError(f"bad mode {mode!r}")
    patterns = {}
    for m in moves:
        key = pattern_key(m.cards, m.kind, m.rank, m.suit, level)
        if key not in patterns:
            _, _, nat, n_wild, suit = key
            cards = pattern_cards(counts, level, nat, n_wild, suit)
            patterns[key] = Move(cards, m.kind, m.rank, m.size, m.suit, n_wild)
    return sorted(patterns.values(), key=move_sort_key)


def move_sort_key(m):
    return (m.cards, KIND_CODE[m.kind], RANK_CODE[m.rank])


def legal_moves(hand, level, top=None, mode="cards") -> list:
    """Every legal play (Move) for a player holding `hand` (card text or
    iterable of faces/texts) when `top` (.kind .rank .size) is the play to
    beat, None = leading.  mode "cards": every distinct sub-multiset times
    every declaration; mode "pattern": one move per pattern_key with the
    deterministic physical cards of pattern_cards."""
    counts = to_counts(hand)
    level_code(level)
    return _moves_from_candidates(_pruned_candidates(counts, level), counts, level, top, mode)


def legal_moves_naive(hand, level, top=None, mode="cards") -> list:
    """legal_moves over literally every sub-multiset of at most 10 cards."""
    counts = to_counts(hand)
    level_code(level)
    return _moves_from_candidates(_all_candidates(counts), counts, level, top, mode)


def pattern_key(cards, kind, rank, suit, level) -> tuple:
    """(kind, rank, sorted natural rank codes, number of wildcards, suit if
    StraightFlush else None).  Natural = not a heart level card; jokers are
    natural with rank codes 13/14."""
    naturals, k = _split(to_faces(cards), level)
    nat = tuple(sorted(face_rank(f) for f in naturals))
    return (kind, rank, nat, k, suit if kind == "StraightFlush" else None)


def pattern_cards(counts, level, natural_ranks, n_wild, suit) -> tuple:
    """Deterministic physical cards of a pattern, as a sorted tuple of faces.
    `counts` is the hand as 54 counts (see to_counts).  For each natural rank
    used m times: the m lowest-index non-wildcard cards of that rank in the
    hand (with multiplicity; for a StraightFlush the flush-suit card), plus
    n_wild wildcards."""
    if len(counts) != 54:
        raise ValueError("counts must have 54 entries")
    w = wildcard_face(level)
    if counts[w] < n_wild:
        raise ValueError("not enough wildcards in the hand")
    out = [w] * n_wild
    for r, m in Counter(natural_ranks).items():
        if suit is not None:
            avail = [face_index(r, SUITS.index(suit))] * counts[face_index(r, SUITS.index(suit))]
        else:
            avail = [f for f in range(54) if face_rank(f) == r and f != w
                     for _ in range(counts[f])]
        if len(avail) < m:
            raise ValueError("pattern not in the hand")
        out += avail[:m]
    return tuple(sorted(out))


# --------------------------------------------------------------------------
# Random test data (inputs only; expected values always come from the
# functions above)
# --------------------------------------------------------------------------

def random_hand(rng, n, level, n_wild, n_jokers=None) -> list:
    """n random cards (sorted faces) from the 108-card double deck holding
    exactly n_wild (0..2) wildcards, and exactly n_jokers jokers if given."""
    w = wildcard_face(level)
    jokers = [BJ, BJ, RJ, RJ]
    others = [f for f in range(52) if f != w for _ in range(2)]
    hand = [w] * n_wild
    if n_jokers is None:
        hand += rng.sample(others + jokers, n - n_wild)
    else:
        hand += rng.sample(jokers, n_jokers) + rng.sample(others, n - n_wild - n_jokers)
    return sorted(hand)


def random_combo_faces(rng, level, kind, wild_prob=0.3):
    """Faces (sorted) of a random set of cards built to form `kind` (some
    cards may be replaced by wildcards, with probability wild_prob each).
    Returns None when the random choice could not be realised."""
    lv = level_code(level)
    w = wildcard_face(level)
    suit = rng.randrange(4)
    if kind == "Single":
        r = rng.randrange(15)
        intended = [(r, None)]
    elif kind == "Pair":
        r = rng.randrange(15)
        intended = [(r, None)] * 2
    elif kind == "Triple":
        intended = [(rng.randrange(13), None)] * 3
    elif kind == "FullHouse":
        t = rng.randrange(13)
        p = rng.choice([x for x in range(15) if x != t])
        intended = [(t, None)] * 3 + [(p, None)] * 2
    elif kind in ("Straight", "StraightFlush"):
        p = rng.randrange(10)
        s = suit if kind == "StraightFlush" else None
        intended = [(_pos_rank(q), s) for q in range(p, p + 5)]
    elif kind == "Tube":
        p = rng.randrange(12)
        intended = [(_pos_rank(q), None) for q in range(p, p + 3) for _ in range(2)]
    elif kind == "Plate":
        p = rng.randrange(13)
        intended = [(_pos_rank(q), None) for q in range(p, p + 2) for _ in range(3)]
    elif kind == "Bomb":
        r = rng.randrange(13)
        size = rng.randint(4, 8 if r == lv else 10)
        intended = [(r, None)] * size
    elif kind == "JokerBomb":
        intended = [(13, None), (13, None), (14, None), (14, None)]
    else:
        raise ValueError(kind)
    pool = {f: 2 for f in range(54)}
    out = []
    for r, s in intended:
        if r < 13 and pool[w] and rng.random() < wild_prob:
            out.append(w)
            pool[w] -= 1
            continue
        cands = [f for f in range(54) if face_rank(f) == r and f != w and pool[f]
                 and (s is None or face_suit(f) == s)]
        if cands:
            f = rng.choice(cands)
        elif r < 13 and pool[w]:
            f = w
        else:
            return None
        out.append(f)
        pool[f] -= 1
    return sorted(out)
