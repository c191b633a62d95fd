"""The match record of the platform server: one JSON line per game (its
seed, rules and every action as platform codes, deal by deal, with the moves
a fallback policy made and the referee's decisions), a line per aborted
match, and the final tallies.
The line builders here are the format's one definition (the referee fills a
game line's deals as they are played); `RecordFile` appends lines, `replay`
rebuilds a game line's `Game` exactly. A line that is not a record's raises
`InvalidArgumentError`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

from guandan_fast._core import Game, GuandanError, IllegalMoveError, InvalidArgumentError, Rules
from guandan_fast.platform.codes import action_from_code
from guandan_fast.platform.rules import check_start, start_game

__all__ = [
    "RecordFile",
    "aborted_line",
    "game_line",
    "read_record",
    "record_lines",
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


def game_line(
    table: int, game: int, seed: int, seats: Mapping[int, str], rules: Rules, *, start: Optional[Mapping[str, Any]] = None
) -> dict[str, Any]:
    """The line of game `game` (from 0) of a table's match as it starts, with
    the level state it starts from as ``start`` when one was given
    (``{"levels", "declarer", "a_fails"}`` and ``"after"`` when the first deal
    follows a given finishing order, as `check_start` gives it): its
    ``deals`` are filled in as they are played (``{"level", "actions": [[seat,
    code], ...]}``, and ``"penalties": [[at, team, kind, seat], ...]`` when the
    referee decided, `at` the deal's actions recorded before it), then
    ``winner`` and ``levels`` are added, with ``"ending": "levels"`` when the
    deal limit (``Rules.max_deals``) decided the game rather than a pass of A
    (or ``type`` becomes ``"aborted"`` with a ``reason``)."""
    line: dict[str, Any] = {"type": "game", "table": table, "game": game, "seed": seed, "seats": seats, "rules": rules_to_record(rules)}
    if start is not None:
        line["start"] = {"levels": list(start["levels"]), "declarer": start["declarer"], "a_fails": list(start["a_fails"])}
        if start.get("after") is not None:
            line["start"]["after"] = list(start["after"])
    line["deals"] = []
    return line


def result_line(
    table: int, games: int, wins: list[int], draws: list[int], *, forfeit: Optional[dict[str, Any]] = None
) -> dict[str, Any]:
    """The tallies of a match played to its end: games won and drawn per seat;
    after a forfeit its ``forfeit`` field (``{"team", "seat", "game",
    "unplayed"}``), the games not played counted as won by the opponents."""
    line = {"type": "result", "table": table, "games": games, "victoryNum": wins, "draws": draws}
    if forfeit is not None:
        line["forfeit"] = forfeit
    return line


def aborted_line(table: int, reason: str, games: int, wins: list[int], draws: list[int]) -> dict[str, Any]:
    """The tallies of a match stopped after `games` games, and why."""
    return {"type": "aborted", "table": table, "reason": reason, "games": games, "victoryNum": wins, "draws": draws}


class RecordFile:
    """A record file open for appending, each line written through at once.
    Opening it writes nothing, but tries a write of no bytes: a missing
    folder, a directory, a file that may not be written or a device that takes
    no data (``/dev/full``) raise `InvalidArgumentError` here, not at the
    first line."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise InvalidArgumentError(f"record must be a file path or None, not a {type(path).__name__}")
        self.path = Path(path)
        try:
            self._file = open(self.path, "a", encoding="utf-8")
        except OSError as e:
            raise InvalidArgumentError(f"cannot write the record {self.path}: {e.strerror or e}") from None
        try:
            os.write(self._file.fileno(), b"")
        except OSError as e:
            self._file.close()
            raise InvalidArgumentError(f"cannot write the record {self.path}: {e.strerror or e}") from None

    def write(self, line: Mapping[str, Any]) -> None:
        """Appends `line` as one JSON line; `OSError` when the file takes no more."""
        self._file.write(json.dumps(line) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Closes the file (a line not yet written through is dropped)."""
        try:
            self._file.close()
        except OSError:
            pass


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """Every line of a record file as a dict."""
    with open(path, encoding="utf-8") as f:
        return record_lines(f, str(path))


def record_lines(lines: Iterable[str], name: str = "the record") -> list[dict[str, Any]]:
    """Every non-blank line of a record's text as a dict; `InvalidArgumentError`
    (naming `name` and the line) for a line that is not a JSON object."""
    out = []
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except ValueError:
            raise InvalidArgumentError(f"{name} line {n} is not a JSON record line (cut short?): {text[:60]!r}") from None
        if not isinstance(line, dict):
            raise InvalidArgumentError(f"{name} line {n} is not a record line (a JSON object): {text[:60]!r}")
        out.append(line)
    return out


def _actions(line: dict[str, Any], rules: Rules) -> Iterable[tuple[int, Any]]:
    for deal in line["deals"]:
        for seat, code, *_ in deal["actions"]:
            yield seat, action_from_code(code, deal["level"], rules)


def _deal_items(deal: dict[str, Any], rules: Rules) -> Iterable[tuple[Any, ...]]:
    """A deal's ``(seat, action)`` pairs with its decisions (``("penalize", team,
    kind, seat)``) among them, each before the action it was taken before."""
    actions, decisions = deal["actions"], deal.get("penalties", [])
    ats = [p[0] for p in decisions]
    if any(type(at) is not int for at in ats) or ats != sorted(ats) or not 0 <= min(ats, default=0) <= max(ats, default=0) <= len(actions):
        raise ValueError(f"penalties must be [at, team, kind, seat] in order, at 0..{len(actions)}")
    taken = 0
    for n in range(len(actions) + 1):
        while taken < len(decisions) and ats[taken] == n:
            _, team, kind, offender = decisions[taken]
            yield "penalize", team, kind, offender
            taken += 1
        if n < len(actions):
            seat, code, *_ = actions[n]
            yield seat, action_from_code(code, deal["level"], rules)


def _replay_deal_by_deal(line: dict[str, Any], rules: Rules) -> Game:
    """`Game.replay` of a line with a start state or referee's decisions, deal
    by deal: a decision taken before a deal's first action is taken once that
    deal has begun."""
    game = start_game(rules, line["seed"], check_start(line.get("start"), rules))
    for k, deal in enumerate(line["deals"]):
        if k:
            game.next_deal()
        for item in _deal_items(deal, rules):
            if item[0] == "penalize":
                game.penalize(item[1], item[2], seat=item[3])
            elif item[0] != game.current_player:
                raise IllegalMoveError(f"deal {k}: seat {item[0]} is not the seat to act")
            else:
                game.apply(item[1])
    return game


def replay(line: object) -> Game:
    """The `Game` a record's game (or aborted) line rebuilds: its seed, rules,
    start state, actions and the referee's decisions."""
    if not isinstance(line, dict) or line.get("type") not in ("game", "aborted") or "deals" not in line:
        raise InvalidArgumentError(f"replay takes a record's game or aborted-game line (a dict with deals), not {line!r:.60}")
    try:
        rules = rules_from_record(line["rules"])
        if line.get("start") is not None or any(deal.get("penalties") for deal in line["deals"]):
            return _replay_deal_by_deal(line, rules)
        return Game.replay(list(_actions(line, rules)), seed=line["seed"], rules=rules)
    except GuandanError as e:
        raise InvalidArgumentError(f"the record line does not replay: {e}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InvalidArgumentError(f"not a record game line: {type(e).__name__} {str(e)[:60]}") from None
