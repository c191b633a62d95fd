"""The PettingZoo adapter: PettingZoo's own API and seed tests, the game it plays, its refusals."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils import wrappers

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.envs import pettingzoo as gpz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from envs_helpers import random_legal, run_allowing  # noqa: E402

# What PettingZoo's api_test says of every env with dict observations (its own
# classic card games are on a hard-coded list that silences these).
DICT_OBS_WARNINGS = [
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
]


def test_importing_the_package_imports_no_framework() -> None:
    code = (
        "import sys, guandan_fast, guandan_fast.envs\n"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'rlcard', 'torch') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize("observation", ["danzero", "guandan"])
def test_raw_env_passes_pettingzoo_api_test(observation: str) -> None:
    run_allowing(lambda: api_test(gpz.raw_env(observation=observation), num_cycles=1000), DICT_OBS_WARNINGS)


def test_wrapped_env_passes_pettingzoo_api_test() -> None:
    run_allowing(lambda: api_test(gpz.env(), num_cycles=1000), DICT_OBS_WARNINGS)


def test_game_unit_passes_pettingzoo_api_test() -> None:
    run_allowing(lambda: api_test(gpz.raw_env(unit="game", reward="game"), num_cycles=200), DICT_OBS_WARNINGS)


def test_seed_test() -> None:
    seed_test(gpz.raw_env, num_cycles=500)
    seed_test(gpz.env, num_cycles=500)


def test_parallel_form_passes_parallel_api_and_seed_tests() -> None:
    parallel_api_test(gpz.parallel_env(), num_cycles=1000)
    # The seed test samples unmasked actions: the first illegal one ends both episodes alike.
    run_allowing(lambda: parallel_seed_test(gpz.parallel_env, num_cycles=500), ["Illegal move made"])


def play_episode(env: gpz.GuandanAECEnv, seed: int, rng_seed: int) -> tuple[list[int], dict[str, float]]:
    """Plays one episode with random legal actions; the indices taken and each agent's total reward."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    taken: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        i = random_legal(obs["action_mask"], rng)
        taken.append(i)
        env.step(i)
    return taken, totals


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_episode_is_the_same_actions_applied_to_a_game(seed: int) -> None:
    env = gpz.raw_env()
    taken, totals = play_episode(env, seed, rng_seed=seed)
    played = env.game
    g = gf.Game(seed=env.episode.seed)
    for i in taken:
        g.apply_index(i)
    assert g.phase == "deal_over" and g.position() == played.position()
    result = g.last_result
    assert result is not None
    for seat, agent in enumerate(gpz.AGENTS):
        sign = 1 if seat % 2 == result["winner"] else -1
        assert totals[agent] == sign * result["gain"]


def test_observation_is_the_encoding_of_each_agents_view() -> None:
    env = gpz.raw_env(observation="guandan")
    env.reset(seed=4)
    acting = env.agent_selection
    for seat, agent in enumerate(gpz.AGENTS):
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["observation"], gf.encode_observation(env.game.observation(seat)))
        if agent == acting:
            np.testing.assert_array_equal(obs["action_mask"], env.game.legal_action_mask())
        else:
            assert not obs["action_mask"].any()


def test_seeds_give_the_same_episodes_and_different_seeds_others() -> None:
    a = play_episode(gpz.raw_env(), seed=11, rng_seed=5)
    b = play_episode(gpz.raw_env(), seed=11, rng_seed=5)
    assert a == b
    e1, e2 = gpz.raw_env(), gpz.raw_env()
    e1.reset(seed=11)
    e2.reset(seed=12)
    assert e1.game.position() != e2.game.position()


def snapshot(env: gpz.GuandanAECEnv) -> tuple[object, ...]:
    return (
        env.game.position(),
        len(env.game.actions),
        env.agent_selection,
        list(env.agents),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
    )


@pytest.mark.parametrize("make", [gpz.raw_env, gpz.env], ids=["raw_env", "env"])
def test_rewards_are_each_steps_own(make: Callable[..., AECEnv]) -> None:
    # A whole game: deals end inside the episode, so a step with rewards is
    # followed by steps with none, which must read as zero again.
    env = make(unit="game", reward="deal")
    env.reset(seed=21)
    ref = copy.copy(env.unwrapped.episode)
    rng = np.random.default_rng(2)
    rewarded = 0
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        a = random_legal(obs["action_mask"], rng)
        want = ref.step(a)
        env.step(a)
        if env.agents:
            assert dict(env.rewards) == dict(zip(gpz.AGENTS, want))
        rewarded += want != (0.0, 0.0, 0.0, 0.0)
    assert rewarded > 1  # more than the last step had rewards


def test_bad_actions_raise_and_change_nothing() -> None:
    env = gpz.raw_env()
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = snapshot(env)
    with pytest.raises(gf.IllegalMoveError):
        env.step(illegal)
    assert snapshot(env) == before
    for bad in (-1, actions.SIZE, 1.5, "3", None, True, [0]):
        with pytest.raises(gf.InvalidArgumentError):
            env.step(bad)
        assert snapshot(env) == before
    env.step(np.int32(random_legal(obs["action_mask"], np.random.default_rng(0))))  # numpy ints are indices
    assert len(env.game.actions) == 1


def test_after_the_end_only_none_steps_then_nothing() -> None:
    env = gpz.raw_env()
    play_episode(env, seed=8, rng_seed=8)
    assert env.agents == []
    with pytest.raises(gf.InvalidStateError):
        env.step(actions.PASS_INDEX)
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    while not any(env.terminations.values()):
        obs, *_ = env.last()
        env.step(random_legal(obs["action_mask"], rng))
    before = snapshot(env)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(actions.PASS_INDEX)
    assert snapshot(env) == before


