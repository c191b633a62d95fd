"""``guandan-fast demo``: a seeded hand, its legal moves by kind, and how fast they are listed."""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import TYPE_CHECKING, Literal

import guandan_fast as gf
from guandan_fast.cli.options import bounded_int, seed_int

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "run_demo"]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``demo`` sub-command."""
    d = sub.add_parser("demo", help="deal a seeded hand and list its legal moves")
    d.add_argument("--seed", type=seed_int, default=1)
    d.add_argument("--seat", type=bounded_int(0, 3), default=0, metavar="SEAT")
    d.add_argument("--level", default="2")
    d.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    hands = gf.deal(args.seed)
    hand = hands[args.seat]
    level = args.level
    print(f"seed {args.seed}, seat {args.seat}, level {level}")
    print("hand:", " ".join(str(c) for c in hand.sorted(level)))
    modes: tuple[Literal["pattern", "cards"], ...] = ("pattern", "cards")
    for mode in modes:
        moves = gf.legal_moves(hand, level, mode=mode)
        by_kind = Counter(m.kind for m in moves)
        print(f"\n{len(moves)} leading moves ({mode} level):")
        for kind in gf.KINDS:
            if by_kind[kind]:
                examples = [str(m.cards) for m in moves if m.kind == kind][:3]
                print(f"  {kind:<14}{by_kind[kind]:>6}   e.g. {' | '.join(examples)}")
    reps = 2000
    for mode in modes:
        start = time.perf_counter()
        for _ in range(reps):
            gf.count_moves(hand, level, mode=mode)
        per = (time.perf_counter() - start) / reps
        print(f"listing ({mode} level, from Python, no objects): {per * 1e6:.2f} µs per hand")
    return 0
