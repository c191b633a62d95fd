"""Fixed-length numpy encodings of an `Observation` for learning agents.

Two encodings are provided, both float32 vectors built only from what the
observing seat may know (RULES.md §8):

``encode_observation(obs)``
    This package's own encoding, `OBSERVATION_SIZE` values laid out as in
    `OBSERVATION_FIELDS`.  Seats are relative to the observer: *self*, *next*
    (the seat after it, 下家), *partner* (对家), *prev* (the seat before it, 上家).

``danzero_state(obs)``
    DanZero's 513-value state (the input of its Q network without the
    54-value candidate action), laid out as in `DANZERO_FIELDS`.

Every 54-value card field uses the face order of ``Hand.to_array()``:
index ``4 * rank + suit`` with ranks 2..A = 0..12 and suits h, s, c, d =
0..3, then 52 = small joker (BJ) and 53 = big joker (RJ); each entry is the
number of copies (0, 1 or 2).  This is also DanZero's order.

Each layout is defined by one table of ``(name, length)`` pairs; the offsets
are computed from it.  `OBSERVATION_LAYOUT` and `DANZERO_LAYOUT` map each
name to its ``slice``; `field(vector, name)` cuts a field out of a vector
(or out of a batch of vectors, along the last axis).

Layout of `encode_observation` (offset, length, meaning):

====  ===  ==================  ==================================================
off   len  name                meaning
====  ===  ==================  ==================================================
0     54   hand                own cards (counts)
54    54   unseen              cards neither in own hand nor played (counts)
108   54   played_self         cards played this deal by self
162   54   played_next         ... by the next seat
216   54   played_partner      ... by the partner
270   54   played_prev         ... by the previous seat
324   54   known_next          cards known to be in the next seat's hand
                               (tribute / return cards not played since)
378   54   known_partner       ... in the partner's hand
432   54   known_prev          ... in the previous seat's hand
486   4    hand_sizes          cards held by self, next, partner, prev, / 27
                               (28 / 27 for a receiver before it returns)
490   13   level               rank played in this deal, one-hot (2..A)
503   13   level_own_team      own team's level, one-hot
516   13   level_other_team    other team's level, one-hot
529   2    a_fails             failed attempts at A: own team, other team (counts)
531   1    declarer_own        1 if the own team is the declarer (its level is
                               played), else 0 (also 0 when there is none)
532   54   top_cards           cards of the play to beat (zeros if none)
586   10   top_kind            its kind, one-hot in `KINDS` order (zeros if none)
596   15   top_rank            its rank code 0..14 (2..A, BJ, RJ), one-hot
                               (zeros if none)
611   4    top_seat            who made it: self, next, partner, prev, one-hot
                               (zeros if none)
615   1    leading             1 in the play phase when there is no play to beat
                               (the player to act leads a trick), else 0
616   16   finish_order        16 = 4 seats x 4 places: entry ``4 * seat + place``
                               is 1 when that relative seat (self, next, partner,
                               prev) went out in that place (0 = first)
632   4    tribute_caps        per relative seat, ``(cap + 1) / 16`` where cap is
                               the §2 strength (0..15) above which a tribute
                               giver holds no other non-wildcard card; 0 if none
====  ===  ==================  ==================================================

Layout of `danzero_state` (offset, length, meaning):

====  ===  ==================  ==================================================
off   len  name                meaning
====  ===  ==================  ==================================================
0     54   hand                own cards (counts)
54    12   wildcard_flags      the 12 wildcard flags (see below)
66    54   unseen              DanZero's "other players' remaining cards": the
                               108-card deck minus own hand minus every card
                               played this deal (counts)
120   54   last_move           the previous turn's move (see below)
174   54   partner_last_move   the partner's last move (see below)
228   54   played_down         cards played this deal by the next seat (下家)
282   54   played_partner      ... by the partner (对家)
336   54   played_up           ... by the previous seat (上家)
390   28   size_down           next seat's hand size, one-hot, index = count 0..27
418   28   size_partner        partner's hand size, one-hot
446   28   size_up             previous seat's hand size, one-hot
474   13   level_own_team      own team's level (selfRank), one-hot 2..A
487   13   level_other_team    opponents' level (oppoRank), one-hot
500   13   level               rank played in this deal (curRank), one-hot
====  ===  ==================  ==================================================

DanZero's fields as established from its public code.  Sources read:
repository ``AltmanD/guandan_mcc`` (the DanZero code base), files
``showdown/clients/client2.py`` (``prepare`` and ``proc_universal`` of
``ExampleClient``) and ``showdown/clients/util.py`` (``card2array``,
``card2num``); and the copy of the same client in ``submit-paper/Danzero_plus``
at ``wintest/danzero/client0.py`` with ``actor_n/utils/utils.py``.  The DanZero
model's input there is 567 = 513 + 54 (the candidate action).  Nothing was
copied; the rules below are a description, reimplemented here.

* **Card order.**  DanZero numbers cards H2..HA, S2..SA, C2..CA, D2..DA
  (0..51), SB (small joker, 52), HR (big joker, 53) and writes counts into a
  4 x 13 (suit x rank) matrix flattened column-major, so index ``4*rank+suit``
  with suits h, s, c, d: the same as ``Hand.to_array()``.
* **Seat order.**  "The other three" are always down (seat + 1), teammate
  (seat + 2), up (seat + 3), for played cards and for hand sizes.
* **Hand sizes.**  ``one_hot[count] = 1`` in a vector of 28 (count 0..27).
  (A receiver holds 28 cards between tribute and return; DanZero never builds
  a state then, and `danzero_state` clips the count to 27.)
* **Levels.**  One-hot of 13 at ``rank - 1`` (2 -> 0, ..., A -> 12), in the
  order own team's level, opponents' level, level of this deal.
* **Last move.**  DanZero keeps a strictly round-robin action sequence for
  the deal: every play (card counts) and every pass (all zeros) in order, and
  it inserts a placeholder entry, all -1, for each turn of a seat that is
  already out, and an empty (all-zero) entry for a seat whose turn is skipped
  when the lead passes to the partner of a player who went out (接风).  The
  field is the last entry of that sequence, i.e. the slot just before the
  seat to act, which belongs to its up-player.  Equivalently:
  all -1 when nobody has played or passed yet in this deal; else the
  up-player's move if it made the latest play or pass (a pass is all
  zeros); else all -1 if the up-player is out; else the up-player's latest
  move (a pass: zeros).  So "last move" is *not* simply the top play: after
  passes it is zeros, and it is all -1 whenever the up-player is out and did
  not make the latest move (even though some other play may be on the table).
* **Partner's last move.**  All -1 if the partner is out or has not played or
  passed yet in this deal; else its latest play (counts) or pass (zeros).
* **Wildcard flags** (``proc_universal``).  Let W be the heart card of this
  deal's level.  If the hand holds no W, all 12 flags are 0.  Otherwise, with
  W itself left out of every count below, and ``n[r]`` = the number of
  *distinct suits* held at rank r (2..A = 0..12, so 0..4):

  - flag 0: 1 (the hand holds a wildcard);
  - flag 1: some suit has a window of 5 consecutive ranks, starting at
    2, 3, ..., 9 (2-6 up to 9-K; DanZero never examines T-A, nor A-2-3-4-5),
    missing at most one card: a straight flush with at most one wildcard;
  - flags 2..6: ``max(n) >= 6, 5, 4, 3, 2`` respectively (a thermometer; as
    ``n`` counts suits, flags 2 and 3 are always 0 in DanZero's code);
  - flag 7: 1;
  - flag 8: the run of consecutive ranks with ``n > 0`` that ends at A is at
    least 4 long (J, Q, K, A all present; DanZero only tests the run that
    reaches A);
  - flag 9: two adjacent ranks with ``n`` = (2, >= 3) or (>= 3, 2);
  - flag 10: three consecutive ranks with ``n`` = (1, >= 2, >= 2),
    (>= 2, 1, >= 2) or (>= 2, >= 2, 1);
  - flag 11: two adjacent ranks with ``n`` = (2, 2).

DanZero builds its state only for the seat to act; `danzero_state` applies
the same rules to any seat (for a seat not to act the last-move field is what
that seat would see if it were its turn now).
"""

