"""Records the Watch view opens, and the timeline it steps through.

A record is read from text: a platform server's ``--record`` JSON lines, a
tournament's JSON (``--out FILE --records``, or one match's
``to_dict(records=True)``), a Game's record text (what a pickle holds: the
``gr1`` origin line and the log line), or a position string (``gf2 ...``,
as ``Game.position()`` writes it) followed by moves played from it
(``;``-separated, as ``guandan-fast eval --history`` takes them). Each game
becomes deals of steps: step 0 is the deal as dealt, step `i` the table
after its `i`-th decision. A deal keeps its opening position string, and a
step's table is that position with the deal's first `i` actions applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

import guandan_fast as gf
from guandan_fast._core import _rebuild_game
from guandan_fast.cli.evaluate import apply_history
from guandan_fast.cli.options import CliError
from guandan_fast.platform.record import record_lines, replay
from guandan_fast.tournament.match import game_from_record
from guandan_fast.web.views import Action, TrickTracker, action_json, settlement, table_view

__all__ = ["MAX_GAMES", "MAX_STEPS", "Deal", "Recording", "RecordError", "read_recording"]

#: The most games one record may hold, and the most steps in all.
MAX_GAMES = 500
MAX_STEPS = 500_000


class RecordError(Exception):
    """Text that is no record the Watch view can open (the message says why)."""


@dataclass
class Deal:
    """One deal of a recorded game: where it began and what was done in it."""

    game: int
    start: str
    game_number: int
    deal_number: int
    level: str
    games_won: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    result: Optional[dict[str, Any]] = None
    #: The first step of this deal in the whole recording.
    first: int = 0

    @property
    def steps(self) -> int:
        return len(self.actions) + 1


@dataclass
class _Game:
    title: str
    names: list[str]
    rules: gf.Rules
    note: Optional[str] = None


class Recording:
    """The games of a record, deal by deal, and the table at any step."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.games: list[_Game] = []
        self.deals: list[Deal] = []
        self.tallies: Optional[dict[str, Any]] = None
        self.total = 0

    def add_game(self, start: gf.Game, entries: list[object], title: str, names: list[str], note: Optional[str] = None) -> None:
        """Steps through a game from `start`: `entries` are its actions, and
        ``("next", game)`` where a next deal begins (`game`: the game as it is
        then, for deals not dealt by the seed)."""
        index = len(self.games)
        self.games.append(_Game(title, names, start.rules, note))
        g = start
        deal = self._open(index, g)
        tracker = TrickTracker()
        for entry in entries:
            if isinstance(entry, tuple):
                deal.result = settlement(g)
                g = entry[1]
                tracker.new_deal()
                deal = self._open(index, g)
                continue
            tracker.before(g)
            seat = g.current_player
            assert seat is not None
            g.apply(entry)  # type: ignore[arg-type]
            tracker.after(entry)  # type: ignore[arg-type]
            deal.actions.append(entry)  # type: ignore[arg-type]
            deal.seats.append(seat)
            deal.tricks.append(tracker.log[-1][2])
            self.total += 1
            if self.total > MAX_STEPS:
                raise RecordError(f"the record holds more than {MAX_STEPS} steps")
        deal.result = settlement(g)

    def _open(self, index: int, g: gf.Game) -> Deal:
        deal = Deal(index, g.position(), g.game_number, g.deal_number, g.level, g.games_won, first=self.total + len(self.deals))
        self.deals.append(deal)
        return deal

    @property
    def steps(self) -> int:
        """Steps in all (each deal: as dealt, then one per decision)."""
        return self.total + len(self.deals)

    def locate(self, step: int) -> tuple[Deal, int]:
        """The deal holding global step `step` and the step within it."""
        lo, hi = 0, len(self.deals) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.deals[mid].first <= step:
                lo = mid
            else:
                hi = mid - 1
        deal = self.deals[lo]
        return deal, step - deal.first

    def game_at(self, step: int) -> tuple[gf.Game, TrickTracker, Deal, int]:
        """The game at `step`, its trick tracker, its deal and the step within it."""
        deal, i = self.locate(step)
        g = gf.Game.from_position(deal.start, self.games[deal.game].rules)
        tracker = TrickTracker()
        for a in deal.actions[:i]:
            tracker.before(g)
            g.apply(a)
            tracker.after(a)
        return g, tracker, deal, i

    def view(self, step: int) -> dict[str, Any]:
        """The table at `step`, all four hands face up, with the decision made next (if any)."""
        if not 0 <= step < self.steps:
            raise RecordError(f"step must be 0..{self.steps - 1}, not {step}")
        g, tracker, deal, i = self.game_at(step)
        info = self.games[deal.game]
        v = table_view(g, info.names, tracker, games_won=deal.games_won)
        v["step"] = step
        v["game"] = deal.game
        v["deal"] = self.deals.index(deal)
        v["next"] = None if i >= len(deal.actions) else [deal.seats[i], action_json(deal.actions[i])]
        return v

    def summary(self) -> dict[str, Any]:
        """The record's games and deals, each deal's steps as [seat, kind, trick] and its result."""
        kinds = {gf.Combo: "play", gf.Pass: "pass", gf.Tribute: "tribute", gf.Return: "return"}
        return {
            "source": self.source,
            "steps": self.steps,
            "tallies": self.tallies,
            "games": [{"title": g.title, "names": g.names, "note": g.note, "rules": _rules_json(g.rules)} for g in self.games],
            "deals": [
                {
                    "game": d.game,
                    "first": d.first,
                    "steps": d.steps,
                    "game_number": d.game_number,
                    "deal_number": d.deal_number,
                    "level": d.level,
                    "result": d.result,
                    "moves": [[s, kinds[type(a)], t] for s, a, t in zip(d.seats, d.actions, d.tricks)],
                }
                for d in self.deals
            ],
        }


