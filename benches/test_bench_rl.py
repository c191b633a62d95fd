"""pytest-benchmark benchmarks of the reinforcement-learning core, side by
side in one run (not part of the default test run):

    python -m pytest benches/test_bench_rl.py --benchmark-only

- the vector env with native random legal actions (`step_random`), 1 and 2 threads;
- the vector env with the actions chosen in Python with numpy, as a user's
  loop does: the argmax of random logits over the masks (a first try), the
  same argmax gathered from the legal lists, and a uniform pick from the
  lists (skipped on a build without them);
- today's plain Python loop: legal actions + the pure-Python `danzero_state`
  (the test reference) + apply, one decision at a time;
- the encoders per call, native against the pure-Python references.

Each benchmark checks its answer; rates (env steps or calls per second) are
stored in ``extra_info`` from the median round.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import reference_encoding as ref  # noqa: E402

TABLES = 256
STEPS = 40


def _rate(benchmark, n, unit):
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    benchmark.extra_info[f"{unit}_per_s"] = round(n / stats.stats.median)


@pytest.mark.parametrize("threads", [1, 2, 0], ids=["1", "2", "default"])
def test_vecenv_native_random(benchmark, threads):
    env = gf.VectorEnv(TABLES, seed=1, threads=threads)
    env.reset()

    def run():
        for _ in range(STEPS):
            out = env.step_random()
        return out

    out = benchmark(run)
    assert (out["mask"].sum(axis=1) > 0).all() and out["obs"].shape == (TABLES, gf.DANZERO_SIZE)
    _rate(benchmark, TABLES * STEPS, "env_steps")


def _uniform(out, rng, logits):
    """A uniformly random legal index per table, from the legal lists."""
    k = (rng.random(TABLES) * out["legal_count"]).astype(np.int64)
    return out["legal"][out["legal_offset"][:-1] + k]


def _best_listed(out, rng, logits):
    """The legal index of highest logit per table, gathering only the legal entries."""
    legal, off = out["legal"], out["legal_offset"]
    rows = np.repeat(np.arange(TABLES), out["legal_count"])
    scores = logits[rows, legal]
    best = np.maximum.reduceat(scores, off[:-1])
    hits = np.flatnonzero(scores == best[rows])
    return legal[hits[np.searchsorted(rows[hits], np.arange(TABLES))]]


def _best_native(env, out, rng, logits):
    """The same choice made natively from the legal lists: `VectorEnv.best_legal`."""
    return env.best_legal(logits)


def _best_masked(out, rng, logits):
    """The same choice as a first try writes it: the masked logits' argmax over all 2321 columns."""
    return np.where(out["mask"] != 0, logits, -np.inf).argmax(axis=1)


@pytest.mark.parametrize("choice", ["masked_argmax", "listed_argmax", "native_argmax", "listed_uniform"])
def test_vecenv_python_chosen(benchmark, choice):
    env = gf.VectorEnv(TABLES, seed=1, threads=2)
    state = {"out": env.reset()}
    if choice != "masked_argmax" and "legal" not in state["out"]:
        pytest.skip("this build returns no legal lists")
    if choice == "native_argmax" and not hasattr(env, "best_legal"):
        pytest.skip("this build has no VectorEnv.best_legal")
    pick = {
        "masked_argmax": _best_masked,
        "listed_argmax": _best_listed,
        "native_argmax": lambda out, rng, logits: _best_native(env, out, rng, logits),
        "listed_uniform": _uniform,
    }[choice]
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((TABLES, gf.actions.SIZE)).astype(np.float32)

    def run():
        out = state["out"]
        for _ in range(STEPS):
            out = env.step(pick(out, rng, logits))
        state["out"] = out
        return out

    out = benchmark(run)
    assert (out["mask"].sum(axis=1) > 0).all()
    if choice in ("listed_argmax", "native_argmax"):
        assert np.array_equal(pick(out, rng, logits), _best_masked(out, rng, logits))
    _rate(benchmark, TABLES * STEPS, "env_steps")


def test_python_loop_today(benchmark):
    """The plain Python loop of the API before: legal actions, the pure-Python DanZero state, apply."""
    n = 400

    def run():
        rng = random.Random(3)
        g = gf.Game(seed=3)
        for _ in range(n):
            if g.current_player is None:
                g = gf.Game(seed=rng.randrange(1 << 30))
            seat = g.current_player
            ref.danzero_state(g.observation(seat))
            g.apply(rng.choice(g.legal_actions(mode="pattern")))
        return g

    benchmark(run)
    _rate(benchmark, n, "env_steps")


def _observations():
    rng = random.Random(5)
    g = gf.Game(seed=5)
    out = []
    while len(out) < 200:
        if g.current_player is None:
            g = gf.Game(seed=rng.randrange(1 << 30))
        out.append(g.observation(g.current_player))
        g.apply(rng.choice(g.legal_actions(mode="pattern")))
    return out


OBS = _observations()


@pytest.mark.parametrize("impl", ["native", "python"])
@pytest.mark.parametrize("encoding", ["danzero_state", "encode_observation"])
def test_encoder_per_call(benchmark, impl, encoding):
    f = getattr(gf if impl == "native" else ref, encoding)

    def run():
        for o in OBS:
            f(o)

    benchmark(run)
    assert np.array_equal(getattr(gf, encoding)(OBS[7]), getattr(ref, encoding)(OBS[7]))
    _rate(benchmark, len(OBS), "calls")
