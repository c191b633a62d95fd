"""Where chunks run: the `Backend` protocol, `LocalBackend` (this process, the
default) and `RayBackend` (Ray tasks on a cluster). A backend's
``map(func, items) -> list`` returns ``[func(x) for x in items]`` in order, so
the backend never changes a result; Ray is imported only when a `RayBackend`
connects.

Both also hold actors, for work that keeps state between calls (the
self-play streams of `guandan_fast.train.actors`): ``start(cls, *args)``
makes an object of `cls` (in this process, or as a Ray actor of one CPU) and
``call(method, *args)`` on it gives a `Pending` whose ``result()`` is the
method's value; calls on one actor run in the order they were made.
``share(value)`` is a value sent to many calls once (``ray.put`` on Ray).
"""

from __future__ import annotations

import os
import socket
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence, TypeVar, runtime_checkable

from guandan_fast._core import GuandanError, InvalidArgumentError

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["Backend", "ClusterError", "LocalActor", "LocalBackend", "Pending", "RayActor", "RayBackend", "make_backend"]

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

    def start(self, cls: Callable[..., Any], *args: Any) -> LocalActor:
        """``cls(*args)``, made here, as an actor."""
        return LocalActor(cls(*args))

    def share(self, value: T) -> T:
        """`value` itself (nothing to send)."""
        return value

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class Pending(Protocol):
    """The value of an actor's method call, once it is done."""

    def result(self, timeout: Optional[float] = None) -> Any: ...


class LocalActor:
    """An object of this process in the place of a cluster's actor: a call
    runs when its result (or a later call's result) is asked for, calls in
    the order they were made; a call never asked for never runs."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj
        self._queue: list[_Deferred] = []

    def call(self, method: str, *args: Any) -> _Deferred:
        """``obj.method(*args)``, run when its result is asked for."""
        pending = _Deferred(self, getattr(self.obj, method), args)
        self._queue.append(pending)
        return pending

    def _run_until(self, pending: _Deferred) -> None:
        while self._queue:
            first = self._queue.pop(0)
            first._run()
            if first is pending:
                return

    def stop(self) -> None:
        """Drops the calls not yet run and calls the object's ``close()``, if it has one."""
        self._queue.clear()
        close = getattr(self.obj, "close", None)
        if callable(close):
            close()


class _Deferred:
    def __init__(self, actor: LocalActor, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._actor, self._func, self._args = actor, func, args
        self._done = False
        self._value: Any = None
        self._error: Optional[BaseException] = None

    def _run(self) -> None:
        try:
            self._value = self._func(*self._args)
        except Exception as e:  # noqa: BLE001 - kept for result(), as a cluster keeps a task's error
            self._error = e
        self._done = True
        self._args = ()

    def result(self, timeout: Optional[float] = None) -> Any:
        """The call's value, running it (and the calls before it) now if they have not run; its error raised."""
        if not self._done:
            self._actor._run_until(self)
        if self._error is not None:
            raise self._error
        return self._value


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
        self._actor_classes: dict[Any, Any] = {}

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
        self._actor_classes = {}
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

    # ------------------------------------------------------------ actors

    def start(self, cls: Callable[..., Any], *args: Any) -> RayActor:
        """``cls(*args)`` as a Ray actor of one CPU on the cluster (connecting
        first); the package must be installed where it runs. Not restarted
        if its process dies: its calls then raise `ClusterError`."""
        self.connect()
        remote = self._actor_classes.get(cls)
        if remote is None:
            remote = self._actor_classes[cls] = self._ray.remote(num_cpus=1, max_restarts=0)(cls)
        return RayActor(self._ray, remote.remote(*args))

    def share(self, value: Any) -> Any:
        """`value` put once into the cluster's object store (``ray.put``): a
        reference that calls take in its place, sent to each node once."""
        self.connect()
        return self._ray.put(value)


class RayActor:
    """A Ray actor made by `RayBackend.start`."""

    def __init__(self, ray: Any, handle: Any) -> None:
        self._ray = ray
        self.handle = handle

    def call(self, method: str, *args: Any) -> _RayPending:
        """``method(*args)`` sent to the actor now."""
        return _RayPending(self._ray, getattr(self.handle, method).remote(*args))

    def stop(self) -> None:
        """Ends the actor's process (a call still running is lost)."""
        try:
            self._ray.kill(self.handle)
        except Exception:  # noqa: BLE001 - an actor already gone, or a cluster already closed
            pass


class _RayPending:
    def __init__(self, ray: Any, ref: Any) -> None:
        self._ray, self.ref = ray, ref

    def result(self, timeout: Optional[float] = None) -> Any:
        """The call's value (its engine error raised as itself, a lost actor as
        `ClusterError`); with `timeout`, `ClusterError` when it is not done by then."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            done, _ = self._ray.wait([self.ref], num_returns=1, timeout=WAIT_SECONDS)
            if done:
                return _get(self._ray, self.ref)
            if deadline is not None and time.monotonic() > deadline:
                raise ClusterError(f"an actor's call was not done in {timeout:g} s (a cluster without a free CPU for it?)")


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
        raise ClusterError(f"a task or actor was lost on the cluster (retries used up): {type(e).__name__}: {e}") from None


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