def _rules_json(rules: gf.Rules) -> dict[str, Any]:
    d = rules.to_dict()
    d["upgrade"] = {str(k): v for k, v in d["upgrade"].items()}
    return d


def _entries(final: gf.Game) -> tuple[gf.Game, list[object]]:
    """How a finished game (replayed from a record) began, and its steps:
    each action, and ``("next", game)`` where the next deal begins."""
    rules, text = final.__reduce__()[1]
    origin, _, log = text.partition("\n")
    start = _rebuild_game(rules, origin + "\n")
    actions = iter(final.actions)
    entries: list[object] = []
    g = start.clone()
    words = log.split(" ") if log else []
    for k, word in enumerate(words):
        if word.startswith("n:"):
            # A next deal: dealt by the seed, or with the hands the record gives.
            if word == "n:-:-":
                g.next_deal()
            else:
                g = _rebuild_game(rules, origin + "\n" + " ".join(words[: k + 1]))
            entries.append(("next", g.clone()))
        else:
            a = next(actions)
            g.apply(a)
            entries.append(a)
    return start, entries


def _add_final(rec: Recording, final: gf.Game, title: str, names: list[str], note: Optional[str] = None) -> None:
    if len(rec.games) >= MAX_GAMES:
        raise RecordError(f"the record holds more than {MAX_GAMES} games")
    start, entries = _entries(final)
    rec.add_game(start, entries, title, names, note)


def _platform(rec: Recording, lines: list[dict[str, Any]]) -> None:
    for n, line in enumerate(lines, start=1):
        kind = line.get("type")
        if kind in ("result", "aborted") and "deals" not in line:
            rec.tallies = line
            continue
        if kind not in ("game", "aborted"):
            raise RecordError(f"line {n} is not a platform record line (type {str(kind)[:20]!r})")
        try:
            final = replay(line)
        except gf.GuandanError as e:
            raise RecordError(f"line {n}: {e}") from None
        given = line.get("seats")
        seats: dict[str, Any] = given if isinstance(given, dict) else {}
        names = [str(seats.get(str(s), f"seat {s}"))[:40] for s in range(4)]
        title = f"table {line.get('table', 0)} · game {int(line.get('game', 0)) + 1}"
        note = f"aborted: {line.get('reason')}" if kind == "aborted" else None
        _add_final(rec, final, title, names, note)


