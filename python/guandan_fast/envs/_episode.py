"""What every framework adapter shares: the agents' names, argument checks,
the observation spaces' bounds, and `Episode`, the native episode they all
step (rust/rl/episode.rs).

An episode is a deal (``unit="deal"``: a game's first deal, at both teams'
level) or a whole game (``unit="game"``). `Episode` plays it one decision at
a time: ``step(index)`` takes an index of `guandan_fast.actions` and returns
each seat's reward, the seats named in ``opponents`` are played natively,
and ``observe(seat)`` / ``action_mask(seat)`` write the encoding and the
legal mask natively. The rewards are described in docs/environments.md.
"""

from __future__ import annotations

import operator

import numpy as np

from guandan_fast import actions
from guandan_fast._core import Episode, InvalidArgumentError, observation_fields

__all__ = [
    "AGENTS",
    "Episode",
    "check_choice",
    "check_index",
    "observation_bounds",
    "render",
]

#: Agent names of the four seats (seat i is ``AGENTS[i]``; seats 0 and 2 are team 0).
AGENTS = ("player_0", "player_1", "player_2", "player_3")


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """`value` if it is one of `choices`, else InvalidArgumentError naming `name`."""
    if not isinstance(value, str) or value not in choices:
        raise InvalidArgumentError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_index(action: object) -> int:
    """The action index `action` stands for: an integer (Python or numpy) in 0..SIZE-1.

    Raises InvalidArgumentError for anything else (a bool, a float, None, a
    number out of range), naming it.
    """
    if type(action) is int and 0 <= action < actions.SIZE:
        return action
    if isinstance(action, (bool, np.bool_)):
        raise InvalidArgumentError(f"an action is an integer index in 0..{actions.SIZE - 1}, got {action!r}")
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    try:
        i = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgumentError(
            f"an action is an integer index in 0..{actions.SIZE - 1}, got {type(action).__name__} {action!r}"
        ) from None
    if not 0 <= i < actions.SIZE:
        raise InvalidArgumentError(f"action index {i} is outside 0..{actions.SIZE - 1}")
    return i


def observation_bounds(observation: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-value lower and upper bounds (float32) of the encoding ``observation``, from its field table."""
    fields = observation_fields(observation)
    _, at, length, _, _ = fields[-1]
    low, high = np.empty(at + length, np.float32), np.empty(at + length, np.float32)
    for _, at, length, lo, hi in fields:
        low[at : at + length] = lo
        high[at : at + length] = hi
    return low, high


def render(episode: Episode, mode: str | None) -> str | None:
    """The table as text for render mode ``"ansi"``, printed for ``"human"``, nothing for None."""
    if mode is None:
        return None
    text = str(episode.game) if episode.started else "(no episode: call reset())"
    if mode == "human":
        print(text)
        return None
    return text

