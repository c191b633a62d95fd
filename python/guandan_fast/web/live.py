"""The tables of a platform server seen live (Spectate: ``guandan-fast serve
--web``): the server hands `LiveTables.update` its referee after each step,
on its own loop while the referee's game is idle; the web app, on another
thread, reads copies. A table is drawn as the Watch view draws a record's
step: face up, the deal rebuilt from its opening position.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Optional

import guandan_fast as gf
from guandan_fast.web.views import TrickTracker, table_view


def settlement_of(deal: Any) -> dict[str, Any]:
    """A finished deal of ``Game.deals`` as JSON data."""
    d = dict(deal)
    d["levels"], d["a_fails"], d["finish_order"] = list(d["levels"]), list(d["a_fails"]), list(d["finish_order"])
    return d

__all__ = ["LiveTables"]


@dataclass
class _Live:
    table: int
    names: list[str]
    rules: gf.Rules
    game: gf.Game
    #: The deal's opening position, and its decisions since.
    start: str
    version: int = 0
    over: bool = False
    result: Optional[dict[str, Any]] = None
    history: list[tuple[int, Any]] = field(default_factory=list)


class LiveTables:
    """The latest step of each table a platform server referees (at most `most`, the newest kept)."""

    def __init__(self, most: int = 16) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, _Live] = {}
        self._most = most
        self._listeners: list[Any] = []

    def update(self, referee: Any) -> None:
        """Takes a copy of `referee`'s match after a step (called on the server's loop).
        A table is followed from the start of a deal: one joined mid-deal shows
        from the next deal on."""
        game = referee.game
        if game is None:
            return
        g = game.clone()
        history = list(g.history)
        with self._lock:
            live = self._tables.get(referee.table)
            if not history and g.phase in ("tribute", "return", "play"):  # a deal starts
                version = live.version if live is not None else 0
                live = _Live(referee.table, [str(referee.names[s]) for s in range(4)], g.rules, g, g.position(), version)
                self._tables[referee.table] = live
                while len(self._tables) > self._most:
                    del self._tables[min(self._tables)]
            elif live is None:
                return
            live.game, live.history = g, history
            live.version += 1
            live.over = bool(referee.over)
            live.result = referee.result
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def listen(self, wake: Any) -> None:
        """Calls `wake()` (from the server's thread) after every update."""
        with self._lock:
            self._listeners.append(wake)

    def unlisten(self, wake: Any) -> None:
        with self._lock:
            if wake in self._listeners:
                self._listeners.remove(wake)

    def tables(self) -> list[dict[str, Any]]:
        """Each table: its number, players, game and deal, phase and version."""
        with self._lock:
            items = list(self._tables.values())
        return [
            {"table": t.table, "names": t.names, "game_number": t.game.game_number, "deal_number": t.game.deal_number,
             "phase": t.game.phase, "version": t.version, "over": t.over}
            for t in sorted(items, key=lambda t: t.table)
        ]

    def version(self, table: int) -> Optional[int]:
        with self._lock:
            live = self._tables.get(table)
            return None if live is None else live.version

    def view(self, table: int) -> Optional[dict[str, Any]]:
        """Table `table` now, every hand face up (None when there is no such table)."""
        with self._lock:
            live = self._tables.get(table)
            if live is None:
                return None
            start, history, game, version = live.start, list(live.history), live.game, live.version
            names, rules, over, result = live.names, live.rules, live.over, live.result
        g = gf.Game.from_position(start, rules)
        tracker = TrickTracker()
        for _, action in history:
            tracker.before(g)
            g.apply(action)
            tracker.after(action)
        v = table_view(g, names, tracker, games_won=game.games_won)
        last = settlement_of(game.deals[-1]) if game.deals and not history else None
        v.update(table=table, version=version, over=over, tallies=result, last_deal=last)
        return v
