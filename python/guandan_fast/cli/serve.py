"""``guandan-fast serve``: a competition platform server (docs/platform.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from guandan_fast.cli.options import (
    MODEL_HELP,
    POLICY_HELP,
    CliError,
    add_rules_arguments,
    bounded_int,
    check_policy,
    non_negative_int,
    positive_int,
    rules_kwargs,
    seed_int,
)

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["MAX_REFEREE_LINE", "add_parser", "add_start_arguments", "needs_websockets", "referee_line", "run_serve", "start_from_args"]

#: The longest line ``--referee-input`` takes (bytes); a longer one is refused whole.
MAX_REFEREE_LINE = 200
_REFEREE_USAGE = "type penalize TABLE TEAM KIND [SEAT], e.g. penalize 0 1 minus_two"


def needs_websockets(command: str) -> None:
    """Raises `CliError` when the ``platform`` extra is not installed."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise CliError(f"{command} needs the platform extra: pip install 'guandan_fast[platform]'") from None


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 3600 seconds, not {text[:40]}")
    return value


def _two(what: str, example: str) -> Any:
    """An argparse type: two comma-separated values (`what`, e.g. `example`), as text."""

    def parse(text: str) -> tuple[str, str]:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise argparse.ArgumentTypeError(f"expected {what}, team 0's then team 1's, such as {example}, not {text[:40]!r}")
        return parts[0], parts[1]

    return parse


def _counts(text: str) -> tuple[int, int]:
    a, b = _two("two counts", "1,0")(text)
    return bounded_int(0, 255)(a), bounded_int(0, 255)(b)


def _team(text: str) -> int:
    if text.strip() not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"must be a team, 0 (seats 0 and 2) or 1 (seats 1 and 3), not {text[:40]!r}")
    return int(text)


def _seats(text: str) -> list[int]:
    """An argparse type: comma-separated seat numbers (whether they are a finishing order is `check_start`'s)."""
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() and len(p) < 4 for p in parts):
        raise argparse.ArgumentTypeError(f"expected a finishing order, four seats first out to last, such as 0,2,1,3, not {text[:40]!r}")
    return [int(p) for p in parts]


def add_start_arguments(parser: argparse.ArgumentParser, server: bool = True) -> None:
    """Adds ``--start-levels``, ``--start-declarer``, ``--start-a-fails`` and
    ``--start-after`` (the state every game starts from; for a client, the server's)."""
    whose = "" if server else " (as given to the server)"
    g = parser.add_argument_group("start of each game (default: both teams at 2)" + whose)
    g.add_argument("--start-levels", type=_two("two ranks", "A,2"), metavar="L0,L1",
                   help="every game starts with team 0 (seats 0, 2) at L0 and team 1 at L1, e.g. A,2 (ranks 2..10, J, Q, K, A; T for 10)")
    g.add_argument("--start-declarer", type=_team, metavar="TEAM",
                   help="the team whose level the first deal is played at (default: the team of the first seat of --start-after; "
                   "without it the team with the higher level, and with equal levels no team, as in a game from 2)")
    g.add_argument("--start-a-fails", type=_counts, metavar="N,M",
                   help="failed attempts at A each team has already made (default 0,0; below the rules' --a-max-attempts)")
    g.add_argument("--start-after", type=_seats, metavar="S1,S2,S3,S4",
                   help="the first deal follows a deal finished in this order (seats first out to last, e.g. 0,2,1,3): "
                   "it begins with the tribute and return that order gives, and tribute decides who leads; "
                   "the declarer is the team of S1 (default: no tribute, as a game's first deal)")


def start_from_args(args: argparse.Namespace, rules: Any) -> Optional[dict[str, Any]]:
    """The start state the ``--start-*`` options give, checked against `rules` (None when not given)."""
    from guandan_fast.platform.rules import check_start

    if args.start_levels is None:
        if args.start_declarer is not None or args.start_a_fails is not None or args.start_after is not None:
            raise CliError("--start-declarer, --start-a-fails and --start-after need --start-levels")
        return None
    start = {"levels": args.start_levels, "declarer": args.start_declarer, "a_fails": args.start_a_fails}
    if args.start_after is not None:
        start["after"] = args.start_after
    return check_start(start, rules)


