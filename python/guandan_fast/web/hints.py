"""The hint: the engine's Monte Carlo `evaluate` of every legal action of the
seat to move, run in chunks of playouts so that a page can show its progress
and a move can stop it between two chunks.

Chunk `k` is ``evaluate(game, playouts=chunk, seed=sub_seed(seed, "hint", k))``;
the chunks' running sums are added exactly as one evaluation adds its
playouts, so the mean, win rate and standard error are those of all the
playouts together.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Union

import numpy as np

import guandan_fast as gf
from guandan_fast.tournament.match import sub_seed
from guandan_fast.web.views import action_json

__all__ = ["Hint", "run_hint"]

#: The 95% normal quantile: the interval shown is mean ± Z * stderr.
Z95 = 1.959964


@dataclass
class Hint:
    """The running sums of a chunked evaluation of one position."""

    actions: list[Union[gf.Combo, gf.Pass]]
    n: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    wins: np.ndarray
    playouts: int

    @classmethod
    def start(cls, actions: list[Union[gf.Combo, gf.Pass]], playouts: int) -> Hint:
        k = len(actions)
        return cls(actions, np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k), playouts)

    def add(self, e: Mapping[str, Any]) -> None:
        """Adds one evaluation of the same position (its actions in the same order)."""
        n = e["count"].astype(np.float64)
        total = e["mean"] * n
        var = e["stderr"] ** 2 * n
        self.n += n
        self.total += total
        self.squares += var * np.maximum(n - 1, 0) + total * e["mean"]
        self.wins += e["win_prob"] * n

    def rows(self) -> list[dict[str, Any]]:
        """One row per action, best first (highest mean, then win rate, then the engine's order)."""
        n = np.maximum(self.n, 1)
        mean = self.total / n
        var = np.where(self.n > 1, np.maximum(self.squares - self.total * mean, 0) / np.maximum(self.n - 1, 1), 0.0)
        stderr = np.sqrt(var / n)
        win = self.wins / n
        order = sorted(range(len(self.actions)), key=lambda i: (-mean[i], -win[i], i))
        return [
            {
                "action": action_json(self.actions[i]),
                "mean": _num(mean[i]),
                "win": _num(win[i]),
                "low": _num(mean[i] - Z95 * stderr[i]),
                "high": _num(mean[i] + Z95 * stderr[i]),
                "stderr": _num(stderr[i]),
                "playouts": int(self.n[i]),
            }
            for i in order
        ]

    @property
    def done(self) -> int:
        """Playouts per action so far."""
        return int(self.n.max()) if len(self.n) else 0


def _num(x: float) -> float:
    return round(float(x), 4) if math.isfinite(x) else 0.0


def run_hint(
    game: Union[gf.Game, gf.Observation],
    *,
    playouts: int,
    seed: int = 0,
    chunk: int = 50,
    policy: str = "random",
    progress: Optional[Callable[[Hint], None]] = None,
    stop: Optional[threading.Event] = None,
) -> Hint:
    """Evaluates `game` (the seat to move, from what it knows) with `playouts`
    per action in chunks of `chunk`, calling `progress` after each; returns
    early once `stop` is set. Blocking: run it in a worker thread. Raises what
    `evaluate` raises (`IllegalMoveError` outside the play phase)."""
    hint: Optional[Hint] = None
    k = 0
    while hint is None or hint.done < playouts:
        if stop is not None and stop.is_set():
            break
        size = min(chunk, playouts - (hint.done if hint else 0))
        e = gf.evaluate(game, playouts=size, seed=sub_seed(seed, "hint", k), policy=policy)
        if hint is None:
            hint = Hint.start(list(e["actions"]), playouts)
        hint.add(e)
        k += 1
        if progress is not None:
            progress(hint)
    assert hint is not None or (stop is not None and stop.is_set())
    return hint if hint is not None else Hint.start([], playouts)
