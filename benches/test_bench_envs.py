"""pytest-benchmark benchmarks of the framework adapters with a random legal agent
(not part of the default test run).

    python -m pytest benches/test_bench_envs.py --benchmark-only

A "step" is one decision taken by the agent: one AEC ``env.step`` with a
live agent (PettingZoo), one ``env.step`` of the learner (Gymnasium: the
native opponents' moves that follow it come on top), one table's decision
in a vector step (the vector forms: ``num_envs`` steps a call). The
baseline is the wrapper a user writes around the plain API: the seat's
legal actions listed, a pure-Python DanZero encoding of its observation, a
random pick applied. Rates are stored in ``extra_info`` from the median round.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.envs import gymnasium as ggym
from guandan_fast.envs import pettingzoo as gpz

try:  # the pure-Python encoder the native one replaced, kept as the tests' reference
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from reference_encoding import danzero_state as python_danzero_state
except ImportError:  # before the native encoders: the package's own is pure Python
    from guandan_fast.encoding import danzero_state as python_danzero_state

STEPS = 3000
TABLES = 256


def _rate(benchmark, n, unit="steps"):
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    benchmark.extra_info[f"{unit}_per_s"] = round(n / stats.stats.median)


def random_legal_rows(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal index per row of a (N, SIZE) mask."""
    flat = np.flatnonzero(mask.view(bool).ravel())  # much faster than np.nonzero of a 2-D array
    rows, cols = np.divmod(flat, mask.shape[1])
    counts = np.bincount(rows, minlength=len(mask))
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(len(mask)) * counts).astype(np.int64)
    return cols[pick].astype(np.int64)


def test_handwritten_wrapper_of_the_plain_api(benchmark):
    """The baseline: legal_actions + pure-Python encoder + apply, deal after deal."""

    def run():
        rng = random.Random(1)
        g, steps, seed = gf.Game(seed=0), 0, 0
        while steps < STEPS:
            if g.phase != "play":
                seed += 1
                g = gf.Game(seed=seed)
            seat = g.current_player
            python_danzero_state(g.observation(seat))
            legal = g.legal_actions("pattern")
            g.apply(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    assert benchmark(run) == STEPS
    _rate(benchmark, STEPS)


@pytest.mark.parametrize("make", [gpz.raw_env, gpz.env], ids=["raw_env", "env"])
def test_pettingzoo_aec(benchmark, make):
    env = make()

    def run():
        rng = np.random.default_rng(1)
        env.reset(seed=1)
        steps = 0
        while steps < STEPS:
            if not env.agents:
                env.reset()
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    assert benchmark(run) == STEPS
    _rate(benchmark, STEPS)


def test_gymnasium_single_env(benchmark):
    env = ggym.GuandanEnv(opponents=[None, "random", None, "random"])

    def run():
        rng = np.random.default_rng(1)
        _, info = env.reset(seed=1)
        steps = 0
        while steps < STEPS:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            if done:
                _, info = env.reset()
            steps += 1
        return steps

    assert benchmark(run) == STEPS
    _rate(benchmark, STEPS)


@pytest.mark.parametrize("copy", [True, False], ids=["copies", "buffers"])
@pytest.mark.parametrize("threads", [1, 2, 0], ids=["1", "2", "default"])
def test_gymnasium_vector_env(benchmark, threads, copy):
    env = ggym.GuandanVectorEnv(TABLES, opponents=[None, "random", None, "random"], threads=threads, copy=copy)
    calls = 40

    def run():
        rng = np.random.default_rng(1)
        _, info = env.reset(seed=1)
        for _ in range(calls):
            _, reward, _, _, info = env.step(random_legal_rows(info["action_mask"], rng))
        return reward.shape

    assert benchmark(run) == (TABLES,)
    _rate(benchmark, calls * TABLES)


@pytest.mark.parametrize("copy", [True, False], ids=["copies", "buffers"])
@pytest.mark.parametrize("threads", [1, 2, 0], ids=["1", "2", "default"])
def test_pettingzoo_vector_env(benchmark, threads, copy):
    env = gpz.vector_env(TABLES, threads=threads, copy=copy)
    calls = 40

    def run():
        rng = np.random.default_rng(1)
        env.reset(seed=1)
        for _ in range(calls):
            obs, *_ = env.last()
            env.step(random_legal_rows(obs["action_mask"], rng))
        return env.agent_selection.shape

    assert benchmark(run) == (TABLES,)
    _rate(benchmark, calls * TABLES)