from __future__ import annotations

import types
from typing import Any, Collection, List, Mapping, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from guandan_fast._core import _RANKS, KINDS, Combo, Hand, InvalidArgumentError, Observation, Pass

_F32 = npt.NDArray[np.float32]

__all__ = [
    "DANZERO_FIELDS",
    "DANZERO_LAYOUT",
    "DANZERO_STATE_SIZE",
    "OBSERVATION_FIELDS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "danzero_state",
    "encode_observation",
    "field",
]

NUM_FACES = 54
NUM_RANKS = 13

# ------------------------------------------------------------------ layouts

#: The one table of `encode_observation`'s layout: (name, length) in order.
OBSERVATION_FIELDS: Tuple[Tuple[str, int], ...] = (
    ("hand", NUM_FACES),
    ("unseen", NUM_FACES),
    ("played_self", NUM_FACES),
    ("played_next", NUM_FACES),
    ("played_partner", NUM_FACES),
    ("played_prev", NUM_FACES),
    ("known_next", NUM_FACES),
    ("known_partner", NUM_FACES),
    ("known_prev", NUM_FACES),
    ("hand_sizes", 4),
    ("level", NUM_RANKS),
    ("level_own_team", NUM_RANKS),
    ("level_other_team", NUM_RANKS),
    ("a_fails", 2),
    ("declarer_own", 1),
    ("top_cards", NUM_FACES),
    ("top_kind", len(KINDS)),
    ("top_rank", 15),
    ("top_seat", 4),
    ("leading", 1),
    ("finish_order", 16),
    ("tribute_caps", 4),
)

