"""What the platform server and client share at the websocket layer: the
limits each side puts on what the other may send (docs/platform.md,
"Limits"), the words for how a connection ended, and text from the other
side made safe to print."""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "CLIENT_MAX_MESSAGE",
    "CLIENT_MAX_QUEUE",
    "CLOSE_TIMEOUT",
    "MAX_PENDING",
    "MAX_PENDING_BYTES",
    "OPEN_TIMEOUT",
    "SEND_TIMEOUT",
    "SERVER_MAX_MESSAGE",
    "closed_reason",
    "peer_fault",
    "printable",
    "size_text",
]

#: The largest message the server takes from a client (a reply is about 20 bytes).
SERVER_MAX_MESSAGE = 2**20
#: Messages a client sent that the referee has not read yet, at most: one more and it is dropped as flooding.
MAX_PENDING = 64
#: Their bytes at most, likewise.
MAX_PENDING_BYTES = 4 * 2**20
#: Seconds a send to a client may wait for it to read (its buffers full) before it is dropped.
SEND_TIMEOUT = 60.0
#: The largest message the client takes from a server (the engine's largest act messages are a few hundred KB).
CLIENT_MAX_MESSAGE = 16 * 2**20
#: Messages the client's websocket buffers before it stops reading from the socket.
CLIENT_MAX_QUEUE = 4
#: Neither side offers or takes permessage-deflate: a compressed message could
#: unpack to far more memory than the bytes sent (and platform bots do not use it).
#: Seconds for the opening handshake, and for the closing one, on either side.
OPEN_TIMEOUT = 10.0
CLOSE_TIMEOUT = 5.0


def size_text(n: int) -> str:
    """``1 MiB``, ``64 KiB``, ``100 bytes``."""
    for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def printable(text: object, limit: int = 80) -> str:
    """`text` cut to `limit` characters, every control or unprintable character
    escaped (``\\x1b``): other side's text safe to print in a log or terminal."""
    s = str(text)[:limit]
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii") for c in s)


def peer_fault(exc: Any) -> Optional[str]:
    """How the other side broke the websocket protocol, from websockets'
    `ConnectionClosed` `exc` (the close frame this side sent and the parser's
    error): ``sent a message over the size limit (...)``, ``broke the
    websocket protocol (...)``, ``closed the connection in the middle of a
    message (...)``; None when it did not."""
    sent, cause = exc.sent, exc.__cause__
    detail = f" ({printable(cause)})" if cause is not None else ""
    if sent is not None and sent.code == 1009:
        return f"sent a message over the size limit{detail}"
    if sent is not None and sent.code in (1002, 1007):
        return f"broke the websocket protocol{detail}"
    if exc.rcvd is None and isinstance(cause, EOFError) and str(cause).startswith("stream ends after"):  # websockets' words
        return f"closed the connection in the middle of a message{detail}"
    return None


def closed_reason(exc: Any) -> str:
    """How the other side's connection ended, from websockets' `ConnectionClosed`
    `exc`, as words after the side's name: its `peer_fault`, or
    ``disconnected (close code 1000)``, ``dropped the connection without a
    close frame``, ``was dropped (1011: ...)``."""
    fault = peer_fault(exc)
    if fault is not None:
        return fault
    rcvd, sent = exc.rcvd, exc.sent
    if rcvd is not None:
        reason = f": {printable(rcvd.reason)}" if rcvd.reason else ""
        return f"disconnected (close code {rcvd.code}{reason})"
    if sent is not None and sent.code not in (1000, 1001):
        return f"was dropped ({sent.code}: {printable(sent.reason)})"
    return "dropped the connection without a close frame"
