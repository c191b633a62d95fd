"""``guandan-fast simulate``: pits policies against each other over seeded deals
or games, with a progress bar, a summary table and ``--out`` to JSON or npz.

Seeding. Every pairing plays the same deals. Its ``n`` deals (or games) are
played in blocks of `BLOCK`, so that the progress bar moves: block ``b`` is
``gf.pit(a, b, n=min(BLOCK, n - BLOCK*b), seed=seed, start=BLOCK*b)`` — deals
``BLOCK*b ..`` of the same seeded stream — and the blocks' records are added
up. The result is exactly ``gf.pit(a, b, n=n, seed=seed)``: it depends only on
the seed, ``n``, the policies, the rules and the mode, not on ``--threads``
nor on the terminal. With ``--ray [ADDRESS]`` a pairing is one
``guandan_fast.distributed.pit`` on a Ray cluster instead, in measured chunks
(the same deals, the same record; the bar advances as chunks complete).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import json
import time
from pathlib import Path
from typing import Any, Callable, Literal

import numpy as np
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import guandan_fast as gf
from guandan_fast.arena import wilson_interval
from guandan_fast.cli.options import CliError, check_policy, ray_backend, rules_from_args
from guandan_fast.cli.text import make_console

__all__ = ["BLOCK", "run_pairing", "run_simulate"]

#: Deals (or games) per `gf.pit` call; fixed, because it is part of the seeding.
BLOCK = 25
#: Seed step between blocks (a prime: blocks of nearby seeds do not overlap for seeds below it).
def run_pairing(
    a: str,
    b: str,
    *,
    n: int,
    seed: int = 0,
    threads: int = 0,
    unit: Literal["deal", "game"] = "deal",
    rules: gf.Rules | None = None,
    mode: Literal["cards", "pattern"] = "pattern",
    on_block: Callable[[int], None] | None = None,
    backend: Any = None,
) -> gf.PitResult:
    """`gf.pit` of `a` against `b` in blocks (see the module docstring); `on_block(played)` after each.
    With a `backend` (guandan_fast.distributed), one chunked `pit` on it."""
    if backend is not None:
        from guandan_fast.distributed import pit

        return pit(a, b, n=n, seed=seed, threads=threads, unit=unit, rules=rules, mode=mode, backend=backend, progress=on_block)
    played = wins = 0
    gain_sum = deals_sum = 0.0
    for start in range(0, n, BLOCK):
        size = min(BLOCK, n - start)
        r = gf.pit(a, b, n=size, seed=seed, start=start, threads=threads, unit=unit, rules=rules, mode=mode)
        played += r.played
        wins += r.a_wins
        gain_sum += r.mean_gain * r.played
        deals_sum += r.deals_per_game * r.played
        if on_block is not None:
            on_block(r.played)
    return gf.PitResult(
        a=a,
        b=b,
        unit=unit,
        played=played,
        a_wins=wins,
        win_rate=wins / played,
        ci95=wilson_interval(wins, played),
        mean_gain=gain_sum / played,
        deals_per_game=deals_sum / played,
    )


def _pairings(policies: list[str]) -> list[tuple[str, str]]:
    return list(itertools.combinations(policies, 2))


def _summary_table(results: list[tuple[gf.PitResult, float]], args: argparse.Namespace) -> Table:
    unit = args.unit
    title = f"{args.n} {unit}s per seating, seats swapped (× 2), seed {args.seed}, {args.mode} level"
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("A", no_wrap=True)
    t.add_column("B", no_wrap=True)
    t.add_column("A wins", justify="right", no_wrap=True)
    t.add_column("A win rate", justify="right", no_wrap=True)
    t.add_column("95% CI", justify="right", no_wrap=True)
    if unit == "deal":
        t.add_column("A levels/deal", justify="right", no_wrap=True)
    else:
        t.add_column("deals/game", justify="right", no_wrap=True)
    t.add_column("time", justify="right", no_wrap=True)
    for r, seconds in results:
        lo, hi = r.ci95
        last = f"{r.mean_gain:+.2f}" if unit == "deal" else f"{r.deals_per_game:.1f}"
        t.add_row(
            r.a, r.b, f"{r.a_wins}/{r.played}", f"{r.win_rate:.1%}", f"{lo:.1%}–{hi:.1%}", last, f"{seconds:.1f} s"
        )
    return t


def _record(r: gf.PitResult, seconds: float) -> dict[str, Any]:
    return {
        "a": r.a,
        "b": r.b,
        "unit": r.unit,
        "played": r.played,
        "a_wins": r.a_wins,
        "win_rate": r.win_rate,
        "ci95": list(r.ci95),
        "mean_gain": r.mean_gain,
        "deals_per_game": r.deals_per_game,
        "seconds": seconds,
    }


def _settings(args: argparse.Namespace, rules: gf.Rules) -> dict[str, Any]:
    rd = rules.to_dict()
    rd["upgrade"] = {str(k): v for k, v in rd["upgrade"].items()}
    return {
        "guandan_fast": gf.__version__,
        "policies": args.policies,
        "n": args.n,
        "unit": args.unit,
        "seed": args.seed,
        "mode": args.mode,
        "block": BLOCK,
        "seeding": f"block b of a pairing is gf.pit(a, b, n=min({BLOCK}, n - {BLOCK}*b), seed=seed, start={BLOCK}*b); together exactly gf.pit(a, b, n=n, seed=seed)",
        "rules": rd,
    }


def _write(path: Path, settings: dict[str, Any], records: list[dict[str, Any]]) -> None:
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps({**settings, "results": records}, indent=2) + "\n", encoding="utf-8")
        return
    with path.open("wb") as f:
        np.savez(
            f,
            a=np.array([r["a"] for r in records], dtype=str),
            b=np.array([r["b"] for r in records], dtype=str),
            played=np.array([r["played"] for r in records], dtype=np.int64),
            a_wins=np.array([r["a_wins"] for r in records], dtype=np.int64),
            win_rate=np.array([r["win_rate"] for r in records], dtype=np.float64),
            ci95=np.array([r["ci95"] for r in records], dtype=np.float64).reshape(-1, 2),
            mean_gain=np.array([r["mean_gain"] for r in records], dtype=np.float64),
            deals_per_game=np.array([r["deals_per_game"] for r in records], dtype=np.float64),
            seconds=np.array([r["seconds"] for r in records], dtype=np.float64),
            settings=np.array(json.dumps(settings)),
        )


def run_simulate(args: argparse.Namespace) -> int:
    policies = [p for item in args.policies for p in item.split(",") if p]
    if len(policies) < 2:
        raise CliError("name at least two policies to pit against each other, e.g. `simulate greedy random`")
    for p in policies:
        check_policy(p)
    args.policies = policies
    out: Path | None = args.out
    if out is not None and out.suffix.lower() not in (".json", ".npz"):
        raise CliError(f"--out must end in .json or .npz, not {out.name!r}")
    if out is not None and not out.resolve().parent.is_dir():
        raise CliError(f"--out {out}: the folder {out.resolve().parent} does not exist")
    rules = rules_from_args(args)
    err = make_console(stderr=True)
    pairs = _pairings(policies)
    with contextlib.ExitStack() as stack:
        backend = None if args.ray is None else stack.enter_context(ray_backend(args.ray))
        results, total = _play(pairs, args, rules, err, backend)
    console = make_console()
    console.print(_summary_table(results, args))
    played = sum(r.played for r, _ in results)
    console.print(f"{played} {args.unit}s in {total:.1f} s ({played / max(total, 1e-9):,.0f} per second).")
    if args.unit == "deal":
        console.print("A levels/deal: A's mean level change per deal (+gain when A's side goes out first, -gain otherwise).")
    if out is not None:
        _write(out, _settings(args, rules), [_record(r, s) for r, s in results])
        console.print(f"wrote {out}")
    return 0


def _play(
    pairs: list[tuple[str, str]], args: argparse.Namespace, rules: gf.Rules, err: Any, backend: Any
) -> tuple[list[tuple[gf.PitResult, float]], float]:
    """Every pairing's record and its seconds, with a progress bar; the total seconds."""
    results: list[tuple[gf.PitResult, float]] = []
    start = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(f"{args.unit}s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.no_progress or not err.is_terminal,
    ) as progress:
        tasks = [progress.add_task(f"{a} vs {b}", total=2 * args.n, start=False) for a, b in pairs]
        for (a, b), task in zip(pairs, tasks):
            progress.start_task(task)
            t0 = time.perf_counter()
            r = run_pairing(
                a, b, n=args.n, seed=args.seed, threads=args.threads, unit=args.unit, rules=rules, mode=args.mode,
                on_block=functools.partial(progress.advance, task), backend=backend,
            )
            results.append((r, time.perf_counter() - t0))
    return results, time.perf_counter() - start
