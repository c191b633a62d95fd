"""pytest-benchmark benchmarks of the search guided by a learned model
(`ModelSearch`, `model_search`), not part of the default test run:

    python -m pytest benches/test_bench_model_search.py --benchmark-only

One decision of 128 playouts (waves of 16) at each of a few early play
decisions of seeded games, with a model of DanZero's size (567 -> 512 ->
1024 -> 512 -> 1024 -> 512 -> 1, ReLU, seeded random weights, a numpy
forward pass) as prior and leaf value, as prior with rule rollouts, and
without the model (uniform priors, rule rollouts: the same search with no
model call). Each benchmark checks its answer; ``playouts_per_s`` (from the
median round) and the rows per model call are kept in ``extra_info``.
"""

from __future__ import annotations

import numpy as np
import pytest

import guandan_fast as gf
from model_search import random_mlp

PLAYOUTS = 128
WAVE = 16


def positions(n: int = 4) -> list[gf.Game]:
    """Play decisions with a real choice early in the first deals of seeded games."""
    out = []
    for seed in range(n):
        g = gf.Game(seed=seed)
        while not (g.phase == "play" and len(g.legal_action_indices()) >= 4):
            g.apply(gf.policy_action(g, "rule"))
        out.append(g)
    return out


@pytest.mark.parametrize(
    "prior, value, rollout",
    [(True, True, "rule"), (True, False, "rule"), (False, False, "rule"), (False, False, "greedy")],
    ids=["prior+value", "prior+rule-rollouts", "no-model(rule-rollouts)", "no-model(greedy-rollouts)"],
)
def test_model_search_playouts_per_second(benchmark, prior, value, rollout):
    model = random_mlp()
    games = positions()

    def run():
        return [gf.model_search(g, model, playouts=PLAYOUTS, wave=WAVE, prior=prior, value=value, rollout=rollout, seed=1) for g in games]

    out = benchmark(run)
    for r, g in zip(out, games):
        assert r["searched"] and r["visits"].sum() == PLAYOUTS
        assert gf.actions.index(r["action"]) in set(g.legal_action_indices())
    calls = sum(r["calls"] for r in out)
    if prior or value:
        assert calls == len(games) * (prior + PLAYOUTS // WAVE)
        benchmark.extra_info["rows_per_call"] = round(sum(r["rows"] for r in out) / calls, 1)
    else:
        assert calls == 0
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["playouts_per_s"] = round(len(games) * PLAYOUTS / stats.stats.median)
