"""The bot strength table of benches/README.md ("## Bot strength").

Every pair among the policies is pitted with ``gf.pit`` over seeded deals
(each deal played twice, seats swapped) and over whole games, and every
policy's mean time per decision is measured with ``gf.policy_action`` on
positions of seeded deals. A pair's sizes are its own: cheap pairs at full
size, pairs with a search at what the time allows (``--expensive-deals``,
``--expensive-games``). Results are written after each pair to ``--out``
(JSON) and the table printed as Markdown.

    python benches/strength.py --deals 200 --games 20 --expensive-deals 20 --expensive-games 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import guandan_fast as gf

CHEAP = {"random", "greedy", "rule"}


def decision_time(policy: str, positions: list[gf.Game], threads: int) -> float:
    """Mean seconds per `policy_action` call of `policy` over `positions`."""
    t = time.perf_counter()
    for i, g in enumerate(positions):
        gf.policy_action(g, policy, seed=i, threads=threads)
    return (time.perf_counter() - t) / len(positions)


def positions(n: int, seed: int) -> list[gf.Game]:
    """`n` play-phase positions: seeded games advanced by greedy play to spread-out points."""
    out = []
    for i in range(n):
        g = gf.Game(seed=seed + i)
        for _ in range(4 + 7 * (i % 10)):
            if g.phase != "play":
                break
            g.apply(gf.policy_action(g, "greedy"))
        if g.phase == "play":
            out.append(g)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policies", default="random,greedy,rule,mc:1000,sh-greedy:4000,sh:400")
    p.add_argument("--deals", type=int, default=200, help="seeded deals per cheap pair (each played twice)")
    p.add_argument("--games", type=int, default=20, help="seeded games per cheap pair (each played twice)")
    p.add_argument("--expensive-deals", type=int, default=20)
    p.add_argument("--expensive-games", type=int, default=2)
    p.add_argument("--positions", type=int, default=20, help="positions timed per policy")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--only", default="", help="comma list of pair indices to run (default: all)")
    p.add_argument("--out", type=Path, default=Path("strength.json"))
    a = p.parse_args()
    names = a.policies.split(",")
    results = json.loads(a.out.read_text()) if a.out.exists() else {"pairs": {}, "time": {}}
    pos = positions(a.positions, a.seed)
    for name in names:
        if name not in results["time"]:
            results["time"][name] = decision_time(name, pos, a.threads)
            a.out.write_text(json.dumps(results, indent=1))
            print(f"{name}: {results['time'][name] * 1000:.2f} ms per decision", flush=True)
    pairs = list(itertools.combinations(names, 2))
    only = {int(x) for x in a.only.split(",") if x}
    for k, (x, y) in enumerate(pairs):
        if only and k not in only:
            continue
        cheap = x in CHEAP and y in CHEAP
        for unit, n in (("deal", a.deals if cheap else a.expensive_deals), ("game", a.games if cheap else a.expensive_games)):
            key = f"{x} | {y} | {unit}"
            if key in results["pairs"] or n == 0:
                continue
            t = time.perf_counter()
            r = gf.pit(x, y, n=n, seed=a.seed, unit=unit, threads=a.threads)
            results["pairs"][key] = {"played": r.played, "wins": r.a_wins, "rate": r.win_rate, "ci95": list(r.ci95), "gain": r.mean_gain, "seconds": time.perf_counter() - t}
            a.out.write_text(json.dumps(results, indent=1))
            print(r, f"({time.perf_counter() - t:.0f} s)", flush=True)
    print(table(results, names))


def table(results: dict, names: list[str]) -> str:
    """The Markdown table of `results`."""
    rows = ["| A | B | deals (A wins, 95% CI) | games (A wins, 95% CI) | ms/decision A / B |", "|---|---|---|---|---|"]
    for x, y in itertools.combinations(names, 2):
        if not any(f"{x} | {y} | {u}" in results["pairs"] for u in ("deal", "game")):
            continue
        cells = []
        for unit in ("deal", "game"):
            r = results["pairs"].get(f"{x} | {y} | {unit}")
            cells.append(f"{r['wins']}/{r['played']} = {r['rate']:.1%} ({r['ci95'][0]:.1%}–{r['ci95'][1]:.1%})" if r else "—")
        tx, ty = (results["time"].get(n, float("nan")) * 1000 for n in (x, y))
        rows.append(f"| {x} | {y} | {cells[0]} | {cells[1]} | {tx:.1f} / {ty:.1f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
