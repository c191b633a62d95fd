"""Checks of the Python layer's arguments: each returns the value as taken or
raises `InvalidArgumentError` naming the argument and what it must be."""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from guandan_fast._core import InvalidArgumentError

__all__ = ["check_callable", "check_int", "check_seconds"]


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """`value` as a whole number `lo` .. `hi` (an int, not a bool); the refusal
    is worded as the engine words its own (``n must be an int 0..4294967296, not -1``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise InvalidArgumentError(f"{name} must be an int {lo}..{hi}, not {value!r:.40}")
    return value


def check_seconds(name: str, value: object, *, most: float = math.inf, or_none: bool = False) -> float:
    """`value` as seconds above 0 and at most `most` (`or_none`: the error says None is taken too)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= most and math.isfinite(value):
        return float(value)
    limit = "" if most == math.inf else f" and at most {most:g}"
    raise InvalidArgumentError(f"{name} must be a number of seconds above 0{limit}{' or None' if or_none else ''}, not {value!r:.40}")


def check_callable(name: str, value: Any, *, none: bool = True) -> Optional[Callable[..., Any]]:
    """`value` as a callable (or None when `none`)."""
    if (value is None and none) or callable(value):
        return value  # type: ignore[no-any-return]
    raise InvalidArgumentError(f"{name} must be a callable{' or None' if none else ''}, not a {type(value).__name__}")
