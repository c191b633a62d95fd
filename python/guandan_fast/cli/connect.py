"""``guandan-fast connect``: plays one seat of a platform server with a built-in bot."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING

from guandan_fast.cli.options import MODEL_HELP, POLICY_HELP, CliError, add_rules_arguments, check_policy, model_bot, rules_kwargs, seed_int
from guandan_fast.cli.serve import add_start_arguments, needs_websockets, start_from_args

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["add_parser", "run_connect"]


def add_parser(sub: Subparsers) -> None:
    """Adds the ``connect`` sub-command."""
    p = sub.add_parser(
        "connect", help="play a seat of a platform server with a built-in bot",
        description="Connects a built-in bot to a competition platform server (docs/platform.md) and plays until the match ends.",
    )
    p.add_argument("url", help="the server's address, e.g. ws://127.0.0.1:23456/game/mybot")
    p.add_argument("--bot", default="mc:200", metavar="POLICY", help="the policy that plays (default mc:200): " + POLICY_HELP + "; " + MODEL_HELP)
    p.add_argument("--seed", type=seed_int, default=0, help="seed of the bot's decisions (default 0)")
    p.add_argument("--rules", choices=("platform", "default"), default="platform",
                   help="the server's rule preset (default platform); the rules flags below change it, as given to the server")
    add_start_arguments(p, server=False)
    add_rules_arguments(p)
    p.set_defaults(func=run_connect)


def connect_bot(name: str, seed: int) -> object:
    """The bot of `--bot`: a model (onnx:PATH, puct:PATH) or a built-in policy by name."""
    from guandan_fast.models import is_model_name
    from guandan_fast.platform.client import PolicyBot

    if is_model_name(name):
        return model_bot(name, seed)
    return PolicyBot(check_policy(name), seed=seed)


def run_connect(args: argparse.Namespace) -> int:
    """Plays until the server ends the match; prints the result."""
    import guandan_fast as gf
    from guandan_fast.platform.client import Client
    from guandan_fast.platform.codes import ProtocolError
    from guandan_fast.platform.transport import OPEN_TIMEOUT
    from guandan_fast.platform.rules import PLATFORM_RULES

    needs_websockets("connect")
    if not args.url.startswith(("ws://", "wss://")):
        raise CliError(f"the url must start with ws:// or wss://, not {args.url[:60]!r}")
    base = PLATFORM_RULES if args.rules == "platform" else {}
    rules = gf.Rules(**{**base, **rules_kwargs(args)})
    client = Client(args.url, connect_bot(args.bot, args.seed), rules=rules, start=start_from_args(args, rules))
    try:
        result = asyncio.run(client.run())
    except ProtocolError as e:
        raise CliError(f"the server at {args.url} sent what the platform protocol does not allow: {e}") from None
    except asyncio.TimeoutError:
        raise CliError(f"cannot connect to {args.url}: no websocket handshake within {OPEN_TIMEOUT:g} s") from None
    except OSError as e:
        raise CliError(f"cannot connect to {args.url}: {e.strerror or e}") from None
    except Exception as e:
        if type(e).__module__.startswith("websockets"):
            raise CliError(f"the server at {args.url} refused or dropped the connection: {e}") from None
        raise
    if result is None:
        print(f"seat {client.seat}: the match was stopped before its end: {client.stopped}", flush=True)
        return 1
    print(f"seat {client.seat}: games won per seat {result['victoryNum']}, draws {result['draws']}", flush=True)
    return 0
