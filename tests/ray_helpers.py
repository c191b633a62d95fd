"""A Ray cluster of this machine for the tests that need one: started on the
loopback address only, shut down at the end, and every process it started
(and any other process the test names) checked to have ended."""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

#: Seconds any wait in these tests lasts at most.
BOUND = 60.0


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def wait_dead(pids: set[int]) -> set[int]:
    """The pids still alive after waiting up to BOUND seconds for them to end."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    return {p for p in pids if alive(p)}


@contextmanager
def local_ray(num_cpus: int = 2) -> Iterator[tuple[Any, set[int]]]:
    """Ray of `num_cpus` CPUs on 127.0.0.1 for the block: yields the ray
    module and a set the test adds the pids of its workers to; at the end
    Ray is shut down and its processes, and those pids, must have ended."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # Ray then keeps to the loopback address
    import ray
    import ray._private.ray_constants as constants

    constants.ENABLE_RAY_CLUSTER = False
    assert not ray.is_initialized()
    ctx = ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    node = ray._private.worker._global_node
    started = {p.process.pid for procs in node.all_processes.values() for p in procs if p.process is not None}
    workers: set[int] = set()
    try:
        assert ctx.address_info["node_ip_address"] == "127.0.0.1"
        yield ray, workers
    finally:
        ray.shutdown()
    assert not (left := wait_dead(started | workers)), f"Ray processes left running: {left}"
