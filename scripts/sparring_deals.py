"""Read sparring records deal by deal: the hands, the tricks, the finish.

Prints the deals of the game lines of the record files given (or of every
``*.jsonl`` under a folder), seen from our bots (``*`` marks our seats):
the hands after tribute, each trick as ``seat:play`` (``.`` a pass), and
the finishing order with the level state. ``--lost`` keeps the deals our
team lost, ``--their-double`` those the other team finished 1-2,
``--at-a`` those played at a team's A.

    python scripts/sparring_deals.py benches/sparring-records/rule--ai1 --their-double --limit 5
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Iterator

import guandan_fast as gf
from guandan_fast.platform import action_from_code, read_record
from guandan_fast.platform.record import rules_from_record


def game_lines(paths: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file name, line) of every finished game line under `paths`."""
    for p in paths:
        files = sorted(Path(p).rglob("*.jsonl")) if Path(p).is_dir() else [Path(p)]
        for f in files:
            if f.name == "matches.jsonl":
                continue
            for line in read_record(f):
                if line.get("type") == "game":
                    yield f.name, line


def ours(line: dict[str, Any]) -> int:
    """Our team of a game line."""
    return next(int(s) % 2 for s, n in line["seats"].items() if str(n).startswith("bot "))


def is_pass(a: Any) -> bool:
    """Whether an action is a pass."""
    return type(a).__name__ == "Pass"


def text(a: Any) -> str:
    """A play, short: its cards, with its kind unless a single, pair or triple."""
    cards = str(a.cards).replace(" ", "")
    return cards if a.kind in ("Single", "Pair", "Triple") else f"{a.kind}:{cards}"


def deals(line: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each deal of a game line replayed: hands at the start of play, tricks, result."""
    rules = rules_from_record(line["rules"])
    g = gf.Game(seed=line["seed"], rules=rules)
    for d in line["deals"]:
        start = None
        tricks: list[list[str]] = []
        events = []
        lv = (g.levels, g.declarer, g.a_fails)
        for seat, code, *_ in d["actions"]:
            if g.phase == "play" and start is None:
                start = [str(h) for h in g.hands]
            a = action_from_code(code, d["level"], rules)
            if g.phase in ("tribute", "return"):
                events.append(f"{g.phase} {seat}:{a}")
            elif g.phase == "play":
                if g.top is None:
                    tricks.append([])
                left = g.hand_sizes[seat] - (0 if is_pass(a) else len(a.cards))
                tricks[-1].append(f"{seat}:{'.' if is_pass(a) else text(a)}" + (f"({left})" if left <= 10 and not is_pass(a) else ""))
            g.apply(a)
        res = g.deals[-1] if g.deals else {}
        yield {"level": d["level"], "levels": lv, "start": start, "events": events, "tricks": tricks, "result": res}
        if g.phase in ("deal_over", "game_over"):
            g.next_deal()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--lost", action="store_true")
    ap.add_argument("--their-double", action="store_true")
    ap.add_argument("--at-a", action="store_true")
    ap.add_argument("--limit", type=int, default=10)
    args = ap.parse_args()
    shown = 0
    for name, line in game_lines(args.paths):
        t = ours(line)
        for k, d in enumerate(deals(line)):
            r = d["result"]
            order = list(r.get("finish_order", []))
            if not order:
                continue
            if args.lost and r["winner"] == t:
                continue
            if args.their_double and not (order[0] % 2 == order[1] % 2 != t):
                continue
            levels, declarer, fails = d["levels"]
            if args.at_a and d["level"] != "A":
                continue
            print(f"== {name} game {line['game']} deal {k}: level {d['level']} levels {levels} declarer {declarer} fails {fails}")
            for s, h in enumerate(d["start"] or []):
                print(f"  {'*' if s % 2 == t else ' '}{s}: {h}")
            for e in d["events"]:
                print("  ", e)
            for tr in d["tricks"]:
                print("   " + "  ".join(tr))
            print(f"  finish {order} winner {r['winner']} gain {r['gain']} game_winner {r['game_winner']}")
            shown += 1
            if shown >= args.limit:
                return


if __name__ == "__main__":
    main()
