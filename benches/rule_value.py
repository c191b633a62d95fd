"""Fits the rule policy's hand value (``VALUE`` in
rust/search/choosers/rule_based.rs: what each group of a hand's plan costs,
in hundredths of a play) to the deals the rule policy plays against itself.

One round: ``simulate`` plays ``--deals`` level-2 deals with ``rule`` at all
four seats, every starting hand is split by the rule policy's plan
(``decompose(costs="rule")``), and each seat's finishing place (0 = first
out … 3 = last) is regressed on how many groups of each kind and rank its
plan holds. A group's coefficient is what it adds to the place; scaled so
and shifted by a cost per card to come as close as least squares can to
the table played with (27-card hands leave both open; neither changes
which plan is cheapest), it is that group's cost. Groups seen fewer than ``--min-count`` times keep
their cost. The next round plays and plans with the fitted table, so the
rounds approach a table that agrees with the play it produces.

Needs the extension built with the ``tuning`` feature (``maturin develop
--release -F python,tuning``; the ``python`` feature is named too, since
features given on the command line replace the ones ``pyproject.toml``
sets), under which the rule policy reads its table from
``GUANDAN_RULE_VALUE`` (93 comma-separated numbers in ``VALUE``'s order);
each round's deals are played in a child process with that variable set.
The last table is printed in that form, to try with benches/sparring.py:

    python benches/rule_value.py --deals 100000 --rounds 2 --out value.json
    GUANDAN_RULE_VALUE=$(python -c "import json; print(json.load(open('value.json'))['env'])") \\
        python benches/sparring.py --ours rule --against ai2 --matches 20 --games-per-match 10 --serve-arg=--max-deals=1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

# (name, slots) in VALUE's order; singles, pairs and triples by rank value
# (docs/rules.md §2), bombs by size, runs by position on the ladder A 2 … K A.
PARTS: list[tuple[str, int]] = [
    ("single", 16),
    ("pair", 16),
    ("triple", 14),
    ("bomb", 11),
    ("straight", 10),
    ("tube", 12),
    ("plate", 13),
    ("joker_bomb", 1),
]
START = {name: sum(n for _, n in PARTS[:i]) for i, (name, _) in enumerate(PARTS)}
SLOTS = sum(n for _, n in PARTS)
# Full houses cost their triple's slot but hold five cards: fitted apart.
FULL = SLOTS
COLUMNS = SLOTS + 14
RANKS = "23456789TJQKA"


def played() -> list[int]:
    """The table the extension's rule policy plays (``VALUE``, or under the
    tuning build ``GUANDAN_RULE_VALUE``), in ``PARTS``'s order."""
    from guandan_fast import _core

    return list(_core._rule_value())


def rank_value(rank: str, level: str) -> int:
    """A rank's value at `level` (0 = 2 … 12 = A, 13 the level, 14/15 jokers)."""
    if rank in ("BJ", "RJ"):
        return 14 if rank == "BJ" else 15
    return 13 if rank == level else RANKS.index(rank)


def column(kind: str, rank: str, size: int, level: str) -> tuple[int, int]:
    """The feature column of a plan's group and how many cards it holds."""
    if kind in ("Straight", "StraightFlush", "Tube", "Plate"):
        pos = 0 if rank == "A" else RANKS.index(rank) + 1
        part = {"Straight": "straight", "StraightFlush": "straight", "Tube": "tube", "Plate": "plate"}[kind]
        return START[part] + pos, size
    if kind == "Bomb":
        return START["bomb"] + size, size
    if kind == "JokerBomb":
        return START["joker_bomb"], 4
    v = rank_value(rank, level)
    if kind == "FullHouse":
        return FULL + v, 5
    return START[{"Single": "single", "Pair": "pair", "Triple": "triple"}[kind]] + v, size


def collect(deals: int, seed: int, out: Path) -> None:
    """Plays `deals` rule deals and saves each seat's plan counts and place."""
    import guandan_fast as gf
    from guandan_fast import _core

    table = os.environ.get("GUANDAN_RULE_VALUE")
    if table and played() != [int(t) for t in table.split(",")]:
        # Without the tuning build the rule policy plays VALUE whatever the variable says.
        raise SystemExit("rule_value.py: the extension does not read GUANDAN_RULE_VALUE; build it with the tuning feature")
    sim = gf.simulate(deals, seed=seed, policy="rule", unit="deal")
    finish = sim["finish"]
    x = np.zeros((deals * 4, COLUMNS), dtype=np.int8)
    y = np.zeros(deals * 4, dtype=np.int8)
    for i in range(deals):
        game = gf.Game(seed=_core._item_seed(seed, i))
        level = str(game.level)
        for seat, hand in enumerate(game.hands):
            row = i * 4 + seat
            for g in gf.decompose(hand, level, costs="rule")[1]:
                x[row, column(g.kind, str(g.rank), g.size, level)[0]] += 1
            y[row] = list(finish[i]).index(seat)
    np.savez_compressed(out, x=x, y=y)


