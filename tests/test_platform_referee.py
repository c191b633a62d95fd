"""The platform referee without sockets: whole matches driven with plain dicts,
every message checked by the protocol test client's schema, the record
replaying to the game; faults (bad replies, messages sent unasked, timeouts,
a seat leaving) given as inputs; and, over real sockets, the server sending
exactly the messages the referee gives."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any, Callable

import pytest

import guandan_fast as gf
from guandan_fast.platform import Ask, Log, Record, Referee, Send, platform_rules, replay
from platform_client import check

#: One deal per game (突然死亡) keeps a match short.
FAST = platform_rules(sudden_death=True)
TOKEN = {("beginning", "notify"): "B", ("anti-tribute", "notify"): "A", ("tribute", "act"): "t", ("tribute", "notify"): "T",
         ("back", "act"): "b", ("back", "notify"): "K", ("play", "act"): "p", ("play", "notify"): "P",
         ("episodeOver", "notify"): "E", ("gameOver", "notify"): "G", ("gameResult", "notify"): "R"}

Choose = Callable[[int, dict[str, Any]], Any]


class Table:
    """Drives a referee to the end: `choose(seat, act)` gives each asked seat's reply; keeps every event."""

    def __init__(self, ref: Referee, choose: Choose) -> None:
        self.ref = ref
        self.choose = choose
        self.events: list[Any] = []
        self.messages: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}

    def take(self, events: list[Any]) -> None:
        for e in events:
            self.events.append(e)
            if isinstance(e, Send):
                assert (e.message["type"] == "act") == isinstance(e, Ask)
                check(json.loads(json.dumps(e.message)))
                self.messages[e.seat].append(e.message)

    def play(self, limit: int = 100_000) -> dict[str, Any]:
        self.take(self.ref.start())
        for _ in range(limit):
            if self.ref.over:
                assert self.ref.result is not None
                return self.ref.result
            if self.ref.bot is not None:
                self.take(self.ref.play_bot())
                continue
            seat = self.ref.awaiting
            assert seat is not None
            act = self.messages[seat][-1]
            assert act["type"] == "act"
            self.take(self.ref.receive(seat, self.choose(seat, act)))
        raise AssertionError("the match did not end")

    def logs(self) -> list[str]:
        return [e.line for e in self.events if isinstance(e, Log)]

    def records(self) -> list[dict[str, Any]]:
        return [e.line for e in self.events if isinstance(e, Record)]


def seeded(seeds: dict[int, int]) -> Choose:
    """Each seat replies with a random index from its own seeded generator (as tests/platform_client.py does)."""
    rngs = {s: random.Random(v) for s, v in seeds.items()}
    return lambda seat, act: {"actIndex": rngs[seat].randint(0, act["indexRange"])}


def test_a_match_driven_with_dicts() -> None:
    table = Table(Referee({s: f"p{s}" for s in range(4)}, games=2, seed=11), seeded({s: s for s in range(4)}))
    result = table.play()
    assert result["type"] == "result" and result["games"] == 2 and sum(result["victoryNum"]) == 4
    for seat, msgs in table.messages.items():
        stream = "".join(TOKEN[(m["stage"], m["type"])] for m in msgs)
        assert re.fullmatch(r"((B(A|t?Tb?K)?(p?P)+E)+G)+R", stream), stream[:200]
        assert all(m["myPos"] == seat for m in msgs if m["stage"] == "beginning")
    games = [r for r in table.records() if r["type"] == "game"]
    assert len(games) == 2 and table.records()[-1] == result
    for line in games:
        g = replay(line)
        assert g.phase == "match_over" and g.game_winners == [line["winner"]]
    assert table.logs()[0] == "table 0: seat 0 p0, seat 1 p1, seat 2 p2, seat 3 p3"


def test_bots_play_on_play_bot() -> None:
    ref = Referee({0: "me", 2: "you"}, bots={1: "mc:8", 3: "greedy"}, rules=FAST, games=2, seed=5)
    table = Table(ref, seeded({0: 1, 2: 2}))
    table.play()
    assert not table.messages[1] and not table.messages[3]  # bots get no messages
    line = table.records()[0]
    assert line["seats"] == {0: "me", 1: "bot mc:8", 2: "you", 3: "bot greedy"}
    game = gf.Game(FAST, seed=5)
    k = {1: 0, 3: 0}
    for seat, code in line["deals"][0]["actions"]:
        action = gf.platform.action_from_code(code, line["deals"][0]["level"], FAST)
        if seat in k:
            k[seat] += 1
            assert gf.policy_action(game, ref.bots[seat], seed=gf.bots.decision_seed(5 + seat, k[seat])) == action
        game.apply(action)
    with pytest.raises(gf.InvalidStateError):
        ref.play_bot()  # the match is over: no bot's turn


