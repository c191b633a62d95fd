"""``guandan-fast rules``: the rule options the other commands' flags give, as a table or JSON."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

import guandan_fast as gf
from guandan_fast.cli.options import add_rules_arguments, rules_from_args
from guandan_fast.cli.text import make_console

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["RULE_FLAGS", "add_parser", "run_rules"]

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


def add_parser(sub: Subparsers) -> None:
    """Adds the ``rules`` sub-command."""
    r = sub.add_parser("rules", help="show the active rule options", description="Shows the rule options the other commands' flags give.")
    r.add_argument("--json", action="store_true", help="print Rules.to_dict() as JSON")
    add_rules_arguments(r)
    r.set_defaults(func=run_rules)


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


def run_rules(args: argparse.Namespace) -> int:
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
