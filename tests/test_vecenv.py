"""gf.VectorEnv: N native tables against stepping Games one by one.

Self-play tables must equal Games built from the same episode seeds and
given the same actions (observation, mask, seat, phase, rewards, episode
ends); with native opponents every finished episode replays from its seed
and the learner's actions; outputs do not depend on the thread count; bad
input raises the package's own errors and changes no table.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf

PHASES = ("tribute", "return", "play", "deal_over", "game_over", "match_over")


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal index per row, chosen in numpy as a user's loop does."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int64)


def assert_legal_lists(out: dict[str, np.ndarray]) -> None:
    """`legal`, `legal_count` and `legal_offset` list exactly the ones of each mask row, ascending."""
    off, count, legal = out["legal_offset"], out["legal_count"], out["legal"]
    assert legal.dtype == count.dtype == off.dtype == np.int64
    assert off[0] == 0 and np.array_equal(np.diff(off), count) and off[-1] == len(legal)
    for i, m in enumerate(out["mask"]):
        assert np.array_equal(legal[off[i] : off[i + 1]], np.flatnonzero(m))


@pytest.mark.parametrize("unit,reward,observation", [("deal", "deal", "danzero"), ("game", "game", "guandan"), ("game", "deal", "danzero")])
def test_equals_games_stepped_one_by_one(unit: str, reward: str, observation: str) -> None:
    n = 3
    rules = gf.Rules(max_deals=2) if unit == "game" else gf.Rules()
    env = gf.VectorEnv(n, seed=7, unit=unit, reward=reward, observation=observation, rules=rules)
    encode = gf.danzero_state if observation == "danzero" else gf.encode_observation
    out = env.reset()
    games = [gf.Game(rules, seed=env.episode_seed(i, 0)) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(600):
        for i, g in enumerate(games):
            seat = g.current_player
            assert out["seat"][i] == seat and PHASES[out["phase"][i]] == g.phase
            assert np.array_equal(out["mask"][i], g.legal_action_mask())
            assert np.array_equal(out["obs"][i], encode(g.observation(seat)))
            assert out["episode"][i] == episodes[i]
        assert_legal_lists(out)
        actions = pick(out["mask"], rng)
        out = env.step(actions)
        for i, g in enumerate(games):
            g.apply_index(int(actions[i]))
            want = np.zeros(4, np.float32)
            if g.phase in ("deal_over", "game_over", "match_over"):
                r = g.last_result
                assert r is not None
                win = r["winner"]
                if reward == "deal":
                    want = np.array([r["gain"] if s % 2 == win else -r["gain"] for s in range(4)], np.float32)
                elif r["game_winner"] is not None:
                    want = np.array([1.0 if s % 2 == r["game_winner"] else -1.0 for s in range(4)], np.float32)
            assert np.array_equal(out["reward"][i], want)
            over = g.phase in ("game_over", "match_over") or (unit == "deal" and g.phase == "deal_over")
            assert out["terminated"][i] == over == out["reset"][i]
            assert not out["truncated"][i]
            if over:
                ends += 1
                finished = env.finished(i)
                assert finished is not None and finished.position() == g.position()
                episodes[i] += 1
                games[i] = gf.Game(rules, seed=env.episode_seed(i, episodes[i]))
            elif g.phase == "deal_over":
                g.next_deal()
        for i, g in enumerate(games):
            assert env.episode(i).position() == g.position()
    assert ends >= 3


def test_native_opponents_return_only_learner_seats_and_episodes_replay() -> None:
    env = gf.VectorEnv(4, seed=3, opponents=[None, "greedy", None, "random"])
    out = env.reset()
    rng = np.random.default_rng(2)
    mine: list[list[int]] = [[] for _ in range(4)]
    checked = 0
    for _ in range(300):
        assert set(out["seat"].tolist()) <= {0, 2}
        actions = pick(out["mask"], rng)
        for i in range(4):
            mine[i].append(int(actions[i]))
        out = env.step(actions)
        for i in np.flatnonzero(out["terminated"]):
            f = env.finished(int(i))
            assert f is not None
            seed = env.episode_seed(int(i), int(out["episode"][i]) - 1)
            again = gf.Game.replay(f.actions, seed=seed, rules=env.rules)
            assert again.position() == f.position()
            ours = [gf.actions.index(a) for s, a in f.history if s in (0, 2)]
            assert ours == mine[i]
            mine[i] = []
            checked += 1
    assert checked >= 4


def run(threads: int, opponents: list[str | None] | None) -> list[np.ndarray]:
    # Enough tables that two or more threads split them into several chunks.
    env = gf.VectorEnv(70, seed=11, threads=threads, opponents=opponents)
    out = env.reset()
    rows = []
    for k in range(60):
        out = env.step_random() if k % 2 else env.step(out["mask"].argmax(axis=1))
        fields = ("obs", "mask", "reward", "seat", "episode", "legal", "legal_offset")
        rows.append(np.concatenate([out[f].ravel().astype(np.float64) for f in fields]))
    return rows


@pytest.mark.parametrize("opponents", [None, [None, "greedy", None, "random"]])
def test_same_result_for_any_thread_count(opponents: list[str | None] | None) -> None:
    a, b, c = run(1, opponents), run(2, opponents), run(4, opponents)
    assert all(np.array_equal(x, y) and np.array_equal(x, z) for x, y, z in zip(a, b, c))


@pytest.mark.parametrize("unit,opponents", [("game", None), ("game", [None, "greedy", None, "random"])])
def test_legal_lists_match_the_masks_in_every_phase(unit: str, opponents: list[str | None] | None) -> None:
    env = gf.VectorEnv(40, seed=4, unit=unit, rules=gf.Rules(max_deals=3), opponents=opponents)
    out = env.reset()
    phases = set()
    rng = np.random.default_rng(3)
    for _ in range(400):
        assert_legal_lists(out)
        assert (out["legal_count"] > 0).all()
        phases |= set(out["phase"].tolist())
        # the documented uniform pick from the lists
        k = (rng.random(env.num_envs) * out["legal_count"]).astype(np.int64)
        actions = out["legal"][out["legal_offset"][:-1] + k]
        assert (out["mask"][np.arange(env.num_envs), actions] == 1).all()
        out = env.step(actions)
    assert phases == {0, 1, 2}


def test_best_legal_is_the_masked_argmax() -> None:
    env = gf.VectorEnv(24, seed=6, opponents=[None, "random", None, "random"])
    with pytest.raises(gf.InvalidStateError, match="reset"):
        env.best_legal(np.zeros((24, gf.actions.SIZE), np.float32))
    out = env.reset()
    rng = np.random.default_rng(6)
    for step in range(150):
        scores = rng.standard_normal((24, gf.actions.SIZE)).astype(np.float32)
        if step % 3 == 1:  # ties: few distinct values
            scores = np.round(scores)
        if step % 5 == 2:  # -inf and NaN among the legal scores
            scores[rng.random(scores.shape) < 0.3] = -np.inf
            scores[3, out["legal"][out["legal_offset"][3] :][-1]] = np.nan
        masked = np.where(out["mask"] != 0, scores, -np.inf)
        want = masked.argmax(axis=1)
        every_minus_inf = (masked == -np.inf).all(axis=1)
        for s in (scores, scores.astype(np.float64), np.asfortranarray(scores)):
            got = env.best_legal(s)
            assert got.dtype == np.int64
            assert (got[~every_minus_inf] == want[~every_minus_inf]).all()
            assert (got[every_minus_inf] == out["legal"][out["legal_offset"][:-1]][every_minus_inf]).all()
        out = env.step(got)
    for bad, text in [
        (np.zeros((23, gf.actions.SIZE), np.float32), "shape"),
        (np.zeros((24, gf.actions.SIZE), np.int64), "float32 or float64"),
        (np.zeros(gf.actions.SIZE, np.float32), "float32 or float64"),
        ([[0.0] * gf.actions.SIZE] * 24, "float32 or float64"),
    ]:
        with pytest.raises(gf.InvalidArgumentError, match=text):
            env.best_legal(bad)  # type: ignore[arg-type]


def test_reset_with_a_seed_restarts_the_streams() -> None:
    env = gf.VectorEnv(2, seed=5)
    first = env.reset()["obs"].copy()
    second = env.reset()
    assert (second["episode"] == 1).all() and not np.array_equal(first, second["obs"])
    again = env.reset(seed=5)
    assert (again["episode"] == 0).all() and np.array_equal(first, again["obs"])


def test_bad_input_raises_and_changes_no_table() -> None:
    env = gf.VectorEnv(3, seed=1)
    with pytest.raises(gf.InvalidStateError, match="reset"):
        env.step(np.zeros(3, np.int64))
    out = env.reset()
    before = [env.episode(i).position() for i in range(3)]
    arrays = {k: v.copy() for k, v in out.items()}
    legal = out["mask"].argmax(axis=1)
    bad = legal.copy()
    bad[2] = int(np.flatnonzero(out["mask"][2] == 0)[0])
    for wrong, error, text in [
        (bad, gf.IllegalMoveError, r"actions\[2\]"),
        (np.append(legal[:2], -1), gf.IllegalMoveError, "not an index"),
        (np.append(legal[:2], gf.actions.SIZE), gf.IllegalMoveError, "not an index"),
        (legal.astype(np.float64), gf.InvalidArgumentError, "dtype float64"),
        (legal[:2], gf.InvalidArgumentError, "length 2"),
        (legal.reshape(1, 3), gf.InvalidArgumentError, "shape"),
        ("0 0 0", gf.InvalidArgumentError, "actions"),
    ]:
        with pytest.raises(error, match=text):
            env.step(wrong)  # type: ignore[arg-type]
        assert [env.episode(i).position() for i in range(3)] == before
        assert all(np.array_equal(out[k], arrays[k]) for k in arrays)
    env.close()
    assert env.closed
    for call in (env.reset, env.step_random, lambda: env.step(legal), lambda: env.episode(0), lambda: env.num_envs):
        with pytest.raises(gf.InvalidStateError, match="closed"):
            call()


def test_bad_arguments() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="every seat is native"):
        gf.VectorEnv(1, opponents=["greedy"] * 4)
    with pytest.raises(gf.InvalidArgumentError, match="opponents"):
        gf.VectorEnv(1, opponents=[None, "nope", None, None])
    with pytest.raises(gf.InvalidArgumentError, match="opponents"):
        gf.VectorEnv(1, opponents=[None, "greedy"])
    with pytest.raises(gf.InvalidArgumentError, match="num_envs"):
        gf.VectorEnv(0)
    for kw in ({"unit": "match"}, {"reward": "x"}, {"observation": "pixels"}):
        with pytest.raises(gf.InvalidArgumentError, match=next(iter(kw))):
            gf.VectorEnv(1, **kw)  # type: ignore[arg-type]
    env = gf.VectorEnv(2)
    assert (env.num_envs, env.observation_size, env.action_size) == (2, gf.DANZERO_SIZE, gf.actions.SIZE)
    assert gf.VectorEnv(1, observation="guandan").observation_size == gf.OBSERVATION_SIZE
    with pytest.raises(gf.InvalidArgumentError, match="table index"):
        env.episode(2)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_actions_of_every_integer_dtype(dtype: type) -> None:
    ref, env = gf.VectorEnv(4, seed=3), gf.VectorEnv(4, seed=3)
    a, b = ref.reset(), env.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        # int8 holds no index past 127: take the smallest legal one there
        chosen = pick(a["mask"], rng) if np.iinfo(dtype).max >= gf.actions.SIZE else a["mask"].argmax(axis=1)
        a, b = ref.step(chosen), env.step(chosen.astype(dtype))
        assert np.array_equal(a["obs"], b["obs"]) and np.array_equal(a["mask"], b["mask"])


def test_an_unsigned_index_beyond_the_space_is_refused() -> None:
    env = gf.VectorEnv(1, seed=1)
    env.reset()
    with pytest.raises(gf.IllegalMoveError, match="not an index"):
        env.step(np.array([2**64 - 1], np.uint64))


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/meminfo")
def test_more_tables_than_memory_holds_are_refused_with_the_figure() -> None:
    meminfo = Path("/proc/meminfo").read_text(encoding="ascii")
    total = 1024 * int(next(line for line in meminfo.splitlines() if line.startswith("MemTotal:")).split()[1])
    n = 1 << 20  # the most num_envs takes: ~24 KB a table with its rows
    if n * (20 * 1024 + 4 * gf.DANZERO_SIZE + gf.actions.SIZE) <= total:
        pytest.skip("this machine holds the most tables num_envs takes")
    with pytest.raises(gf.InvalidArgumentError, match=r"num_envs = \d+ needs about \d+ MB once reset .* machine has \d+ MB"):
        gf.VectorEnv(n)


def test_ctrl_c_stops_a_step_of_searching_opponents_and_changes_no_table() -> None:
    slow = [None, "mc:2000000", None, "mc:2000000"]
    # a seed whose first deal the learner (seat 0) leads: reset asks no opponent
    seed = None
    for s in range(100):
        probe = gf.VectorEnv(1, seed=s, opponents=[None, "greedy", None, "greedy"])
        probe.reset()
        if not probe.episode(0).actions:
            seed = s
            break
    assert seed is not None
    env = gf.VectorEnv(1, seed=seed, opponents=slow)
    out = env.reset()
    before = env.episode(0).position()
    arrays = {k: v.copy() for k, v in out.items()}
    timer = threading.Timer(0.3, _thread.interrupt_main)
    # A runner started in the background (`cmd &`) ignores SIGINT, and then
    # interrupt_main does nothing: Python's own handler is put back meanwhile.
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            env.step(out["mask"].argmax(axis=1))  # the opponent after seat 0 then searches for ever
        timer.join()
    finally:
        signal.signal(signal.SIGINT, handler)
    assert env.episode(0).position() == before
    assert all(np.array_equal(out[k], arrays[k]) for k in arrays)
