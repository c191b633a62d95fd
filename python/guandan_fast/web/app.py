"""The web table's server: a Starlette app that serves the page (package data
under ``static/``), keeps each table's and each record's state, and moves
messages between the page and the sans-IO parts — `Table` (table.py) for
Play, `Recording` (records.py) for Watch, `run_hint` (hints.py) for the
evaluator. The bots' decisions and the hints run in worker threads, never
on the event loop; a move, or a referee's decision, stops the hint under way.

Routes (docs/web.md): ``GET /`` the page, ``/static/...`` its files,
``GET /api/config``, ``POST /api/tables``, ``GET /api/tables/{id}``,
``WS /ws/tables/{id}``, ``POST /api/records``, ``GET /api/records/{id}``,
``GET /api/records/{id}/steps/{step}``, ``WS /ws/records/{id}``, and for a
platform server's tables ``GET /api/live``, ``GET /api/live/{table}``,
``WS /ws/live/{table}``. A bad
request gets a 4xx with ``{"error": "..."}``, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, AsyncIterator, Optional

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import guandan_fast as gf
from guandan_fast.arguments import check_int
from guandan_fast.platform.seating import check_bots
from guandan_fast.web.hints import Hint, run_hint
from guandan_fast.web.live import LiveTables
from guandan_fast.web.records import Recording, RecordError, read_recording
from guandan_fast.web.table import PageError, Table
from guandan_fast.web.views import PENALTY_NAMES, action_json

__all__ = ["MAX_BODY", "MAX_MESSAGE", "Settings", "create_app", "open_record"]

log = logging.getLogger("guandan_fast.web")

#: The largest request body taken (a record file), and the largest websocket message.
MAX_BODY = 32 * 2**20
MAX_MESSAGE = 64 * 2**10
#: The most playouts per action one hint may ask for.
MAX_PLAYOUTS = 20_000


@dataclass
class Settings:
    """What the command line sets: the bots of a new table (seat -> policy),
    the rules, the seed of the first table (None: a random one), the pause
    before each bot move, the default hint size, and how many tables and
    records the server keeps (the oldest idle one goes first); `live`, the
    tables of a platform server in the same process to spectate."""

    bots: dict[int, str] = field(default_factory=lambda: {1: "mc:200", 2: "mc:200", 3: "mc:200"})
    rules: gf.Rules = field(default_factory=gf.Rules)
    seed: Optional[int] = None
    delay: float = 0.6
    playouts: int = 400
    max_tables: int = 32
    max_records: int = 16
    #: The platform server's tables to spectate (``guandan-fast serve --web``), if any.
    live: Optional[LiveTables] = None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class _Peer:
    """A websocket of the page, its sends one at a time."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()

    async def send(self, msg: dict[str, Any]) -> None:
        async with self.lock:
            try:
                await self.ws.send_text(json.dumps(msg))
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass  # the page has gone; its receive loop ends it


