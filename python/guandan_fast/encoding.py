"""Fixed-length numpy encodings of an `Observation` for learning agents.

Two encodings are provided, both float32 vectors built only from what the
observing seat may know (RULES.md §8), computed natively (with batch forms
`encode_observations` / `danzero_states` and ``out=`` buffers):

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
                               (28 / 27 for a receiver before it returns;
                               sizes clipped to 28)
490   13   level               rank played in this deal, one-hot (2..A)
503   13   level_own_team      own team's level, one-hot
516   13   level_other_team    other team's level, one-hot
529   2    a_fails             failed attempts at A: own team, other team
                               (counts, clipped to 3)
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
from typing import Any, Mapping, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from guandan_fast._core import (
    DANZERO_SIZE,
    KINDS,
    OBSERVATION_SIZE as _NATIVE_OBSERVATION_SIZE,
    InvalidArgumentError,
    danzero_state,
    danzero_states,
    encode_observation,
    encode_observations,
)

__all__ = [
    "DANZERO_FIELDS",
    "DANZERO_LAYOUT",
    "DANZERO_SIZE",
    "DANZERO_STATE_SIZE",
    "OBSERVATION_FIELDS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "danzero_state",
    "danzero_states",
    "encode_observation",
    "encode_observations",
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

if OBSERVATION_SIZE != _NATIVE_OBSERVATION_SIZE or DANZERO_STATE_SIZE != DANZERO_SIZE:  # the native encoders write these layouts
    raise ImportError("the encoding layouts differ from the engine's")
