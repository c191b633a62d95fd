"""Pitting playout policies against each other over many seeded deals or games."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Mapping

import numpy as np

from guandan_fast._core import InvalidArgumentError, Rules, simulate

__all__ = ["PitResult", "pit", "pit_result", "wilson_interval"]


def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a win rate (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class PitResult:
    """Outcome of `pit`: team A's record over every deal (or game), seats swapped."""

    a: str
    b: str
    unit: str
    #: Deals (or games) played in all: `n` with A on seats 0/2 and `n` with A on seats 1/3.
    played: int
    a_wins: int
    win_rate: float
    #: 95% Wilson interval of `win_rate`.
    ci95: tuple[float, float]
    #: A's mean signed level change per deal (deals only; 0 for games).
    mean_gain: float
    #: Mean deals per game (games only; 1 for deals).
    deals_per_game: float

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (
            f"{self.a} vs {self.b}: {self.a} wins {self.a_wins}/{self.played} {self.unit}s "
            f"= {self.win_rate:.1%} (95% CI {lo:.1%}–{hi:.1%}), mean level change {self.mean_gain:+.2f}"
        )


def pit(
    a: str,
    b: str,
    *,
    n: int = 200,
    seed: int = 0,
    start: int = 0,
    threads: int = 0,
    unit: Literal["deal", "game"] = "deal",
    rules: Rules | None = None,
    mode: Literal["cards", "pattern"] = "pattern",
) -> PitResult:
    """Plays `n` seeded deals (or games) with policy `a` on seats 0/2 and the same
    `n` with `a` on seats 1/3, all natively in Rust; reports `a`'s record.

    Policies: ``random``, ``greedy``, ``mc`` / ``mc:N`` (Monte Carlo with N
    playouts per decision, greedy rollouts), ``mc-random:N``, ``rule`` and the
    searches ``mc-rule:N``, ``sh:N``, ``sh-greedy:N`` (docs/bots.md). Deals (or games)
    ``start..start + n`` of the seeded stream are played, so a long run split
    into chunks gives the same deals as one call.
    """
    # simulate checks the arguments' types and limits; a pit also needs a deal.
    if isinstance(n, int) and not isinstance(n, bool) and n < 1:
        raise InvalidArgumentError(f"n must be at least 1, not {n}")
    first = simulate(n, seed=seed, start=start, threads=threads, rules=rules, unit=unit, policy=[a, b, a, b], mode=mode)
    second = simulate(n, seed=seed, start=start, threads=threads, rules=rules, unit=unit, policy=[b, a, b, a], mode=mode)
    return pit_result(a, b, unit, first, second)


def pit_result(a: str, b: str, unit: str, first: Mapping[str, Any], second: Mapping[str, Any]) -> PitResult:
    """`a`'s record from the `simulate` results of the same deals (or games) with
    `a` on seats 0/2 (`first`) and on seats 1/3 (`second`)."""
    a_won = np.concatenate([first["winner"] == 0, second["winner"] == 1])
    played = len(a_won)
    wins = int(a_won.sum())
    if unit == "deal":
        gain = np.concatenate([first["gain"], second["gain"]]).astype(np.float64)
        mean_gain = float(np.where(a_won, gain, -gain).mean())
        per_game = 1.0
    else:
        mean_gain = 0.0
        per_game = float(np.concatenate([first["deals"], second["deals"]]).mean())
    return PitResult(
        a=a,
        b=b,
        unit=unit,
        played=played,
        a_wins=wins,
        win_rate=wins / played,
        ci95=wilson_interval(wins, played),
        mean_gain=mean_gain,
        deals_per_game=per_game,
    )
