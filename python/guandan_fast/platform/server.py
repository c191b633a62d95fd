"""The referee: a websocket server that speaks the competition platform's
protocol (docs/platform.md) to four seats, some of which may be built-in
bots, and records every game.

Clients connect to ``ws://HOST:PORT/game/{name}`` and are seated in order
of connection (skipping the bots' seats); the match starts when every seat
is taken. Nothing a client sends can stop the server: a malformed or
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

from guandan_fast._core import Game, Return, Rules, _check_policy, policy_action
from guandan_fast.bots import decision_seed
from guandan_fast.platform import messages as m
from guandan_fast.platform.codes import Action, ProtocolError, action_code, card_code, cards_code
from guandan_fast.platform.record import rules_to_record

__all__ = ["DRAW_DROPS", "PLATFORM_RULES", "MatchAborted", "Server", "parse_bots", "platform_rules"]

#: The platform's rule preset: a game ends when a team at A finishes first
#: and second; two failed attempts at A drop a team to 2.
PLATFORM_RULES: dict[str, Any] = {"a_pass": "double_down", "a_max_attempts": 2, "a_fail_reset": "2"}
#: Drops from A to 2 in one game after which the platform calls it a draw.
DRAW_DROPS = 50


def platform_rules(**overrides: Any) -> Rules:
    """The platform's rules, with any `Rules` option changed by `overrides`."""
    return Rules(**{**PLATFORM_RULES, **overrides})


def parse_bots(text: str) -> dict[int, str]:
    """``"1:mc:200,3:greedy"`` -> ``{1: "mc:200", 3: "greedy"}`` (seats 0..3, policies checked)."""
    bots: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, sep, policy = part.partition(":")
        if not sep or seat.strip() not in ("0", "1", "2", "3"):
            raise ValueError(f"a bot is SEAT:POLICY with a seat 0..3, like 1:mc:200; got {part[:40]!r}")
        if int(seat) in bots:
            raise ValueError(f"seat {seat} is given two bots")
        bots[int(seat)] = _check_policy(policy.strip())
    if len(bots) == 4:
        raise ValueError("four bots leave no seat for a client")
    return bots


class MatchAborted(Exception):
    """The match cannot go on (a client left); the text says why."""


_CLOSED = object()


@dataclass
class _Seat:
    """A connected client."""

    seat: int
    name: str
    conn: Any
    queue: "asyncio.Queue[Any]" = field(default_factory=asyncio.Queue)
    closed: Optional[str] = None
    seated: bool = False


