"""``guandan-fast tournament``: runs a `Tournament` of policies and models with a progress
bar, prints the bracket tree and standings, and writes ``--out`` JSON and
``--svg`` a bracket picture. With a command word first and ``--event FILE``
it runs a knockout that people play (`tournament.people.Event`): ``create``
the event from a list of teams, show the ``pairings`` to play now,
``report`` a result, print the ``bracket`` and the ``standings`` (``--out``
their JSON, ``--svg`` the bracket)."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guandan_fast._core import GuandanError, Rules
from guandan_fast.cli.options import (
    MODEL_HELP,
    POLICY_HELP,
    CliError,
    add_ray_argument,
    add_rules_arguments,
    backend_from_args,
    check_policy,
    model_bot,
    rules_kwargs,
)
from guandan_fast.cli.text import make_console
from guandan_fast.models import is_model_name
from guandan_fast.tournament import FORMATS, Event, MatchResult, Tournament
from guandan_fast.tournament.people import ENDINGS, TIE_BREAKS
from guandan_fast.tournament.render import bracket_svg, bracket_tree, standings_table, write_json

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "run_tournament"]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``tournament`` sub-command."""
    t = sub.add_parser(
        "tournament", help="run a knockout, qualify-final, race, round-robin or swiss tournament of policies and models",
        description="Runs a seeded tournament of built-in policies and models (docs/tournaments.md). Entrants: " + POLICY_HELP
        + "; " + MODEL_HELP + ", each match played by new bots of it seeded by the match; a name given twice enters "
        "twice. --best-of and --max-deals apply to each match; at the deal limit a match ends on levels or "
        "(--at-limit sudden-death) switches to sudden death.",
    )
    t.add_argument("entrants", nargs="+", metavar="ENTRANT",
                   help="two or more entrants (policy or model names; commas also separate); or, with --event, one of the "
                        "commands create TEAM..., pairings, report TEAM_A TEAM_B, bracket, standings (a team NAME=POLICY "
                        "or NAME=onnx:PATH, NAME=puct:PATH is played by that bot)")
    t.add_argument("--format", choices=FORMATS, default="knockout", help="the format (default knockout)")
    t.add_argument("--units", metavar="U,U,...", help="one unit per entrant (empty for none), e.g. A,A,B,,C: same-unit entrants are drawn apart")
    t.add_argument("--at-limit", choices=("levels", "lots", "sudden-death"), default="levels",
                   help="what a match does at --max-deals: end on levels, equal levels to the last first out (levels) or by "
                        "seeded lots (lots), or switch to sudden death (default levels)")
    t.add_argument("--third-place", action="store_true", help="knockout: play a third-place play-off")
    t.add_argument("--qualify-deals", type=int, default=6, metavar="N", help="qualify_final: deals per qualifying table (default 6)")
    t.add_argument("--rounds", type=int, metavar="N", help="swiss: rounds (default ceil(log2 entrants))")
    t.add_argument("--seed", type=int, default=0, help="seed of the tournament (default 0)")
    t.add_argument("--threads", type=int, default=0, help="threads, 0 = all cores (default 0)")
    t.add_argument("--out", type=Path, metavar="FILE.json", help="write standings, bracket and matches as JSON")
    t.add_argument("--records", action="store_true", help="with --out: include every game's full record (replayable)")
    t.add_argument("--svg", type=Path, metavar="FILE.svg", help="write a bracket (or standings) picture")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    e = t.add_argument_group("an event that people play (a knockout; commands create, pairings, report, bracket, standings)")
    e.add_argument("--event", type=Path, metavar="FILE.json", help="the event's file (created by create, updated by report)")
    e.add_argument("--winner", metavar="TEAM", help="report: the winning team")
    e.add_argument("--games", metavar="A-B", help="report: the games won by TEAM_A and TEAM_B (default what --best-of needs)")
    e.add_argument("--ending", choices=ENDINGS, help="report: how the match ended (default played, or levels with --levels)")
    e.add_argument("--deals", type=int, metavar="N", help="report: the deals played")
    e.add_argument("--levels", metavar="A,B",
                   help="report: the levels of TEAM_A and TEAM_B when the match stopped at the deal limit (ending levels or "
                        "sudden_death), e.g. K,9")
    e.add_argument("--tie-break", choices=TIE_BREAKS,
                   help="create: how the event decides equal levels (or games) of a match ended on levels: to the last "
                        "deal's first team out or by drawing lots (docs/rules.md §9); report: how this match's were decided")
    e.add_argument("--penalty", action="append", default=[], metavar="TEAM:KIND",
                   help="report: a referee's decision of the match (docs/rules.md §10), e.g. 'team B:minus_two'; repeatable")
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