#: The one table of `danzero_state`'s layout: (name, length) in order.
DANZERO_FIELDS: Tuple[Tuple[str, int], ...] = (
    ("hand", NUM_FACES),
    ("wildcard_flags", 12),
    ("unseen", NUM_FACES),
    ("last_move", NUM_FACES),
    ("partner_last_move", NUM_FACES),
    ("played_down", NUM_FACES),
    ("played_partner", NUM_FACES),
    ("played_up", NUM_FACES),
    ("size_down", 28),
    ("size_partner", 28),
    ("size_up", 28),
    ("level_own_team", NUM_RANKS),
    ("level_other_team", NUM_RANKS),
    ("level", NUM_RANKS),
)


def _layout(fields: Sequence[Tuple[str, int]]) -> Mapping[str, slice]:
    out = {}
    offset = 0
    for name, length in fields:
        if name in out:
            raise ValueError(f"duplicate field {name!r}")
        out[name] = slice(offset, offset + length)
        offset += length
    return types.MappingProxyType(out)


#: Field name -> slice of an `encode_observation` vector (in layout order).
OBSERVATION_LAYOUT: Mapping[str, slice] = _layout(OBSERVATION_FIELDS)
#: Length of an `encode_observation` vector.
OBSERVATION_SIZE: int = sum(n for _, n in OBSERVATION_FIELDS)

#: Field name -> slice of a `danzero_state` vector (in layout order).
DANZERO_LAYOUT: Mapping[str, slice] = _layout(DANZERO_FIELDS)
#: Length of a `danzero_state` vector (513).
DANZERO_STATE_SIZE: int = sum(n for _, n in DANZERO_FIELDS)


