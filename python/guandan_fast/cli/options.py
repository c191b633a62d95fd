"""Command-line options shared by the sub-commands: the rules flags, policy
names, number types, ``--ray``, and the parser that reports a bad option as
one line.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional, Union

import guandan_fast as gf
from guandan_fast._core import _check_policy

if TYPE_CHECKING:
    from guandan_fast.distributed import LocalBackend, RayBackend
    from guandan_fast.models import ModelSearch, OnnxBot

__all__ = [
    "CliError",
    "Parser",
    "add_ray_argument",
    "add_rules_arguments",
    "bounded_int",
    "check_policy",
    "model_bot",
    "non_negative_float",
    "non_negative_int",
    "positive_int",
    "backend_from_args",
    "rules_from_args",
    "rules_kwargs",
    "seed_int",
    "threads_int",
]

#: Policy names the native engine knows (checked by the engine itself, see `check_policy`).
POLICY_HELP = "random, greedy, rule, mc, mc:N, mc-random:N, mc-rule:N, sh:N, sh-greedy:N, ismcts:N, focus:N, best (N playouts per decision; searches take +game, +win and @Tms, see docs/bots.md; best: the strongest against the competition's entrants)"
#: The model names a command takes beside the policies (`model_bot`).
MODEL_HELP = "or a model, onnx:PATH or puct:PATH (onnx-suit-major:PATH, puct-suit-major:PATH for the suit-major card order; docs/models.md)"


class CliError(Exception):
    """A bad command line or input: printed as ``error: <message>``, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises `CliError` instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


if TYPE_CHECKING:
    #: What ``build_parser`` hands each command module's ``add_parser`` (its sub-commands are Parsers too).
    Subparsers = argparse._SubParsersAction[Parser]


#: Largest count an option takes (deals, playouts, games): what the engine's counters hold.
MAX_COUNT = 2**32 - 1
#: Largest thread count the engine takes (0 = all cores).
MAX_THREADS = 256


