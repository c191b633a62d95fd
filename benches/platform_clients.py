"""Deals per second of the platform server with four minimal Python clients
that answer every ``act`` at once (index 0), over the loopback.

The server runs as ``guandan-fast serve`` in its own process; the four
clients share one asyncio loop in this one. Run:

    python benches/platform_clients.py [--games 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import time


async def client(url: str, counts: dict[str, int]) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, ping_interval=None, compression=None) as ws:
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] == "act":
                counts["acts"] += 1
                await ws.send('{"actIndex": 0}')
            elif msg["stage"] == "episodeOver":
                counts["deals"] += 1
            elif msg["stage"] == "gameResult":
                counts["done"] += 1


async def run(port: int) -> tuple[dict[str, int], float]:
    counts = {"acts": 0, "deals": 0, "done": 0}
    start = time.perf_counter()
    await asyncio.gather(*(client(f"ws://127.0.0.1:{port}/game/c{i}", counts) for i in range(4)))
    return counts, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "guandan_fast", "serve", "--port", "0", "--games", str(args.games), "--seed", str(args.seed)],
        stdout=subprocess.PIPE, text=True,
    )
    assert server.stdout is not None
    port = int(re.search(r":(\d+)/game/", server.stdout.readline()).group(1))  # type: ignore[union-attr]
    cpu = time.process_time()
    counts, seconds = asyncio.run(run(port))
    cpu = time.process_time() - cpu
    _, _, usage = os.wait4(server.pid, 0)
    server_cpu = usage.ru_utime + usage.ru_stime
    deals = counts["deals"] // 4
    print(f"{deals} deals, {counts['acts']} decisions in {seconds:.2f} s: "
          f"{deals / seconds:.1f} deals/s, {counts['acts'] / seconds:.0f} decisions/s")
    print(f"CPU: server {server_cpu:.2f} s ({server_cpu / deals * 1e3:.0f} ms per deal, startup included), "
          f"the four clients {cpu:.2f} s")


if __name__ == "__main__":
    main()
