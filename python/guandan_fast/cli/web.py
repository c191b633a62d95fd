"""``guandan-fast web``: the web table (docs/web.md) on a local address."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from guandan_fast.cli.options import (
    POLICY_HELP,
    CliError,
    add_rules_arguments,
    bounded_int,
    non_negative_float,
    positive_int,
    rules_from_args,
    seed_int,
)

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["DEFAULT_BOTS", "add_parser", "needs_web", "run_web", "warn_if_open"]

#: The bots of a table when --bots is not given: you in seat 0 against three Monte Carlo players.
DEFAULT_BOTS = "1:mc:200,2:mc:200,3:mc:200"


def needs_web() -> None:
    """Raises `CliError` when the ``web`` extra is not installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        raise CliError("web needs the web extra: pip install 'guandan_fast[web]'") from None


def add_parser(sub: Subparsers) -> None:
    """Adds the ``web`` sub-command."""
    p = sub.add_parser(
        "web", help="a web table: play against the bots, watch records, see the evaluator",
        description="Serves the web table (docs/web.md) at http://HOST:PORT/: Play a seat (or all four, in turn) against "
        "built-in bots with Monte Carlo hints; Watch a serve --record file, a tournament's JSON or a position, step by step.",
    )
    p.add_argument("--port", type=bounded_int(0, 65535), default=8000, help="port to listen on, 0 = any free one (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--bots", default=DEFAULT_BOTS, metavar="SEAT:POLICY,...",
                   help=f"the bots of a new table, the other seats are played from the page (default {DEFAULT_BOTS}; "
                   "'none': all four seats from the page); policies: " + POLICY_HELP)
    p.add_argument("--seed", type=seed_int, help="seed of the first table's deals (default: a random one, shown on the page)")
    p.add_argument("--delay", type=non_negative_float, default=0.6, metavar="SECONDS", help="pause before each bot move (default 0.6)")
    p.add_argument("--playouts", type=positive_int, default=400, help="playouts per action of a hint (default 400; the page can change it)")
    p.add_argument("--watch", type=Path, metavar="FILE", help="open this record at start (its address is printed)")
    add_rules_arguments(p)
    p.set_defaults(func=run_web)


def warn_if_open(host: str) -> None:
    """Warns on stderr when the page is served beyond this machine."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        print(f"warning: {host} is not a loopback address: anyone who reaches it can use the tables", file=sys.stderr)


def run_web(args: argparse.Namespace) -> int:
    """Serves the page until Ctrl-C."""
    needs_web()
    from guandan_fast.platform import parse_bots
    from guandan_fast.web.app import Settings, create_app, open_record
    from guandan_fast.web.records import RecordError
    from guandan_fast.web.serving import bind, make_server, url_of

    bots = {} if args.bots.strip().lower() == "none" else parse_bots(args.bots)
    if args.playouts > 20_000:
        raise CliError("--playouts must be 1..20000")
    settings = Settings(bots=bots, rules=rules_from_args(args), seed=args.seed, delay=args.delay, playouts=args.playouts)
    app = create_app(settings)
    watch = None
    if args.watch is not None:
        try:
            text = args.watch.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CliError(f"cannot read {args.watch}: {getattr(e, 'strerror', None) or e}") from None
        try:
            watch = open_record(app, text)
        except RecordError as e:
            raise CliError(f"{args.watch}: {e}") from None
    sock = bind(args.host, args.port)
    url = url_of(sock)
    print(f"the web table is at {url}  (Ctrl-C stops it)", flush=True)
    if watch is not None:
        print(f"{args.watch}: {url}#watch/{watch}", flush=True)
    warn_if_open(args.host)
    try:
        make_server(app).run(sockets=[sock])
    finally:
        sock.close()
    return 0
