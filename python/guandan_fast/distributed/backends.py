"""Where chunks run: the `Backend` protocol, `LocalBackend` (this process, the
default) and `RayBackend` (Ray tasks on a cluster). A backend's
``map(func, items) -> list`` returns ``[func(x) for x in items]`` in order, so
the backend never changes a result; Ray is imported only when a `RayBackend`
connects.
"""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence, TypeVar, runtime_checkable

from guandan_fast._core import GuandanError, InvalidArgumentError

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["Backend", "ClusterError", "LocalBackend", "RayBackend", "make_backend"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to wait for a cluster's address to accept a connection before giving up.
CONNECT_TIMEOUT = 5.0
#: Seconds between checks for Ctrl-C while waiting for tasks.
WAIT_SECONDS = 0.2


class ClusterError(GuandanError):
    """A cluster that cannot be reached or used: a dead address, Ray missing, tasks that failed past their retries."""


@runtime_checkable
class Backend(Protocol):
    """Where a run's chunks are played: `threads` engine threads per chunk,
    ``map(func, items, on_done)`` giving ``[func(x) for x in items]`` in order
    (calling ``on_done(i)`` as item `i` completes), and a ``with`` block around
    a run (a connection held for its length)."""

    threads: int

    def map(
        self, func: Callable[[T], R], items: Sequence[T], on_done: Optional[Callable[[int], None]] = None
    ) -> list[R]: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: Any) -> Any: ...


class LocalBackend:
    """Runs every item in this process, in order; `threads` is each chunk's thread count (0: one per core)."""

    name = "local"

    def __init__(self, threads: int = 0) -> None:
        self.threads = threads

    def map(
        self, func: Callable[[T], R], items: Sequence[T], on_done: Optional[Callable[[int], None]] = None
    ) -> list[R]:
        """``[func(x) for x in items]``; `on_done(i)` after item `i`."""
        out = []
        for i, item in enumerate(items):
            out.append(func(item))
            if on_done is not None:
                on_done(i)
        return out

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class RayBackend:
    """Runs each item as a Ray task (one CPU, one engine thread) with retries.

    `address`: None connects to the Ray this process is already connected to,
    else to the cluster Ray finds by itself (``RAY_ADDRESS``, a ``ray start``
    on this machine), else starts a local one; ``"auto"``; ``"HOST:PORT"`` of a
    head node (``ray start --head``); or ``"ray://HOST:PORT"`` (Ray Client).
    A task whose worker dies is run again (up to `max_retries` times); results
    come back in item order whatever finishes first. A connection this object
    opened is closed by `close()`, at the end of the outermost ``with`` block,
    or after a `map` called outside one.
    """

    name = "ray"
    #: Engine threads per task: Ray runs one task per CPU.
    threads = 1

    def __init__(self, address: Optional[str] = None, *, max_retries: int = 3) -> None:
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise InvalidArgumentError(f"address must be a Ray address like 'HOST:PORT', 'auto' or None, not {address!r}")
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or not 0 <= max_retries <= 100:
            raise InvalidArgumentError(f"max_retries must be 0..100, not {max_retries!r}")
        self.address = address.strip() if address is not None else None
        self.max_retries = max_retries
        self._ray: Any = None
        self._opened = False
        self._remote: Any = None
        self._depth = 0

    # ------------------------------------------------------------ connection

    def connect(self) -> RayBackend:
        """Connects to (or starts) the cluster; a dead address or Ray missing raises `ClusterError`."""
        if self._ray is not None:
            return self
        if self.address not in (None, "auto"):
            _check_reachable(self.address)
        ray = _import_ray()
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
            except Exception as e:  # noqa: BLE001 - whatever Ray raises, the cluster could not be used
                where = self.address or "this machine"
                hint = ""
                if self.address is not None and not os.environ.get("RAY_AUTH_MODE"):
                    hint = (
                        "; a cluster with token authentication (Ray's default) also needs RAY_AUTH_MODE=token "
                        "and its token here (~/.ray/auth_token or RAY_AUTH_TOKEN)"
                    )
                raise ClusterError(f"could not connect to a Ray cluster at {where}: {e}{hint}") from None
            self._opened = True
        self._ray = ray
        self._remote = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)(_call)
        return self

    def close(self) -> None:
        """Disconnects if `connect` opened the connection (a Ray this process had connected stays)."""
        if self._ray is not None and self._opened:
            self._ray.shutdown()
        self._ray = None
        self._remote = None
        self._opened = False

    def __enter__(self) -> RayBackend:
        self.connect()
        self._depth += 1
        return self

    def __exit__(
        self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.close()

    @property
    def workers(self) -> int:
        """CPUs of the cluster (tasks that run at once)."""
        self.connect()
        return int(self._ray.cluster_resources().get("CPU", 0))

    # ------------------------------------------------------------ work

    def map(
        self, func: Callable[[T], R], items: Sequence[T], on_done: Optional[Callable[[int], None]] = None
    ) -> list[R]:
        """``[func(x) for x in items]``, each item a task; `on_done(i)` as item `i` completes.

        Ctrl-C cancels the tasks not yet done and raises `KeyboardInterrupt`; an
        engine error in a task is raised as itself; a task that failed past its
        retries raises `ClusterError`."""
        items = list(items)
        with self:
            return self._map(func, items, on_done) if items else []

    def _map(self, func: Callable[[T], R], items: list[T], on_done: Optional[Callable[[int], None]]) -> list[R]:
        ray = self._ray
        func_ref = ray.put(func)
        refs = [self._remote.remote(func_ref, item) for item in items]
        index = {ref: i for i, ref in enumerate(refs)}
        out: list[Any] = [None] * len(items)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=WAIT_SECONDS)
                for ref in done:
                    i = index[ref]
                    out[i] = _get(ray, ref)
                    if on_done is not None:
                        on_done(i)
        except BaseException:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001 - a task that has just finished cannot be cancelled
                    pass
            raise
        return out


