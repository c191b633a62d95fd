"""``guandan-fast tournament``: runs a `Tournament` of policies with a progress
bar, prints the bracket tree and standings, and writes ``--out`` JSON and
``--svg`` a bracket picture."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guandan_fast._core import Rules
from guandan_fast.cli.options import (
    POLICY_HELP,
    CliError,
    add_ray_argument,
    add_rules_arguments,
    backend_from_args,
    check_policy,
    rules_kwargs,
)
from guandan_fast.cli.text import make_console
from guandan_fast.tournament import FORMATS, MatchResult, Tournament
from guandan_fast.tournament.render import bracket_svg, bracket_tree, standings_table, write_json

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "run_tournament"]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``tournament`` sub-command."""
    t = sub.add_parser(
        "tournament", help="run a knockout, qualify-final, race, round-robin or swiss tournament of policies",
        description="Runs a seeded tournament of built-in policies (docs/tournaments.md). Entrants: " + POLICY_HELP
        + "; a policy named twice enters twice. --best-of and --max-deals apply to each match; at the deal limit a "
        "match ends on levels or (--at-limit sudden-death) switches to sudden death.",
    )
    t.add_argument("entrants", nargs="+", metavar="POLICY", help="two or more entrants (policy names; commas also separate)")
    t.add_argument("--format", choices=FORMATS, default="knockout", help="the format (default knockout)")
    t.add_argument("--units", metavar="U,U,...", help="one unit per entrant (empty for none), e.g. A,A,B,,C: same-unit entrants are drawn apart")
    t.add_argument("--at-limit", choices=("levels", "sudden-death"), default="levels", help="what a match does at --max-deals (default levels)")
    t.add_argument("--third-place", action="store_true", help="knockout: play a third-place play-off")
    t.add_argument("--qualify-deals", type=int, default=6, metavar="N", help="qualify_final: deals per qualifying table (default 6)")
    t.add_argument("--rounds", type=int, metavar="N", help="swiss: rounds (default ceil(log2 entrants))")
    t.add_argument("--seed", type=int, default=0, help="seed of the tournament (default 0)")
    t.add_argument("--threads", type=int, default=0, help="threads, 0 = all cores (default 0)")
    t.add_argument("--out", type=Path, metavar="FILE.json", help="write standings, bracket and matches as JSON")
    t.add_argument("--records", action="store_true", help="with --out: include every game's full record (replayable)")
    t.add_argument("--svg", type=Path, metavar="FILE.svg", help="write a bracket (or standings) picture")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_ray_argument(t)
    add_rules_arguments(t)
    t.set_defaults(func=run_tournament)


def _check_out(path: Path | None, suffix: str, flag: str) -> None:
    if path is None:
        return
    if path.suffix.lower() != suffix:
        raise CliError(f"{flag} must end in {suffix}, not {path.name!r}")
    if not path.resolve().parent.is_dir():
        raise CliError(f"{flag} {path}: the folder {path.resolve().parent} does not exist")


def run_tournament(args: argparse.Namespace) -> int:
    entrants = [p for item in args.entrants for p in item.split(",") if p]
    if len(entrants) < 2:
        raise CliError("name at least two entrants, e.g. `tournament greedy random`")
    for p in entrants:
        check_policy(p)
    units = None
    if args.units is not None:
        units = [u.strip() or None for u in args.units.split(",")]
        if len(units) != len(entrants):
            raise CliError(f"--units must give one unit per entrant ({len(entrants)}), not {len(units)}")
    _check_out(args.out, ".json", "--out")
    _check_out(args.svg, ".svg", "--svg")
    kw = rules_kwargs(args)
    best_of = kw.pop("best_of", 1)
    max_deals = kw.pop("max_deals", None)
    t = Tournament(
        entrants, format=args.format, best_of=best_of, rules=Rules(**kw), max_deals=max_deals,
        at_limit="sudden_death" if args.at_limit == "sudden-death" else "levels", third_place=args.third_place,
        qualify_deals=args.qualify_deals, rounds=args.rounds, units=units, seed=args.seed, threads=args.threads,
    )
    err = make_console(stderr=True)
    with Progress(
        TextColumn("matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, disable=args.no_progress or not err.is_terminal,
    ) as progress:
        task = progress.add_task("matches", total=None)
        def on_batch(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        backend, chunk = backend_from_args(args, None)  # locally: each batch one native call
        with tempfile.TemporaryFile("w+", encoding="utf-8", dir=args.out.resolve().parent if args.out else None) as spool:
            # With --records every match's games are written out as they are played, not kept.
            def on_match(stage: str, a: str, b: str, r: MatchResult) -> None:
                spool.write(json.dumps(dict(stage=stage, a=a, b=b, **r.to_dict(True)), ensure_ascii=False) + "\n")

            result = t.run(backend, on_batch, chunk=chunk, on_match=on_match if args.out and args.records else None)
            if args.out is not None:
                spool.seek(0)
                with open(args.out, "w", encoding="utf-8") as f:
                    write_json(result, f, spool if args.records else None)
    console = make_console()
    console.print(bracket_tree(result))
    console.print(standings_table(result))
    console.print(f"{len(result.matches)} matches; winner: {result.winner}")
    if args.out is not None:
        console.print(f"wrote {args.out}")
    if args.svg is not None:
        args.svg.write_text(bracket_svg(result), encoding="utf-8")
        console.print(f"wrote {args.svg}")
    return 0
