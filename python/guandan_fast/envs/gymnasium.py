"""Guandan as a Gymnasium environment (extra ``gymnasium``).

`GuandanEnv` is a single-agent env: the learner plays one seat, or both
seats of a team, against built-in opponents (`gf.policy_action` names:
``random``, ``greedy``, ``mc:N``...) on the other seats. Importing this
module registers it as ``guandan_fast/Guandan-v0``::

    import gymnasium
    import guandan_fast.envs.gymnasium  # registers the id
    env = gymnasium.make("guandan_fast/Guandan-v0", opponents=[None, "random", None, "random"])

(or ``gymnasium.make("guandan_fast.envs.gymnasium:guandan_fast/Guandan-v0")``,
which imports the module itself). `GuandanVectorEnv` is the
`gymnasium.vector.VectorEnv` form on the native `guandan_fast.VectorEnv`
(also ``gymnasium.make_vec("guandan_fast/Guandan-v0", num_envs=N,
vectorization_mode="vector_entry_point")``).

Observation: the encoding ``observation`` (docs/encodings.md) of the acting
learner seat, float32. Action: a `Discrete(actions.SIZE)` index of
`guandan_fast.actions`; ``info["action_mask"]`` (int8) marks the legal ones
(also `action_masks()`). Reward: the learner team's reward over the step and
the opponents' moves after it (see docs/environments.md).
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast._core import IllegalMoveError, InvalidArgumentError, InvalidStateError, _check_policy
from guandan_fast.arguments import check_number
from guandan_fast.envs._episode import Episode, check_choice, check_index, observation_bounds, render

__all__ = ["ENV_ID", "GuandanEnv", "GuandanVectorEnv", "check_opponents"]

#: The id this module registers.
ENV_ID = "guandan_fast/Guandan-v0"

#: Default opponents: the learner plays team 0 (seats 0 and 2) against greedy players.
DEFAULT_OPPONENTS = (None, "greedy", None, "greedy")


def check_opponents(opponents: Sequence[str | None]) -> tuple[str | None, ...]:
    """Four entries, None for a learner seat and a policy name for a built-in one;
    the learner seats (at least one) must all be in one team."""
    if isinstance(opponents, (str, bytes)) or not hasattr(opponents, "__len__") or len(opponents) != 4:
        raise InvalidArgumentError(
            f"opponents must be four entries (None for a learner seat, a policy name otherwise), got {opponents!r}"
        )
    out = tuple(None if o is None else _check_policy(o) for o in opponents)
    learners = [s for s, o in enumerate(out) if o is None]
    if not learners:
        raise InvalidArgumentError("opponents must leave at least one learner seat (None)")
    if len({s % 2 for s in learners}) > 1:
        raise InvalidArgumentError(f"the learner seats {learners} must all be in one team (seats 0/2 or 1/3)")
    return out


class GuandanEnv(gymnasium.Env):  # type: ignore[misc]
    """A learner seat or team against built-in opponents (see the module docstring).

    ``illegal_action``: ``"terminate"`` (default, as Gymnasium's checker
    steps with unmasked samples) ends the episode on an illegal index with
    reward ``illegal_reward`` (default: minus the largest deal reward) and
    ``info["illegal_action"] = True``, the game left as it was; ``"raise"``
    raises `IllegalMoveError` and changes nothing. An action that is not an
    index in the space raises `InvalidArgumentError`; a step after the end
    raises `InvalidStateError`.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        *,
        opponents: Sequence[str | None] = DEFAULT_OPPONENTS,
        rules: gf.Rules | None = None,
        unit: str = "deal",
        reward: str = "deal",
        observation: str = "danzero",
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.opponents = check_opponents(opponents)
        self.episode = Episode(rules=rules, unit=unit, reward=reward, observation=observation, opponents=list(self.opponents))
        self.illegal_action = check_choice("illegal_action", illegal_action, ("terminate", "raise"))
        self.illegal_reward = -self.episode.reward_bound if illegal_reward is None else check_number("illegal_reward", illegal_reward)
        self.learners = tuple(s for s, o in enumerate(self.opponents) if o is None)
        self.team = self.learners[0] % 2
        self.render_mode = render_mode
        low, high = observation_bounds(observation)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(actions.SIZE)
        self._done = True
        self._seat = self.learners[0]

    @property
    def game(self) -> gf.Game:
        """A copy of the `Game` being played."""
        return self.episode.game

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.episode.action_mask(), "seat": self._seat}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        episode = self.episode
        # The built-in seats play natively, each move's seed drawn from np_random.
        episode.reset(int(self.np_random.integers(0, 2**63)), self.np_random)
        self._done = False
        self._seat = episode.current_player  # a deal cannot end before a learner acts: every seat holds cards
        return episode.observe(self._seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        i = check_index(action)
        if self._done:
            raise InvalidStateError("the episode is over (or never started): call reset()")
        episode = self.episode
        draws = self._np_random  # `np_random` without its property call, once reset has made one
        try:
            # An illegal index raises before anything moves (the generator included).
            reward = episode.step(i, self.np_random if draws is None else draws)[self.team]
        except IllegalMoveError:
            if self.illegal_action != "terminate":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return episode.observe(self._seat), self.illegal_reward, True, False, info
        seat = episode.current_player
        if seat is None:
            self._done = True
        else:
            self._seat = seat
        if self.render_mode == "human":
            self.render()
        return episode.observe(self._seat), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the acting learner seat (bool), as sb3-contrib's MaskablePPO asks."""
        return self.episode.action_mask().astype(bool)

    def render(self) -> str | None:
        """The table as text (``"ansi"``), or printed (``"human"``)."""
        return render(self.episode, self.render_mode)


def _index_array(values: Any, n: int) -> np.ndarray:
    """`values` as an int64 array of `n` action indices; anything else raises InvalidArgumentError."""
    arr = np.asarray(values)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidArgumentError(f"actions must be {n} integer indices, got {arr.dtype} of shape {arr.shape}")
    return arr.astype(np.int64, copy=False)


class GuandanVectorEnv(VectorEnv):  # type: ignore[misc]
    """`num_envs` tables of `GuandanEnv` at once, stepped natively by `guandan_fast.VectorEnv`.

    Observations (num_envs, size) float32; ``infos["action_mask"]``
    (num_envs, SIZE) int8 and ``infos["seat"]`` (the acting learner seat of
    each table); rewards are the learner team's. A table whose episode ends
    starts the next one in the same step (Gymnasium's ``SAME_STEP``
    autoreset: the observation returned is the new episode's first, and
    ``infos["reset"]`` marks those tables). ``reset(seed=s)`` restarts every
    table from seed `s` (table i's episodes are seeded from ``(s, i, episode)``).
    An illegal action raises `IllegalMoveError` and no table moves.

    With ``copy=False`` (as Gymnasium's ``SyncVectorEnv(copy=False)``) the
    observations, masks and flags returned are the native buffers
    themselves, rewritten by the next ``step`` or ``reset``: no copy a step,
    for a loop that uses them before stepping again.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        *,
        opponents: Sequence[str | None] = DEFAULT_OPPONENTS,
        rules: gf.Rules | None = None,
        unit: str = "deal",
        reward: str = "deal",
        observation: str = "danzero",
        threads: int = 0,
        seed: int = 0,
        copy: bool = True,
    ) -> None:
        self.opponents = check_opponents(opponents)
        self.copy = bool(copy)
        self.team = next(s for s, o in enumerate(self.opponents) if o is None) % 2
        self._options = {
            "threads": threads,
            "rules": rules,
            "unit": unit,
            "opponents": list(self.opponents),
            "observation": observation,
            "reward": reward,
        }
        self._native = gf.VectorEnv(num_envs, seed=seed, **self._options)
        self.num_envs = num_envs
        low, high = observation_bounds(observation)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(actions.SIZE)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _array(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _infos(self, out: dict[str, np.ndarray]) -> dict[str, Any]:
        return {
            "action_mask": self._array(out["mask"].view(np.int8)),
            "seat": self._array(out["seat"]),
            "reset": self._array(out["reset"]),
        }

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        out = self._native.reset(seed=seed)
        return self._array(out["obs"]), self._infos(out)

    def step(self, actions_: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        out = self._native.step(_index_array(actions_, self.num_envs))
        reward = out["reward"][:, self.team].astype(np.float64)
        return self._array(out["obs"]), reward, self._array(out["terminated"]), self._array(out["truncated"]), self._infos(out)

    @property
    def native(self) -> Any:
        """The `guandan_fast.VectorEnv` underneath (``episode(i)`` rebuilds table i's episode as a Game)."""
        return self._native

    def close_extras(self, **kwargs: Any) -> None:
        self._native.close()


def _register() -> None:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point=f"{__name__}:GuandanEnv",
            vector_entry_point=f"{__name__}:GuandanVectorEnv",
        )


_register()
