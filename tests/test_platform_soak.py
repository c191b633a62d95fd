"""Soak: ``guandan-fast serve --tables 0`` referees table after table of four
scripted clients over real loopback sockets, some of them misbehaving —
silent (the fallback moves for them), flooding (dropped), dropping their
connection mid-match, plain HTTP requests and cut handshakes beside a
table — and its resident memory stays flat after the warm-up.

The number of tables is ``GUANDAN_SOAK_TABLES`` (default 200, about a
minute on two cores: the bounded run CI makes). A longer soak:

    GUANDAN_SOAK_TABLES=5000 python -m pytest tests/test_platform_soak.py -m slow -s
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
from collections import Counter
from typing import Any, Optional

import pytest

pytest.importorskip("websockets")

from platform_faults import cut_handshake, plain_http, rss_of, start_serve  # noqa: E402

TABLES = int(os.environ.get("GUANDAN_SOAK_TABLES", "200"))
WARMUP_TABLES = 40
#: Resident memory the server may gain after its warm-up, as a share of what it held then.
MAX_GROWTH = 0.10
#: What one client of a table does, by table number: most tables play clean.
ROLES = ("normal", "flood", "normal", "drop", "http", "normal", "silent", "normal", "normal", "normal")


async def scripted(port: int, name: str, role: str, seed: int) -> None:
    """One client: replies at once with a random legal index; 'flood' then sends
    200 frames unasked after its first reply, 'drop' cuts its connection at its
    third act, 'silent' reads everything and replies to nothing."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    rng = random.Random(seed)
    acts = 0
    async with connect(f"ws://127.0.0.1:{port}/game/{name}", ping_interval=None, max_size=None, compression=None) as ws:
        try:
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] != "act":
                    continue
                acts += 1
                if role == "drop" and acts == 3:
                    ws.transport.abort()
                    return
                if role != "silent":
                    await ws.send(json.dumps({"actIndex": rng.randint(0, msg["indexRange"])}))
                if role == "flood" and acts == 1:
                    for _ in range(200):
                        await ws.send("x" * 1000)
        except ConnectionClosed:
            pass


async def table(port: int, t: int) -> None:
    role = ROLES[t % len(ROLES)]
    if role == "http":
        await plain_http(port)
        await cut_handshake(port)
    roles = [role if role in ("flood", "drop", "silent") and i == t % 4 else "normal" for i in range(4)]
    clients = []
    for i, r in enumerate(roles):  # connect in order: seat i is client i
        clients.append(asyncio.ensure_future(scripted(port, f"t{t}s{i}{r}", r, seed=t * 4 + i)))
        await asyncio.sleep(0.002)
    await asyncio.wait_for(asyncio.gather(*clients), 60)


def drain(stream: Any, counts: Counter[str], last: list[str]) -> None:
    """Reads the server's log (so that its pipe never fills), counting its kinds of lines."""
    for line in stream:
        for key in ("games won per seat", "match stopped", "flooded the server", "moves for it", "invalid reply", "Traceback"):
            if key in line:
                counts[key] += 1
        last[:] = (last + [line.rstrip()])[-5:]


@pytest.mark.slow
def test_the_server_referees_hundreds_of_tables_with_flat_memory() -> None:
    proc, port = start_serve("--tables", "0", "--sudden-death", "--timeout", "0.02", "--seed", "1")
    counts: Counter[str] = Counter()
    last: list[str] = []
    reader = threading.Thread(target=drain, args=(proc.stdout, counts, last), daemon=True)
    reader.start()
    rss: dict[int, int] = {}

    async def main() -> None:
        for t in range(TABLES):
            await table(port, t)
            if t + 1 in (WARMUP_TABLES, TABLES):
                await asyncio.sleep(0.2)  # the table's last lines and closes are done
                rss[t + 1] = rss_of(proc.pid)

    err: Optional[str] = None
    try:
        asyncio.run(main())
    finally:
        proc.terminate()
        try:
            err = proc.communicate(timeout=20)[1]
        finally:
            proc.kill()
    reader.join(10)
    growth = (rss[TABLES] - rss[WARMUP_TABLES]) / rss[WARMUP_TABLES]
    print(f"\nserver RSS after {WARMUP_TABLES} tables {rss[WARMUP_TABLES] >> 20} MiB, after {TABLES} {rss[TABLES] >> 20} MiB "
          f"({growth:+.1%}); {dict(counts)}")
    assert counts["Traceback"] == 0 and "Traceback" not in (err or ""), (last, err)
    per = TABLES / len(ROLES)
    assert counts["games won per seat"] >= 6 * per  # the clean tables and the silent one played to the end
    assert counts["match stopped"] >= 2 * per and counts["flooded the server"] >= per  # the flooding and dropping ones stopped
    assert counts["moves for it"] >= per
    assert growth < MAX_GROWTH, f"resident memory grew by {growth:.1%} from table {WARMUP_TABLES} to {TABLES}"
