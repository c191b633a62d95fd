"""The referee's fault handling over real loopback sockets: bad replies are
logged and waited on, a silent seat is moved for by the fallback policy
after the timeout, a disconnect stops the match (recorded as aborted) and
the server takes the next table, a client beyond the seats is refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from guandan_fast.platform import platform_rules, read_record, replay  # noqa: E402
from platform_client import ProtocolClient, run_all, start_server, url  # noqa: E402

#: One deal per game (突然死亡) keeps each match short.
FAST = platform_rules(sudden_death=True)
BAD = ["not json", '{"actIndex": 999}', '{"actIndex": -1}', '{"actIndex": true}', '{"act": 0}', "[0]", b"\x00\x01", '{"actIndex": "0"}']


def test_bad_replies_are_logged_and_waited_on(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"

    def replies(msg: dict[str, Any], k: int) -> list[Any]:
        valid = json.dumps({"actIndex": msg["indexRange"]})
        return BAD + [valid, "sent unasked"] if k == 0 else [valid]

    async def main() -> tuple[list[ProtocolClient], list[str]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=1, record=record)
        clients = [ProtocolClient(url(port, "bad"), replies=replies)] + [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(3)]
        await run_all(clients)
        results = await asyncio.wait_for(task, 5)
        assert results[0]["type"] == "result"
        return clients, log

    clients, log = asyncio.run(main())
    invalid = [line for line in log if "invalid reply" in line]
    assert len(invalid) == len(BAD) and all(line.startswith("seat 0 (bad):") for line in invalid)
    assert "'not json'" in invalid[0] and "outside 0.." in invalid[1]
    assert any("seat 0 (bad): ignored a message sent unasked: 'sent unasked'" in line for line in log)
    line = read_record(record)[0]
    first = next(a for a in line["deals"][0]["actions"] if a[0] == 0)
    act = next(m for m in clients[0].messages if m["type"] == "act")
    assert first[1] == act["actionList"][-1]  # the valid reply after the bad ones
    assert replay(line).phase == "match_over"


def test_a_silent_seat_is_moved_for_by_the_fallback(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"

    def replies(msg: dict[str, Any], k: int) -> list[Any]:
        return ["not json"] if k == 0 else [json.dumps({"actIndex": 0})]

    async def main() -> list[str]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=4, record=record, timeout=0.3, fallback="greedy")
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(3)] + [ProtocolClient(url(port, "slow"), replies=replies)]
        await run_all(clients)
        await asyncio.wait_for(task, 5)
        return log

    log = asyncio.run(main())
    assert any(line.startswith("seat 3 (slow): no valid reply in 0.3 s; greedy moves for it") for line in log)
    line = read_record(record)[0]
    marked = [a for d in line["deals"] for a in d["actions"] if len(a) == 3]
    assert len(marked) == 1 and marked[0][0] == 3 and marked[0][2] == {"fallback": "greedy"}
    assert replay(line).phase == "match_over"


def test_a_disconnect_stops_the_match_and_the_next_table_plays(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"

    async def main() -> tuple[list[dict[str, Any]], list[str]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=6, record=record, tables=2)
        first = [ProtocolClient(url(port, f"a{i}"), seed=i, leave_after=3 if i == 2 else None) for i in range(4)]
        await run_all(first)
        second = [ProtocolClient(url(port, f"b{i}"), seed=i) for i in range(4)]
        await run_all(second)
        return await asyncio.wait_for(task, 5), log

    results, log = asyncio.run(main())
    assert [r["type"] for r in results] == ["aborted", "result"]
    assert results[0]["reason"].startswith("seat 2 (a2) disconnected")
    assert any("match stopped: seat 2 (a2) disconnected" in line for line in log)
    assert "waiting for the next table" in log
    lines = read_record(record)
    assert [line["type"] for line in lines] == ["aborted", "aborted", "game", "result"]
    partial = replay(lines[0])  # the actions up to the disconnect replay
    assert partial.phase in ("tribute", "return", "play") and partial.current_player == 2
    assert sum(len(d["actions"]) for d in lines[0]["deals"]) >= 3


def test_a_fifth_client_and_a_wrong_path_are_refused() -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    async def main() -> list[str]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=8)
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(4)]
        run = asyncio.ensure_future(run_all(clients))
        while not clients[3].messages:
            await asyncio.sleep(0.01)
        with pytest.raises(InvalidStatus) as full:
            await asyncio.wait_for(connect(url(port, "fifth")), 5)
        assert full.value.response.status_code == 503 and b"table is full" in full.value.response.body
        with pytest.raises(InvalidStatus) as wrong:
            await asyncio.wait_for(connect(f"ws://127.0.0.1:{port}/elsewhere"), 5)
        assert wrong.value.response.status_code == 404
        await run
        results = await asyncio.wait_for(task, 5)
        assert results[0]["type"] == "result"  # the match was not disturbed
        return log

    log = asyncio.run(main())
    assert any("refused a client at /game/fifth: the table is full" in line for line in log)


def test_a_client_leaving_before_the_match_frees_its_seat() -> None:
    from websockets.asyncio.client import connect

    async def main() -> list[ProtocolClient]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=9, bots={1: "greedy", 2: "greedy"})
        ws = await connect(url(port, "early"))
        await ws.close()
        while any("left before the match" in line for line in log) is False:
            await asyncio.sleep(0.01)
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(2)]
        await run_all(clients)
        await asyncio.wait_for(task, 5)
        return clients

    clients = asyncio.run(main())
    assert [c.seat for c in clients] == [0, 3]
