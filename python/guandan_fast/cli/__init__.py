"""The ``guandan-fast`` command line (also ``python -m guandan_fast``).

One module per sub-command, each adding its own parser (``add_parser``) and
running it: ``simulate`` (cli/simulate.py), ``collect`` (cli/collect.py),
``eval`` (cli/evaluate.py), ``play`` (cli/play.py), ``bench`` (cli/bench.py),
``tournament`` (cli/tournament.py), ``rules`` (cli/rules.py), ``serve``
(cli/serve.py), ``connect`` (cli/connect.py) and ``demo`` (cli/demo.py); the
shared options are in cli/options.py, card display and reading in
cli/text.py. Every bad input ends with one line ``error: ...`` on stderr and
exit status 2.
"""

from __future__ import annotations

import io
import sys
from typing import Sequence

import guandan_fast as gf
from guandan_fast.cli import bench, collect, connect, demo, evaluate, play, rules, serve, simulate, tournament
from guandan_fast.cli.options import CliError, Parser
from guandan_fast.cli.text import unicode_ok

__all__ = ["COMMANDS", "build_parser", "main"]

#: The sub-command modules, in the order ``--help`` lists them.
COMMANDS = (simulate, collect, evaluate, play, bench, tournament, rules, serve, connect, demo)


def build_parser() -> Parser:
    """The argument parser of ``guandan-fast``."""
    parser = Parser(
        prog="guandan-fast",
        description="Fast, rule-exact Guandan (掼蛋) engine: simulate, evaluate, play.",
        epilog="Run `guandan-fast COMMAND --help` for a command's options. Docs: docs/api.md#command-line.",
    )
    parser.add_argument("--version", action="version", version=f"guandan_fast {gf.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
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
