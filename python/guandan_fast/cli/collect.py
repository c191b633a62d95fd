"""``guandan-fast collect``: plays seeded deals (or games) with built-in
policies natively and writes every decision as rows of an npz file (the
arrays of `gf.collect`), with a progress bar.

The episodes are collected in blocks of `BLOCK`: block ``b`` is
``gf.collect(min(BLOCK, n - BLOCK*b), start=BLOCK*b, seed=seed, ...)``, and
chunks of the seeded stream concatenate to exactly the arrays of one call
``gf.collect(n, seed=seed, ...)``, whatever ``--threads``. ``--ray [ADDRESS]``
collects the same arrays in measured chunks on a Ray cluster
(``guandan_fast.distributed.collect``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import guandan_fast as gf
from guandan_fast.cli.options import CliError, check_policy, ray_backend, rules_from_args
from guandan_fast.cli.text import make_console

__all__ = ["BLOCK", "collect_blocks", "run_collect"]

#: Episodes per `gf.collect` call.
BLOCK = 50


def collect_blocks(n: int, *, on_block: Callable[[int], None] | None = None, **kwargs: Any) -> dict[str, np.ndarray]:
    """`gf.collect(n, **kwargs)` in blocks of `BLOCK` episodes, concatenated; `on_block(k)` after each."""
    parts: list[dict[str, np.ndarray]] = []
    for start in range(0, n, BLOCK):
        size = min(BLOCK, n - start)
        parts.append(dict(gf.collect(size, start=start, **kwargs)))
        if on_block is not None:
            on_block(size)
    if not parts:
        return dict(gf.collect(0, **kwargs))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def run_collect(args: argparse.Namespace) -> int:
    policies = [check_policy(p) for p in args.policies]
    if len(policies) not in (1, 4):
        raise CliError(f"give one policy (every seat) or four (seats 0..3), not {len(policies)}")
    if args.out.suffix != ".npz":
        raise CliError(f"--out must name an .npz file, not {args.out}")
    if not args.out.resolve().parent.is_dir():
        raise CliError(f"--out {args.out}: the folder {args.out.resolve().parent} does not exist")
    rules = rules_from_args(args)
    policy: str | list[str] = policies[0] if len(policies) == 1 else policies
    err = make_console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.no_progress or not err.is_terminal,
    ) as progress:
        task = progress.add_task(f"collecting {args.unit}s", total=args.n)
        kwargs: dict[str, Any] = dict(
            policy=policy, seed=args.seed, threads=args.threads, rules=rules, observation=args.observation,
            unit=args.unit, reward=args.reward, masks=not args.no_masks,
        )
        if args.ray is None:
            data = collect_blocks(args.n, on_block=lambda k: progress.advance(task, k), **kwargs)
        else:
            from guandan_fast.distributed import collect

            data = collect(args.n, backend=ray_backend(args.ray), progress=lambda k: progress.advance(task, k), **kwargs)
    np.savez_compressed(args.out, **data)
    console = make_console()
    console.print(f"{len(data['action'])} decisions of {args.n} {args.unit}s")
    console.print(f"wrote {args.out}", soft_wrap=True)
    return 0
