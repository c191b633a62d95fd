"""The Gymnasium adapter: Gymnasium's env checker, the game it plays, its refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.envs import gymnasium as ggym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from envs_helpers import random_legal  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"opponents": [None, "random", "random", "random"], "observation": "guandan"},
        {"opponents": ["random", None, "greedy", None], "unit": "game", "reward": "game"},
        {"render_mode": "ansi"},
    ],
)
def test_passes_gymnasiums_env_checker(kwargs: dict[str, object]) -> None:
    env = gymnasium.make(ggym.ENV_ID, **kwargs)
    check_env(env.unwrapped)


def test_registered_id_also_loads_by_module_prefix() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('guandan_fast.envs.gymnasium:guandan_fast/Guandan-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "assert obs.shape == env.observation_space.shape and info['action_mask'].any()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def play(env: ggym.GuandanEnv, seed: int, rng_seed: int) -> tuple[list[int], list[float], list[np.ndarray]]:
    """One episode with random legal learner actions: indices, rewards, observations."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    taken, rewards, seen = [], [], [obs]
    done = False
    while not done:
        i = random_legal(info["action_mask"], rng)
        obs, r, done, truncated, info = env.step(i)
        assert not truncated
        taken.append(i)
        rewards.append(r)
        seen.append(obs)
    return taken, rewards, seen


@pytest.mark.parametrize("seed", [0, 1])
def test_an_episode_is_the_learners_actions_and_the_opponents_policy_on_a_game(seed: int) -> None:
    env = ggym.GuandanEnv(opponents=[None, "greedy", None, "greedy"])
    taken, rewards, _ = play(env, seed, rng_seed=seed)
    g = gf.Game(seed=env.episode.seed)
    learner_moves = iter(taken)
    for action in env.game.actions:
        seat = g.current_player
        assert isinstance(seat, int)
        if seat % 2 == 0:
            assert action == actions.action(next(learner_moves), g)
        else:
            assert action == gf.policy_action(g, "greedy")  # greedy ignores its seed
        g.apply(action)
    assert next(learner_moves, None) is None
    assert g.position() == env.game.position() and g.phase == "deal_over"
    result = g.last_result
    assert result is not None
    assert sum(rewards) == (1 if result["winner"] == 0 else -1) * result["gain"]
    assert all(r == 0 for r in rewards[:-1])


def test_observation_and_mask_are_the_acting_learners() -> None:
    env = ggym.GuandanEnv(opponents=["greedy", None, "greedy", None], observation="guandan")
    obs, info = env.reset(seed=2)
    seat = info["seat"]
    assert seat in (1, 3) and env.game.current_player == seat
    np.testing.assert_array_equal(obs, gf.encode_observation(env.game.observation(seat)))
    np.testing.assert_array_equal(info["action_mask"], env.game.legal_action_mask())
    assert info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(env.action_masks(), env.game.legal_action_mask().astype(bool))


def test_seeds_give_the_same_episodes() -> None:
    a = play(ggym.GuandanEnv(opponents=[None, "random", None, "random"]), seed=5, rng_seed=1)
    b = play(ggym.GuandanEnv(opponents=[None, "random", None, "random"]), seed=5, rng_seed=1)
    assert a[0] == b[0] and a[1] == b[1]
    assert all(np.array_equal(x, y) for x, y in zip(a[2], b[2]))
    env = ggym.GuandanEnv()
    first, _ = env.reset(seed=5)
    other, _ = env.reset(seed=6)
    assert not np.array_equal(first, other)


def test_bad_actions_raise_or_terminate_and_change_nothing() -> None:
    env = ggym.GuandanEnv(illegal_action="raise")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    position = env.game.position()
    with pytest.raises(gf.IllegalMoveError):
        env.step(illegal)
    for bad in (-1, actions.SIZE, 2.0, "PASS", None, False):
        with pytest.raises(gf.InvalidArgumentError):
            env.step(bad)
    assert env.game.position() == position
    env.step(np.int64(random_legal(info["action_mask"], np.random.default_rng(0))))

    env = ggym.GuandanEnv()  # the default: an illegal index ends the episode, as a loss
    env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-3.0, True, False, True)
    assert env.game.position() == position
    with pytest.raises(gf.InvalidStateError):
        env.step(actions.PASS_INDEX)


def test_a_step_after_the_end_is_refused() -> None:
    env = ggym.GuandanEnv()
    with pytest.raises(gf.InvalidStateError):
        env.step(0)  # before any reset
    play(env, seed=9, rng_seed=9)
    with pytest.raises(gf.InvalidStateError):
        env.step(actions.PASS_INDEX)