def make_backend(backend: object, *, threads: int = 0, address: Optional[str] = None) -> Backend:
    """The backend a public function's `backend` argument names: ``"local"`` (with
    `threads`), ``"ray"`` (at `address`) or a `Backend` object, as it is."""
    if isinstance(backend, Backend):
        if address is not None:
            raise InvalidArgumentError(f"address={address!r} goes with backend='ray'; a backend object has its own")
        return backend
    if backend == "local":
        if address is not None:
            raise InvalidArgumentError(f"address={address!r} needs backend='ray'")
        return LocalBackend(threads)
    if backend == "ray":
        return RayBackend(address)
    raise InvalidArgumentError(f"backend must be 'local', 'ray' or a backend object, not {backend!r}")


def _call(func: Callable[[T], R], item: T) -> R:
    return func(item)


def _get(ray: Any, ref: Any) -> Any:
    """A finished task's value; its engine error raised as itself, a lost task as `ClusterError`."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if hasattr(e, "cause") else None
        if isinstance(cause, (GuandanError, KeyboardInterrupt)):
            raise cause from None
        raise ClusterError(f"a task failed on the cluster: {e}") from None
    except ray.exceptions.RayError as e:
        raise ClusterError(f"a task was lost on the cluster (retries used up): {type(e).__name__}: {e}") from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("backend='ray' needs Ray: pip install 'guandan_fast[ray]'") from None
    return ray


def _check_reachable(address: str) -> None:
    """Raises `ClusterError` unless something accepts a TCP connection at the address's host and port."""
    text = address.split("://", 1)[1] if "://" in address else address
    host, sep, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise InvalidArgumentError(f"address must be 'HOST:PORT', 'ray://HOST:PORT' or 'auto', not {address!r}")
    try:
        with socket.create_connection((host, int(port_text)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise ClusterError(
            f"no Ray cluster answers at {address} ({reason}); start one with `ray start --head` "
            "and pass the address it prints, or address=None for a local one"
        ) from None

