"""A model against a built-in policy over seeded deals or games, seats swapped."""

from __future__ import annotations

import os
from typing import Any, Literal, Optional, Union

import numpy as np

from guandan_fast._core import InvalidArgumentError, VectorEnv, _check_policy
from guandan_fast.arena import PitResult, _record
from guandan_fast.arguments import check_int
from guandan_fast.distributed.chunks import check_count
from guandan_fast.models import BatchedModel, CardOrder, Scorer
from guandan_fast.train.returns import MAX_TABLES

__all__ = ["pit_model"]


def pit_model(
    model: Union[str, os.PathLike[str], Scorer, BatchedModel],
    opponent: str,
    *,
    n: int = 100,
    unit: Literal["deal", "game"] = "deal",
    seed: int = 0,
    tables: int = 64,
    card_order: CardOrder = "rank-major",
    name: Optional[str] = None,
) -> PitResult:
    """`model`'s record against the built-in policy `opponent` (``random``,
    ``greedy``, ``rule``, any name `policy_action` takes): `n` deals (or
    games) with the model on seats 0/2 and `n` on seats 1/3, as `pit`
    reports it (its ``a`` is `name`, by default ``model``).

    The model (an ONNX file's path, a `Scorer` callable or a `BatchedModel`)
    plays its seats on a `VectorEnv` of up to `tables` tables, one batch per
    step, greedily; the opponent's seats play natively. Episode ``e`` of
    table ``t`` counts when ``e * tables + t < n``, so the deals are the same
    whatever their lengths. In games the model also makes its seats' tribute
    and return decisions. Deals and games come from `seed` (seats 0/2) and
    ``seed + 1`` (seats 1/3).
    """
    check_count("n", n, 1)  # as `pit` takes it
    check_int("tables", tables, 1, MAX_TABLES)
    if not isinstance(unit, str) or unit not in ("deal", "game"):
        raise InvalidArgumentError(f"unit must be 'deal' or 'game', not {unit!r:.40}")
    opponent = _check_policy(opponent)
    player = model if isinstance(model, BatchedModel) else BatchedModel(model, card_order=card_order)
    wins = gain = deals = 0
    for side in (0, 1):
        seats: list[Optional[str]] = [None, opponent, None, opponent] if side == 0 else [opponent, None, opponent, None]
        t = min(tables, n)
        env = VectorEnv(t, seed=seed + side, unit=unit, opponents=seats)
        try:
            finished = np.zeros(t, np.int64)
            counted = 0
            step: Any = env.reset()  # a _Step; BatchedModel.actions reads it as a dict
            while counted < n:
                step = env.step(player.actions(env, step))
                for i in np.flatnonzero(step["terminated"] | step["truncated"]):
                    if finished[i] * t + i < n:
                        counted += 1
                        if unit == "deal":
                            won = step["reward"][i, side] > 0
                            gain += int(round(float(step["reward"][i, side])))
                        else:
                            game = env.finished(int(i))
                            assert game is not None
                            won = game.game_winners[-1] == side
                            deals += len(game.deals)
                        wins += int(won)
                    finished[i] += 1
        finally:
            env.close()
    return _record(name or "model", opponent, unit, played=2 * n, a_wins=wins, gain=gain, deals=deals)
