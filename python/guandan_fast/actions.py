"""The fixed action space: one integer index per action a seat can ever take.

Index 0 is passing; then every pattern-level play (a declaration, the
natural cards per rank and the wildcards used: exactly the moves of
``legal_moves(mode="pattern")``), kind by kind; then a tribute and a return
per card face. docs/environments.md lists the fields and the order;
tests/golden/action_index.txt pins them.

    >>> import guandan_fast as gf
    >>> g = gf.Game(seed=1)
    >>> i = int(g.legal_action_indices()[0])
    >>> gf.actions.index(gf.actions.action(i, g), g.level) == i
    True
"""

from __future__ import annotations

from typing import Union

from guandan_fast._core import (
    ACTION_SIZE,
    PASS_INDEX,
    Combo,
    Game,
    Observation,
    Pass,
    Return,
    Tribute,
    action_index,
    describe_index,
    index_action,
    index_fields,
)

#: Number of indices.
SIZE: int = ACTION_SIZE
#: Index of the first tribute (face ``f`` is ``TRIBUTE_BASE + f``).
TRIBUTE_BASE: int = SIZE - 2 * 54
#: Index of the first return (face ``f`` is ``RETURN_BASE + f``).
RETURN_BASE: int = SIZE - 54

Action = Union[Combo, Pass, Tribute, Return]

__all__ = ["PASS_INDEX", "RETURN_BASE", "SIZE", "TRIBUTE_BASE", "action", "describe", "fields", "index", "size"]


def size(rules: object = None) -> int:
    """Number of indices (the same under every rules option)."""
    return SIZE


def index(action: Action, level: str | int | None = None) -> int:
    """The index of `action`: a Combo (any play of the same pattern shares
    it), PASS, Tribute(card) or Return(card). `level`, when given, must be
    the Combo's."""
    return action_index(action, level)


def action(i: int, state: Game | Observation) -> Action:
    """The legal action of index `i` in `state` (a Game, or the Observation of
    the seat to act): a play takes the lowest face of each rank, as
    ``legal_moves(mode="pattern")``. Not legal now: IllegalMoveError."""
    return index_action(i, state)


def describe(i: int) -> str:
    """A short text of index `i`, e.g. ``"Straight 3-7, 1 wildcard (for 5)"``."""
    return describe_index(i)


def fields(i: int) -> dict[str, object]:
    """The fields of index `i` (type, kind, rank, size, suit, wildcards,
    naturals by rank, or card)."""
    return dict(index_fields(i))