def test_faults_are_inputs() -> None:
    ref = Referee({s: f"p{s}" for s in range(4)}, rules=FAST, seed=1)
    events = ref.start()
    asked = ref.awaiting
    assert asked is not None and isinstance(events[-1], Ask) and events[-1].seat == asked
    index_range = events[-1].message["indexRange"]
    with pytest.raises(gf.InvalidStateError):
        ref.play_bot()
    bad = ["not json", '{"actIndex": 999}', {"actIndex": -1}, {"actIndex": True}, {"act": 0}, "[0]", b"\x00\x01", {"actIndex": "0"}]
    for reply in bad:
        (log,) = ref.receive(asked, reply)
        assert isinstance(log, Log) and log.line.startswith(f"seat {asked} (p{asked}): invalid reply ") and ref.awaiting == asked
    other = (asked + 1) % 4
    assert ref.receive(other, {"actIndex": 0}) == [Log(f"seat {other} (p{other}): ignored a message sent unasked: \"{{'actIndex': 0}}\"")]
    events = ref.receive(asked, {"actIndex": index_range})  # a valid reply at last
    assert ref.awaiting != asked and isinstance(events[-1], Ask)
    late = ref.awaiting
    events = ref.timeout(0.5)
    assert events[0] == Log(f"seat {late} (p{late}): no valid reply in 0.5 s; greedy moves for it")
    events = ref.leave(2, "disconnected (close code 1000)")
    assert ref.over and ref.awaiting is None
    aborted, result = [e.line for e in events if isinstance(e, Record)]
    assert result == {"type": "aborted", "table": 0, "reason": "seat 2 (p2) disconnected (close code 1000)", "games": 0,
                      "victoryNum": [0, 0, 0, 0], "draws": [0, 0, 0, 0]}
    actions = aborted["deals"][0]["actions"]
    assert aborted["type"] == "aborted" and actions[0][0] == asked and actions[1] == [late, actions[1][1], {"fallback": "greedy"}]
    assert replay(aborted).actions == ref.game.actions  # type: ignore[union-attr]
    assert ref.leave(1, "gone") == []  # the match is already over


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="fill seats 0..3"):
        Referee({0: "a", 1: "b"}, bots={1: "greedy"})
    with pytest.raises(ValueError, match="best_of"):
        Referee({s: "x" for s in range(4)}, rules=platform_rules(best_of=3))
    with pytest.raises(gf.InvalidArgumentError):
        Referee({0: "a", 1: "b", 2: "c"}, bots={3: "nobody"})
    ref = Referee({s: "x" for s in range(4)})
    with pytest.raises(gf.InvalidStateError):
        ref.timeout(1.0)  # nobody is asked before the start
    ref.start()
    with pytest.raises(gf.InvalidStateError):
        ref.start()
    with pytest.raises(gf.InvalidArgumentError):
        ref.receive(4, {"actIndex": 0})


def test_the_server_sends_what_the_referee_gives() -> None:
    pytest.importorskip("websockets")
    from platform_client import ProtocolClient, run_all, start_server, url

    async def main() -> list[ProtocolClient]:
        server, task, port, log = await start_server(games=2, seed=3, bots={1: "greedy"})
        clients = [ProtocolClient(url(port, f"p{i}"), seed=20 + i) for i in range(3)]
        await run_all(clients)
        await asyncio.wait_for(task, 5)
        return clients

    clients = asyncio.run(main())
    table = Table(Referee({0: "p0", 2: "p1", 3: "p2"}, bots={1: "greedy"}, games=2, seed=3), seeded({0: 20, 2: 21, 3: 22}))
    table.play()
    assert [c.seat for c in clients] == [0, 2, 3]
    for c in clients:
        assert c.seat is not None and c.messages == json.loads(json.dumps(table.messages[c.seat]))
