"""The ``guandan-fast`` command line (also ``python -m guandan_fast``).

Sub-commands: ``simulate`` (cli/simulate.py), ``collect`` (cli/collect.py), ``eval`` (cli/evaluate.py), ``play``
(cli/play.py), ``tournament`` (cli/tournament.py), ``serve`` (cli/serve.py), ``connect`` (cli/connect.py),
``bench`` (cli/bench.py), ``rules`` and ``demo`` (here); the
shared options are in cli/options.py, card display and reading in cli/text.py. Every
bad input ends with one line ``error: ...`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Literal, Sequence

from rich import box
from rich.table import Table

import guandan_fast as gf
from guandan_fast.cli.options import (
    POLICY_HELP,
    CliError,
    Parser,
    add_ray_argument,
    add_rules_arguments,
    bounded_int,
    non_negative_float,
    non_negative_int,
    positive_int,
    rules_from_args,
    seed_int,
    threads_int,
)
from guandan_fast.cli.bench import run_bench
from guandan_fast.cli.collect import run_collect
from guandan_fast.cli.connect import add_connect_arguments, run_connect
from guandan_fast.cli.evaluate import run_eval
from guandan_fast.cli.play import run_play
from guandan_fast.cli.serve import add_serve_arguments, run_serve
from guandan_fast.cli.simulate import run_simulate
from guandan_fast.cli.tournament import add_tournament_parser
from guandan_fast.cli.text import make_console, unicode_ok

__all__ = ["build_parser", "main"]

#: Rules option -> (command-line flag, meaning).
RULE_FLAGS = {
    "upgrade": ("--upgrade", "levels gained by f1's team when f1's partner finishes 2nd, 3rd, 4th"),
    "a_pass": ("--a-pass", "what passes A: f1 with the partner not last, or f1 and f2 (double-down)"),
    "a_max_attempts": ("--a-max-attempts", "failed attempts at A before the team drops"),
    "a_fail_reset": ("--a-fail-reset", "the level a team drops to after those failures"),
    "return_max_rank": ("--return-max-rank", "highest rank of a return card (还贡)"),
    "joker_pair_in_full_house": ("--no-joker-pair-full-house", "a joker pair may be the pair of a full house"),
    "best_of": ("--best-of", "games in a match (3 = 三局两胜)"),
    "max_deals": ("--max-deals", "deals after which a game ends on levels"),
    "sudden_death": ("--sudden-death", "every game is one deal at level A (突然死亡)"),
}


def _rule_text(name: str, value: object) -> str:
    """A rules option as the command line writes it."""
    if name == "upgrade" and isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in sorted(value.items()))
    if name == "a_pass":
        return str(value).replace("_", "-")
    if value is None:
        return {"a_max_attempts": "unlimited", "return_max_rank": "any"}.get(name, "none")
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _rules(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    current = rules.to_dict()
    default = gf.Rules().to_dict()
    if args.json:
        current["upgrade"] = {str(k): v for k, v in current["upgrade"].items()}
        print(json.dumps(current, indent=2))
        return 0
    changed = [name for name in current if current[name] != default[name]]
    title = "Rules: the defaults" if not changed else "Rules (* = changed on the command line)"
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("option", no_wrap=True)
    t.add_column("value", no_wrap=True)
    t.add_column("meaning (flag)")
    for name, value in current.items():
        flag, meaning = RULE_FLAGS.get(name, (name, ""))
        if name in changed:
            t.add_row(name, "* " + _rule_text(name, value), f"{meaning} (default {_rule_text(name, default[name])}; {flag})")
        else:
            t.add_row(name, _rule_text(name, value), f"{meaning} ({flag})")
    make_console().print(t)
    return 0


def _demo(args: argparse.Namespace) -> int:
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


def build_parser() -> Parser:
    """The argument parser of ``guandan-fast``."""
    parser = Parser(
        prog="guandan-fast",
        description="Fast, rule-exact Guandan (掼蛋) engine: simulate, evaluate, play.",
        epilog="Run `guandan-fast COMMAND --help` for a command's options. Docs: docs/api.md#command-line.",
    )
    parser.add_argument("--version", action="version", version=f"guandan_fast {gf.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser(
        "simulate", help="pit policies against each other over seeded deals or games",
        description="Pits every pair of the given policies over N seeded deals (or games), each pairing with "
        "seats swapped, and prints win rates with 95% confidence intervals. Policies: " + POLICY_HELP + ".",
    )
    s.add_argument("policies", nargs="*", default=["greedy", "random"], metavar="POLICY",
                   help="two or more policies (default: greedy random); every pair is played")
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

    p = sub.add_parser(
        "play", help="play one seat in the terminal against bots",
        description="Play Guandan in the terminal: you hold one seat, bots the other three. "
        "Choose moves by number or by typing the cards; h for help, q or Ctrl-D to leave.",
    )
    p.add_argument("--seat", type=bounded_int(0, 3), default=0, metavar="SEAT", help="your seat (default 0; your partner is seat+2)")
    p.add_argument("--bots", default="mc:200", metavar="POLICY[,POLICY,POLICY]",
                   help="the bots: one policy for all three or three for the other seats in order (default mc:200); " + POLICY_HELP)
    p.add_argument("--seed", type=seed_int, help="seed of the deals (default: a random one, printed)")
    p.add_argument("--cards", action="store_true", help="number every card-level move (default: one per pattern)")
    p.add_argument("--ascii", action="store_true", help="suit letters instead of ♠ ♥ ♣ ♦")
    p.add_argument("--delay", type=non_negative_float, default=0.0, metavar="SECONDS", help="pause after each bot move (default 0)")
    add_rules_arguments(p)
    p.set_defaults(func=run_play)

    b = sub.add_parser("bench", help="a quick speed report of the core paths",
                       description="Times listing, simulation and evaluation from Python (~15 s; --quick ~2 s).")
    b.add_argument("--quick", action="store_true", help="very short loops (for a smoke test)")
    b.add_argument("--threads", type=threads_int, default=0, help="threads for the batch paths, 0 = all cores")
    b.set_defaults(func=run_bench)

    add_tournament_parser(sub, add_rules_arguments, POLICY_HELP)

    r = sub.add_parser("rules", help="show the active rule options", description="Shows the rule options the other commands' flags give.")
    r.add_argument("--json", action="store_true", help="print Rules.to_dict() as JSON")
    add_rules_arguments(r)
    r.set_defaults(func=_rules)

    sv = sub.add_parser(
        "serve", help="referee bots over the competition platform's websocket protocol",
        description="A drop-in server of the competition platform's websocket protocol (docs/platform.md): "
        "clients connect to ws://HOST:PORT/game/NAME and are seated in order; built-in bots may fill seats.",
    )
    add_serve_arguments(sv)
    sv.set_defaults(func=run_serve)

    cn = sub.add_parser(
        "connect", help="play a seat of a platform server with a built-in bot",
        description="Connects a built-in bot to a competition platform server (docs/platform.md) and plays until the match ends.",
    )
    add_connect_arguments(cn)
    cn.set_defaults(func=run_connect)

    d = sub.add_parser("demo", help="deal a seeded hand and list its legal moves")
    d.add_argument("--seed", type=seed_int, default=1)
    d.add_argument("--seat", type=bounded_int(0, 3), default=0, metavar="SEAT")
    d.add_argument("--level", default="2")
    d.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (0 fine, 2 bad input, 130 interrupted)."""
    for stream in (sys.stdout, sys.stderr):
        # A terminal that cannot show ♠ or 掼蛋 gets "?" instead of an error (cards fall back to letters).
        if not unicode_ok(stream) and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            raise CliError("choose a command: simulate, collect, eval, play, tournament, serve, connect, bench, rules, demo (see guandan-fast --help)")
        return int(args.func(args))
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else 0
    except (CliError, gf.GuandanError, ValueError, OSError) as e:
        if isinstance(e, BrokenPipeError):
            return 0
        print("error: " + " ".join(str(e).split()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
