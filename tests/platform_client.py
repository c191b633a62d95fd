"""A protocol-level test client of the platform server, written from the
protocol's description (docs/platform.md): it checks every message it gets
against a schema, answers each ``act`` with a random legal index (or with
the faults a test asks for), and keeps what it saw for comparison with the
server's record."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any, Callable, Optional

CARD = re.compile(r"^([SHCD][A2-9TJQK]|SB|HR)$")
TYPES = {"Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight", "StraightFlush", "Bomb", "PASS", "tribute", "back"}
RANKS = set("A23456789TJQK") | {"B", "R", "JOKER"}
LEVELS = set("23456789TJQKA")
ACT = ["handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos", "curAction", "greaterPos", "greaterAction", "actionList", "indexRange"]
SCHEMA: dict[tuple[str, str], list[str]] = {
    ("beginning", "notify"): ["handCards", "myPos"],
    ("play", "notify"): ["curPos", "curAction", "greaterPos", "greaterAction"],
    ("tribute", "notify"): ["result"],
    ("anti-tribute", "notify"): ["antiNums", "antiPos"],
    ("back", "notify"): ["result"],
    ("episodeOver", "notify"): ["order", "curRank", "restCards"],
    ("gameOver", "notify"): ["curTimes", "settingTimes"],
    ("gameResult", "notify"): ["victoryNum", "draws"],
    ("play", "act"): ACT,
    ("tribute", "act"): ACT,
    ("back", "act"): ACT,
}


def is_seat(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 3


def check_cards(cards: object) -> None:
    assert isinstance(cards, list) and all(isinstance(c, str) and CARD.match(c) for c in cards), cards


def check_action(a: object) -> None:
    assert isinstance(a, list) and len(a) == 3, a
    kind, rank, cards = a
    assert kind in TYPES, a
    if kind == "PASS":
        assert a == ["PASS", "PASS", "PASS"], a
        return
    if kind in ("tribute", "back"):
        assert rank == kind and isinstance(cards, list) and len(cards) == 1, a
    else:
        assert rank in RANKS, a
    check_cards(cards)
    assert cards, a


def check_transfers(result: object) -> None:
    assert isinstance(result, list) and result, result
    for r in result:
        assert isinstance(r, list) and len(r) == 3 and is_seat(r[0]) and is_seat(r[1]) and r[0] != r[1], r
        check_cards([r[2]])


def check(msg: object) -> tuple[str, str]:
    """Asserts `msg` is a message of the protocol, with every field in shape."""
    assert isinstance(msg, dict), msg
    key = (msg.get("stage"), msg.get("type"))
    assert key in SCHEMA, f"unknown message {key}"
    assert set(msg) == set(SCHEMA[key]) | {"stage", "type"}, (key, sorted(msg))  # type: ignore[index]
    stage, kind = key
    if kind == "act":
        check_cards(msg["handCards"])
        assert isinstance(msg["publicInfo"], list) and len(msg["publicInfo"]) == 4
        for p in msg["publicInfo"]:
            assert set(p) == {"rest", "playArea"} and isinstance(p["rest"], int) and 0 <= p["rest"] <= 33, p
            if p["playArea"] is not None:
                check_action(p["playArea"])
        assert {msg["selfRank"], msg["oppoRank"], msg["curRank"]} <= LEVELS
        for a in msg["actionList"]:
            check_action(a)
        assert msg["indexRange"] == len(msg["actionList"]) - 1 >= 0
        assert len({json.dumps(a) for a in msg["actionList"]}) == len(msg["actionList"]), "an action listed twice"
        leading = msg["greaterPos"] == -1
        if leading:
            assert msg["curPos"] == -1 and msg["curAction"] is None and msg["greaterAction"] is None, msg
        else:
            assert stage == "play" and is_seat(msg["curPos"]) and is_seat(msg["greaterPos"]), msg
            check_action(msg["curAction"])
            check_action(msg["greaterAction"])
            assert msg["actionList"][0] == ["PASS", "PASS", "PASS"], "PASS is not first when following"
        want = {"play": None, "tribute": "tribute", "back": "back"}[stage]  # type: ignore[index]
        for a in msg["actionList"]:
            assert (a[0] in ("tribute", "back")) == (want is not None) and (want is None or a[0] == want), (stage, a)
        if stage == "play" and leading:
            assert all(a[0] != "PASS" for a in msg["actionList"]), "PASS listed when leading"
        hand = sorted(msg["handCards"])
        for a in msg["actionList"]:
            if a[0] != "PASS":
                rest = list(hand)
                for c in a[2]:
                    rest.remove(c)  # every action is made of cards in the hand
    elif stage == "beginning":
        check_cards(msg["handCards"])
        assert len(msg["handCards"]) == 27 and is_seat(msg["myPos"])
    elif stage == "play":
        assert is_seat(msg["curPos"]) and is_seat(msg["greaterPos"])
        check_action(msg["curAction"])
        check_action(msg["greaterAction"])
        assert msg["greaterAction"][0] != "PASS"
    elif stage in ("tribute", "back"):
        check_transfers(msg["result"])
    elif stage == "anti-tribute":
        assert msg["antiNums"] == len(msg["antiPos"]) >= 1 and all(is_seat(s) for s in msg["antiPos"])
    elif stage == "episodeOver":
        assert sorted(msg["order"]) == [0, 1, 2, 3] and msg["curRank"] in LEVELS
        for seat, cards in msg["restCards"]:
            assert is_seat(seat)
            check_cards(cards)
    elif stage == "gameOver":
        assert 1 <= msg["curTimes"] <= msg["settingTimes"]
    elif stage == "gameResult":
        for k in ("victoryNum", "draws"):
            assert isinstance(msg[k], list) and len(msg[k]) == 4 and all(isinstance(x, int) and x >= 0 for x in msg[k])
    return key  # type: ignore[return-value]


#: replies(msg, k) -> the frames to send for act number k (text or binary; the last one should be valid).
Replies = Callable[[dict[str, Any], int], list[Any]]


class ProtocolClient:
    """One seat played with random legal indexes (seeded), every message checked."""

    def __init__(self, url: str, seed: int = 0, replies: Optional[Replies] = None, leave_after: Optional[int] = None) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.replies = replies
        self.leave_after = leave_after
        self.messages: list[dict[str, Any]] = []
        self.acts = 0
        self.seat: Optional[int] = None

    async def run(self) -> list[dict[str, Any]]:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        async with connect(self.url, ping_interval=None) as ws:
            try:
                async for text in ws:
                    msg = json.loads(text)
                    stage, kind = check(msg)
                    self.messages.append(msg)
                    if stage == "beginning":
                        self.seat = msg["myPos"]
                    if kind != "act":
                        continue
                    if self.leave_after is not None and self.acts >= self.leave_after:
                        return self.messages
                    k = self.rng.randint(0, msg["indexRange"])
                    texts = self.replies(msg, self.acts) if self.replies else [json.dumps({"actIndex": k})]
                    self.acts += 1
                    for t in texts:
                        await ws.send(t)
            except ConnectionClosed:
                pass
        return self.messages

    # ---------------------------------------------------------------- what it saw

    def deals(self) -> list[dict[str, Any]]:
        """Per deal: the hand dealt, every notified action (seat, code) and the finishing order."""
        out: list[dict[str, Any]] = []
        for msg in self.messages:
            stage, kind = msg["stage"], msg["type"]
            if kind != "notify":
                continue
            if stage == "beginning":
                out.append({"hand": sorted(msg["handCards"]), "actions": [], "order": None})
            elif stage in ("tribute", "back"):
                out[-1]["actions"] += [[r[0], [stage, stage, [r[2]]]] for r in msg["result"]]
            elif stage == "play":
                out[-1]["actions"].append([msg["curPos"], msg["curAction"]])
            elif stage == "episodeOver":
                out[-1]["order"] = msg["order"]
                out[-1]["level"] = msg["curRank"]
        return out


async def run_all(clients: list[Any], timeout: float = 60.0) -> list[Any]:
    """Runs the clients' `run` coroutines together, bounded by `timeout` seconds."""
    return await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), timeout)


async def start_server(**kwargs: Any) -> tuple[Any, "asyncio.Task[Any]", int, list[str]]:
    """A `Server` on a free loopback port (its log kept in a list): (server, task, port, log)."""
    from guandan_fast.platform import Server

    log: list[str] = []
    ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    server = Server(host="127.0.0.1", port=0, log=log.append, **kwargs)
    task = asyncio.create_task(server.serve(ready=ready.set_result))
    port = await asyncio.wait_for(ready, 5)
    return server, task, port, log


def url(port: int, name: str) -> str:
    return f"ws://127.0.0.1:{port}/game/{name}"