def field(vector: npt.ArrayLike, name: str, layout: Mapping[str, slice] = OBSERVATION_LAYOUT) -> npt.NDArray[Any]:
    """The field `name` of an encoded vector (a view; along the last axis of a batch).

    `layout` is `OBSERVATION_LAYOUT` (default) or `DANZERO_LAYOUT`.
    """
    if not isinstance(layout, Mapping) or not layout or not all(isinstance(x, slice) for x in layout.values()):
        raise InvalidArgumentError("layout must be OBSERVATION_LAYOUT or DANZERO_LAYOUT (a mapping of field names to slices)")
    if not isinstance(name, str) or name not in layout:
        shown = repr(name)[:40] if isinstance(name, str) else type(name).__name__
        raise InvalidArgumentError(f"no field {shown}; fields: {', '.join(layout)}")
    sl = layout[name]
    try:
        v = np.asarray(vector)
    except (ValueError, TypeError):
        raise InvalidArgumentError(f"vector must be an array of encoded values, not {type(vector).__name__}") from None
    size = max(s.stop for s in layout.values())
    if v.ndim == 0 or v.shape[-1] != size:
        what = "DANZERO_LAYOUT" if size == DANZERO_STATE_SIZE else "this layout"
        raise InvalidArgumentError(
            f"expected a vector of {size} values for {what}, got shape {v.shape}"
            + ("; pass layout=DANZERO_LAYOUT for danzero_state vectors" if v.ndim and v.shape[-1] == DANZERO_STATE_SIZE else "")
        )
    return v[..., sl]


# ------------------------------------------------------------------ helpers

def _rank_index(text: str) -> int:
    """Index 0..12 of a level as the engine writes it (2..9, T, J, Q, K, A)."""
    return _RANKS.index(text)


def _observation(obs: object) -> Observation:
    """`obs` if it is an `Observation`, else `InvalidArgumentError`."""
    if not isinstance(obs, Observation):
        raise InvalidArgumentError(f"obs must be an Observation (game.observation(seat)), not {type(obs).__name__}")
    return obs


def _counts(hand: Hand) -> _F32:
    return np.asarray(hand.to_array(), dtype=np.float32)


def _is_move(action: object) -> bool:
    return isinstance(action, (Combo, Pass))


def _move_counts(action: object) -> _F32:
    """Counts of a play's cards; zeros for a pass."""
    if isinstance(action, Combo):
        return _counts(action.cards)
    return np.zeros(NUM_FACES, dtype=np.float32)


# ------------------------------------------------------------------ own encoding

def encode_observation(obs: Observation) -> _F32:
    """`obs` (an `Observation`) as a float32 vector of `OBSERVATION_SIZE` values.

    See the module docstring (or docs/encodings.md) for the layout; seats are
    relative to ``obs.seat``: self, next, partner, prev.
    """
    obs = _observation(obs)
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    L = OBSERVATION_LAYOUT
    seat = obs.seat
    rel = [(seat + k) % 4 for k in range(4)]  # self, next, partner, prev
    team = seat % 2

    out[L["hand"]] = _counts(obs.hand)
    out[L["unseen"]] = _counts(obs.unseen)
    played = obs.played
    for name, s in zip(("played_self", "played_next", "played_partner", "played_prev"), rel):
        out[L[name]] = _counts(played[s])
    known = obs.known
    for name, s in zip(("known_next", "known_partner", "known_prev"), rel[1:]):
        out[L[name]] = _counts(known[s])

    sizes = obs.hand_sizes
    out[L["hand_sizes"]] = [sizes[s] / 27.0 for s in rel]

    out[L["level"].start + _rank_index(obs.level)] = 1.0
    levels = obs.levels
    out[L["level_own_team"].start + _rank_index(levels[team])] = 1.0
    out[L["level_other_team"].start + _rank_index(levels[1 - team])] = 1.0
    fails = obs.a_fails
    out[L["a_fails"]] = [fails[team], fails[1 - team]]
    out[L["declarer_own"]] = 1.0 if obs.declarer == team else 0.0

    top = obs.top
    if top is not None:
        out[L["top_cards"]] = _counts(top.cards)
        out[L["top_kind"].start + top.kind_code] = 1.0
        out[L["top_rank"].start + top.rank_code] = 1.0
        top_seat = obs.top_seat
        if top_seat is not None:
            out[L["top_seat"].start + (top_seat - seat) % 4] = 1.0
    out[L["leading"]] = 1.0 if (obs.phase == "play" and top is None) else 0.0

    base = L["finish_order"].start
    for place, s in enumerate(obs.finish_order):
        out[base + 4 * ((s - seat) % 4) + place] = 1.0

    caps = obs.tribute_caps
    for k, s in enumerate(rel):
        cap = caps[s]
        if cap is not None:
            out[L["tribute_caps"].start + k] = (cap + 1) / 16.0
    return out