def _games_of(rec: Recording, games: object, names: list[str], title: str) -> None:
    if not isinstance(games, list):
        raise RecordError("this result was saved without its games: write it with --out FILE --records (to_dict(records=True))")
    for i, record in enumerate(games):
        try:
            final = game_from_record(record)
        except (gf.GuandanError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise RecordError(f"{title}, game {i + 1} is not a game record: {str(e)[:80]}") from None
        _add_final(rec, final, f"{title} · game {i + 1}", names)


def _tournament(rec: Recording, doc: dict[str, Any]) -> None:
    if "matches" in doc:
        matches = doc["matches"]
        if not isinstance(matches, list):
            raise RecordError("a tournament's matches must be a list")
        for k, m in enumerate(matches):
            if not isinstance(m, dict):
                raise RecordError(f"match {k + 1} is not an object")
            a, b = str(m.get("a", "a"))[:40], str(m.get("b", "b"))[:40]
            _games_of(rec, m.get("games"), [a, b, a, b], f"{m.get('stage', 'match')}: {a} v {b}")
    elif "games" in doc:
        _games_of(rec, doc["games"], ["a", "b", "a", "b"], "match")
    else:
        raise RecordError("a JSON record is a tournament's (with \"matches\") or a match's (with \"games\")")


def _position(rec: Recording, text: str, rules: gf.Rules) -> None:
    first, _, rest = text.strip().partition("\n")
    try:
        start = gf.Game.from_position(first.strip(), rules)
    except gf.GuandanError as e:
        raise RecordError(str(e)) from None
    g = start.clone()
    try:
        apply_history(g, ";".join(rest.splitlines()))
    except (CliError, gf.GuandanError) as e:
        raise RecordError(str(e).replace("--history move", "move")) from None
    played = g.actions[len(start.actions):]
    rec.add_game(start, list(played), "position", [f"seat {s}" for s in range(4)])


def read_recording(text: str, *, rules: Optional[gf.Rules] = None) -> Recording:
    """The recording of `text` (a record in any of the forms above); `rules` are
    those of a record text or position string, which do not carry theirs.
    Raises `RecordError` saying what the text is not."""
    rules = rules or gf.Rules()
    body = text.strip()
    if not body:
        raise RecordError("the record is empty")
    if body.startswith("gr1"):
        rec = Recording("game record")
        try:
            final = _rebuild_game(rules, body.replace("\r\n", "\n") + ("" if "\n" in body else "\n"))
        except gf.GuandanError as e:
            raise RecordError(str(e)) from None
        _add_final(rec, final, "game", [f"seat {s}" for s in range(4)])
        return rec
    if body.startswith("gf"):
        rec = Recording("position")
        _position(rec, body, rules)
        return rec
    if not body.startswith("{"):
        raise RecordError(
            "not a record: open a serve --record file (JSON lines), a tournament's JSON (--out FILE --records), "
            "a game record (gr1 ...) or a position string (gf2 ...) with moves after it"
        )
    try:
        doc = json.loads(body)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and "type" not in doc:
        rec = Recording("tournament" if "matches" in doc else "match")
        _tournament(rec, doc)
        return rec
    try:
        lines = record_lines(body.splitlines())
    except gf.InvalidArgumentError as e:
        raise RecordError(str(e)) from None
    rec = Recording("platform record")
    _platform(rec, lines)
    if not rec.games:
        raise RecordError("the record holds no game")
    return rec
