"""Guandan as an RLCard environment (extra ``rlcard``): ``rlcard.make("guandan")``.

Importing this module registers the id (through
``rlcard.envs.registration.register``). Options go in the config dict, with
RLCard's ``game_`` prefix: ``game_rules`` (a `gf.Rules`), ``game_unit``
("deal" or "game"), ``game_reward`` ("deal" or "game") and
``game_observation`` ("danzero", the default, or "guandan").

The state of a seat (what ``env.run`` hands the agents): ``"obs"`` (the
encoding, float32, ``state_shape[seat]``), ``"legal_actions"`` (an ordered
dict from each legal action index of `guandan_fast.actions` to its action
feature), ``"raw_obs"`` (the `gf.Observation`), ``"raw_legal_actions"`` (the
`actions.describe` texts) and ``"action_record"``. The action feature
(``get_action_feature``, ``action_shape`` = 54) is a function of the index
alone, as RLCard's DMC trainer needs: the 54 card counts of the action's
pattern made from the lowest faces of each rank (hearts first, the level's
heart as the wildcard), at the level of the deal being played; zeros for a
pass. ``get_payoffs`` gives each seat's summed reward over the
episode (see docs/environments.md).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import registry

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast._core import action_features as _core_action_features
from guandan_fast.envs._episode import Episode, check_index

__all__ = ["ENV_ID", "GuandanRLCardEnv", "GuandanRLCardGame", "action_features"]

#: The id this module registers.
ENV_ID = "guandan"

_FEATURES: dict[str, np.ndarray] = {}


def action_features(level: str) -> np.ndarray:
    """The action feature of every index at `level`: (SIZE, 54) int8, built once per level.

    A play's natural cards take the lowest faces of their rank (hearts first,
    two copies a face; the level rank's hearts last, as they are its
    wildcards), a straight flush's its suit; its wildcards are the level's
    heart. A tribute or return is its one card; a pass is zeros.
    """
    table = _FEATURES.get(level)
    if table is None:
        table = _FEATURES[level] = _core_action_features(level)
    return table


class GuandanRLCardGame:
    """RLCard's game object: the episode the env plays, seat by seat."""

    allow_step_back = False

    def __init__(self, config: dict[str, Any]) -> None:
        self.episode = Episode(
            rules=config.get("game_rules"),
            unit=config.get("game_unit", "deal"),
            reward=config.get("game_reward", "deal"),
            observation=config.get("game_observation", "danzero"),
        )
        self.np_random = np.random.RandomState()

    @property
    def payoffs(self) -> np.ndarray:
        """Each seat's reward summed over the episode so far (float32)."""
        return np.array(self.episode.returns if self.episode.started else (0.0,) * 4, np.float32)

    def get_num_players(self) -> int:
        return 4

    def get_num_actions(self) -> int:
        return actions.SIZE

    def init_game(self) -> tuple[dict[str, Any], int]:
        """A new episode, its deal seed drawn from `np_random` (seeded by ``env.seed``)."""
        self.episode.reset(int(self.np_random.randint(0, 2**31 - 1)) * 2**31 + int(self.np_random.randint(0, 2**31 - 1)))
        seat = self.get_player_id()
        return self.get_state(seat), seat

    def step(self, action: Any) -> tuple[dict[str, Any], int]:
        """Applies an action index, or a ``raw_legal_actions`` text; bad ones raise and change nothing."""
        if isinstance(action, str):
            legal: list[int] = self.episode.legal_indices().tolist() if self.episode.started else []
            by_text = {actions.describe(i): i for i in legal}
            if action not in by_text:
                raise gf.IllegalMoveError(f"{action!r} is not one of the legal actions {sorted(by_text)}")
            action = by_text[action]
        self.episode.step(action)
        seat = self.get_player_id()
        return self.get_state(seat), seat

    def step_back(self) -> bool:
        return False

    def is_over(self) -> bool:
        return bool(self.episode.over)

    def get_player_id(self) -> int:
        """The seat to act (the last one that acted, once the episode is over)."""
        seat = self.episode.current_player
        if seat is None:
            history = self.episode.game.history
            return history[-1][0] if history else 0
        return seat

    def get_state(self, player_id: int) -> dict[str, Any]:
        episode = self.episode
        indices = episode.legal_indices().tolist() if player_id == episode.current_player else []
        return {"seat": player_id, "observation": episode.view(player_id), "legal": indices, "level": episode.level}


class GuandanRLCardEnv(Env):  # type: ignore[misc]
    """``rlcard.make("guandan")`` (see the module docstring)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.name = ENV_ID
        self.game = GuandanRLCardGame(config)
        super().__init__(config)
        size = self.game.episode.observation_size
        self.state_shape = [[size] for _ in range(4)]
        self.action_shape = [[54] for _ in range(4)]

    def _extract_state(self, state: dict[str, Any]) -> dict[str, Any]:
        seat: int = state["seat"]
        features = action_features(state["level"])
        legal = OrderedDict((i, features[i]) for i in state["legal"])
        return {
            "obs": self.game.episode.observe(seat),
            "legal_actions": legal,
            "raw_obs": state["observation"],
            "raw_legal_actions": [actions.describe(i) for i in state["legal"]],
            "action_record": self.action_recorder,
        }

    def _decode_action(self, action_id: Any) -> Any:
        return action_id

    def _get_legal_actions(self) -> OrderedDict[int, np.ndarray]:
        seat = self.game.get_player_id()
        return self._extract_state(self.game.get_state(seat))["legal_actions"]  # type: ignore[no-any-return]

    def get_payoffs(self) -> np.ndarray:
        """Each seat's reward summed over the episode so far."""
        return self.game.payoffs

    def get_action_feature(self, action: Any) -> np.ndarray:
        """The index's action feature (54 int8 counts) at the level of the deal being played."""
        return action_features(self.game.episode.level)[check_index(action)].copy()

    def get_perfect_information(self) -> dict[str, Any]:
        g = self.game.episode.game
        return {
            "hands": [str(h) for h in g.hands],
            "history": [(s, str(a)) for s, a in g.history],
            "current_player": g.current_player,
            "legal_actions": [actions.describe(int(i)) for i in g.legal_action_indices()],
        }


if ENV_ID not in registry.env_specs:
    from rlcard.envs.registration import register

    register(env_id=ENV_ID, entry_point=f"{__name__}:GuandanRLCardEnv")
