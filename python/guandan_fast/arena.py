"""Pitting playout policies (and models, by name) against each other over many
seeded deals or games, on this machine or on a cluster (a `backend` of
guandan_fast.distributed)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Optional, Sequence

import numpy as np

from guandan_fast._core import Game, InvalidArgumentError, Rules, _item_seed
from guandan_fast.bots import SearchBot, play_deal
from guandan_fast.distributed.backends import make_backend
from guandan_fast.distributed.chunks import Span, check_count, run_chunks, simulate_chunk
from guandan_fast.models import _model_bots, is_model_name

__all__ = ["PitResult", "pit", "pit_chunk", "pit_result", "wilson_interval"]


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

    @classmethod
    def merge(cls, parts: Sequence[PitResult]) -> PitResult:
        """The record of runs of one pairing over disjoint deals (or games) as one:
        exactly the `PitResult` of one run over all of them (``pit`` of
        ``start=0, n=k`` merged with ``start=k, n=m`` is ``pit`` of ``n=k + m``)."""
        parts = list(parts)
        if not parts or not all(isinstance(p, PitResult) for p in parts):
            raise InvalidArgumentError("merge takes a non-empty list of PitResults")
        first = parts[0]
        if any((p.a, p.b, p.unit) != (first.a, first.b, first.unit) for p in parts):
            raise InvalidArgumentError("merge takes the records of one pairing (the same a, b and unit)")
        # A record's mean times its count is an integer sum (levels, deals): recovered exactly.
        return _record(
            first.a,
            first.b,
            first.unit,
            played=sum(p.played for p in parts),
            a_wins=sum(p.a_wins for p in parts),
            gain=sum(round(p.mean_gain * p.played) for p in parts),
            deals=sum(round(p.deals_per_game * p.played) for p in parts),
        )

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
    backend: object = "local",
    address: Optional[str] = None,
    chunk: Optional[int] = None,
    progress: Optional[Callable[[int], None]] = None,
) -> PitResult:
    """Plays `n` seeded deals (or games) with policy `a` on seats 0/2 and the same
    `n` with `a` on seats 1/3, built-in policies natively in Rust; reports
    `a`'s record.

    Policies: ``random``, ``greedy``, ``mc`` / ``mc:N`` (Monte Carlo with N
    playouts per decision, greedy rollouts), ``mc-random:N``, ``rule`` and the
    searches ``mc-rule:N``, ``sh:N``, ``sh-greedy:N`` (docs/bots.md); or a
    model by name, ``onnx:PATH`` or ``puct:PATH`` (guandan_fast.models,
    loaded and checked first), whose pairings are played one decision at a
    time in the calling process (or each chunk's worker), the other side by
    its built-in policy. Deals (or games) ``start..start + n`` of the seeded
    stream are played, so a long run split into chunks gives the same deals
    as one call.

    `backend`: ``"local"`` (this machine, `threads` threads), ``"ray"`` (a Ray
    cluster at `address`) or a backend object (guandan_fast.distributed);
    `chunk`: deals (or games) per chunk (None: one call locally, measured
    chunks with `progress` or on a cluster); `progress(k)` as each chunk
    completes, `k` counting both seatings. The result is the same for any
    backend, chunk size or thread count.
    """
    check_count("n", n, 1)
    be = make_backend(backend, threads=threads, address=address)
    config = dict(seed=seed, threads=be.threads, rules=rules, unit=unit, mode=mode)
    named = [p if not is_model_name(p) else "random" for p in (a, b)]  # a model's seats checked as a policy's
    simulate_chunk(Span(start, 0), dict(config, policy=named * 2))  # the engine checks every argument first
    models = {p: _model_bots(p) for p in (a, b) if is_model_name(p)}
    work: Callable[[Span], PitResult] = functools.partial(pit_chunk, a=a, b=b, config=config)
    if models:
        work = functools.partial(_pit_bots_chunk, a=a, b=b, config=config, models=models)
    with be:
        return PitResult.merge(run_chunks(be, n, work, start=start, chunk=chunk, progress=progress, weight=2))


def pit_chunk(span: Span, a: str, b: str, config: dict[str, Any]) -> PitResult:
    """`a`'s record over the span's deals (or games), both seatings, under `config` (simulate's keywords)."""
    first = simulate_chunk(span, dict(config, policy=[a, b, a, b]))
    second = simulate_chunk(span, dict(config, policy=[b, a, b, a]))
    return pit_result(a, b, config.get("unit", "deal"), first, second)


def _pit_bots_chunk(span: Span, a: str, b: str, config: dict[str, Any], models: Mapping[str, Callable[..., Any]]) -> PitResult:
    """`pit_chunk` played in this process: the seats of a model name by a bot
    of `models[name]`, the others by their built-in policy."""
    first = _play_bots(span, [a, b, a, b], config, models)
    second = _play_bots(span, [b, a, b, a], config, models)
    return pit_result(a, b, config.get("unit", "deal"), first, second)


def _play_bots(span: Span, names: list[str], config: dict[str, Any], models: Mapping[str, Callable[..., Any]]) -> dict[str, np.ndarray]:
    """The span's deals (or games), the deals `simulate` plays, with seat `s`
    played by `names[s]`: `simulate`'s ``winner`` and ``gain`` (``deals``
    for games). Each item's bots are new, seeded by the item's seed and
    their seat, so that an item's result does not depend on the span."""
    base = config.get("rules") or Rules()
    rules = Rules(**{**base.to_dict(), "best_of": 1})
    games = config.get("unit", "deal") == "game"
    mode, threads = config.get("mode", "pattern"), config.get("threads", 0)
    winner, gain, deals = [], [], []
    for i in range(span.start, span.start + span.size):
        item = _item_seed(config.get("seed", 0), i)
        seeds = [_item_seed(item, s) for s in range(4)]
        bots = [models[p](seed=k) if p in models else SearchBot(p, seed=k, threads=threads, mode=mode) for p, k in zip(names, seeds)]
        g = Game(rules, seed=item)
        if not games:
            play_deal(g, bots)
            result = g.last_result
            assert result is not None
            winner.append(result["winner"])
            gain.append(result["gain"])
            continue
        while g.phase not in ("game_over", "match_over"):
            if g.phase == "deal_over":
                g.next_deal()
            else:
                seat = g.current_player
                assert seat is not None
                g.apply(bots[seat].act(g))
        winner.append(g.game_winners[0])
        deals.append(g.deal_number)
    out = {"winner": np.array(winner, np.uint8)}
    return {**out, "deals": np.array(deals, np.uint32)} if games else {**out, "gain": np.array(gain, np.uint8)}


def pit_result(a: str, b: str, unit: str, first: Mapping[str, Any], second: Mapping[str, Any]) -> PitResult:
    """`a`'s record from the `simulate` results of the same deals (or games) with
    `a` on seats 0/2 (`first`) and on seats 1/3 (`second`)."""
    a_won = np.concatenate([first["winner"] == 0, second["winner"] == 1])
    gain = deals = 0
    if unit == "deal":
        levels = np.concatenate([first["gain"], second["gain"]]).astype(np.int64)
        gain = int(np.where(a_won, levels, -levels).sum())
    else:
        deals = int(np.concatenate([first["deals"], second["deals"]]).astype(np.int64).sum())
    return _record(a, b, unit, played=len(a_won), a_wins=int(a_won.sum()), gain=gain, deals=deals)


def _record(a: str, b: str, unit: str, *, played: int, a_wins: int, gain: int, deals: int) -> PitResult:
    """The `PitResult` of `played` deals (or games), `a_wins` won by `a`, `gain`
    the sum of `a`'s signed level changes (deals), `deals` the deals played (games)."""
    return PitResult(
        a=a,
        b=b,
        unit=unit,
        played=played,
        a_wins=a_wins,
        win_rate=a_wins / played,
        ci95=wilson_interval(a_wins, played),
        mean_gain=gain / played if unit == "deal" else 0.0,
        deals_per_game=deals / played if unit != "deal" else 1.0,
    )