def add_parser(sub: Subparsers) -> None:
    """Adds the ``serve`` sub-command."""
    p = sub.add_parser(
        "serve", help="referee bots over the competition platform's websocket protocol",
        description="A drop-in server of the competition platform's websocket protocol (docs/platform.md): "
        "clients connect to ws://HOST:PORT/game/NAME and are seated in order; built-in bots and models may fill seats.",
    )
    p.add_argument("--port", type=bounded_int(0, 65535), default=23456, help="port to listen on, 0 = any free one (default 23456)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--games", type=positive_int, default=1, metavar="N", help="games per match (default 1)")
    p.add_argument("--tables", type=non_negative_int, default=1, metavar="N", help="matches to referee before exiting, 0 = until stopped (default 1)")
    p.add_argument("--seed", type=seed_int, default=0, help="seed of game 1; game i uses seed + i - 1 (default 0)")
    p.add_argument("--bots", default="", metavar="SEAT:POLICY,...", help="bots in seats, e.g. 1:mc:200,3:greedy; policies: " + POLICY_HELP + "; " + MODEL_HELP)
    p.add_argument("--rules", choices=("platform", "default"), default="platform",
                   help="rule preset: the platform's (default) or the engine's defaults; the rules flags below change it")
    p.add_argument("--record", type=Path, metavar="FILE", help="append every game as JSON lines to FILE")
    p.add_argument("--timeout", type=_timeout, metavar="SEC", help="after SEC seconds without a valid reply the fallback policy moves (default: wait)")
    p.add_argument("--fallback", default="greedy", metavar="POLICY", help="the policy that moves for a seat after --timeout (default greedy)")
    p.add_argument("--web", type=bounded_int(0, 65535), nargs="?", const=8000, metavar="PORT",
                   help="also serve the web table on HOST:PORT (default 8000), where the tables can be watched live (the web extra; docs/web.md)")
    p.add_argument("--referee-input", action="store_true",
                   help="read referee's decisions from standard input, one a line: penalize TABLE TEAM KIND [SEAT] "
                   "(kinds as in docs/rules.md section 10); each is answered with one line")
    add_start_arguments(p)
    add_rules_arguments(p)
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Runs the server until its tables are played or a signal stops it."""
    import guandan_fast as gf
    from guandan_fast.platform import PLATFORM_RULES, Server, parse_bots

    needs_websockets("serve")
    bots = parse_bots(args.bots)
    base = PLATFORM_RULES if args.rules == "platform" else {}
    rules = gf.Rules(**{**base, **rules_kwargs(args)})
    if rules.best_of != 1:
        raise CliError("a platform match is --games N games; --best-of does not apply")
    fallback = check_policy(args.fallback)
    start = start_from_args(args, rules)

    log = _Say()
    web = _web(args, rules) if args.web is not None else None
    server = Server(host=args.host, port=args.port, games=args.games, seed=args.seed, bots=bots, rules=rules,
                    record=args.record, timeout=args.timeout, fallback=fallback, tables=args.tables, log=log,
                    on_step=None if web is None else web[1].update, start=start)
    reader = _RefereeInput(server, sys.stdin.fileno(), log) if args.referee_input else None
    if reader is not None:
        reader.start()
    stopped_by: list[signal.Signals] = []
    try:
        with contextlib.ExitStack() as stack:
            if web is not None:
                stack.enter_context(web[0])
                log(f"the tables can be watched at {web[0].url}#live")
            results = asyncio.run(_serve_until_signalled(server, stopped_by))
            if reader is not None:
                reader.settle(5.0)
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    aborted = sum(r["type"] == "aborted" for r in results)
    print(f"done: {len(results)} table(s), {aborted} stopped before their end", file=sys.stderr)
    if server.record_failures:
        print(f"error: {server.record_failures} record line(s) could not be written to {args.record}; they are in the log", file=sys.stderr)
        return 1
    return 128 + stopped_by[0] if stopped_by else 0


def referee_line(server: Any, text: str) -> Optional[str]:
    """Applies one line of ``--referee-input`` (``penalize TABLE TEAM KIND
    [SEAT]``) to `server`, waiting for the match's next step; the line saying
    what was decided or why not (None for a blank line)."""
    words = text.split()
    if not words:
        return None
    numbers = [words[i] for i in (1, 2, 4) if i < len(words)]
    if words[0] != "penalize" or len(words) not in (4, 5) or not all(w.isascii() and w.isdigit() and len(w) < 20 for w in numbers):
        return f"decision refused: not a decision: {_REFEREE_USAGE}"
    seat = int(words[4]) if len(words) == 5 else None
    try:
        return "decision: " + str(server.penalize(int(words[1]), int(words[2]), words[3], seat).result())
    except Exception as e:  # the server's or the referee's refusal, said in one line
        return f"decision refused: {e}"


class _Say:
    """Prints whole lines to standard output from any thread: one line is never
    split by another thread's (``print`` writes a line and its end apart)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self._lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()


