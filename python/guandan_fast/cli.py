"""The ``guandan-fast`` command line."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Sequence

import guandan_fast as gf


def _demo(args: argparse.Namespace) -> int:
    hands = gf.deal(args.seed)
    hand = hands[args.seat]
    level = args.level
    print(f"seed {args.seed}, seat {args.seat}, level {level}")
    print("hand:", " ".join(str(c) for c in hand.sorted(level)))
    for mode in ("pattern", "cards"):
        moves = gf.legal_moves(hand, level, mode=mode)
        by_kind = Counter(m.kind for m in moves)
        print(f"\n{len(moves)} leading moves ({mode} level):")
        for kind in gf.KINDS:
            if by_kind[kind]:
                examples = [str(m.cards) for m in moves if m.kind == kind][:3]
                print(f"  {kind:<14}{by_kind[kind]:>6}   e.g. {' | '.join(examples)}")
    reps = 2000
    for mode in ("pattern", "cards"):
        start = time.perf_counter()
        for _ in range(reps):
            gf.count_moves(hand, level, mode=mode)
        per = (time.perf_counter() - start) / reps
        print(f"listing ({mode} level, from Python, no objects): {per * 1e6:.2f} µs per hand")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="guandan-fast", description="Fast, rule-exact Guandan engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="deal a seeded hand and list its legal moves")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--seat", type=int, default=0, choices=range(4))
    demo.add_argument("--level", default="2")
    demo.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except gf.GuandanError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
