"""Misbehaving peers of the platform server and client for the hostile-network
tests, over real loopback sockets: plain HTTP requests, handshakes cut
short, a raw websocket handshake with any path, clients that flood, drop
or stay silent, and a `serve` subprocess on a free port."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

CLI = [sys.executable, "-m", "guandan_fast"]
_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


async def plain_http(port: int, path: str = "/game/x") -> bytes:
    """A plain HTTP GET (no websocket upgrade): the server's whole answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
        await writer.wait_closed()


async def cut_handshake(port: int, path: str = "/game/x") -> None:
    """A websocket handshake request sent in part, then the connection closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n".encode())
    await writer.drain()
    writer.close()
    await writer.wait_closed()


def handshake_request(port: int, path: str) -> tuple[bytes, str]:
    """A websocket upgrade request for `path` (any bytes) and the accept key the answer must carry."""
    key = base64.b64encode(os.urandom(16)).decode()
    accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
    head = (
        f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    return b"GET " + path.encode("latin-1") + b" HTTP/1.1\r\n" + head.encode(), accept


async def raw_websocket(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A websocket opened by hand on `path` (so that it may hold bytes a client
    library would refuse): the streams and the server's answer head."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request, _ = handshake_request(port, path)
    writer.write(request)
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer, head


def frame(payload: bytes, opcode: int = 1, masked: bool = True) -> bytes:
    """One websocket frame (FIN) of `payload`: masked as a client sends it, or not as a server does."""
    n = len(payload)
    bit = 0x80 if masked else 0
    size = bytes([bit | n]) if n < 126 else (bytes([bit | 126]) + n.to_bytes(2, "big") if n < 2**16 else bytes([bit | 127]) + n.to_bytes(8, "big"))
    if not masked:
        return bytes([0x80 | opcode]) + size + payload
    mask = os.urandom(4)
    return bytes([0x80 | opcode]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def flood(url: str, frames: int, size: int) -> tuple[int, Optional[int]]:
    """Connects and sends `frames` text frames of `size` bytes unasked; how many
    went out before the server closed the connection, and its close code."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    sent = 0
    async with connect(url, ping_interval=None, max_size=None) as ws:
        try:
            for _ in range(frames):
                await ws.send("x" * size)
                sent += 1
            await asyncio.wait_for(ws.wait_closed(), 10)
        except ConnectionClosed:
            pass
        return sent, ws.close_code


def start_serve(*args: str) -> tuple["subprocess.Popen[str]", int]:
    """A ``guandan-fast serve`` subprocess on a free port (read from its first line) and the port."""
    proc = subprocess.Popen([*CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, listening_port(proc)


def serve_and_connect(games: int, seed: int, record: Path, start: list[str]) -> tuple[str, "subprocess.CompletedProcess[str]"]:
    """A ``serve`` of `games` games with greedy bots on seats 1-3 and a
    ``connect --bot greedy`` on seat 0, both given the `start` options, the
    match recorded to `record`: the server's output and the client's run
    (the server ended with status 0)."""
    server, port = start_serve("--games", str(games), "--seed", str(seed), "--bots", "1:greedy,2:greedy,3:greedy", "--record", str(record), *start)
    try:
        out = subprocess.run([*CLI, "connect", f"ws://127.0.0.1:{port}/game/me", "--bot", "greedy", *start],
                             capture_output=True, text=True, timeout=60)
        stdout, _ = server.communicate(timeout=20)
    finally:
        server.kill()
    assert out.returncode == 0, out.stderr
    assert server.returncode == 0, stdout
    return stdout, out


def listening_port(proc: "subprocess.Popen[str]") -> int:
    """The port a ``serve --port 0`` subprocess says it listens on (its first line,
    waited for up to 20 s); the process is killed when it does not say."""
    assert proc.stdout is not None
    deadline = time.monotonic() + 20
    line = ""
    while time.monotonic() < deadline and "listening" not in line:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            line = proc.stdout.readline()
            if not line:
                break
    found = re.search(r"ws://127\.0\.0\.1:(\d+)/game/", line)
    if found is None:
        proc.kill()
        raise AssertionError(f"serve did not start: {line!r} {proc.communicate(timeout=5)}")
    return int(found.group(1))


def rss_of(pid: int) -> int:
    """Resident memory of process `pid` in bytes (Linux /proc)."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def wait_for_line(log: list[str], text: str, seconds: float = 10.0) -> str:
    """The first line of `log` holding `text`, waiting for it up to `seconds`."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        for line in log:
            if text in line:
                return line
        await asyncio.sleep(0.01)
    raise AssertionError(f"no log line with {text!r} in {log[-5:]}")



class FakeServer:
    """A hostile platform server on a free port, in a thread of its own (so that
    blocking clients and the command line can run against it): to each
    connection it sends `frames` (text or binary) and then closes it as
    `then` says (``"close"``: a close frame, ``"drop"``: the TCP connection
    cut without one). With `raw`, it speaks the handshake by hand and sends
    `raw` bytes as they are (a frame cut in the middle, say), then cuts."""

    def __init__(self, frames: list[object] = (), then: str = "close", raw: Optional[bytes] = None) -> None:  # type: ignore[assignment]
        self.frames, self.then, self.raw = list(frames), then, raw
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: Optional[asyncio.Event] = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        if not self._ready.wait(10):
            raise AssertionError("the fake server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/game/me"

    def _run(self) -> None:
        self._loop.run_until_complete(self._main())
        self._loop.close()

    async def _main(self) -> None:
        from websockets.asyncio.server import serve

        self._stop = asyncio.Event()
        if self.raw is not None:
            server = await asyncio.start_server(self._raw, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            async with server:
                await self._stop.wait()
            return
        async with serve(self._handler, "127.0.0.1", 0, ping_interval=None, max_size=None, compression=None) as ws_server:
            self.port = next(iter(ws_server.sockets)).getsockname()[1]
            self._ready.set()
            await self._stop.wait()

    async def _handler(self, ws: object) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for frame in self.frames:
                await ws.send(frame)  # type: ignore[attr-defined]
            if self.then == "drop":
                ws.transport.abort()  # type: ignore[attr-defined]
                return
            await ws.close()  # type: ignore[attr-defined]
        except ConnectionClosed:
            pass

    async def _raw(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        key = re.search(rb"Sec-WebSocket-Key: (\S+)", request, re.I)
        assert key is not None and self.raw is not None
        accept = base64.b64encode(hashlib.sha1(key.group(1) + _GUID.encode()).digest()).decode()
        writer.write(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n".encode())
        writer.write(self.raw)
        await writer.drain()
        writer.transport.abort()