# ------------------------------------------------------------------ DanZero

def _danzero_wildcard_flags(hand: npt.NDArray[Any], level: int) -> _F32:
    """DanZero's 12 wildcard flags of a 54-count hand at level index `level`."""
    flags = np.zeros(12, dtype=np.float32)
    if hand[4 * level] == 0:  # no heart level card
        return flags
    held = hand[:52].reshape(NUM_RANKS, 4) > 0  # [rank, suit]
    held[level, 0] = False  # the wildcard itself counts nowhere
    flags[0] = 1.0
    # 1: a one-suit window of 5 ranks starting at 2..9 with at most one gap.
    missing = ~held
    for start in range(8):
        if (missing[start:start + 5].sum(axis=0) <= 1).any():
            flags[1] = 1.0
            break
    n = held.sum(axis=1)  # distinct suits held per rank, 0..4
    top = int(n.max())
    for k in range(2, 7):
        flags[k] = 1.0 if top >= 8 - k else 0.0
    flags[7] = 1.0
    run = 0
    for j in range(NUM_RANKS):
        run = run + 1 if n[j] else 0
    flags[8] = 1.0 if run >= 4 else 0.0
    for j in range(1, NUM_RANKS):
        a, b = n[j - 1], n[j]
        if (a >= 3 and b == 2) or (a == 2 and b >= 3):
            flags[9] = 1.0
        if a == 2 and b == 2:
            flags[11] = 1.0
    for j in range(2, NUM_RANKS):
        a, b, c = n[j - 2], n[j - 1], n[j]
        if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
            flags[10] = 1.0
    return flags


def _danzero_last_move(moves: Sequence[Tuple[int, object]], seat: int, out_seats: Collection[int]) -> _F32:
    """The entry before `seat`'s turn in DanZero's round-robin move sequence."""
    none = -np.ones(NUM_FACES, dtype=np.float32)
    if not moves:
        return none
    up = (seat + 3) % 4
    last_seat, last = moves[-1]
    if last_seat == up:
        return _move_counts(last)
    if up in out_seats:
        return none  # the placeholder of a seat that is out
    for s, a in reversed(moves):
        if s == up:
            return _move_counts(a)  # skipped after it passed (接风): a pass
    return none


def _one_hot(length: int, index: int) -> _F32:
    v = np.zeros(length, dtype=np.float32)
    v[index] = 1.0
    return v


def danzero_state(obs: Observation) -> _F32:
    """`obs` as DanZero's 513-value state (float32; layout `DANZERO_FIELDS`).

    See the module docstring (or docs/encodings.md) for what each field means
    and the public DanZero code it was established from.
    """
    obs = _observation(obs)
    seat = obs.seat
    team = seat % 2
    down, partner, up = (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4
    level = _rank_index(obs.level)
    hand = _counts(obs.hand)
    moves: List[Tuple[int, object]] = [(s, a) for s, a in obs.history if _is_move(a)]
    out_seats = set(obs.finish_order)

    if partner in out_seats:
        partner_last = -np.ones(NUM_FACES, dtype=np.float32)
    else:
        mine = [a for s, a in moves if s == partner]
        partner_last = _move_counts(mine[-1]) if mine else -np.ones(NUM_FACES, dtype=np.float32)

    played = obs.played
    sizes = obs.hand_sizes
    levels = obs.levels
    parts = (
        hand,
        _danzero_wildcard_flags(hand, level),
        _counts(obs.unseen),
        _danzero_last_move(moves, seat, out_seats),
        partner_last,
        _counts(played[down]),
        _counts(played[partner]),
        _counts(played[up]),
        _one_hot(28, min(sizes[down], 27)),
        _one_hot(28, min(sizes[partner], 27)),
        _one_hot(28, min(sizes[up], 27)),
        _one_hot(NUM_RANKS, _rank_index(levels[team])),
        _one_hot(NUM_RANKS, _rank_index(levels[1 - team])),
        _one_hot(NUM_RANKS, level),
    )
    state = np.concatenate(parts).astype(np.float32, copy=False)
    assert state.shape == (DANZERO_STATE_SIZE,)
    return state
