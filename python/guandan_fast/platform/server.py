"""The platform server: websockets in front of the `Referee` (referee.py).

Clients connect to ``ws://HOST:PORT/game/{name}`` and are seated in order
of connection, skipping the bots' seats (seating.py); the match starts when
every seat is taken. This layer only moves frames: it keeps each client's
frames until the referee reads them, carries out the referee's events
(sends, log lines, record lines), and tells the referee what happened — a
reply, a timeout on its clock, a disconnect, the server stopping, a
referee's decision imposed by the person running it (`Server.penalize`, from
any thread). Nothing a client sends can stop the server or make it grow
without bound: every limit is in transport.py and docs/platform.md
("Limits").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from guandan_fast._core import GuandanError, InvalidArgumentError, InvalidStateError, Rules
from guandan_fast.arguments import check_callable, check_int, check_seconds
from guandan_fast.models import is_model_name, model_from_spec
from guandan_fast.platform.record import RecordFile
from guandan_fast.platform.referee import Ask, Event, Log, MatchAborted, Record, Referee, Send, match_options
from guandan_fast.platform.rules import DRAW_DROPS, PLATFORM_RULES, check_start, platform_rules
from guandan_fast.platform.seating import Seating, parse_bots
from guandan_fast.platform.transport import (
    CLOSE_TIMEOUT,
    MAX_PENDING,
    MAX_PENDING_BYTES,
    OPEN_TIMEOUT,
    SEND_TIMEOUT,
    SERVER_MAX_MESSAGE,
    closed_reason,
    printable,
    size_text,
)

__all__ = ["DRAW_DROPS", "MAX_DECISIONS", "PLATFORM_RULES", "MatchAborted", "Server", "parse_bots", "platform_rules"]

#: Referee's decisions waiting for the match's next step, at most; more are refused.
MAX_DECISIONS = 16


@dataclass(eq=False)
class _Client:
    """A connected client: its connection, its frames the referee has not read
    yet (`MAX_PENDING` of them and `MAX_PENDING_BYTES` at most), and why it left."""

    name: str
    conn: Any
    frames: deque[Any] = field(default_factory=deque)
    pending_bytes: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    closed: Optional[str] = None

    def push(self, frame: Any) -> bool:
        """Keeps `frame` for the referee; False (nothing kept) when that would exceed the limits."""
        if len(self.frames) >= MAX_PENDING or self.pending_bytes + len(frame) > MAX_PENDING_BYTES:
            return False
        self.frames.append(frame)
        self.pending_bytes += len(frame)
        self.arrived.set()
        return True

    def pop(self) -> Any:
        """The oldest frame kept (None when there is none)."""
        if not self.frames:
            self.arrived.clear()
            return None
        frame = self.frames.popleft()
        self.pending_bytes -= len(frame)
        return frame


@dataclass(eq=False)
class _Decision:
    """A referee's decision for `table`, waiting for the match's next step; `done` gets its log line or error."""

    table: object
    team: int
    kind: str
    seat: Optional[int]
    done: concurrent.futures.Future[str]

    def refuse(self, error: Exception) -> None:
        """Ends `done` with `error` (unless the caller cancelled it)."""
        if self.done.set_running_or_notify_cancel():
            self.done.set_exception(error)


async def _within(seconds: float, work: Any) -> bool:
    """Runs the awaitable `work` for at most `seconds`: True when it ended in time
    (its error, if any, raised), False when it was cancelled. Unlike
    `asyncio.wait_for`, a cancellation of the caller is never lost."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.cancel()
        return False
    task.result()
    return True


async def _hang_up(conn: Any, code: int, reason: str) -> None:
    """Closes `conn` with `code`; a client that does not answer in time is cut off."""
    try:
        if await _within(CLOSE_TIMEOUT, conn.close(code, reason)):
            return
    except Exception:  # the connection was already gone
        pass
    conn.transport.abort()


