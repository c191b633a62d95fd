"""``guandan-fast collect``: plays seeded deals (or games) with built-in
policies natively and writes every decision as rows of an npz file (the
arrays of `gf.collect`), with a progress bar.

The episodes are collected by ``guandan_fast.distributed.collect`` in chunks
of `BLOCK` (so that the progress bar moves): chunk ``b`` is episodes
``BLOCK*b ..`` of the seeded stream, and the chunks concatenate to exactly the
arrays of one call ``gf.collect(n, seed=seed, ...)``, whatever ``--threads``.
``--ray [ADDRESS]`` collects the same arrays in measured chunks on a Ray
cluster.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from guandan_fast.cli.options import (
    POLICY_HELP,
    CliError,
    add_ray_argument,
    add_rules_arguments,
    backend_from_args,
    check_policy,
    positive_int,
    rules_from_args,
    seed_int,
    threads_int,
)
from guandan_fast.cli.text import make_console
from guandan_fast.distributed import collect

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["BLOCK", "add_parser", "run_collect"]

#: Episodes per chunk on this machine.
BLOCK = 50


def add_parser(sub: Subparsers) -> None:
    """Adds the ``collect`` sub-command."""
    c = sub.add_parser(
        "collect", help="record the decisions of seeded deals played by built-in policies (for offline RL)",
        description="Plays N seeded deals (or games) with built-in policies natively and writes every decision "
        "(observation, action index, legal mask, reward-to-go, seat, phase, deal id) to an .npz file. "
        "Policies: one for every seat or four, seats 0..3: " + POLICY_HELP + ".",
    )
    c.add_argument("policies", nargs="+", metavar="POLICY", help="one policy (every seat) or four (seats 0..3)")
    c.add_argument("--n", "-n", type=positive_int, default=100, help="deals (or games) to play (default 100)")
    c.add_argument("--out", type=Path, metavar="FILE.npz", required=True, help="the npz file to write")
    c.add_argument("--unit", choices=("deal", "game"), default="deal", help="episodes: single deals or whole games (default deal)")
    c.add_argument("--reward", choices=("deal", "game"), default="deal", help="rewards per deal (±levels) or per game (±1)")
    c.add_argument("--observation", choices=("danzero", "guandan"), default="danzero", help="observation encoding (default danzero)")
    c.add_argument("--no-masks", action="store_true", help="leave the legal-action masks out (2321 bytes a decision)")
    c.add_argument("--seed", type=seed_int, default=0, help="seed of the run (default 0)")
    c.add_argument("--threads", type=threads_int, default=0, help="threads, 0 = all cores (default 0)")
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_ray_argument(c)
    add_rules_arguments(c)
    c.set_defaults(func=run_collect)


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
        backend, chunk = backend_from_args(args, BLOCK)
        options: dict[str, Any] = dict(
            policy=policy, rules=rules, observation=args.observation, unit=args.unit, reward=args.reward, masks=not args.no_masks
        )
        data = collect(
            args.n, seed=args.seed, backend=backend, chunk=chunk, progress=lambda k: progress.advance(task, k), **options
        )
    arrays: dict[str, Any] = data  # numpy's stubs type the keyword arguments as its allow_pickle flag
    np.savez_compressed(args.out, **arrays)
    console = make_console()
    console.print(f"{len(data['action'])} decisions of {args.n} {args.unit}s")
    console.print(f"wrote {args.out}", soft_wrap=True)
    return 0
