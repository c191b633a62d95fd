"""The platform server: websockets in front of the `Referee` (referee.py).

Clients connect to ``ws://HOST:PORT/game/{name}`` and are seated in order
of connection, skipping the bots' seats (seating.py); the match starts when
every seat is taken. This layer only moves frames: it queues each client's
frames, carries out the referee's events (sends, log lines, record lines),
and tells the referee what happened — a reply, a timeout on its clock, a
disconnect. Nothing a client sends can stop the server: a malformed or
out-of-range reply is logged and waited on, a disconnect stops the match
(recorded as aborted), a client beyond the table's seats is refused.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Callable, Optional

from guandan_fast._core import Rules
from guandan_fast.platform import record
from guandan_fast.platform.referee import Ask, Event, Log, MatchAborted, Record, Referee, Send, match_options
from guandan_fast.platform.rules import DRAW_DROPS, PLATFORM_RULES, platform_rules
from guandan_fast.platform.seating import Seating, parse_bots

__all__ = ["DRAW_DROPS", "PLATFORM_RULES", "MatchAborted", "Server", "parse_bots", "platform_rules"]

_CLOSED = object()


@dataclass(eq=False)
class _Client:
    """A connected client: its connection, its frames not yet read, and why it left."""

    name: str
    conn: Any
    queue: "asyncio.Queue[Any]" = field(default_factory=asyncio.Queue)
    closed: Optional[str] = None


class Server:
    """A platform referee on ``ws://host:port/game/{name}`` for `tables` matches
    (0: until stopped) of `games` games each; seats in `bots` are played by
    those built-in policies. `timeout` seconds (None: wait for ever) after an
    ``act`` a seat's move is made by the `fallback` policy and recorded as
    such. `record` is a JSON-lines file (appended to); `log` prints one line."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 23456,
        games: int = 1,
        seed: int = 0,
        bots: Optional[dict[int, str]] = None,
        rules: Optional[Rules] = None,
        record: Optional[str | Path] = None,
        timeout: Optional[float] = None,
        fallback: str = "greedy",
        tables: int = 1,
        draw_drops: int = DRAW_DROPS,
        log: Callable[[str], None] = print,
    ) -> None:
        if games < 1 or tables < 0 or draw_drops < 1:
            raise ValueError("games and draw_drops must be at least 1, tables at least 0")
        self.rules, self.bots, self.fallback = match_options(rules, bots, fallback)
        self.host, self.port, self.games, self.seed = host, port, games, seed
        self.record_path = Path(record) if record is not None else None
        self.timeout = timeout
        self.tables, self.draw_drops, self.log = tables, draw_drops, log
        self.seating: Seating[_Client] = Seating(self.bots)
        self.results: list[dict[str, Any]] = []
        self._full = asyncio.Event()
        self._left = asyncio.Event()
        self._asked_at = 0.0

    # ------------------------------------------------------------ connections

    def _process_request(self, connection: Any, request: Any) -> Any:
        path = request.path
        if not path.startswith("/game/"):
            return connection.respond(HTTPStatus.NOT_FOUND, "connect to /game/{name}\n")
        if self.seating.reserve(connection) is None:
            self.log(f"refused a client at {path}: the table is full")
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the table is full: every seat is taken\n")
        return None

    async def _handler(self, connection: Any) -> None:
        name = connection.request.path[len("/game/"):][:40] or "?"
        client = _Client(name, connection)
        seat = self.seating.take(connection, client)
        if seat is None:  # the table filled between handshake and handler
            await connection.close(1013, "the table is full")
            return
        self.log(f"seat {seat}: {name} connected")
        if self.seating.full:
            self._full.set()
        try:
            async for msg in connection:
                client.queue.put_nowait(msg)
        except Exception as e:  # a broken connection ends like a closed one
            client.closed = f"connection error {type(e).__name__}"
        finally:
            code = getattr(connection, "close_code", None)
            client.closed = client.closed or f"disconnected (close code {code})"
            client.queue.put_nowait(_CLOSED)
            self._left.set()
            if self.seating.leave(seat, client):
                self._full.clear()
                self.log(f"seat {seat}: {name} left before the match")

    async def serve(self, ready: Optional[Callable[[int], None]] = None) -> list[dict[str, Any]]:
        """Runs the tables; returns each match's result (as recorded). `ready`
        is called with the port once the server listens (port 0: a free one)."""
        from websockets.asyncio.server import serve  # the platform extra

        async with serve(self._handler, self.host, self.port, process_request=self._process_request, ping_interval=None) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self.log(f"listening on ws://{self.host}:{self.port}/game/{{name}}; seats for clients: {self.seating.open_seats()}")
            if ready is not None:
                ready(self.port)
            table = 0
            while self.tables == 0 or table < self.tables:
                await self._full.wait()
                if not self.seating.full:  # someone left as the table filled
                    self._full.clear()
                    continue
                self.seating.start_match()
                try:
                    self.results.append(await self._match(table))
                finally:
                    for c in list(self.seating.clients.values()):
                        await c.conn.close(1000, "the match is over")
                    self.seating.end_match()
                    self._full.clear()
                    self._left.clear()
                table += 1
        return self.results

    # ------------------------------------------------------------ one match

    async def _match(self, table: int) -> dict[str, Any]:
        """Referees one match of the seated clients; its result line."""
        ref = Referee(
            {s: c.name for s, c in self.seating.clients.items()}, bots=self.bots, games=self.games, seed=self.seed,
            rules=self.rules, table=table, fallback=self.fallback, draw_drops=self.draw_drops,
        )
        events = ref.start()
        while True:
            await self._carry_out(ref, events)
            if ref.over:
                break
            if ref.bot is not None:
                events = await asyncio.to_thread(ref.play_bot)
            else:
                events = await self._next_input(ref)
        assert ref.result is not None
        if ref.result["type"] == "aborted":
            self.log("waiting for the next table" if self.tables == 0 or table + 1 < self.tables else "no more tables: exiting")
        return ref.result

    async def _carry_out(self, ref: Referee, events: list[Event]) -> None:
        """Sends, logs and records `events` in order. A send to a seat that has
        left stops the match: the sends after it are dropped, the rest and the
        referee's answer carried out."""
        pending = list(events)
        failed = False
        while pending:
            event = pending.pop(0)
            if isinstance(event, Log):
                self.log(event.line)
            elif isinstance(event, Record):
                if self.record_path is not None:
                    record.append(self.record_path, event.line)
            elif isinstance(event, Send) and not failed:
                why = await self._send(ref, event)
                if why is not None:
                    failed = True
                    pending += ref.leave(event.seat, why)

    async def _send(self, ref: Referee, event: Send) -> Optional[str]:
        """Sends `event`'s message; why its seat is gone if it is (then nothing is sent).
        Before an `Ask`, the frames the seat sent unasked are logged and dropped."""
        c = self.seating.clients[event.seat]
        if isinstance(event, Ask):
            while not c.queue.empty():
                stale = c.queue.get_nowait()
                if stale is _CLOSED:
                    return c.closed
                for e in ref.unasked(event.seat, stale):  # its log line
                    if isinstance(e, Log):
                        self.log(e.line)
        if c.closed:
            return c.closed
        try:
            await c.conn.send(json.dumps(event.message))
        except Exception:
            return c.closed or "disconnected"
        if isinstance(event, Ask):
            self._asked_at = asyncio.get_running_loop().time()
        return None

    async def _next_input(self, ref: Referee) -> list[Event]:
        """Waits for what happens next to the asked seat — a frame, the end of its
        time, a seat leaving — and tells the referee; the events it answers."""
        seat = ref.awaiting
        assert seat is not None
        c = self.seating.clients[seat]
        loop = asyncio.get_running_loop()
        while True:
            for other_seat, other in self.seating.clients.items():  # in order of connection
                if other.closed:
                    return ref.leave(other_seat, other.closed)
            get = asyncio.ensure_future(c.queue.get())
            left = asyncio.ensure_future(self._left.wait())
            wait = None if self.timeout is None else max(0.0, self._asked_at + self.timeout - loop.time())
            done, _ = await asyncio.wait({get, left}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            left.cancel()
            if get in done:
                frame = get.result()
                return ref.leave(seat, c.closed or "disconnected") if frame is _CLOSED else ref.receive(seat, frame)
            get.cancel()
            if left not in done:
                assert self.timeout is not None
                return ref.timeout(self.timeout)
            self._left.clear()