class Server:
    """A platform referee on ``ws://host:port/game/{name}`` for `tables` matches
    (0: until stopped) of `games` games each; seats in `bots` are played by
    those built-in policies; every game starts from the level state `start`
    when one is given (as `Referee` takes it). `timeout` seconds (None: wait
    for ever) after an ``act`` a seat's move is made by the `fallback` policy
    and recorded as such. `record` is a JSON-lines file (appended to; checked
    here); `log` prints one line. `send_timeout`: seconds a client may leave
    its messages unread (its buffers full) before it is dropped. `on_step(referee)` is
    called on the server's loop after each step of a match (its start, each
    move), while the referee's game is not in use: a way to watch the match
    live (``guandan-fast serve --web``); its errors go to the log.
    `penalize` imposes a referee's decision from any thread. Bad arguments
    raise `InvalidArgumentError`."""

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
        send_timeout: float = SEND_TIMEOUT,
        on_step: Optional[Callable[[Referee], None]] = None,
        start: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.rules, self.bots, self.fallback = match_options(rules, bots, fallback, games=games, seed=seed, draw_drops=draw_drops)
        for p in self.bots.values():
            if is_model_name(p):
                model_from_spec(p)  # a bad model is refused now, not once a table has filled
        #: The level state every game starts from, as the record writes it (None: both teams at 2).
        self.start_state = check_start(start, self.rules)
        if not isinstance(host, str) or not host:
            raise InvalidArgumentError(f"host must be an address (a str), not {host!r:.40}")
        self.host, self.port = host, check_int("port", port, 0, 65535)
        self.games, self.seed, self.draw_drops = games, seed, draw_drops
        self.tables = check_int("tables", tables, 0, 2**32)
        self.timeout = None if timeout is None else check_seconds("timeout", timeout, or_none=True)
        self.send_timeout = check_seconds("send_timeout", send_timeout)
        check_callable("log", log, none=False)
        self.on_step = check_callable("on_step", on_step)
        if record is not None:
            RecordFile(record).close()  # a record that cannot be written is refused now, not after a game
        self.record_path = Path(record) if record is not None else None
        self.log = log
        self.seating: Seating[_Client] = Seating(self.bots)
        self.results: list[dict[str, Any]] = []
        #: Record lines that could not be written (each went to the log instead).
        self.record_failures = 0
        self._record: Optional[RecordFile] = None
        self._full = asyncio.Event()
        self._left = asyncio.Event()
        self._asked_at = 0.0
        self._serving: Optional[asyncio.Task[Any]] = None
        self._stop_reason: Optional[str] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        #: The table whose match is being played (None between matches).
        self._playing: Optional[int] = None
        self._decisions: deque[_Decision] = deque()
        self._decided = asyncio.Event()

    # ------------------------------------------------------------ connections

    def _process_request(self, connection: Any, request: Any) -> Any:
        path = request.path
        if not path.startswith("/game/"):
            return connection.respond(HTTPStatus.NOT_FOUND, "connect to /game/{name}\n")
        if not self.seating.open:
            self.log(f"refused a client at {printable(path)}: the table is full")
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the table is full: every seat is taken\n")
        return None  # the seat is taken once the connection is open (a failed handshake holds none)

    async def _handler(self, connection: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        client = _Client(printable(connection.request.path[len("/game/"):], 40) or "?", connection)
        seat = self.seating.take(client)
        if seat is None:  # the table filled between handshake and handler
            await _hang_up(connection, 1013, "the table is full")
            return
        self.log(f"seat {seat}: {client.name} connected")
        if self.seating.full:
            self._full.set()
        hang_up: Optional[asyncio.Future[None]] = None
        try:
            while client.push(await connection.recv()):
                pass
            client.closed = f"flooded the server (over {MAX_PENDING} messages or {size_text(MAX_PENDING_BYTES)} unread): dropped"
            hang_up = asyncio.ensure_future(_hang_up(connection, 1008, "too many messages unread"))
            while True:
                await connection.recv()  # dropped unread, so that its close frame gets through
        except ConnectionClosed as e:
            client.closed = client.closed or closed_reason(e)
        except Exception as e:  # a broken connection ends like a closed one
            client.closed = client.closed or f"connection error {type(e).__name__}"
        finally:
            if hang_up is not None:
                await hang_up
            client.closed = client.closed or "disconnected"
            client.arrived.set()
            self._left.set()
            if self.seating.leave(seat, client):
                self._full.clear()
                self.log(f"seat {seat}: {client.name} left before the match: {client.closed}")

    async def serve(self, ready: Optional[Callable[[int], None]] = None) -> list[dict[str, Any]]:
        """Runs the tables; returns each match's result (as recorded). `ready`
        is called with the port once the server listens (port 0: a free one).
        After `stop` it returns what was played, the match in progress recorded
        as aborted; cancelled, it records that match likewise and re-raises."""
        from websockets.asyncio.server import serve  # the platform extra

        self._serving = asyncio.current_task()
        self._loop = asyncio.get_running_loop()
        self._record = RecordFile(self.record_path) if self.record_path is not None else None
        try:
            async with serve(
                self._handler, self.host, self.port, process_request=self._process_request, ping_interval=None,
                max_size=SERVER_MAX_MESSAGE, open_timeout=OPEN_TIMEOUT, close_timeout=CLOSE_TIMEOUT, compression=None,
            ) as server:
                self.port = next(iter(server.sockets)).getsockname()[1]
                self.log(f"listening on ws://{self.host}:{self.port}/game/{{name}}; seats for clients: {self.seating.open_seats()}")
                if ready is not None:
                    ready(self.port)
                await self._tables()
        except asyncio.CancelledError:
            if self._stop_reason is None:
                raise
            uncancel = getattr(self._serving, "uncancel", None)
            if uncancel is not None:
                uncancel()
        finally:
            self._loop = None
            self._refuse_decisions("the server has stopped")
            if self._record is not None:
                self._record.close()
        return self.results

    def stop(self, why: str = "the server was stopped") -> None:
        """Stops `serve`: the match in progress is recorded as aborted (`why`), every
        client gets a close frame (1001), and `serve` returns. Call it from the
        server's event loop (a signal handler added with ``loop.add_signal_handler``)."""
        if self._serving is not None:
            self._stop_reason = self._stop_reason or why
            self._serving.cancel()

    def penalize(self, table: int, team: int, kind: str, seat: Optional[int] = None) -> concurrent.futures.Future[str]:
        """A referee's decision against `team` in the match of `table` (from 0, as
        the log and the record number them): `Referee.penalize` at the match's
        next step (after the bot's move being computed, if any). Safe from any
        thread. The future gives the decision's log line, or the error:
        `InvalidStateError` when that table is not being played or
        `MAX_DECISIONS` wait already, else what `Referee.penalize` raises."""
        decision = _Decision(table, team, kind, seat, concurrent.futures.Future())
        loop = self._loop
        try:
            if loop is None:
                raise RuntimeError
            loop.call_soon_threadsafe(self._take_decision, decision)
        except RuntimeError:  # not serving, or its loop closed
            decision.refuse(InvalidStateError("the server is not serving"))
        return decision.done

    def _take_decision(self, decision: _Decision) -> None:
        """Queues `decision` for the match's next step, or refuses it (on the server's loop)."""
        if not isinstance(decision.table, int) or isinstance(decision.table, bool):
            decision.refuse(InvalidArgumentError(f"table must be a table number, not {decision.table!r:.40}"))
        elif decision.table != self._playing:
            playing = "no table is" if self._playing is None else f"table {self._playing} is"
            decision.refuse(InvalidStateError(f"table {decision.table} is not being played ({playing})"))
        elif len(self._decisions) >= MAX_DECISIONS:
            decision.refuse(InvalidStateError(f"{MAX_DECISIONS} decisions are already waiting"))
        else:
            self._decisions.append(decision)
            self._decided.set()

    def _refuse_decisions(self, why: str) -> None:
        """Refuses every decision waiting (the match or the server is over)."""
        while self._decisions:
            self._decisions.popleft().refuse(InvalidStateError(why))
        self._decided.clear()

    def _decide(self, ref: Referee) -> list[Event]:
        """Applies the oldest decision waiting; the referee's events (none when refused)."""
        decision = self._decisions.popleft()
        if not self._decisions:
            self._decided.clear()
        if not decision.done.set_running_or_notify_cancel():
            return []
        try:
            events = ref.penalize(decision.team, decision.kind, decision.seat)
        except GuandanError as e:
            decision.done.set_exception(e)
            return []
        decision.done.set_result(next(e.line for e in events if isinstance(e, Log)))
        return events

    async def _tables(self) -> None:
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
                seated = list(self.seating.clients.values())
                self.seating.end_match()  # the next table's clients may connect while these are closed
                self._full.clear()
                self._left.clear()
                code, why = (1001, "the server is stopping") if self._stop_reason else (1000, "the match is over")
                await asyncio.gather(*(_hang_up(c.conn, code, why) for c in seated))
            table += 1

    # ------------------------------------------------------------ one match

    async def _match(self, table: int) -> dict[str, Any]:
        """Referees one match of the seated clients; its result line."""
        ref = Referee(
            {s: c.name for s, c in self.seating.clients.items()}, bots=self.bots, games=self.games, seed=self.seed,
            rules=self.rules, table=table, fallback=self.fallback, draw_drops=self.draw_drops, start=self.start_state,
        )
        self._playing = table
        events = ref.start()
        try:
            while True:
                await self._carry_out(ref, events)
                self._watched(ref)
                if ref.over:
                    break
                if self._decisions:
                    events = self._decide(ref)
                elif ref.bot is not None:
                    events = await self._play_bot(ref)
                else:
                    events = await self._next_input(ref)
        except asyncio.CancelledError:
            self._carry_out_offline(ref.stop(self._stop_reason or "the server was stopped"))
            if ref.result is not None:
                self.results.append(ref.result)
            raise
        finally:
            self._playing = None
            self._refuse_decisions(f"table {table} is over")
        assert ref.result is not None
        if ref.result["type"] == "aborted":
            self.log("waiting for the next table" if self.tables == 0 or table + 1 < self.tables else "no more tables: exiting")
        return ref.result

    def _watched(self, ref: Referee) -> None:
        if self.on_step is None:
            return
        try:
            self.on_step(ref)
        except Exception as e:  # a watcher's fault is not the match's
            self.log(f"table {ref.table}: on_step failed: {type(e).__name__}: {e}")

    async def _play_bot(self, ref: Referee) -> list[Event]:
        """The bot's move, played in a worker thread. Cancelled meanwhile, the
        thread (which cannot be stopped) is waited for and its log and record
        lines written, then the cancellation goes on."""
        work = asyncio.ensure_future(asyncio.to_thread(ref.play_bot))
        try:
            return await asyncio.shield(work)
        except asyncio.CancelledError:
            self._carry_out_offline(await work)
            raise

    def _carry_out_offline(self, events: list[Event]) -> None:
        """Logs and records `events`; sends nothing (the server is stopping)."""
        for event in events:
            if isinstance(event, Log):
                self.log(event.line)
            elif isinstance(event, Record):
                self._write(event.line)

    def _write(self, line: dict[str, Any]) -> None:
        """Appends `line` to the record; when the file takes no more, the line goes to the log instead."""
        if self._record is None:
            return
        try:
            self._record.write(line)
        except OSError as e:
            self.record_failures += 1
            self.log(f"cannot write the record {self._record.path}: {e.strerror or e}; the line follows instead")
            self.log("record line: " + json.dumps(line))

    async def _carry_out(self, ref: Referee, events: list[Event]) -> None:
        """Sends, logs and records `events` in order. A send to a seat that has
        left stops the match: the sends after it are dropped, the rest and the
        referee's answer carried out. Cancelled during a send, the log and record
        lines are still written before the cancellation goes on."""
        pending = deque(events)
        sending = True
        cancelled: Optional[BaseException] = None
        while pending:
            event = pending.popleft()
            if not isinstance(event, Send):
                self._carry_out_offline([event])
            elif sending:
                try:
                    why = await self._send(ref, event)
                except asyncio.CancelledError as e:
                    cancelled, sending = e, False
                    continue
                if why is not None:
                    sending = False
                    pending += ref.leave(event.seat, why)
        if cancelled is not None:
            raise cancelled

    async def _send(self, ref: Referee, event: Send) -> Optional[str]:
        """Sends `event`'s message; why its seat is gone if it is (then nothing is sent).
        Before an `Ask`, the frames the seat sent unasked are logged and dropped."""
        c = self.seating.clients[event.seat]
        if c.closed:
            return c.closed
        if isinstance(event, Ask):
            while (stale := c.pop()) is not None:
                self._carry_out_offline(ref.unasked(event.seat, stale))
        try:
            sent = await _within(self.send_timeout, c.conn.send(json.dumps(event.message)))
        except Exception:
            return c.closed or "disconnected"
        if not sent:
            c.closed = c.closed or f"left its messages unread for {self.send_timeout:g} s: dropped"
            c.conn.transport.abort()
            return c.closed
        if isinstance(event, Ask):
            self._asked_at = asyncio.get_running_loop().time()
        return None

    async def _next_input(self, ref: Referee) -> list[Event]:
        """Waits for what happens next to the asked seat — a frame, the end of its
        time, a seat leaving — and tells the referee; the events it answers (none
        when a referee's decision comes first)."""
        seat = ref.awaiting
        assert seat is not None
        c = self.seating.clients[seat]
        loop = asyncio.get_running_loop()
        while True:
            for other_seat, other in self.seating.clients.items():  # in order of connection
                if other.closed:
                    return ref.leave(other_seat, other.closed)
            if self._decisions:
                return []
            frame = c.pop()
            if frame is not None:
                return ref.receive(seat, frame)
            waits = [asyncio.ensure_future(e.wait()) for e in (c.arrived, self._left, self._decided)]
            left = waits[1]
            wait = None if self.timeout is None else max(0.0, self._asked_at + self.timeout - loop.time())
            try:
                done, _ = await asyncio.wait(waits, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()
            if not done:
                assert self.timeout is not None
                return ref.timeout(self.timeout)
            if left in done:
                self._left.clear()

