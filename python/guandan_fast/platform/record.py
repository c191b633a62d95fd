"""The match record of the platform server: one JSON line per game (its
seed, rules and every action as platform codes, deal by deal, with the moves
a fallback policy made), a line per aborted match, and the final tallies.
The line builders here are the format's one definition (the referee fills a
game line's deals as they are played); `append` writes a line, `replay`
rebuilds a game line's `Game` exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from guandan_fast._core import Game, Rules
from guandan_fast.platform.codes import action_from_code

__all__ = [
    "aborted_line",
    "append",
    "game_line",
    "read_record",
    "replay",
    "result_line",
    "rules_from_record",
    "rules_to_record",
]


def rules_to_record(rules: Rules) -> dict[str, Any]:
    """The rules as JSON data (``Rules.to_dict()`` with the upgrade table's places as text)."""
    d = rules.to_dict()
    d["upgrade"] = {str(k): v for k, v in d["upgrade"].items()}
    return d


def rules_from_record(data: dict[str, Any]) -> Rules:
    """The `Rules` of a record's ``rules`` field."""
    d = dict(data)
    d["upgrade"] = {int(k): v for k, v in d["upgrade"].items()}
    return Rules(**d)


def game_line(table: int, game: int, seed: int, seats: Mapping[int, str], rules: Rules) -> dict[str, Any]:
    """The line of game `game` (from 0) of a table's match as it starts: its
    ``deals`` are filled in as they are played (``{"level", "actions": [[seat,
    code], ...]}``), then ``winner`` and ``levels`` are added (or ``type``
    becomes ``"aborted"`` with a ``reason``)."""
    return {"type": "game", "table": table, "game": game, "seed": seed, "seats": seats, "rules": rules_to_record(rules), "deals": []}


def result_line(table: int, games: int, wins: list[int], draws: list[int]) -> dict[str, Any]:
    """The tallies of a match played to its end: games won and drawn per seat."""
    return {"type": "result", "table": table, "games": games, "victoryNum": wins, "draws": draws}


def aborted_line(table: int, reason: str, games: int, wins: list[int], draws: list[int]) -> dict[str, Any]:
    """The tallies of a match stopped after `games` games, and why."""
    return {"type": "aborted", "table": table, "reason": reason, "games": games, "victoryNum": wins, "draws": draws}


def append(path: str | Path, line: Mapping[str, Any]) -> None:
    """Appends `line` to the record file `path` as one JSON line."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """Every line of a record file as a dict."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _actions(line: dict[str, Any], rules: Rules) -> Iterable[tuple[int, Any]]:
    for deal in line["deals"]:
        for seat, code, *_ in deal["actions"]:
            yield seat, action_from_code(code, deal["level"], rules)


def replay(line: dict[str, Any]) -> Game:
    """The `Game` a record's game (or aborted) line rebuilds: its seed, rules and actions."""
    rules = rules_from_record(line["rules"])
    return Game.replay(list(_actions(line, rules)), seed=line["seed"], rules=rules)
