"""Throughput of guandan_fast.distributed against the number of Ray workers,
and the scheduling overhead per chunk (a script, not a test: it starts its
own Ray clusters on the loopback address).

    python benches/distributed.py [--deals N] [--policy greedy] [--chunk K]

For each worker count w (1, 2): a fresh local Ray of w CPUs plays `--deals`
deals of `--policy` self-play (`guandan_fast.distributed.simulate`, chunks of
`--chunk` deals, default: the measured size, fixed for all runs), best of
three runs interleaved with the same call on the local backend with w engine
threads (the baseline) and with one thread. The overhead per chunk is the Ray run's
time beyond the one-thread local time split over w workers, per chunk, and
separately the round trip of a task that does nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback only

import numpy as np  # noqa: E402

import guandan_fast as gf  # noqa: E402
import guandan_fast.distributed as gd  # noqa: E402


def best(f, reps: int = 3) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def _noop(x: int) -> int:
    return x


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=200_000)
    p.add_argument("--policy", default="greedy")
    p.add_argument("--chunk", type=int, default=None, help="deals per chunk (default: measured)")
    p.add_argument("--noop-tasks", type=int, default=400)
    args = p.parse_args()
    import ray

    n, policy = args.deals, args.policy
    want = gf.simulate(n, seed=1, policy=policy)
    chunk = args.chunk or gd.chunks.chunk_size(lambda k: gf.simulate(k, seed=1, policy=policy, threads=1), n)[2]
    rows = []
    for w in (1, 2):
        ray.init(num_cpus=w, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            be = gd.RayBackend()
            got = gd.simulate(n, seed=1, policy=policy, backend=be, chunk=chunk)
            assert all(np.array_equal(got[k], want[k]) for k in want), "the Ray result differs"
            local1, local, remote = [], [], []
            for _ in range(3):  # interleaved, so that a change of load on the machine hits all three
                local1.append(best(lambda: gd.simulate(n, seed=1, policy=policy, threads=1, chunk=chunk), 1))
                local.append(best(lambda: gd.simulate(n, seed=1, policy=policy, threads=w, chunk=chunk), 1))
                remote.append(best(lambda: gd.simulate(n, seed=1, policy=policy, backend=be, chunk=chunk), 1))
            be.map(_noop, list(range(w * 4)))  # workers started
            noop = best(lambda: be.map(_noop, list(range(args.noop_tasks)))) / args.noop_tasks
        finally:
            ray.shutdown()
        k = -(-n // chunk)
        overhead = max(0.0, min(remote) - min(local1) / w) / k
        rows.append((w, min(local), min(remote), k, chunk, overhead, noop))
    print(f"{n} deals of {policy} self-play, seed 1; guandan_fast {gf.__version__}, Python {sys.version.split()[0]}, Ray {ray.__version__}")
    print()
    print("| workers | local, w threads | Ray, w workers | Ray / local | chunks (deals each) | overhead per chunk | empty task round trip |")
    print("|---|---|---|---|---|---|---|")
    for w, local, remote, k, per, overhead, noop in rows:
        print(
            f"| {w} | {n / local:,.0f} deals/s | {n / remote:,.0f} deals/s | {local / remote:.2f} | {k} ({per:,.0f}) "
            f"| {overhead * 1e3:.1f} ms | {noop * 1e3:.2f} ms |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
