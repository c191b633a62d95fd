"""Pure-Python references of the observation encoders (slow and obvious).

The engine computes `encode_observation` and `danzero_state` natively;
these are the first implementations, kept as the references the native
ones are tested against (tests/test_encoders.py) and timed against
(benches/test_bench_rl.py). Layouts come from guandan_fast.encoding.
"""

from __future__ import annotations

from typing import Any, Collection, List, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from guandan_fast._core import _RANKS, Combo, Hand, InvalidArgumentError, Observation, Pass
from guandan_fast.encoding import DANZERO_LAYOUT, DANZERO_STATE_SIZE, NUM_FACES, NUM_RANKS, OBSERVATION_LAYOUT, OBSERVATION_SIZE

_F32 = npt.NDArray[np.float32]

#: Clips of the native encoders (docs/encodings.md): A failures and hand sizes.
A_FAILS_CLIP = 3
SIZE_CLIP = 28


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
    out[L["hand_sizes"]] = [min(sizes[s], SIZE_CLIP) / 27.0 for s in rel]

    out[L["level"].start + _rank_index(obs.level)] = 1.0
    levels = obs.levels
    out[L["level_own_team"].start + _rank_index(levels[team])] = 1.0
    out[L["level_other_team"].start + _rank_index(levels[1 - team])] = 1.0
    fails = obs.a_fails
    out[L["a_fails"]] = [min(fails[team], A_FAILS_CLIP), min(fails[1 - team], A_FAILS_CLIP)]
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
