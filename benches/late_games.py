"""Late games: how a policy converts the end of a game, where a deal's value
is most unlike its level change.

Each game starts at a level state near the end (a team at A, with 0 or 1
failed attempts, or at K or Q, declaring or not) under the platform rules
(double-down A pass, 2 attempts, back to 2), and is played to its end by
policy A on one team and B on the other, then again with the seats swapped
(same seeds). A's games won are reported per starting state and in all,
with 95% Wilson intervals. Decisions go through ``policy_action`` (the
searches on ``--threads`` threads), seeded per seat and decision.

    python benches/late_games.py --a focus+win:400 --b focus:400 --seeds 6
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import guandan_fast as gf
from guandan_fast.arena import wilson_interval
from guandan_fast.bots import decision_seed
from guandan_fast.platform.rules import platform_rules

#: Starting states, from team "us"'s side: (our level, their level, our A fails, their A fails, declaring team: 0 us, 1 them).
STATES: list[tuple[str, str, int, int, int]] = [
    ("A", "Q", 0, 0, 0),
    ("A", "Q", 1, 0, 0),
    ("A", "A", 0, 1, 0),
    ("K", "A", 0, 0, 1),
    ("Q", "K", 0, 0, 0),
    ("A", "8", 1, 0, 1),
]


def play_game(state: tuple[str, str, int, int, int], a_team: int, a: str, b: str, seed: int, threads: int, max_deals: int) -> int | None:
    """The team (0/1) that wins the game started at `state` (from team `a_team`'s side) with `a` on `a_team`; None past `max_deals`."""
    ours, theirs, fa, fb, decl = state
    levels = (ours, theirs) if a_team == 0 else (theirs, ours)
    fails = (fa, fb) if a_team == 0 else (fb, fa)
    declarer = decl if a_team == 0 else 1 - decl
    g = gf.Game(platform_rules(), seed=seed, levels=levels, declarer=declarer, a_fails=fails)
    policies = [a if s % 2 == a_team else b for s in range(4)]
    k = [0, 0, 0, 0]
    deals = 0
    while True:
        if g.phase == "deal_over":
            deals += 1
            if deals >= max_deals:
                return None
            g.next_deal()
            continue
        if g.phase in ("game_over", "match_over"):
            return g.game_winners[-1]
        seat = g.current_player
        g.apply(gf.policy_action(g, policies[seat], seed=decision_seed(seed + seat, k[seat]), threads=threads))
        k[seat] += 1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--seeds", type=int, default=4, help="games per starting state and seating")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-deals", type=int, default=40)
    p.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    args = p.parse_args()
    t0 = time.time()
    results: dict[str, list[int]] = {}
    total = [0, 0]
    for state, i, a_team in itertools.product(STATES, range(args.seeds), (0, 1)):
        w = play_game(state, a_team, args.a, args.b, args.seed + i, args.threads, args.max_deals)
        if w is None:
            continue
        r = results.setdefault(str(state), [0, 0])
        r[0] += w == a_team
        r[1] += 1
        total[0] += w == a_team
        total[1] += 1
        lo, hi = wilson_interval(total[0], total[1])
        print(f"{state} seat-team {a_team} seed {args.seed + i}: {'A' if w == a_team else 'B'} wins; A {total[0]}/{total[1]} ({100 * lo:.0f}%-{100 * hi:.0f}%) {time.time() - t0:.0f}s", flush=True)
    print(f"\n{args.a} vs {args.b}, late games under the platform rules")
    print("| start (ours, theirs, fails, fails, declarer) | A's games | 95% CI |\n|---|---|---|")
    for s, (w, n) in results.items():
        lo, hi = wilson_interval(w, n)
        print(f"| {s} | {w}/{n} | {100 * lo:.0f}%–{100 * hi:.0f}% |")
    lo, hi = wilson_interval(*total)
    print(f"| all | {total[0]}/{total[1]} | {100 * lo:.0f}%–{100 * hi:.0f}% |")
    if args.out:
        args.out.write_text(json.dumps({"a": args.a, "b": args.b, "states": results, "total": total}, indent=1))


if __name__ == "__main__":
    main()
