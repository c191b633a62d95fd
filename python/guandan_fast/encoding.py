"""Fixed-length numpy encodings of an `Observation` for learning agents.

Two float32 encodings, built only from what the observing seat may know
(docs/rules.md §8) and computed natively, with batch forms
(`encode_observations`, `danzero_states`) and ``out=`` buffers:

- `encode_observation(obs)`: this package's own, `OBSERVATION_SIZE` values;
- `danzero_state(obs)`: DanZero's 513-value state (the input of its Q
  network without the 54-value candidate action);
- `danzero_actions(state)`: DanZero's whole network input, one 567-value
  row (the state, then the action's cards) per legal action of a decision.

The layouts are the engine's field tables (``_core.observation_fields``):
`OBSERVATION_FIELDS`, `DANZERO_FIELDS` and `DANZERO_ROW_FIELDS` list
``(name, length)`` in order, `OBSERVATION_LAYOUT`, `DANZERO_LAYOUT` and
`DANZERO_ROW_LAYOUT` map each name to its ``slice``,
and `field(vector, name)` cuts a field out of a vector (or out of a batch,
along the last axis). docs/encodings.md describes every field, DanZero's
included, with the sources its rules were read from.
"""

from __future__ import annotations

import types
from typing import Any, Mapping, Tuple

import numpy as np
import numpy.typing as npt

from guandan_fast._core import (
    DANZERO_ROW_SIZE,
    DANZERO_SIZE,
    OBSERVATION_SIZE,
    InvalidArgumentError,
    danzero_actions,
    danzero_state,
    danzero_states,
    encode_observation,
    encode_observations,
    observation_fields,
)

__all__ = [
    "DANZERO_FIELDS",
    "DANZERO_LAYOUT",
    "DANZERO_ROW_FIELDS",
    "DANZERO_ROW_LAYOUT",
    "DANZERO_ROW_SIZE",
    "DANZERO_SIZE",
    "DANZERO_STATE_SIZE",
    "OBSERVATION_FIELDS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "danzero_actions",
    "danzero_state",
    "danzero_states",
    "encode_observation",
    "encode_observations",
    "field",
]

NUM_FACES = 54
NUM_RANKS = 13


def _table(observation: str) -> tuple[Tuple[Tuple[str, int], ...], Mapping[str, slice]]:
    rows = observation_fields(observation)
    fields = tuple((name, length) for name, _, length, _, _ in rows)
    return fields, types.MappingProxyType({name: slice(at, at + length) for name, at, length, _, _ in rows})


# Each encoding's fields, (name, length) in order, and each name's slice of a vector.
OBSERVATION_FIELDS, OBSERVATION_LAYOUT = _table("guandan")
DANZERO_FIELDS, DANZERO_LAYOUT = _table("danzero")
# The fields of a `danzero_actions` row: the state's, then `action` (567 values in all).
DANZERO_ROW_FIELDS, DANZERO_ROW_LAYOUT = _table("danzero567")
#: Length of a `danzero_state` vector (513).
DANZERO_STATE_SIZE: int = DANZERO_SIZE


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
