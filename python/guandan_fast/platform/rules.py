"""The platform's rule preset, its draw rule, and the level state a match's
games may start from (docs/platform.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from guandan_fast._core import _RANKS, Game, GuandanError, InvalidArgumentError, Rules

__all__ = ["DRAW_DROPS", "PLATFORM_RULES", "check_start", "platform_rules", "start_game"]

#: The platform's rule preset: a game ends when a team at A finishes first
#: and second; two failed attempts at A drop a team to 2.
PLATFORM_RULES: dict[str, Any] = {"a_pass": "double_down", "a_max_attempts": 2, "a_fail_reset": "2"}
#: Drops from A to 2 in one game after which the platform calls it a draw.
DRAW_DROPS = 50


def platform_rules(**overrides: Any) -> Rules:
    """The platform's rules, with any `Rules` option changed by `overrides`."""
    return Rules(**{**PLATFORM_RULES, **overrides})


#: The keys of a start state; only ``levels`` is required.
START_KEYS = ("levels", "declarer", "a_fails", "after")


def _first_team(after: object) -> Optional[int]:
    """The team of the first seat of a finishing order `after`, when that seat is a seat 0..3."""
    if isinstance(after, (list, tuple)) and after and type(after[0]) is int and 0 <= after[0] <= 3:
        return after[0] % 2
    return None


def check_start(start: object, rules: Rules) -> Optional[dict[str, Any]]:
    """The level state every game of a match starts from, as the record writes
    it: ``{"levels": [team 0's, team 1's], "declarer": team or None,
    "a_fails": [n, m]}`` (and ``"after": [f1, f2, f3, f4]`` when given), from
    a mapping with ``levels`` (two ranks, ``'10'`` or ``'T'``, or 2..14) and
    optionally ``declarer`` (the team whose level the first deal is played
    at; absent or None: the team of ``after[0]`` when ``after`` is given, else
    the team with the higher level, none when they are equal), ``a_fails``
    (failed attempts at A already made; default none) and ``after`` (a
    finishing order, the seats 0..3 each once: the first deal follows a deal
    finished in that order, with tribute and return; its declarer must be the
    team of ``after[0]``). None stays None (both teams at 2). A value the rules
    cannot start from raises `InvalidArgumentError` naming it."""
    if start is None:
        return None
    if not isinstance(start, Mapping):
        raise InvalidArgumentError(f"start must be a dict with levels (and declarer, a_fails, after) or None, not {start!r:.60}")
    unknown = [k for k in start if k not in START_KEYS]
    if unknown:
        raise InvalidArgumentError(f"start takes levels, declarer, a_fails and after, not {str(unknown[0])[:40]!r}")
    if start.get("levels") is None:
        raise InvalidArgumentError("start must give the levels (two ranks, team 0's then team 1's)")
    if rules.sudden_death:
        raise InvalidArgumentError("a start does not apply under sudden death: every game is one deal with both teams at A")
    kw: dict[str, Any] = {}
    for key in START_KEYS:
        value = start.get(key)
        if key == "declarer" and value is None:
            value = _first_team(start.get("after"))
        if value is None:
            continue
        kw[key] = tuple(value) if isinstance(value, list) else value
        try:
            game = Game(rules, **kw)
        except GuandanError as e:
            raise InvalidArgumentError(f"start {key} {start.get(key)!r:.40}: {e}") from None
    levels = list(game.levels)
    declarer = game.declarer
    if declarer is None and levels[0] != levels[1]:
        declarer = max((0, 1), key=lambda t: _RANKS.index(levels[t]))
    checked: dict[str, Any] = {"levels": levels, "declarer": declarer, "a_fails": list(game.a_fails)}
    if start.get("after") is not None:
        checked["after"] = [int(s) for s in kw["after"]]
    try:
        start_game(rules, 0, checked)
    except GuandanError as e:
        raise InvalidArgumentError(f"start {checked}: {e}") from None
    return checked


def start_game(rules: Rules, seed: int, start: Optional[Mapping[str, Any]]) -> Game:
    """``Game(rules, seed=seed)`` at the start state `start` (as `check_start`
    gives it; None: both teams at 2). The deal is that of the same seed
    without a start; without ``after`` so is its leader and the first deal
    has no tribute, with it the first deal begins with the tribute that
    follows that finishing order, and tribute decides who leads."""
    if start is None:
        return Game(rules, seed=seed)
    after = start.get("after")
    return Game(rules, seed=seed, levels=tuple(start["levels"]), declarer=start["declarer"], a_fails=tuple(start["a_fails"]),
                after=None if after is None else tuple(after))
