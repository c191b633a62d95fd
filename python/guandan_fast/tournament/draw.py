"""The seeded draw of a single-elimination bracket (先分区，后定位).

The bracket has the next power of two of slots. Seed positions follow the
usual order (position of seed 1 at the top, seed 2 at the bottom, seed k's
first opponent is seed ``size + 1 - k``); the byes (轮空) are the last seed
numbers, so they face the top positions (seeds 1, 2, ...). Entrants are
placed at random (seeded): first each unit's entrants are split between the
two halves as evenly as the halves' room allows, then within each half
between its quarters, and so on down to single slots.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional, Sequence

from guandan_fast._core import InvalidArgumentError

__all__ = ["Draw", "bracket_size", "draw_bracket", "draw_tables", "seed_order"]


def bracket_size(n: int) -> int:
    """The next power of two at or above `n` (at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seed number (1-based) of each bracket position, top to bottom."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


@dataclass(frozen=True)
class Draw:
    """A drawn bracket: `slots[p]` is the entrant index at position p, or None for a bye."""

    size: int
    slots: tuple[Optional[int], ...]

    def pairs(self) -> list[tuple[Optional[int], Optional[int]]]:
        """The first-round ties, top to bottom."""
        return [(self.slots[2 * i], self.slots[2 * i + 1]) for i in range(self.size // 2)]


def draw_bracket(n: int, units: Sequence[Optional[str]] | None = None, seed: int = 0) -> Draw:
    """Draws `n` entrants (with their `units`, None for none) into a bracket."""
    if n < 2:
        raise InvalidArgumentError(f"a draw needs at least two entrants, not {n}")
    if units is None:
        units = [None] * n
    if len(units) != n:
        raise InvalidArgumentError(f"units must give one unit per entrant ({n}), not {len(units)}")
    size = bracket_size(n)
    order = seed_order(size)
    playing = [order[p] <= n for p in range(size)]
    rng = random.Random(seed)
    groups: dict[object, list[int]] = defaultdict(list)
    for i, u in enumerate(units):
        groups[("unit", u) if u is not None else ("alone", i)].append(i)
    members = [g for _, g in sorted(groups.items(), key=lambda kv: repr(kv[0]))]
    for g in members:
        rng.shuffle(g)
    slots: list[Optional[int]] = [None] * size
    _place(list(range(size)), members, playing, slots, rng)
    return Draw(size=size, slots=tuple(slots))


def _place(region: list[int], groups: list[list[int]], playing: list[bool], slots: list[Optional[int]], rng: random.Random) -> None:
    """Fills the playing positions of `region` with `groups` (entrants by unit), splitting each unit evenly."""
    groups = [g for g in groups if g]
    if len(region) == 1:
        if groups:
            slots[region[0]] = groups[0][0]
        return
    half = len(region) // 2
    top, bottom = region[:half], region[half:]
    room = sum(playing[p] for p in top)
    # Each unit: half of it to each side, the odd ones out where there is room.
    take = [len(g) // 2 for g in groups]
    odd = [i for i, g in enumerate(groups) if len(g) % 2]
    rng.shuffle(odd)
    extra = room - sum(take)
    for i in odd[: max(0, min(extra, len(odd)))]:
        take[i] += 1
    # When a side has too little (or too much) room for even splits, the
    # units leaning most towards the other side give way first.
    while sum(take) > room:
        i = max((i for i in range(len(groups)) if take[i] > 0), key=lambda i: 2 * take[i] - len(groups[i]))
        take[i] -= 1
    while sum(take) < room:
        i = max((i for i in range(len(groups)) if take[i] < len(groups[i])), key=lambda i: len(groups[i]) - 2 * take[i])
        take[i] += 1
    _place(top, [g[: take[i]] for i, g in enumerate(groups)], playing, slots, rng)
    _place(bottom, [g[take[i] :] for i, g in enumerate(groups)], playing, slots, rng)


def draw_tables(n: int, units: Sequence[Optional[str]] | None = None, seed: int = 0) -> list[tuple[int, int]]:
    """Draws an even number `n` of entrants into tables of two at random
    (seeded), each entrant taking the first drawn entrant of another unit still
    free (the first still free when none is left)."""
    if n < 2 or n % 2:
        raise InvalidArgumentError(f"tables of two need an even number of entrants (at least two), not {n}")
    units = list(units) if units is not None else [None] * n
    if len(units) != n:
        raise InvalidArgumentError(f"units must give one unit per entrant ({n}), not {len(units)}")
    order = list(range(n))
    random.Random(seed).shuffle(order)
    tables = []
    while order:
        a = order.pop(0)
        j = next((j for j, b in enumerate(order) if units[a] is None or units[b] != units[a]), 0)
        tables.append((a, order.pop(j)))
    return tables