@dataclass
class _Deal:
    """What the referee tracks of the deal in progress besides the game."""

    record: list[list[Any]] = field(default_factory=list)
    play_area: list[Optional[list[Any]]] = field(default_factory=lambda: [None] * 4)
    last: tuple[int, Optional[list[Any]]] = (-1, None)
    greater: tuple[int, Optional[list[Any]]] = (-1, None)
    #: The code of every action listed so far (the same plays are listed again and again).
    codes: dict[Action, list[Any]] = field(default_factory=dict)


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
        self.rules = platform_rules() if rules is None else rules
        if self.rules.best_of != 1:
            raise ValueError("a platform match is a number of games (games=N); best_of does not apply")
        if games < 1 or tables < 0 or draw_drops < 1:
            raise ValueError("games and draw_drops must be at least 1, tables at least 0")
        self.host, self.port, self.games, self.seed = host, port, games, seed
        self.bots = dict(bots or {})
        if any(s not in range(4) for s in self.bots) or len(self.bots) > 3:
            raise ValueError("bots are seats 0..3, at most three")
        self.bots = {s: _check_policy(p) for s, p in self.bots.items()}
        self.record_path = Path(record) if record is not None else None
        self.timeout = timeout
        self.fallback = _check_policy(fallback)
        self.tables, self.draw_drops, self.log = tables, draw_drops, log
        self.seats: dict[int, _Seat] = {}
        self.results: list[dict[str, Any]] = []
        self._pending: dict[Any, int] = {}
        self._full = asyncio.Event()
        self._left = asyncio.Event()
        self._playing = False
        self._bot_decisions = [0, 0, 0, 0]

    # ------------------------------------------------------------ connections

    def _open_seats(self) -> list[int]:
        taken = set(self.seats) | set(self._pending.values()) | set(self.bots)
        return [s for s in range(4) if s not in taken]

    def _process_request(self, connection: Any, request: Any) -> Any:
        path = request.path
        if not path.startswith("/game/"):
            return connection.respond(HTTPStatus.NOT_FOUND, "connect to /game/{name}\n")
        free = self._open_seats()
        if self._playing or not free:
            self.log(f"refused a client at {path}: the table is full")
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the table is full: every seat is taken\n")
        self._pending[connection] = free[0]
        return None

    async def _handler(self, connection: Any) -> None:
        seat = self._pending.pop(connection, None)
        if seat is None:  # the table filled between handshake and handler
            await connection.close(1013, "the table is full")
            return
        name = connection.request.path[len("/game/"):][:40] or "?"
        s = _Seat(seat, name, connection)
        self.seats[seat] = s
        self.log(f"seat {seat}: {name} connected")
        if not self._open_seats():
            self._full.set()
        try:
            async for msg in connection:
                s.queue.put_nowait(msg)
        except Exception as e:  # a broken connection ends like a closed one
            s.closed = f"connection error {type(e).__name__}"
        finally:
            code = getattr(connection, "close_code", None)
            s.closed = s.closed or f"disconnected (close code {code})"
            s.queue.put_nowait(_CLOSED)
            self._left.set()
            if not self._playing and not s.seated and self.seats.get(seat) is s:
                del self.seats[seat]
                self._full.clear()
                self.log(f"seat {seat}: {name} left before the match")

    async def serve(self, ready: Optional[Callable[[int], None]] = None) -> list[dict[str, Any]]:
        """Runs the tables; returns each match's result (as recorded). `ready`
        is called with the port once the server listens (port 0: a free one)."""
        from websockets.asyncio.server import serve  # the platform extra

        async with serve(self._handler, self.host, self.port, process_request=self._process_request, ping_interval=None) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self.log(f"listening on ws://{self.host}:{self.port}/game/{{name}}; seats for clients: {self._open_seats()}")
            if ready is not None:
                ready(self.port)
            table = 0
            while self.tables == 0 or table < self.tables:
                await self._full.wait()
                if self._open_seats():  # someone left as the table filled
                    self._full.clear()
                    continue
                self._playing = True
                for s in self.seats.values():
                    s.seated = True
                try:
                    self.results.append(await self._match(table))
                finally:
                    self._playing = False
                    for s in list(self.seats.values()):
                        await s.conn.close(1000, "the match is over")
                    self.seats.clear()
                    self._full.clear()
                    self._left.clear()
                table += 1
        return self.results

    # ------------------------------------------------------------ sending and asking

    async def _send(self, seat: int, msg: dict[str, Any]) -> None:
        s = self.seats.get(seat)
        if s is None:
            return
        if s.closed:
            raise MatchAborted(f"seat {seat} ({s.name}) {s.closed}")
        try:
            await s.conn.send(json.dumps(msg))
        except Exception:
            raise MatchAborted(f"seat {seat} ({s.name}) {s.closed or 'disconnected'}") from None

    async def _notify(self, msg: dict[str, Any]) -> None:
        for seat in range(4):
            await self._send(seat, msg)

    def _check_left(self) -> None:
        for s in self.seats.values():
            if s.closed:
                raise MatchAborted(f"seat {s.seat} ({s.name}) {s.closed}")

    async def _ask(self, game: Game, msg: dict[str, Any], legal: list[Action]) -> tuple[Action, Optional[str]]:
        """The action the seat to move chooses among `legal` (answering `msg`),
        and the fallback policy's name when it did not answer in time."""
        seat = game.current_player
        assert seat is not None
        s = self.seats[seat]
        while not s.queue.empty():  # what it sent unasked
            stale = s.queue.get_nowait()
            if stale is _CLOSED:
                raise MatchAborted(f"seat {seat} ({s.name}) {s.closed}")
            self.log(f"seat {seat} ({s.name}): ignored a message sent unasked: {str(stale)[:80]!r}")
        await self._send(seat, msg)
        loop = asyncio.get_running_loop()
        deadline = None if self.timeout is None else loop.time() + self.timeout
        while True:
            self._check_left()
            get = asyncio.ensure_future(s.queue.get())
            left = asyncio.ensure_future(self._left.wait())
            wait = None if deadline is None else max(0.0, deadline - loop.time())
            done, _ = await asyncio.wait({get, left}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            left.cancel()
            if get not in done:
                get.cancel()
                if left in done:
                    self._check_left()
                    self._left.clear()
                    continue
                self.log(f"seat {seat} ({s.name}): no valid reply in {self.timeout} s; {self.fallback} moves for it")
                return policy_action(game, self.fallback, mode="cards"), self.fallback
            item = get.result()
            if item is _CLOSED:
                raise MatchAborted(f"seat {seat} ({s.name}) {s.closed}")
            try:
                return legal[m.parse_reply(item, len(legal) - 1)], None
            except ProtocolError as e:
                self.log(f"seat {seat} ({s.name}): invalid reply {str(item)[:80]!r}: {e}; waiting for a valid one")

    async def _decide(self, game: Game, stage: str, deal: _Deal) -> None:
        """Asks the seat to move (a client, or its bot) and applies its action."""
        seat = game.current_player
        assert seat is not None
        fallback: Optional[str] = None
        if seat in self.bots:
            self._bot_decisions[seat] += 1
            k = self._bot_decisions[seat]
            policy = self.bots[seat]
            action = await asyncio.to_thread(policy_action, game, policy, seed=decision_seed(self.seed + seat, k))
        else:
            legal = game.legal_actions("cards")
            known = deal.codes
            codes = [known[a] if a in known else known.setdefault(a, action_code(a)) for a in legal]
            cur, greater = deal.last, deal.greater
            if stage != "play" or game.top is None:
                cur, greater = (-1, None), (-1, None)
            levels = game.levels
            team = seat % 2
            ranks = (levels[team], levels[1 - team], game.level)
            public = [{"rest": n, "playArea": deal.play_area[i]} for i, n in enumerate(game.hand_sizes)]
            msg = m.act(stage, cards_code(game.hands[seat]), public, ranks, cur, greater, codes)
            action, fallback = await self._ask(game, msg, legal)
        game.apply(action)
        entry: list[Any] = [seat, action_code(action)]
        if fallback is not None:
            entry.append({"fallback": fallback})
        deal.record.append(entry)

    # ------------------------------------------------------------ the match

    async def _match(self, table: int) -> dict[str, Any]:
        names = {s: (self.seats[s].name if s in self.seats else f"bot {self.bots[s]}") for s in range(4)}
        self.log(f"table {table}: " + ", ".join(f"seat {s} {names[s]}" for s in range(4)))
        wins, draws = [0] * 4, [0] * 4
        self._bot_decisions = [0, 0, 0, 0]
        for g in range(self.games):
            seed = (self.seed + g) % 2**64
            game = Game(self.rules, seed=seed)
            line: dict[str, Any] = {"type": "game", "table": table, "game": g, "seed": seed, "seats": names, "rules": rules_to_record(self.rules), "deals": []}
            try:
                winner = await self._game(game, line)
            except MatchAborted as e:
                line["type"] = "aborted"
                line["reason"] = str(e)
                self._write(line)
                self.log(f"table {table}: match stopped: {e}")
                self.log("waiting for the next table" if self.tables == 0 or table + 1 < self.tables else "no more tables: exiting")
                result = {"type": "aborted", "table": table, "reason": str(e), "games": g, "victoryNum": wins, "draws": draws}
                self._write(result)
                return result
            if winner is None:
                draws = [d + 1 for d in draws]
            else:
                for s in (winner, winner + 2):
                    wins[s] += 1
            line["winner"] = winner
            line["levels"] = list(game.levels)
            self._write(line)
            await self._notify(m.game_over(g + 1, self.games))
        try:
            await self._notify(m.game_result(wins, draws))
        except MatchAborted:
            pass
        result = {"type": "result", "table": table, "games": self.games, "victoryNum": wins, "draws": draws}
        self._write(result)
        self.log(f"table {table}: games won per seat {wins}, draws {draws}")
        return result

    async def _game(self, game: Game, line: dict[str, Any]) -> Optional[int]:
        """Plays one game to its end; its winning team, or None for a draw."""
        drops = 0
        while True:
            deal = _Deal()
            line["deals"].append({"level": game.level, "actions": deal.record})
            await self._deal(game, deal)
            last = game.last_result
            assert last is not None
            drops += bool(last["a_reset"])
            if game.phase == "match_over":
                return game.game_winners[-1]
            if drops >= self.draw_drops:
                line["draw"] = f"{drops} drops from A"
                return None
            game.next_deal()

    async def _deal(self, game: Game, deal: _Deal) -> None:
        for seat in range(4):
            await self._send(seat, m.beginning(cards_code(game.dealt[seat]), seat))
        t = game.tribute
        if t is not None and t["kind"] == "resisted":
            f = game.deals[-1]["finish_order"]
            losers = f[2:] if f[0] % 2 == f[1] % 2 else f[3:]
            await self._notify(m.anti_tribute([s for s in losers if any(c.rank == "RJ" for c in game.dealt[s])]))
        while game.phase == "tribute":
            await self._decide(game, "tribute", deal)
        if t is not None and t["kind"] in ("single", "double"):
            t = game.tribute
            assert t is not None
            await self._notify(m.tribute_result([[g, r, card_code(c)] for g, r, c in t["tributes"]]))
        while game.phase == "return":
            await self._decide(game, "back", deal)
        if t is not None and t["kind"] in ("single", "double"):
            backs = [(s, a.card) for s, a in game.history if isinstance(a, Return)]
            givers = {r: g for g, r, _ in t["tributes"]}
            await self._notify(m.back_result([[s, givers[s], card_code(c)] for s, c in backs]))
        while game.phase == "play":
            mover = game.current_player
            assert mover is not None
            if game.top is None:
                deal.play_area = [None] * 4
                deal.greater = (-1, None)
            await self._decide(game, "play", deal)
            code = deal.record[-1][1]
            deal.play_area[mover] = code
            deal.last = (mover, code)
            if code[0] != "PASS":
                deal.greater = (mover, code)
            await self._notify(m.play_notify(mover, code, deal.greater[0], deal.greater[1]))
        rest = [[s, cards_code(h)] for s, h in enumerate(game.hands) if len(h)]
        await self._notify(m.episode_over(list(game.finish_order), deal_level(game), rest))

    def _write(self, line: dict[str, Any]) -> None:
        if self.record_path is not None:
            with open(self.record_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")


def deal_level(game: Game) -> str:
    """The level the deal just finished was played at."""
    return game.deals[-1]["level"]
