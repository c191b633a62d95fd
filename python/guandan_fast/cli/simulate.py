"""``guandan-fast simulate``: pits policies (and models, ``onnx:PATH`` or
``puct:PATH``) against each other over seeded deals or games, with a progress
bar, a summary table and ``--out`` to JSON or npz.

Seeding. Every pairing plays the same deals: one ``gf.pit(a, b, n=n,
seed=seed)`` in chunks of `BLOCK` deals (or games), so that the progress bar
moves — chunk ``b`` is deals ``BLOCK*b ..`` of the same seeded stream. The
result depends only on the seed, ``n``, the policies, the rules and the
mode, not on ``--threads`` nor on the terminal. With ``--ray [ADDRESS]`` the
pit runs on a Ray cluster in measured chunks (the same deals, the same
record; the bar advances as chunks complete).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import guandan_fast as gf
from guandan_fast.cli.options import (
    MODEL_HELP,
    POLICY_HELP,
    CliError,
    add_ray_argument,
    add_rules_arguments,
    backend_from_args,
    check_policy,
    model_bot,
    positive_int,
    rules_from_args,
    seed_int,
    threads_int,
)
from guandan_fast.cli.text import make_console
from guandan_fast.models import is_model_name

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers
    from guandan_fast.distributed import Backend

__all__ = ["BLOCK", "add_parser", "run_simulate"]

#: Deals (or games) per chunk of a pairing on this machine (recorded in ``--out``'s settings).
BLOCK = 25


def add_parser(sub: Subparsers) -> None:
    """Adds the ``simulate`` sub-command."""
    s = sub.add_parser(
        "simulate", help="pit policies (or models) against each other over seeded deals or games",
        description="Pits every pair of the given policies over N seeded deals (or games), each pairing with "
        "seats swapped, and prints win rates with 95% confidence intervals. Policies: " + POLICY_HELP + "; "
        + MODEL_HELP + ", played one decision at a time in this process (or each --ray worker).",
    )
    s.add_argument("policies", nargs="*", default=["greedy", "random"], metavar="POLICY",
                   help="two or more policies or models (default: greedy random); every pair is played")
    s.add_argument("--n", "-n", type=positive_int, default=200, help="deals (or games) per seating (default 200)")
    s.add_argument("--unit", choices=("deal", "game"), default="deal", help="play single deals or whole games (default deal)")
    s.add_argument("--seed", type=seed_int, default=0, help="seed of the run (default 0)")
    s.add_argument("--threads", type=threads_int, default=0, help="threads, 0 = all cores (default 0)")
    s.add_argument("--mode", choices=("pattern", "cards"), default="pattern", help="move listing the policies choose from")
    s.add_argument("--out", type=Path, metavar="FILE", help="also write the results to FILE.json or FILE.npz")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_ray_argument(s)
    add_rules_arguments(s)
    s.set_defaults(func=run_simulate)


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
    for p in policies:  # every name checked (every model loaded) before the first pairing plays
        if is_model_name(p):
            model_bot(p)
        else:
            check_policy(p)
    args.policies = policies
    out: Path | None = args.out
    if out is not None and out.suffix.lower() not in (".json", ".npz"):
        raise CliError(f"--out must end in .json or .npz, not {out.name!r}")
    if out is not None and not out.resolve().parent.is_dir():
        raise CliError(f"--out {out}: the folder {out.resolve().parent} does not exist")
    rules = rules_from_args(args)
    err = make_console(stderr=True)
    backend, chunk = backend_from_args(args, BLOCK)
    with backend:  # one connection to a cluster for every pairing
        results, total = _play(_pairings(policies), args, rules, err, backend, chunk)
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
    pairs: list[tuple[str, str]], args: argparse.Namespace, rules: gf.Rules, err: Any, backend: Backend, chunk: int | None
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
            r = gf.pit(
                a, b, n=args.n, seed=args.seed, unit=args.unit, rules=rules, mode=args.mode,
                backend=backend, chunk=chunk, progress=functools.partial(progress.advance, task),
            )
            results.append((r, time.perf_counter() - t0))
    return results, time.perf_counter() - start
