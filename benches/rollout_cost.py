"""What a rule rollout costs against a greedy one, per search decision.

Times one decision of ``mc:N`` (greedy rollouts) and of ``mc-rule:N`` (rule
rollouts) on the same seeded mid-deal positions (a game's first deal after
``--skip`` greedy actions), one thread, the two alternated position by
position so that a machine's changing load falls on both alike. Prints the
mean ms per decision of each and their ratio.

    python benches/rollout_cost.py --playouts 400 --positions 24
"""

from __future__ import annotations

import argparse
import time

import guandan_fast as gf


def positions(n: int, skip: int) -> list[gf.Game]:
    """`n` seeded positions: the first deal of game `seed` after `skip` greedy actions."""
    out = []
    for seed in range(n):
        g = gf.Game(seed=seed)
        for _ in range(skip + seed % 7):
            g.apply(gf.policy_action(g, "greedy"))
        out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--playouts", type=int, default=400)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--skip", type=int, default=8, help="greedy actions before each position (plus seed %% 7)")
    ap.add_argument("--rollouts", default="mc,mc-rule", help="comma list of search heads to compare (default mc,mc-rule)")
    a = ap.parse_args()
    heads = a.rollouts.split(",")
    spent = dict.fromkeys(heads, 0.0)
    games = positions(a.positions, a.skip)
    for g in games:
        for h in heads:
            t = time.perf_counter()
            gf.policy_action(g, f"{h}:{a.playouts}", seed=1, threads=1)
            spent[h] += time.perf_counter() - t
    base = spent[heads[0]]
    for h in heads:
        print(f"{h}:{a.playouts}: {1e3 * spent[h] / len(games):.1f} ms/decision, {spent[h] / base:.2f}x {heads[0]}")


if __name__ == "__main__":
    main()