#: The commands of an event that people play.
EVENT_COMMANDS = ("create", "pairings", "report", "bracket", "standings")


def run_event(args: argparse.Namespace) -> int:
    """Runs one command of an event that people play (``--event FILE``)."""
    command, *rest = args.entrants
    if args.event is None:
        raise CliError(f"{command} needs --event FILE.json")
    _check_out(args.out, ".json", "--out")
    _check_out(args.svg, ".svg", "--svg")
    try:
        if command == "create":
            teams = [t.strip() for item in rest for t in item.split(",") if t.strip()]
            names = [t.split("=", 1)[0] for t in teams]
            players = [t.split("=", 1)[1] if "=" in t else None for t in teams]
            for p in players:
                if p is not None and is_model_name(p):
                    model_bot(p)  # the model loaded and checked before the event is saved
            units = None
            if args.units is not None:
                units = [u.strip() or None for u in args.units.split(",")]
            best_of = rules_kwargs(args).get("best_of", 1)
            event = Event.create(
                names, units=units, players=players, seed=args.seed, best_of=best_of, third_place=args.third_place, tie_break=args.tie_break,
            )
            event.play_bots()
            event.save(args.event)
        else:
            if not args.event.is_file():
                raise CliError(f"--event {args.event}: no such file (create it with `tournament create TEAM... --event FILE`)")
            event = Event.load(args.event)
        if command == "report":
            if len(rest) != 2 or args.winner is None:
                raise CliError("report takes TEAM_A TEAM_B and --winner TEAM")
            games = None
            if args.games is not None:
                parts = args.games.split("-")
                if len(parts) != 2 or not all(p.isdigit() for p in parts):
                    raise CliError(f"--games must be A-B, like 2-1, not {args.games!r}")
                games = [int(p) for p in parts]
            penalties = []
            for p in args.penalty:
                team, sep, kind = p.rpartition(":")
                if not sep:
                    raise CliError(f"--penalty must be TEAM:KIND, not {p!r}")
                penalties.append((team, kind))
            levels = None
            if args.levels is not None:
                levels = [p.strip() for p in args.levels.split(",")]
                if len(levels) != 2 or not all(levels):
                    raise CliError(f"--levels must be A,B (the levels of TEAM_A and TEAM_B), like K,9, not {args.levels!r}")
            ending = args.ending or ("levels" if levels is not None else "played")
            event.report(
                rest[0], rest[1], winner=args.winner, games=games, ending=ending, deals=args.deals, penalties=penalties,
                levels=levels, tie_break=args.tie_break,
            )
            event.play_bots()
            event.save(args.event)
        elif command != "create" and rest:
            raise CliError(f"{command} takes no teams, got {' '.join(rest)}")
    except GuandanError as e:
        raise CliError(str(e)) from None
    console = make_console()
    if command in ("create", "report", "pairings"):
        now = event.pairings()
        if not now:
            console.print("nothing to play now: the event is over" if event.over else "nothing to play now")
        for stage, a, b in now:
            console.print(f"{stage}: {a} – {b}")
    result = event.result()
    if command in ("bracket", "report") or command == "create" and event.over:
        console.print(bracket_tree(result))
    if command in ("standings", "report"):
        console.print(standings_table(result))
    if args.out is not None:
        with open(args.out, "w", encoding="utf-8") as f:
            write_json(result, f)
        console.print(f"wrote {args.out}")
    if args.svg is not None:
        args.svg.write_text(bracket_svg(result), encoding="utf-8")
        console.print(f"wrote {args.svg}")
    return 0


def run_tournament(args: argparse.Namespace) -> int:
    if args.entrants[0] in EVENT_COMMANDS:
        return run_event(args)
    entrants = [p for item in args.entrants for p in item.split(",") if p]
    if len(entrants) < 2:
        raise CliError("name at least two entrants, e.g. `tournament greedy random`")
    for p in entrants:
        if not is_model_name(p):
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
    try:  # a model is loaded and checked here, before any match
        t = Tournament(
            entrants, format=args.format, best_of=best_of, rules=Rules(**kw), max_deals=max_deals,
            at_limit=args.at_limit.replace("-", "_"), third_place=args.third_place,
            qualify_deals=args.qualify_deals, rounds=args.rounds, units=units, seed=args.seed, threads=args.threads,
        )
    except GuandanError as e:
        raise CliError(str(e)) from None
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
