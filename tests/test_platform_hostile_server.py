"""The platform server under a hostile network, over real loopback sockets on
free ports: plain HTTP and cut handshakes hold no seat, floods and oversized
messages drop their client with a reason in the log, a record that cannot be
written is refused before listening (and one that fails mid-match loses no
result), a stop mid-match records it as aborted and closes every client
with a close frame, names are printed escaped, bad arguments raise the
package's errors. Every wait is bounded."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import signal
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import guandan_fast as gf  # noqa: E402
from guandan_fast.platform import Server, platform_rules, read_record, replay  # noqa: E402
from guandan_fast.platform.record import RecordFile  # noqa: E402
from guandan_fast.platform.referee import MAX_INVALID  # noqa: E402
from guandan_fast.platform.transport import MAX_PENDING, MAX_PENDING_BYTES, SERVER_MAX_MESSAGE  # noqa: E402
from platform_client import ProtocolClient, run_all, start_server, url  # noqa: E402
from platform_faults import CLI, cut_handshake, flood, frame, plain_http, raw_websocket, start_serve, wait_for_line  # noqa: E402

FAST = platform_rules(sudden_death=True)
BOTS3 = {1: "greedy", 2: "greedy", 3: "greedy"}


def test_plain_http_and_cut_handshakes_take_no_seat() -> None:
    async def main() -> tuple[list[bytes], list[dict[str, Any]]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=2, bots=BOTS3)
        answers = [await plain_http(port) for _ in range(4)]
        for _ in range(4):
            await cut_handshake(port)
        idle = await asyncio.open_connection("127.0.0.1", port)  # a connection that never sends its request
        client = ProtocolClient(url(port, "real"), seed=1)
        await run_all([client])
        idle[1].close()
        await idle[1].wait_closed()
        return answers, await asyncio.wait_for(task, 10)

    answers, results = asyncio.run(main())
    assert all(not a.startswith(b"HTTP/1.1 101") and not a.startswith(b"HTTP/1.1 503") for a in answers)
    assert results[0]["type"] == "result" and results[0]["games"] == 1


def test_a_client_flooding_while_it_waits_is_dropped_and_its_seat_freed() -> None:
    async def main() -> tuple[tuple[int, Any], tuple[int, Any], list[str], list[dict[str, Any]]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=3, bots={1: "greedy", 2: "greedy"})
        many = await flood(url(port, "many"), 10 * MAX_PENDING, 10)  # small frames: the count limit
        big = await flood(url(port, "big"), 600, SERVER_MAX_MESSAGE - 100)  # 1 MiB frames: the byte limit
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(2)]
        await run_all(clients)
        return many, big, log, await asyncio.wait_for(task, 10)

    many, big, log, results = asyncio.run(main())
    assert many[1] == 1008
    assert big[1] == 1008 and big[0] * (SERVER_MAX_MESSAGE - 100) < 4 * MAX_PENDING_BYTES  # dropped long before 600 MiB
    dropped = [line for line in log if "left before the match: flooded the server" in line]
    assert [line.split(":")[1].strip() for line in dropped] == ["many left before the match", "big left before the match"]
    assert results[0]["type"] == "result"


def test_a_seat_flooding_or_sending_too_much_stops_the_match_with_the_reason(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"

    def floods(msg: dict[str, Any], k: int) -> list[Any]:
        return [json.dumps({"actIndex": 0})] + ["unasked"] * (2 * MAX_PENDING) if k == 1 else [json.dumps({"actIndex": 0})]

    def too_big(msg: dict[str, Any], k: int) -> list[Any]:
        return ["x" * (SERVER_MAX_MESSAGE + 1)]

    async def main(replies: Any) -> tuple[list[str], list[dict[str, Any]]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=5, bots={1: "greedy", 3: "greedy"}, record=record)
        clients = [ProtocolClient(url(port, "bad"), replies=replies), ProtocolClient(url(port, "good"), seed=2)]
        await run_all(clients)
        return log, await asyncio.wait_for(task, 10)

    for replies, reason in ((floods, "flooded the server"), (too_big, "sent a message over the size limit")):
        log, results = asyncio.run(main(replies))
        assert results[0]["type"] == "aborted" and results[0]["reason"].startswith("seat 0 (bad) " + reason), results[0]
        assert any(f"match stopped: seat 0 (bad) {reason}" in line for line in log)
    lines = read_record(record)
    assert [line["type"] for line in lines] == ["aborted", "aborted"] * 2
    assert "exceeds limit of 1048576 bytes" in lines[3]["reason"], lines[3]  # what was refused, and the limit


def test_a_seat_sending_invalid_replies_without_end_stops_the_match() -> None:
    from guandan_fast.platform import Ask, Log, Referee

    ref = Referee({0: "bad"}, bots={1: "greedy", 2: "greedy", 3: "greedy"}, rules=FAST, seed=1)
    events = ref.start()
    while ref.bot is not None:
        events = ref.play_bot()
    assert ref.awaiting == 0 and any(isinstance(e, Ask) for e in events)
    logs = [e for _ in range(MAX_INVALID) for e in ref.receive(0, "not json")]
    assert ref.over and ref.result is not None and ref.result["type"] == "aborted"
    assert ref.result["reason"] == f"seat 0 (bad) sent {MAX_INVALID} invalid replies to one act"
    assert sum(isinstance(e, Log) and "invalid reply" in e.line for e in logs) == MAX_INVALID


def test_a_client_that_reads_nothing_is_dropped_when_its_buffers_are_full() -> None:
    async def main() -> list[dict[str, Any]]:
        from websockets.asyncio.client import connect

        server, task, port, log = await start_server(games=20, seed=7, bots=BOTS3, timeout=0.001, send_timeout=0.5)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # small buffers fill soon
        sock.connect(("127.0.0.1", port))
        ws = await connect(url(port, "deaf"), sock=sock, ping_interval=None, max_queue=1)
        ws.transport.pause_reading()  # reads nothing from here on
        results = await asyncio.wait_for(task, 60)
        ws.transport.abort()
        return results

    results = asyncio.run(main())
    assert results[0]["type"] == "aborted" and results[0]["reason"] == "seat 0 (deaf) left its messages unread for 0.5 s: dropped"


def test_a_record_that_cannot_be_written_is_refused_before_listening(tmp_path: Path) -> None:
    bad = [tmp_path / "missing" / "m.jsonl", tmp_path]
    if os.path.exists("/dev/full"):
        bad.append(Path("/dev/full"))
    for path in bad:
        with pytest.raises(gf.InvalidArgumentError, match="cannot write the record"):
            Server(port=0, record=path)
        out = subprocess.run([*CLI, "serve", "--port", "0", "--record", str(path)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.startswith("error: cannot write the record") and out.stderr.count("\n") == 1, out.stderr
        assert "listen" not in out.stderr


def test_a_record_failing_mid_match_loses_no_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "m.jsonl"
    real = RecordFile.write

    def full_after_the_first_line(self: RecordFile, line: dict[str, Any]) -> None:
        if record.stat().st_size:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(self, line)

    monkeypatch.setattr(RecordFile, "write", full_after_the_first_line)

    async def main() -> tuple[Server, list[str], list[dict[str, Any]]]:
        server, task, port, log = await start_server(games=2, rules=FAST, seed=6, bots=BOTS3, record=record)
        await run_all([ProtocolClient(url(port, "p"), seed=1)])
        return server, log, await asyncio.wait_for(task, 10)

    server, log, results = asyncio.run(main())
    assert results[0]["type"] == "result" and server.record_failures == 2
    assert sum("cannot write the record" in line and "No space left on device" in line for line in log) == 2
    logged = [json.loads(line[len("record line: "):]) for line in log if line.startswith("record line: ")]
    written = read_record(record)
    assert [line["type"] for line in written + logged] == ["game", "game", "result"]
    assert logged[-1] == results[0] and replay(logged[0]).phase == "match_over"


def test_stop_mid_match_records_it_aborted_and_closes_every_client(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"

    async def main() -> tuple[list[Any], list[str], list[dict[str, Any]]]:
        from websockets.asyncio.client import connect

        server, task, port, log = await start_server(games=3, seed=7, bots={1: "greedy"}, record=record)
        clients = [await connect(url(port, f"silent{i}"), ping_interval=None) for i in range(3)]  # read nothing, reply to nothing
        await wait_for_line(log, "table 0:")
        server.stop("the server was stopped (test)")
        results = await asyncio.wait_for(task, 15)
        for c in clients:
            await asyncio.wait_for(c.wait_closed(), 10)
        return [(c.close_code, c.close_reason) for c in clients], log, results

    closes, log, results = asyncio.run(main())
    assert closes == [(1001, "the server is stopping")] * 3
    assert results[-1]["type"] == "aborted" and results[-1]["reason"] == "the server was stopped (test)"
    assert [line["type"] for line in read_record(record)] == ["aborted", "aborted"]
    assert any("match stopped: the server was stopped (test)" in line for line in log)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_match_records_it_aborted_and_sends_close_frames(tmp_path: Path, sig: signal.Signals) -> None:
    from websockets.asyncio.client import connect

    record = tmp_path / "m.jsonl"
    proc, port = start_serve("--bots", "1:greedy,2:greedy,3:greedy", "--games", "3", "--record", str(record))

    async def main() -> tuple[Any, Any]:
        async with connect(url(port, "silent"), ping_interval=None) as ws:
            await asyncio.wait_for(ws.recv(), 10)  # the match has started
            proc.send_signal(sig)
            await asyncio.wait_for(ws.wait_closed(), 15)
            return ws.close_code, ws.close_reason

    try:
        close = asyncio.run(main())
        stdout, stderr = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert close == (1001, "the server is stopping")
    assert proc.returncode == 128 + sig
    lines = read_record(record)
    assert [line["type"] for line in lines] == ["aborted", "aborted"]
    assert lines[-1]["reason"] == f"the server was stopped ({sig.name})"
    assert f"match stopped: the server was stopped ({sig.name})" in stdout and "Traceback" not in stderr


def test_names_are_printed_escaped() -> None:
    async def main() -> tuple[bytes, list[str]]:
        server, task, port, log = await start_server(games=1, rules=FAST, seed=8, bots={1: "greedy", 2: "greedy"})
        reader, writer, head = await raw_websocket(port, "/game/\x1b[31mRED\x07")
        await wait_for_line(log, "connected")
        writer.write(frame(b"\x03\xe8", opcode=8))  # a close frame, code 1000
        writer.close()
        await writer.wait_closed()
        await wait_for_line(log, "left before the match")
        server.stop()
        await asyncio.wait_for(task, 10)
        return head, log

    head, log = asyncio.run(main())
    assert head.startswith(b"HTTP/1.1 101")
    assert "seat 0: \\x1b[31mRED\\x07 connected" in log
    assert not any("\x1b" in line or "\x07" in line for line in log)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (dict(games=0), "games"), (dict(games=2.5), "games"), (dict(games=True), "games"), (dict(tables=-1), "tables"),
        (dict(seed="a"), "seed"), (dict(seed=2**64), "seed"), (dict(port=70000), "port"), (dict(port="1"), "port"),
        (dict(timeout="x"), "timeout"), (dict(timeout=0), "timeout"), (dict(timeout=float("nan")), "timeout"),
        (dict(bots={4: "greedy"}), "bots"), (dict(bots=["greedy"]), "bots"), (dict(bots={"1": "greedy"}), "bots"),
        (dict(bots={1: "nobody"}), "policy"), (dict(bots={0: "greedy", 1: "greedy", 2: "greedy", 3: "greedy"}), "bots"),
        (dict(fallback="nobody"), "policy"), (dict(rules="platform"), "rules"), (dict(rules=gf.Rules(best_of=3)), "best_of"),
        (dict(draw_drops=0), "draw_drops"), (dict(log=5), "log"), (dict(host=5), "host"), (dict(record=5), "record"),
        (dict(send_timeout=-1), "send_timeout"),
    ],
)
def test_bad_server_arguments_raise_the_packages_error_at_the_call(change: dict[str, Any], words: str) -> None:
    with pytest.raises(gf.InvalidArgumentError, match=words):
        Server(**change)


def test_bad_record_lines_raise_the_packages_error(tmp_path: Path) -> None:
    from guandan_fast.platform import Referee

    for line in ({}, {"type": "game"}, {"type": "result", "deals": []}, [], {"type": "game", "deals": [{"level": "2"}], "rules": {}, "seed": 1}):
        with pytest.raises(gf.InvalidArgumentError):
            replay(line)
    partial = tmp_path / "cut.jsonl"
    partial.write_text('{"type": "result", "table": 0}\n{"type": "ga', encoding="utf-8")
    with pytest.raises(gf.InvalidArgumentError, match="line 2"):
        read_record(partial)
    for kwargs in (dict(clients={0: "a"}), dict(clients=[0, 1, 2, 3]), dict(clients={0: "a", 1: "b", 2: "c", 3: "d"}, games="1")):
        with pytest.raises(gf.InvalidArgumentError):
            Referee(**kwargs)  # type: ignore[arg-type]
