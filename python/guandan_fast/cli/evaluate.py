"""``guandan-fast eval``: a position (a position string, or hands plus the
moves played so far) to a table of the mover's actions ranked by their Monte
Carlo estimates (`gf.evaluate`).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.table import Table
from rich.text import Text

import guandan_fast as gf
from guandan_fast.cli.options import (
    CliError,
    add_rules_arguments,
    bounded_int,
    non_negative_int,
    positive_int,
    rules_from_args,
    seed_int,
    threads_int,
)
from guandan_fast.cli.text import CardPrinter, InputError, make_console, match_actions, parse_move_text, unicode_ok

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "apply_history", "build_game", "run_eval"]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``eval`` sub-command."""
    e = sub.add_parser(
        "eval", help="rank the legal actions of a position by Monte Carlo playouts",
        description="Ranks the legal actions of the player to move by Monte Carlo playouts (gf.evaluate). "
        "The position is a position string (Game.position()), or --hands / --deal plus --history.",
    )
    e.add_argument("position", nargs="*", help="a position string (quoted or not), as printed by Game.position()")
    e.add_argument("--hands", nargs=4, metavar="CARDS", help="four hands, seats 0..3, e.g. \"3s 4s\" \"5d\" ... (level 2, first deal)")
    e.add_argument("--leader", type=bounded_int(0, 3), metavar="SEAT", help="who leads with --hands (default: drawn from --seed)")
    e.add_argument("--deal", type=seed_int, metavar="SEED", help="the seeded deal Game(seed=SEED) (default when nothing is given: 0)")
    e.add_argument("--history", metavar="MOVES", help="moves played since, separated by ';': \"3s 3d; pass; 5s 5c; ...\"")
    e.add_argument("--playouts", type=positive_int, default=200, help="playouts per action (default 200)")
    e.add_argument("--policy", default="random", help="rollout policy: random, greedy, rule or any policy name (default random)")
    e.add_argument("--mode", choices=("pattern", "cards"), default="pattern", help="move listing (default pattern)")
    e.add_argument("--seed", type=seed_int, default=0, help="seed of the sampling (default 0)")
    e.add_argument("--threads", type=threads_int, default=0, help="threads, 0 = all cores (default 0)")
    e.add_argument("--top", type=non_negative_int, default=20, help="rows to show, 0 = all (default 20)")
    e.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_rules_arguments(e)
    e.set_defaults(func=run_eval)


def build_game(args: argparse.Namespace, rules: gf.Rules) -> gf.Game:
    """The game the command line describes: a position string, four hands, or a seeded deal."""
    given = [bool(args.position), args.hands is not None, args.deal is not None]
    if sum(given) > 1:
        raise CliError("give one of: a position string, --hands, --deal")
    if args.position:
        return gf.Game.from_position(" ".join(args.position), rules)
    if args.hands is not None:
        return gf.Game(rules, seed=args.seed, hands=args.hands, leader=args.leader)
    if args.leader is not None:
        raise CliError("--leader goes with --hands")
    return gf.Game(rules, seed=args.deal or 0)


def apply_history(game: gf.Game, history: str) -> None:
    """Applies ``;``-separated moves (card text, ``pass``, a tribute or return card) in turn."""
    for k, text in enumerate(t.strip() for t in history.split(";")):
        if not text:
            continue
        try:
            found = match_actions(game, parse_move_text(text))
        except InputError as e:
            seat = "" if game.current_player is None else f", seat {game.current_player}"
            raise CliError(f"--history move {k + 1} ({text!r}{seat}): {e}") from None
        if len(found) > 1:
            options = ", ".join(repr(str(a)) for a in found)
            raise CliError(f"--history move {k + 1} ({text!r}) can be played several ways; write one of {options}")
        game.apply(found[0])


def _header(game: gf.Game, p: CardPrinter) -> Text:
    seat = game.current_player
    assert seat is not None
    t = Text(f"seat {seat} (team {seat % 2}) to move · level {game.level} · team levels {game.levels[0]}:{game.levels[1]}\n")
    if game.top is None:
        t.append("leading\n")
    else:
        t.append(f"to beat (seat {game.top_seat}): ").append_text(p.combo(game.top)).append("\n")
    t.append(f"hand ({len(game.hands[seat])}): ").append_text(p.hand(game.hands[seat], game.level)).append("\n")
    t.append("cards left by seat: " + "  ".join(f"{s}:{n}" for s, n in enumerate(game.hand_sizes)))
    return t


def run_eval(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = build_game(args, rules)
    if args.history:
        apply_history(game, args.history)
    if game.phase != "play":
        raise CliError(f"the position is in the {game.phase!r} phase; eval needs a player to play (add the missing moves with --history)")
    start = time.perf_counter()
    e = gf.evaluate(game, playouts=args.playouts, seed=args.seed, threads=args.threads, policy=args.policy, mode=args.mode)
    seconds = time.perf_counter() - start
    order = sorted(range(len(e["actions"])), key=lambda i: (-e["mean"][i], -e["win_prob"][i], i))
    shown = order if args.top == 0 else order[: args.top]
    if args.json:
        rows: list[dict[str, Any]] = [
            {
                "action": str(e["actions"][i]),
                "mean": float(e["mean"][i]),
                "win_prob": float(e["win_prob"][i]),
                "stderr": float(e["stderr"][i]),
                "count": int(e["count"][i]),
            }
            for i in shown
        ]
        doc = {"position": game.position(), "seat": game.current_player, "best": str(e["best"]), "actions": rows}
        print(json.dumps(doc, indent=2))
        return 0
    console = make_console()
    p = CardPrinter(unicode=unicode_ok())
    console.print(_header(game, p))
    table = Table(title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("action")
    table.add_column("mean", justify="right")
    table.add_column("win prob", justify="right")
    table.add_column("stderr", justify="right")
    table.add_column("playouts", justify="right")
    for rank, i in enumerate(shown, 1):
        table.add_row(
            str(rank),
            p.action(e["actions"][i]),
            f"{e['mean'][i]:+.3f}",
            f"{e['win_prob'][i]:.1%}",
            f"{e['stderr'][i]:.3f}",
            str(int(e["count"][i])),
        )
    console.print(table)
    n = len(e["actions"])
    more = f" (top {len(shown)} shown; --top 0 for all)" if len(shown) < n else ""
    console.print(
        f"{n} action{'s' if n != 1 else ''}{more} · {int(np.max(e['count']))} playouts each, {args.policy} rollouts, {args.mode} level · "
        f"{seconds:.2f} s\nmean: the mover's team's mean level change at the end of the deal (+gain if its side goes out first)"
    )
    return 0
