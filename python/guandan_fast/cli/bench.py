"""``guandan-fast bench``: a quick speed report of the core paths, from Python.

Rough by design (wall clock, a few timed loops, no warm-up statistics); the
careful figures and how they were taken are in benches/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import TYPE_CHECKING, Callable

from rich import box
from rich.table import Table

import guandan_fast as gf
from guandan_fast._core import _RANKS
from guandan_fast.cli.options import threads_int
from guandan_fast.cli.text import make_console

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "run_bench"]

#: The levels 2..A (the ranks without the jokers).
RANKS = _RANKS[:13]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``bench`` sub-command."""
    b = sub.add_parser("bench", help="a quick speed report of the core paths",
                       description="Times listing, simulation and evaluation from Python (~15 s; --quick ~2 s).")
    b.add_argument("--quick", action="store_true", help="very short loops (for a smoke test)")
    b.add_argument("--threads", type=threads_int, default=0, help="threads for the batch paths, 0 = all cores")
    b.set_defaults(func=run_bench)


def _timed(fn: Callable[[], int], min_seconds: float) -> tuple[float, int]:
    """Calls `fn` (which returns how many items it did) until `min_seconds` have passed; (seconds, items)."""
    items = 0
    start = time.perf_counter()
    while True:
        items += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed, items


def _rate(x: float) -> str:
    return f"{x:,.0f}"


def _per(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e3:.2f} ms"


def run_bench(args: argparse.Namespace) -> int:
    quick = args.quick
    loop = 0.05 if quick else 1.0
    threads = args.threads
    rng = random.Random(20251130)
    mix = [(gf.deal(seed)[0], rng.choice(RANKS)) for seed in range(1, 65)]  # as benches/test_bench_core.py
    console = make_console()
    rows: list[tuple[str, str, str, str]] = []

    def listing(label: str, call: Callable[[gf.Hand, str], object]) -> None:
        def fn() -> int:
            for hand, level in mix:
                call(hand, level)
            return len(mix)

        seconds, n = _timed(fn, loop)
        rows.append((label, f"{n:,}", _per(seconds / n), _rate(n / seconds)))

    listing("count_moves: lead, pattern level", lambda h, lv: gf.count_moves(h, lv, mode="pattern"))
    listing("count_moves: lead, card level", lambda h, lv: gf.count_moves(h, lv))
    listing("legal_moves_array: lead, card level", lambda h, lv: gf.legal_moves_array(h, lv))
    listing("legal_moves: lead, pattern level", lambda h, lv: gf.legal_moves(h, lv, mode="pattern"))
    tops = {lv: gf.Combo("7s 7c", level=lv) for lv in RANKS}
    listing("count_moves: follow a pair, pattern", lambda h, lv: gf.count_moves(h, lv, tops[lv], mode="pattern"))

    batch = 200 if quick else 2000
    for policy, thr in (("random", 1), ("random", threads), ("greedy", threads)):

        def deals(policy: str = policy, thr: int = thr) -> int:
            return len(gf.simulate(batch, seed=1, threads=thr, policy=policy)["winner"])

        seconds, n = _timed(deals, loop)
        where = "1 thread" if thr == 1 else ("all cores" if thr == 0 else f"{thr} threads")
        rows.append((f"simulate: {policy} deals, {where}", f"{n:,}", _per(seconds / n), _rate(n / seconds)))

    game = gf.Game(seed=5)
    playouts = 20 if quick else 200
    actions = gf.count_moves(game.hands[game.current_player or 0], game.level, mode="pattern")
    seconds, n = _timed(
        lambda: int(gf.evaluate(game, playouts=playouts, seed=1, threads=threads)["count"].sum()), loop
    )
    rows.append((f"evaluate: {actions} actions × {playouts} playouts", f"{n:,}", _per(seconds / n), _rate(n / seconds)))

    title = f"guandan_fast {gf.__version__}: rough timings from Python{' (--quick)' if quick else ''}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("what")
    table.add_column("done", justify="right", no_wrap=True)
    table.add_column("each", justify="right", no_wrap=True)
    table.add_column("per second", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print(
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} logical cores, "
        f"threads={threads} (0 = all). Items: listings of 64 seeded 27-card hands at mixed levels "
        "(as benches/test_bench_core.py), whole deals, playouts. Wall clock on a possibly busy machine: "
        "benches/README.md has careful figures."
    )
    return 0
