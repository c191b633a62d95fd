"""Running the web app under uvicorn: the listening socket, the server's
settings (the websockets sans-IO protocol, the message size limit, no
access log), in the foreground (``guandan-fast web``) or in a thread beside
another loop (``guandan-fast serve --web``, the browser tests)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from guandan_fast.cli.options import CliError
from guandan_fast.web.app import MAX_MESSAGE

__all__ = ["ServerThread", "bind", "make_server", "url_of"]


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port` (0: a free port); `CliError` when it cannot."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        raise CliError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on `sock`."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def make_server(app: Any) -> Any:
    """A uvicorn server of `app`."""
    import uvicorn

    config = uvicorn.Config(app, ws="websockets-sansio", ws_max_size=MAX_MESSAGE, log_level="warning", lifespan="off", access_log=False)
    return uvicorn.Server(config)


class ServerThread:
    """`app` served on `sock` in a thread of its own until the ``with`` block ends."""

    def __init__(self, app: Any, sock: socket.socket) -> None:
        self.sock = sock
        self.url = url_of(sock)
        self.server = make_server(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True, name="guandan-fast web")

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()