class _RefereeInput(threading.Thread):
    """Answers each line read from `fd` until its end with one line said by
    `say`, applying its decision to `server` (a thread beside the server)."""

    def __init__(self, server: Any, fd: int, say: Any) -> None:
        super().__init__(name="referee input", daemon=True)
        self.server, self.fd, self.say = server, fd, say
        self._answering = threading.Lock()

    def run(self) -> None:
        for line in _lines(self.fd, MAX_REFEREE_LINE):
            with self._answering:
                answer = f"decision refused: a line over {MAX_REFEREE_LINE} bytes" if line is None else referee_line(self.server, line)
                if answer is not None:
                    self.say(answer)

    def settle(self, seconds: float) -> None:
        """Waits at most `seconds` for the line being answered, if any."""
        if self._answering.acquire(timeout=seconds):
            self._answering.release()


def _lines(fd: int, limit: int) -> Iterator[Optional[str]]:
    """The lines read from `fd` until its end or a read error; None for a line over `limit` bytes."""
    buffer, skipping = b"", False
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            if buffer and not skipping:
                yield buffer.decode("utf-8", "replace")
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if not skipping:
                yield None if len(line) > limit else line.decode("utf-8", "replace")
            skipping = False
        if len(buffer) > limit:
            if not skipping:
                yield None
            buffer, skipping = b"", True


def _web(args: argparse.Namespace, rules: Any) -> tuple[Any, Any]:
    """The web table beside the server, in a thread, spectating its tables: (the server thread, the live tables)."""
    from guandan_fast.cli.web import needs_web, warn_if_open

    needs_web()
    from guandan_fast.web.app import Settings, create_app
    from guandan_fast.web.live import LiveTables
    from guandan_fast.web.serving import ServerThread, bind

    live = LiveTables()
    sock = bind(args.host, args.web)
    warn_if_open(args.host)
    return ServerThread(create_app(Settings(rules=rules, live=live)), sock), live


async def _serve_until_signalled(server: Any, stopped_by: list[signal.Signals]) -> list[dict[str, Any]]:
    """`server.serve()`, stopped cleanly by SIGINT or SIGTERM (where the event loop takes signal handlers)."""
    loop = asyncio.get_running_loop()

    def stop(sig: signal.Signals) -> None:
        stopped_by.append(sig)
        server.stop(f"the server was stopped ({sig.name})")

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop, sig)
        except (NotImplementedError, RuntimeError, ValueError):  # not on this platform or thread: Ctrl-C still cancels
            pass
    try:
        return await server.serve()  # type: ignore[no-any-return]
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.remove_signal_handler(sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