def test_constructor_refuses_bad_opponents() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="one team"):
        ggym.GuandanEnv(opponents=[None, None, "greedy", "greedy"])
    with pytest.raises(gf.InvalidArgumentError, match="learner"):
        ggym.GuandanEnv(opponents=["greedy"] * 4)
    with pytest.raises(gf.InvalidArgumentError):
        ggym.GuandanEnv(opponents=[None, "nobody", None, "greedy"])
    with pytest.raises(gf.InvalidArgumentError, match="four"):
        ggym.GuandanEnv(opponents="greedy")
    with pytest.raises(gf.InvalidArgumentError, match="illegal_action"):
        ggym.GuandanEnv(illegal_action="ignore")
    for bad in ("x", float("nan"), float("inf"), True):
        with pytest.raises(gf.InvalidArgumentError, match="illegal_reward must be a finite number"):
            ggym.GuandanEnv(illegal_reward=bad)  # type: ignore[arg-type]
    assert ggym.GuandanEnv(illegal_reward=-3).illegal_reward == -3.0


def vector_run(env: ggym.GuandanVectorEnv, steps: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen = [(obs, info["action_mask"])]
    for _ in range(steps):
        a = np.array([random_legal(m, rng) for m in info["action_mask"]], np.int64)
        obs, reward, terminated, truncated, info = env.step(a)
        assert obs.shape == (env.num_envs, 513) and reward.shape == (env.num_envs,)
        assert env.single_observation_space.contains(obs[0]) and not truncated.any()
        seen.append((obs, reward, terminated, info["action_mask"], info["seat"]))
    return seen


def test_vector_env_tables_are_games_with_the_learner_to_act() -> None:
    env = ggym.GuandanVectorEnv(4, opponents=[None, "random", None, "random"])
    seen = vector_run(env, 30, seed=2)
    _, _, _, mask, seat = seen[-1]
    for i in range(env.num_envs):
        g = env.native.episode(i)
        assert g.current_player == seat[i] and seat[i] % 2 == 0
        np.testing.assert_array_equal(mask[i], g.legal_action_mask())


def test_vector_env_seeds_give_the_same_episodes() -> None:
    a = vector_run(ggym.GuandanVectorEnv(3), 40, seed=7)
    b = vector_run(ggym.GuandanVectorEnv(3), 40, seed=7)
    assert all(all(np.array_equal(x, y) for x, y in zip(p, q)) for p, q in zip(a, b))
    rewards = np.stack([r[1] for r in a[1:]])
    ends = np.stack([r[2] for r in a[1:]])
    assert (rewards[~ends] == 0).all() and set(np.abs(rewards[ends]).tolist()) <= {1.0, 2.0, 3.0}


def test_vector_env_without_copies_returns_the_native_buffers() -> None:
    """copy=False steps the same episodes and hands out the buffers the next step rewrites."""
    copied = vector_run(ggym.GuandanVectorEnv(3), 40, seed=7)
    env = ggym.GuandanVectorEnv(3, copy=False)
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=7)
    assert np.array_equal(obs, copied[0][0]) and np.array_equal(info["action_mask"], copied[0][1])
    for k in range(1, 41):
        a = np.array([random_legal(m, rng) for m in info["action_mask"]], np.int64)
        held = obs
        obs, reward, terminated, _, info = env.step(a)
        assert obs is held, "the same buffer every step"
        for x, y in zip((obs, reward, terminated, info["action_mask"], info["seat"]), copied[k]):
            np.testing.assert_array_equal(x, y)
    native = env.native.step(np.array([random_legal(m, rng) for m in info["action_mask"]], np.int64))
    assert np.shares_memory(obs, native["obs"]) and np.shares_memory(info["action_mask"], native["mask"])


def test_vector_env_refuses_bad_actions_and_moves_no_table() -> None:
    env = ggym.GuandanVectorEnv(2)
    _, info = env.reset(seed=1)
    before = [env.native.episode(i).position() for i in range(2)]
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    good = random_legal(info["action_mask"][0], np.random.default_rng(0))
    with pytest.raises(gf.IllegalMoveError):
        env.step(np.array([good, illegal]))
    for bad in (np.array([good]), np.array([0.0, 0.0]), [[good, good]]):
        with pytest.raises(gf.InvalidArgumentError):
            env.step(bad)
    assert [env.native.episode(i).position() for i in range(2)] == before


def test_make_vec_uses_the_native_vector_env() -> None:
    envs = gymnasium.make_vec(ggym.ENV_ID, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, ggym.GuandanVectorEnv)
    obs, info = envs.reset(seed=0)
    assert obs.shape == (3, 513) and info["action_mask"].shape == (3, actions.SIZE)
    envs.close()