class _Hints:
    """The hint under way for one table or record: at most one at a time."""

    def __init__(self) -> None:
        self.stop_event: Optional[threading.Event] = None
        self.task: Optional[asyncio.Task[None]] = None
        self.count = 0

    def stop(self) -> bool:
        """Stops the hint under way; whether there was one."""
        running = self.task is not None and not self.task.done()
        if self.stop_event is not None:
            self.stop_event.set()
        return running

    def start(self, peers: list[_Peer], state: Any, playouts: int, extra: dict[str, Any]) -> int:
        """Starts evaluating `state` (a Game or Observation of the seat to move),
        streaming progress to `peers`; the hint's number."""
        self.stop()
        self.count += 1
        number = self.count
        stop = self.stop_event = threading.Event()
        loop = asyncio.get_running_loop()
        chunk = max(10, playouts // 10)

        def message(h: Hint, done: bool) -> dict[str, Any]:
            return {"type": "hint", "id": number, "progress": h.done / playouts, "done": done, "playouts": playouts,
                    "rows": h.rows()[:100], "actions": len(h.actions), **extra}

        def progress(h: Hint) -> None:
            if not stop.is_set():
                msg = message(h, h.done >= playouts)
                for p in peers:
                    asyncio.run_coroutine_threadsafe(p.send(msg), loop)

        async def work() -> None:
            for p in peers:
                await p.send({"type": "hint", "id": number, "progress": 0.0, "done": False, "playouts": playouts, "rows": [], **extra})
            try:
                await asyncio.to_thread(run_hint, state, playouts=playouts, seed=number, chunk=chunk, progress=progress, stop=stop)
            except gf.GuandanError as e:
                for p in peers:
                    await p.send({"type": "error", "message": f"no hint: {e}"})
            if stop.is_set():
                for p in peers:
                    await p.send({"type": "hint", "id": number, "cancelled": True})

        self.task = asyncio.ensure_future(work())
        return number


def _playouts(msg: dict[str, Any], default: int) -> int:
    n = msg.get("playouts", default)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_PLAYOUTS:
        raise PageError(f"playouts must be 1..{MAX_PLAYOUTS}, not {str(n)[:20]!r}")
    return n


class _TableHub:
    """A table, the pages watching it, its bots' task and its hint."""

    def __init__(self, table: Table, delay: float) -> None:
        self.table = table
        self.delay = delay
        self.peers: list[_Peer] = []
        self.bots_task: Optional[asyncio.Task[None]] = None
        self.hints = _Hints()

    async def broadcast(self, msg: dict[str, Any]) -> None:
        for p in list(self.peers):
            await p.send(msg)

    async def changed(self) -> None:
        """The game moved (a move, a new deal, a referee's decision): stop the
        hint, show the table, let the bots move."""
        self.hints.stop()
        await self.broadcast({"type": "table", "view": self.table.view()})
        self.wake_bots()

    def wake_bots(self) -> None:
        if self.table.bot is not None and (self.bots_task is None or self.bots_task.done()):
            self.bots_task = asyncio.ensure_future(self._bots())

    async def _bots(self) -> None:
        t = self.table
        while t.bot is not None:
            if self.delay:
                await asyncio.sleep(self.delay)
            try:
                decided = await asyncio.to_thread(t.decide_bot)
            except (gf.GuandanError, PageError) as e:
                log.warning("bot seat %s: %s", t.bot, e)
                await self.broadcast({"type": "error", "message": f"the bot in seat {t.bot} failed: {e}"})
                return
            if t.apply_bot(decided):
                self.hints.stop()
                await self.broadcast({"type": "table", "view": t.view(), "moved": [decided[0], action_json(decided[2])]})

    async def receive(self, peer: _Peer, msg: dict[str, Any], playouts: int) -> None:
        kind = msg.get("type")
        t = self.table
        if kind == "hint":
            g = t.game
            if g.phase != "play" or g.current_player is None:
                raise PageError("a hint is for a play: nobody is to play now")
            seat = g.current_player
            self.hints.start(self.peers, g.observation(seat), _playouts(msg, playouts), {"seat": seat, "of": "now"})
            return
        if kind == "why":
            game, seat, action = t.position_before(msg.get("step"))
            extra = {"seat": seat, "of": "step", "step": msg["step"], "played": action_json(action)}
            self.hints.start(self.peers, game.observation(seat), _playouts(msg, playouts), extra)
            return
        if kind == "cancel":
            self.hints.stop()
            return
        before = t.version
        answer = t.receive(msg)
        if answer["type"] == "selection":
            await peer.send(answer)
        elif t.version != before:
            await self.changed()
        else:
            await peer.send(answer)


class _RecordHub:
    """A record opened in Watch, and its hint."""

    def __init__(self, rec: Recording) -> None:
        self.rec = rec
        self.hints = _Hints()


def _json_body(raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        doc = json.loads(raw)
    except ValueError:
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(doc, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return doc


async def _body(request: Request) -> bytes:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_BODY:
        raise HTTPException(413, f"the body is over {MAX_BODY // 2**20} MiB")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise HTTPException(413, f"the body is over {MAX_BODY // 2**20} MiB")
        chunks.append(chunk)
    return b"".join(chunks)


def _table_options(doc: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """A new table's bots, seed, names and starting game (a position string's,
    else None: a new match) from a request body (the settings' where left out)."""
    unknown = set(doc) - {"bots", "seed", "names", "position"}
    if unknown:
        raise HTTPException(400, f"unknown field(s) {sorted(unknown)}: a table takes bots, seed, names, position")
    bots: dict[int, str] = settings.bots
    if doc.get("bots") is not None:
        given = doc["bots"]
        if not isinstance(given, dict) or not all(isinstance(k, str) and k in ("0", "1", "2", "3") for k in given):
            raise HTTPException(400, "bots must map seats \"0\"..\"3\" to policy names, like {\"1\": \"mc:200\"}")
        bots = {int(k): v for k, v in given.items() if v not in (None, "", "human")}
    try:
        bots = check_bots(bots)
        seed = doc.get("seed", settings.seed)
        seed = secrets.randbelow(2**32) if seed is None else check_int("seed", seed, 0, 2**64 - 1)
    except gf.GuandanError as e:
        raise HTTPException(400, str(e)) from None
    names = doc.get("names")
    if names is not None and (not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values())):
        raise HTTPException(400, "names must map seats \"0\"..\"3\" to text")
    given_names = {int(k): v for k, v in (names or {}).items() if k in ("0", "1", "2", "3")}
    game = None
    position = doc.get("position")
    if position is not None:
        if not isinstance(position, str) or len(position) > 4096:
            raise HTTPException(400, "position must be a position string (gf2 ..., as Game.position() writes it)")
        try:
            game = gf.Game.from_position(position.strip(), settings.rules)
        except gf.GuandanError as e:
            raise HTTPException(400, f"bad position: {e}") from None
    return {"bots": bots, "seed": seed, "names": given_names, "game": game}


class _Store:
    """What the server keeps: tables and records by id, the oldest idle one dropped past the limit."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tables: OrderedDict[str, _TableHub] = OrderedDict()
        self.records: OrderedDict[str, _RecordHub] = OrderedDict()

    @staticmethod
    def _keep(store: OrderedDict[str, Any], key: str, value: Any, most: int) -> None:
        store[key] = value
        while len(store) > most:
            idle = next((k for k, v in store.items() if not getattr(v, "peers", None)), None)
            store.pop(idle if idle is not None else next(iter(store)))

    def add_table(self, table: Table) -> str:
        tid = secrets.token_hex(8)
        self._keep(self.tables, tid, _TableHub(table, self.settings.delay), self.settings.max_tables)
        return tid

    def add_record(self, rec: Recording) -> str:
        rid = secrets.token_hex(8)
        self._keep(self.records, rid, _RecordHub(rec), self.settings.max_records)
        return rid

    def table(self, tid: str) -> _TableHub:
        hub: _TableHub = self._get(self.tables, tid, "table", f"the server keeps {self.settings.max_tables}; start a new one")
        return hub

    def record(self, rid: str) -> _RecordHub:
        hub: _RecordHub = self._get(self.records, rid, "record", f"the server keeps the last {self.settings.max_records}; open it again")
        return hub

    @staticmethod
    def _get(store: OrderedDict[str, Any], key: str, what: str, hint: str) -> Any:
        """The item `key` of `store`, now the most recently used; a 404 when there is none."""
        if key not in store:
            raise HTTPException(404, f"no {what} {key[:20]!r} ({hint})")
        store.move_to_end(key)
        return store[key]


def open_record(app: Starlette, text: str) -> str:
    """Opens the record `text` on `app`'s server (as ``POST /api/records`` does); its id.
    Raises `RecordError` for text that is no record."""
    store: _Store = app.state.store
    return store.add_record(read_recording(text, rules=store.settings.rules))


async def _messages(ws: WebSocket) -> AsyncIterator[tuple[Any, Optional[str]]]:
    """The page's messages, as dicts; an oversized or non-JSON one gets an error answer."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            yield None, "send JSON text, not binary frames"
            continue
        if len(text) > MAX_MESSAGE:
            yield None, f"a message is at most {MAX_MESSAGE // 1024} KiB"
            continue
        try:
            msg = json.loads(text)
        except ValueError:
            yield None, "a message is a JSON object"
            continue
        if not isinstance(msg, dict):
            yield None, "a message is a JSON object"
            continue
        yield msg, None


async def _http_error(request: Request, exc: Exception) -> Response:
    """A 4xx as ``{"error": ...}``."""
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail))


async def _server_error(request: Request, exc: Exception) -> Response:
    """Any other failure: logged, and a 500 without the traceback."""
    log.exception("error in %s %s", request.method, request.url.path)
    return _error(500, "the server failed on this request (see its log)")


class _Endpoints:
    """The app's endpoints and websocket handlers, over one server's settings and store."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = _Store(settings)
        self.static = resources.files("guandan_fast.web") / "static"

    def routes(self) -> list[BaseRoute]:
        """The app's routes (the module docstring lists them)."""
        return [
            Route("/", self.index),
            Route("/api/config", self.config),
            Route("/api/tables", self.new_table, methods=["POST"]),
            Route("/api/tables/{tid}", self.get_table),
            Route("/api/records", self.new_record, methods=["POST"]),
            Route("/api/records/{rid}", self.get_record),
            Route("/api/records/{rid}/steps/{step}", self.get_step),
            WebSocketRoute("/ws/tables/{tid}", self.table_socket),
            WebSocketRoute("/ws/records/{rid}", self.record_socket),
            Route("/api/live", self.live_list),
            Route("/api/live/{table}", self.live_view),
            WebSocketRoute("/ws/live/{table}", self.live_socket),
            Mount("/static", StaticFiles(directory=str(self.static)), name="static"),
        ]

    async def index(self, request: Request) -> Response:
        return FileResponse(str(self.static / "index.html"), headers={"Cache-Control": "no-cache"})

    async def config(self, request: Request) -> Response:
        settings = self.settings
        rules = settings.rules.to_dict()
        rules["upgrade"] = {str(k): v for k, v in rules["upgrade"].items()}
        return JSONResponse({
            "version": gf.__version__,
            "bots": {str(s): p for s, p in settings.bots.items()},
            "seed": settings.seed,
            "rules": rules,
            "playouts": settings.playouts,
            "max_playouts": MAX_PLAYOUTS,
            "delay": settings.delay,
            "live": settings.live is not None,
            "penalties": PENALTY_NAMES,
        })

    async def new_table(self, request: Request) -> Response:
        options = _table_options(_json_body(await _body(request)), self.settings)
        try:
            table = Table(options["bots"], seed=options["seed"], rules=self.settings.rules, names=options["names"], game=options["game"])
        except gf.GuandanError as e:
            raise HTTPException(400, str(e)) from None
        tid = self.store.add_table(table)
        return JSONResponse({"id": tid, "view": table.view()}, status_code=201)

    async def get_table(self, request: Request) -> Response:
        return JSONResponse({"id": request.path_params["tid"], "view": self.store.table(request.path_params["tid"]).table.view()})

    async def new_record(self, request: Request) -> Response:
        raw = await _body(request)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "the record is not UTF-8 text") from None
        try:
            rec = await asyncio.to_thread(read_recording, text, rules=self.settings.rules)
        except RecordError as e:
            raise HTTPException(400, str(e)) from None
        rid = self.store.add_record(rec)
        return JSONResponse({"id": rid, "summary": rec.summary()}, status_code=201)

    async def get_record(self, request: Request) -> Response:
        return JSONResponse({"id": request.path_params["rid"], "summary": self.store.record(request.path_params["rid"]).rec.summary()})

    async def get_step(self, request: Request) -> Response:
        rec = self.store.record(request.path_params["rid"]).rec
        text = request.path_params["step"]
        if not text.isdigit() or len(text) > 9 or int(text) >= rec.steps:
            raise HTTPException(404, f"step must be 0..{rec.steps - 1}, not {text[:20]!r}")
        return JSONResponse(rec.view(int(text)))

    async def table_socket(self, ws: WebSocket) -> None:
        hub = self.store.tables.get(ws.path_params["tid"])
        if hub is None:
            await ws.close(code=4404, reason="no such table")
            return
        await ws.accept()
        peer = _Peer(ws)
        hub.peers.append(peer)
        try:
            await peer.send({"type": "table", "view": hub.table.view()})
            hub.wake_bots()
            async for msg, problem in _messages(ws):
                if problem is not None:
                    await peer.send({"type": "error", "message": problem})
                    continue
                try:
                    await hub.receive(peer, msg, self.settings.playouts)
                except (PageError, gf.GuandanError) as e:
                    await peer.send({"type": "error", "message": str(e)})
        except WebSocketDisconnect:
            pass
        finally:
            hub.peers.remove(peer)
            if not hub.peers:
                hub.hints.stop()

    async def record_socket(self, ws: WebSocket) -> None:
        hub = self.store.records.get(ws.path_params["rid"])
        if hub is None:
            await ws.close(code=4404, reason="no such record")
            return
        await ws.accept()
        peer = _Peer(ws)
        try:
            async for msg, problem in _messages(ws):
                if problem is not None:
                    await peer.send({"type": "error", "message": problem})
                    continue
                try:
                    self._record_message(hub, peer, msg)
                except (PageError, gf.GuandanError) as e:
                    await peer.send({"type": "error", "message": str(e)})
        except WebSocketDisconnect:
            pass
        finally:
            hub.hints.stop()

    def _record_message(self, hub: _RecordHub, peer: _Peer, msg: dict[str, Any]) -> None:
        """Acts on a Watch page's message: a hint at a step, or cancel."""
        kind = msg.get("type")
        if kind == "cancel":
            hub.hints.stop()
        elif kind == "hint":
            step = msg.get("step")
            if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < hub.rec.steps:
                raise PageError(f"step must be 0..{hub.rec.steps - 1}")
            g, _, deal, i = hub.rec.game_at(step)
            if g.phase != "play" or g.current_player is None:
                raise PageError("a hint is for a play: nobody plays at this step")
            seat = g.current_player
            extra: dict[str, Any] = {"seat": seat, "of": "step", "step": step}
            if i < len(deal.actions):
                extra["played"] = action_json(deal.actions[i])
            hub.hints.start([peer], g.observation(seat), _playouts(msg, self.settings.playouts), extra)
        else:
            raise PageError("a Watch message is a hint (with a step) or cancel")

    def _live_table(self, text: str) -> int:
        """The live table numbered `text`; a 404 when there is none."""
        if self.settings.live is None:
            raise HTTPException(404, "no live tables: spectating is for guandan-fast serve --web")
        if not text.isdigit() or len(text) > 12 or self.settings.live.version(int(text)) is None:
            raise HTTPException(404, f"no live table {text[:20]!r}: see /api/live")
        return int(text)

    async def live_list(self, request: Request) -> Response:
        return JSONResponse({"tables": self.settings.live.tables() if self.settings.live is not None else []})

    async def live_view(self, request: Request) -> Response:
        table = self._live_table(request.path_params["table"])
        assert self.settings.live is not None
        return JSONResponse(self.settings.live.view(table))

    async def live_socket(self, ws: WebSocket) -> None:
        try:
            table = self._live_table(ws.path_params["table"])
        except HTTPException:
            await ws.close(code=4404, reason="no such live table")
            return
        live = self.settings.live
        assert live is not None
        await ws.accept()
        peer = _Peer(ws)
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(changed.set)

        live.listen(wake)
        task = asyncio.ensure_future(_push_live(peer, live, table, changed))
        try:
            async for _msg, _problem in _messages(ws):
                await peer.send({"type": "error", "message": "a live table is read-only"})
        except WebSocketDisconnect:
            pass
        finally:
            live.unlisten(wake)
            task.cancel()


async def _push_live(peer: _Peer, live: LiveTables, table: int, changed: asyncio.Event) -> None:
    """Sends `peer` the live table's view whenever it has changed, until cancelled."""
    sent = None
    while True:
        view = await asyncio.to_thread(live.view, table)
        if view is not None and view["version"] != sent:
            await peer.send({"type": "live", "view": view})
            sent = view["version"]
        await changed.wait()
        changed.clear()
        await asyncio.sleep(0.1)  # at most about ten views a second


def create_app(settings: Optional[Settings] = None) -> Starlette:
    """The web table's ASGI app."""
    endpoints = _Endpoints(settings or Settings())
    app = Starlette(routes=endpoints.routes(), exception_handlers={HTTPException: _http_error, Exception: _server_error})
    app.state.store = endpoints.store
    return app