def bounded_int(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer in lo..hi."""

    def parse(text: str) -> int:
        value = _int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo}..{hi}, not {_shown(value)}")
        return value

    parse.__name__ = f"int {lo}..{hi}"
    return parse


#: An argparse type: a count 1..MAX_COUNT.
positive_int = bounded_int(1, MAX_COUNT)
#: An argparse type: a count 0..MAX_COUNT.
non_negative_int = bounded_int(0, MAX_COUNT)
#: An argparse type: threads, 0 (all cores) .. MAX_THREADS.
threads_int = bounded_int(0, MAX_THREADS)


def _shown(value: int) -> str:
    text = str(value)
    return text if len(text) <= 40 else f"a {len(text)}-digit number"


def non_negative_float(text: str) -> float:
    """An argparse type: a number >= 0 (seconds)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not 0 <= value <= 3600:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be 0..3600 seconds, not {text[:40]}")
    return value


def seed_int(text: str) -> int:
    """An argparse type: a seed, 0 .. 2**64 - 1."""
    value = _int(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is 0 .. 2**64-1, not {_shown(value)}")
    return value


def _int(text: str) -> int:
    if len(text) > 100:
        raise argparse.ArgumentTypeError(f"a number of {len(text)} characters is out of range")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """Adds ``--ray [ADDRESS]``: run the work on a Ray cluster (same results)."""
    parser.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="run on a Ray cluster (pip install 'guandan_fast[ray]'): ADDRESS of its head node (ray start --head), "
        "or none for the cluster Ray finds or a local one; the same results",
    )


def backend_from_args(args: argparse.Namespace, block: Optional[int]) -> tuple[LocalBackend | RayBackend, Optional[int]]:
    """Where a command's run plays and its chunk size: this machine on ``--threads``
    in chunks of `block` (so that a progress bar moves), or with ``--ray
    [ADDRESS]`` a Ray cluster (empty: the one Ray finds, or a local one) in
    measured chunks. Ray is imported when the backend connects."""
    from guandan_fast.distributed import LocalBackend, RayBackend

    if args.ray is None:
        return LocalBackend(args.threads), block
    return RayBackend(args.ray or None), None


def check_policy(name: str) -> str:
    """The engine's name of policy `name` (``mc`` is ``mc:200``); an unknown one raises `CliError`."""
    try:
        return _check_policy(name)
    except gf.GuandanError as e:
        raise CliError(str(e)) from None


def model_bot(name: str, seed: int = 0) -> Union[OnnxBot, ModelSearch]:
    """The bot of a model name (``onnx:PATH``, ``puct:PATH``, ...;
    `guandan_fast.models.model_from_spec`), its model loaded and checked
    now; a bad name or model raises `CliError`."""
    from guandan_fast.models import model_from_spec

    try:
        return model_from_spec(name, seed=seed)
    except gf.GuandanError as e:
        raise CliError(str(e)) from None


# ---------------------------------------------------------------- rules


def _upgrade(text: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for part in text.replace(" ", "").split(","):
        place, sep, gain = part.partition(":")
        try:
            if not sep:
                raise ValueError
            out[int(place)] = int(gain)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected PLACE:GAIN pairs for partner places 2, 3, 4, like 2:3,3:2,4:1; got {text!r}"
            ) from None
    return out


def _a_pass(text: str) -> str:
    value = text.strip().lower().replace("-", "_")
    if value not in ("partner_not_last", "double_down"):
        raise argparse.ArgumentTypeError(f"expected partner-not-last or double-down, not {text!r}")
    return value


def _attempts(text: str) -> int | None:
    if text.strip().lower() in ("none", "unlimited", "inf"):
        return None
    return bounded_int(1, 255)(text)


def _rank_or_any(text: str) -> str | None:
    return None if text.strip().lower() in ("none", "any") else text.strip()


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``Rules`` options (all default to the engine's defaults)."""
    g = parser.add_argument_group("rules (defaults: the tournament rules; see `guandan-fast rules`)")
    g.add_argument(
        "--upgrade", type=_upgrade, metavar="2:G,3:G,4:G",
        help="levels gained by f1's team when f1's partner finishes 2nd, 3rd, 4th (default 2:3,3:2,4:1)",
    )
    g.add_argument(
        "--a-pass", type=_a_pass, metavar="RULE",
        help="what passes A: partner-not-last (default) or double-down (f1 and f2)",
    )
    g.add_argument(
        "--a-max-attempts", type=_attempts, default=argparse.SUPPRESS, metavar="N",
        help="failed attempts at A before the team drops; 'unlimited' for no limit (default 3)",
    )
    g.add_argument("--a-fail-reset", metavar="RANK", help="the level a team drops to after failing A (default 2)")
    g.add_argument(
        "--return-max-rank", type=_rank_or_any, default=argparse.SUPPRESS, metavar="RANK",
        help="highest rank of a return card (还贡); 'any' for any card (default T)",
    )
    g.add_argument(
        "--no-joker-pair-full-house", action="store_true",
        help="a joker pair may not be the pair of a full house",
    )
    g.add_argument("--best-of", type=bounded_int(1, 255), metavar="N", help="games in a match, odd (default 1)")
    g.add_argument("--max-deals", type=positive_int, metavar="N", help="end a game on levels after N deals")
    g.add_argument("--sudden-death", action="store_true", help="every game is one deal at level A (突然死亡)")


def rules_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The ``Rules(...)`` keyword arguments given on the command line (only those given)."""
    kw: dict[str, Any] = {}
    for name in ("upgrade", "a_pass", "a_fail_reset", "best_of", "max_deals"):
        value = getattr(args, name, None)
        if value is not None:
            kw[name] = value
    for name in ("a_max_attempts", "return_max_rank"):  # None is a value here: SUPPRESS marks "not given"
        if hasattr(args, name):
            kw[name] = getattr(args, name)
    if getattr(args, "no_joker_pair_full_house", False):
        kw["joker_pair_in_full_house"] = False
    if getattr(args, "sudden_death", False):
        kw["sudden_death"] = True
    return kw


def rules_from_args(args: argparse.Namespace) -> gf.Rules:
    """The ``gf.Rules`` of the command line; an impossible option raises `InvalidRulesError`."""
    return gf.Rules(**rules_kwargs(args))
