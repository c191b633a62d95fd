"""The platform's rule preset and its draw rule (docs/platform.md)."""

from __future__ import annotations

from typing import Any

from guandan_fast._core import Rules

__all__ = ["DRAW_DROPS", "PLATFORM_RULES", "platform_rules"]

#: The platform's rule preset: a game ends when a team at A finishes first
#: and second; two failed attempts at A drop a team to 2.
PLATFORM_RULES: dict[str, Any] = {"a_pass": "double_down", "a_max_attempts": 2, "a_fail_reset": "2"}
#: Drops from A to 2 in one game after which the platform calls it a draw.
DRAW_DROPS = 50


def platform_rules(**overrides: Any) -> Rules:
    """The platform's rules, with any `Rules` option changed by `overrides`."""
    return Rules(**{**PLATFORM_RULES, **overrides})