def sizes() -> NDArray[np.float64]:
    """How many cards each column's groups hold (bombs by their slot)."""
    s = np.zeros(COLUMNS)
    for name, n in PARTS:
        for j in range(n):
            s[START[name] + j] = {"single": 1, "pair": 2, "triple": 3, "bomb": j, "straight": 5, "tube": 6, "plate": 6}.get(name, 4)
    s[FULL:] = 5
    return s


def fit(x: NDArray[Any], y: NDArray[Any], table: list[int], min_count: int) -> tuple[list[int], dict[str, float]]:
    """The fitted table (see the module's docstring) and the fit's figures."""
    n = len(y)
    design = np.hstack([np.ones((n, 1)), x.astype(np.float64)])
    beta, *_ = np.linalg.lstsq(design, y.astype(np.float64), rcond=None)
    coef = beta[1:]
    size = sizes()
    seen = (x != 0).sum(axis=0)
    # Scale and per-card shift: those that bring the fitted costs closest
    # to the table played with (least squares over the groups fitted).
    fitted = [j for j in range(SLOTS) if seen[j] >= min_count]
    a = np.column_stack([coef[fitted], size[fitted]])
    (scale, scaled_shift), *_ = np.linalg.lstsq(a, np.array([table[j] for j in fitted], dtype=np.float64), rcond=None)
    shift = scaled_shift / scale
    cost = scale * (coef + shift * size)
    out = list(table)
    for j in fitted:
        out[j] = int(round(cost[j]))
    # A triple's slot is the count-weighted cost of triples and full houses.
    for v in range(14):
        t, f = START["triple"] + v, FULL + v
        nt, nf = int(x[:, t].sum()), int(x[:, f].sum())
        if nt + nf >= min_count:
            parts = [(cost[k], c) for k, c in ((t, nt), (f, nf)) if c >= min_count // 4]
            if parts:
                out[t] = int(round(sum(c * w for c, w in parts) / sum(w for _, w in parts)))
    resid = y - design @ beta
    figures = {"samples": float(n), "r2": float(1 - resid.var() / y.var()), "scale": float(scale), "shift_per_card": float(shift)}
    return out, figures


def describe(table: list[int]) -> str:
    """The table as VALUE's rows."""
    return "\n".join(f"{name:>10}: {table[START[name]:START[name] + n]}" for name, n in PARTS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100_000, help="deals per round (default 100000)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of play and fit (default 2)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first round's deals (each round adds 1)")
    ap.add_argument("--min-count", type=int, default=2000, help="hands a group must be in for its cost to be fitted")
    ap.add_argument("--start", help="the first round's table: 93 comma-separated numbers (default: the one the extension plays, VALUE)")
    ap.add_argument("--out", type=Path, help="a JSON file for every round's table and figures")
    ap.add_argument("--collect", nargs=3, metavar=("DEALS", "SEED", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.collect:
        collect(int(args.collect[0]), int(args.collect[1]), Path(args.collect[2]))
        return 0
    table = [int(t) for t in args.start.split(",")] if args.start else played()
    rounds: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            env = dict(os.environ, GUANDAN_RULE_VALUE=",".join(map(str, table)))
            data = Path(tmp) / f"round{r}.npz"
            cmd = [sys.executable, __file__, "--collect", str(args.deals), str(args.seed + r), str(data)]
            if subprocess.run(cmd, env=env).returncode:
                return 1
            z = np.load(data)
            table, figures = fit(z["x"], z["y"], table, args.min_count)
            print(f"round {r + 1}: {figures}\n{describe(table)}", flush=True)
            rounds.append({"figures": figures, "table": table})
    env_text = ",".join(map(str, table))
    print(env_text)
    if args.out:
        args.out.write_text(json.dumps({"rounds": rounds, "env": env_text}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
