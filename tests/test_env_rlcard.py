"""The RLCard adapter: RLCard's random agents through env.run, its DMC actor loop, the game it plays, refusals."""

from __future__ import annotations

import importlib.util
import queue
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import rlcard

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.envs import rlcard as grl

with warnings.catch_warnings():
    # rlcard.agents imports distutils (deprecated) and lists the installed packages.
    warnings.simplefilter("ignore", DeprecationWarning)
    from rlcard.agents import RandomAgent


def test_rlcard_make_and_shapes() -> None:
    env = rlcard.make("guandan", config={"seed": 1})
    assert isinstance(env, grl.GuandanRLCardEnv)
    assert env.num_players == 4 and env.num_actions == actions.SIZE
    assert env.state_shape == [[513]] * 4 and env.action_shape == [[54]] * 4
    env = rlcard.make("guandan", config={"game_observation": "guandan"})
    assert env.state_shape == [[gf.OBSERVATION_SIZE]] * 4


@pytest.mark.parametrize("seed", [0, 1])
def test_random_agents_play_through_env_run_and_it_is_the_game(seed: int) -> None:
    env = rlcard.make("guandan", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
    np.random.seed(seed)  # RLCard's random agent draws from numpy's global generator
    trajectories, payoffs = env.run(is_training=False)
    g = gf.Game(seed=env.game.episode.seed)
    for seat, i in env.action_recorder:
        assert g.current_player == seat
        g.apply_index(i)
    assert g.phase == "deal_over" and g.position() == env.game.episode.game.position()
    result = g.last_result
    assert result is not None
    gain = result["gain"]
    assert payoffs.tolist() == [gain if s % 2 == result["winner"] else -gain for s in range(4)]
    for seat in range(4):
        states = trajectories[seat][0::2]
        assert len(trajectories[seat]) % 2 == 1
        for state in states:
            assert state["obs"].shape == (513,) and state["obs"].dtype == np.float32
        for state, action in zip(states, trajectories[seat][1::2]):
            assert action in state["legal_actions"]
            np.testing.assert_array_equal(env.get_action_feature(action), state["legal_actions"][action])


def test_seeded_envs_give_the_same_episodes() -> None:
    def episode(seed: int) -> list[tuple[int, int]]:
        env = rlcard.make("guandan", config={"seed": seed})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        np.random.seed(3)
        env.run()
        return list(env.action_recorder)

    assert episode(4) == episode(4)
    assert episode(4) != episode(5)


def test_action_features_are_the_cards_of_the_pattern() -> None:
    env = rlcard.make("guandan", config={"seed": 2})
    state, seat = env.reset()
    g = env.game.episode.game
    for i, feature in state["legal_actions"].items():
        move = actions.action(i, g)
        assert feature.shape == (54,) and feature.dtype == np.int8
        if move == gf.PASS:
            assert not feature.any()
        else:
            # The same pattern, made from the lowest-face cards of each rank.
            assert feature.sum() == len(move.cards)
            ranks = lambda counts: np.add.reduceat(counts[:52], np.arange(0, 52, 4)).tolist() + list(counts[52:])  # noqa: E731
            assert ranks(feature) == ranks(move.cards.to_array().astype(np.int8))


def test_bad_actions_raise_and_change_nothing() -> None:
    env = rlcard.make("guandan", config={"seed": 3})
    state, _ = env.reset()
    illegal = next(i for i in range(actions.SIZE) if i not in state["legal_actions"])
    position = env.game.episode.game.position()
    with pytest.raises(gf.IllegalMoveError):
        env.step(illegal)
    with pytest.raises(gf.IllegalMoveError):
        env.step("Nothing at all", raw_action=True)
    for bad in (-1, actions.SIZE, 0.5, None):
        with pytest.raises(gf.InvalidArgumentError):
            env.step(bad)
    assert env.game.episode.game.position() == position
    text = state["raw_legal_actions"][0]
    env.step(text, raw_action=True)  # a raw action is its text
    assert len(env.game.episode.game.actions) == 1


def load_dmc_actor_loop() -> types.ModuleType:
    """RLCard's DMC actor loop (rlcard/agents/dmc_agent/utils.py), with numpy standing in
    for torch when torch is not installed (the loop only moves arrays into buffers)."""
    path = Path(rlcard.__file__).parent / "agents" / "dmc_agent" / "utils.py"
    spec = importlib.util.spec_from_file_location("rlcard_dmc_utils", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("torch")
    if importlib.util.find_spec("torch") is None:
        sys.modules["torch"] = types.SimpleNamespace(from_numpy=np.asarray)  # type: ignore[assignment]
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved
    return module


class FreeSlots:
    """The actor's free-buffer queue: hands out `n` slots, then stops the actor as the trainer would."""

    def __init__(self, n: int) -> None:
        self.slots = list(range(n))

    def get(self) -> int:
        if not self.slots:
            raise KeyboardInterrupt  # what a stopped trainer's actors see
        return self.slots.pop(0)


class RandomModel:
    """The model the actor asks for agents: here RLCard's random agent on every seat."""

    def get_agents(self) -> list[Any]:
        return [RandomAgent(num_actions=actions.SIZE) for _ in range(4)]


def test_dmc_trainers_actor_loop_drives_it() -> None:
    dmc = load_dmc_actor_loop()
    env = rlcard.make("guandan")
    T, slots = 20, 3
    buffers = [
        {
            "done": np.zeros((slots, T), bool),
            "episode_return": np.zeros((slots, T), np.float32),
            "target": np.zeros((slots, T), np.float32),
            "state": np.zeros((slots, T, 513), np.int8),
            "action": np.zeros((slots, T, 54), np.int8),
        }
        for _ in range(4)
    ]
    free = [FreeSlots(slots) for _ in range(4)]
    full: list[queue.Queue[int]] = [queue.Queue() for _ in range(4)]
    np.random.seed(0)
    dmc.act(0, "cpu", T, free, full, RandomModel(), buffers, env)
    filled = [full[p].qsize() for p in range(4)]
    assert filled[0] == slots, filled  # seat 0 filled every slot it was given before the stop
    b = buffers[0]
    assert b["done"].any()  # episodes ended inside the buffers
    assert set(np.unique(np.abs(b["target"]))) <= {1.0, 2.0, 3.0}
    assert (np.abs(b["state"]).sum(axis=2) > 0).all() and (b["state"] >= -1).all()
    assert (b["action"] >= 0).all() and (b["action"] <= 2).all()
