"""Rates of the loops a user writes against the Python API, for comparing builds.

Run it with each build's interpreter, alternating, and compare ratios taken in
one sitting (the machine is shared and noisy):

    python benches/user_loops.py            # one JSON line of rates
    python benches/user_loops.py --rounds 3 # best of 3 per loop

Each loop uses only calls whose meaning has not changed across versions, so
an older install can be measured with the same script.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Callable

import guandan_fast as gf


def _rate(fn: Callable[[], int], seconds: float) -> float:
    """Items per second of `fn` (which returns the items it did), over about `seconds`."""
    done, t0 = 0, time.perf_counter()
    while True:
        done += fn()
        t = time.perf_counter() - t0
        if t >= seconds:
            return done / t


def _games(n: int) -> list[gf.Game]:
    """Mid-deal positions: seeded games after 20 actions (the last listed), then
    on to the first position whose player has at least 8 legal actions."""
    out = []
    for s in range(n):
        g = gf.Game(seed=s)
        for _ in range(20):
            g.apply(g.legal_actions("pattern")[-1])
        while len(g.legal_actions("pattern")) < 8:
            g.apply(g.legal_actions("pattern")[0])
        out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=0.5)
    args = ap.parse_args()
    hands = [gf.deal(s)[0] for s in range(1, 65)]
    mids = _games(8)

    def lead_pattern() -> int:
        for h in hands:
            gf.legal_moves(h, "2", mode="pattern")
        return len(hands)

    def lead_array() -> int:
        for h in hands:
            gf.legal_moves_array(h, "2")
        return len(hands)

    def step() -> int:
        g, n = gf.Game(seed=3), 0
        while g.phase == "play":
            g.apply(g.legal_actions("pattern")[0])
            n += 1
        return n

    def observe() -> int:
        for g in mids:
            gf.encode_observation(g.observation(g.current_player))
        return len(mids)

    def evaluate(threads: int) -> Callable[[], int]:
        def run() -> int:
            e = gf.evaluate(mids[0], playouts=50, seed=1, threads=threads)
            return 50 * len(e["actions"])

        return run

    def simulate(threads: int) -> Callable[[], int]:
        def run() -> int:
            gf.simulate(4000, seed=1, threads=threads)
            return 4000

        return run

    loops: dict[str, Callable[[], int]] = {
        "legal_moves pattern lead (hands/s)": lead_pattern,
        "legal_moves_array lead (hands/s)": lead_array,
        "legal_actions+apply (actions/s)": step,
        "observation+encode_observation (calls/s)": observe,
        "evaluate 1 thread (playouts/s)": evaluate(1),
        "evaluate 2 threads (playouts/s)": evaluate(2),
        "simulate random 1 thread (deals/s)": simulate(1),
        "simulate random 2 threads (deals/s)": simulate(2),
    }
    best = {k: max(_rate(f, args.seconds) for _ in range(args.rounds)) for k, f in loops.items()}
    print(json.dumps(best))


if __name__ == "__main__":
    main()