def test_wrapped_env_ends_the_episode_on_an_illegal_action() -> None:
    env = gpz.env()
    env.reset(seed=3)
    obs, *_ = env.last()
    mover = env.agent_selection
    position = env.unwrapped.game.position()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    run_allowing(lambda: env.step(illegal), ["Illegal move made"])
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1 and sum(env.rewards.values()) == -1
    assert env.unwrapped.game.position() == position
    env.reset(seed=3)
    with pytest.raises(AssertionError):
        env.step(actions.SIZE)


def stock_env() -> AECEnv:
    """`env()` as PettingZoo's own wrappers build it around `raw_env()`."""
    e = wrappers.TerminateIllegalWrapper(gpz.raw_env(), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", fn()
    except Exception as e:  # the same refusals, with the same messages
        return type(e).__name__, str(e)


def aec_state(env: AECEnv) -> tuple[object, ...]:
    def last() -> tuple[object, ...]:
        obs, *rest = env.last()
        return {k: v.tolist() for k, v in obs.items()}, rest

    return (
        outcome(last),
        list(env.agents),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        env.unwrapped.game.position(),
    )


def test_wrapped_env_behaves_as_pettingzoos_own_wrappers() -> None:
    """env() reads the state and takes legal steps by shortcuts: the same
    calls on PettingZoo's own wrappers give the same answers, state and refusals."""
    ours, stock = gpz.env(), stock_env()
    for env in (ours, stock):
        assert outcome(lambda: env.agents)[0] == "AttributeError"
    assert outcome(lambda: ours.agent_selection) == outcome(lambda: stock.agent_selection)
    assert outcome(lambda: ours.last()) == outcome(lambda: stock.last())
    assert outcome(lambda: ours.step(0)) == outcome(lambda: stock.step(0))
    rng = np.random.default_rng(7)

    def both(call: Callable[[AECEnv], Any]) -> None:
        a = run_allowing(lambda: outcome(lambda: call(ours)), ["Illegal move made"])
        b = run_allowing(lambda: outcome(lambda: call(stock)), ["Illegal move made"])
        assert a[0] == b[0] and (a[0] != "ok" or a == b), (a, b)
        assert aec_state(ours) == aec_state(stock)

    for episode in range(12):
        both(lambda env: env.reset(seed=episode))
        while ours.agents:
            obs, _, terminated, truncated, _ = ours.last()
            legal = np.flatnonzero(obs["action_mask"])
            draw = rng.random()
            if terminated or truncated:
                action: Any = None if draw < 0.9 else int(legal[0]) if legal.size else 0
            elif draw < 0.75:
                action = int(rng.choice(legal))
            elif draw < 0.85:
                action = np.int64(rng.choice(legal))  # numpy ints take the wrappers' own path
            elif draw < 0.88 and episode % 3 == 0:
                action = int(np.flatnonzero(obs["action_mask"] == 0)[0])  # illegal: ends the episode
            elif draw < 0.9:
                action = None
            else:
                action = int(rng.choice(legal))
                if draw < 0.95:
                    ours.observe(gpz.AGENTS[0])  # observing someone else keeps the acting one's mask
                    stock.observe(gpz.AGENTS[0])
            both(lambda env: env.step(action))
        both(lambda env: env.step(None))  # no agent left: a warning, nothing else


def test_constructor_refuses_bad_options() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="observation"):
        gpz.raw_env(observation="pixels")
    with pytest.raises(gf.InvalidArgumentError, match="unit"):
        gpz.raw_env(unit="match")
    with pytest.raises(gf.InvalidArgumentError, match="reward"):
        gpz.raw_env(reward="game")  # a deal has no game winner
    with pytest.raises(gf.InvalidRulesError):
        gpz.raw_env(rules="tournament")


def test_vector_form_batches_the_aec_view() -> None:
    env = gpz.vector_env(3, seed=4)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, rewards, terminations, truncations, infos = env.last()
        seats = env.agent_selection
        assert obs["observation"].shape == (3, 513) and obs["action_mask"].dtype == np.int8
        assert rewards.shape == (3, 4) and (rewards.sum(axis=1) == 0).all()
        for i in range(3):
            g = env.native.episode(i)
            assert g.current_player == seats[i]
            np.testing.assert_array_equal(obs["action_mask"][i], g.legal_action_mask())
        env.step(np.array([random_legal(m, rng) for m in obs["action_mask"]]))
    with pytest.raises(gf.InvalidArgumentError):
        env.step(np.zeros(2, np.int64))
    env.close()


def test_vector_form_without_copies_gives_the_same_steps_in_the_native_buffers() -> None:
    runs = []
    for copy in (True, False):
        env = gpz.vector_env(3, seed=4, copy=copy)
        env.reset()
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(40):
            obs, rewards, terminations, _, infos = env.last()
            seen.append([x.copy() for x in (obs["observation"], obs["action_mask"], rewards, terminations, infos["reset"], env.agent_selection)])
            env.step(np.array([random_legal(m, rng) for m in obs["action_mask"]]))
        runs.append(seen)
        obs, rewards, *_ = env.last()
        native = env.native.step(np.array([random_legal(m, rng) for m in obs["action_mask"]]))
        assert np.shares_memory(obs["observation"], native["obs"]) is (not copy)
        assert np.shares_memory(rewards, native["reward"]) is (not copy)
        env.close()
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
