"""Guandan as a PettingZoo environment (extra ``pettingzoo``).

- `env()`: the AEC env with PettingZoo's standard classic-game wrappers (an
  illegal move ends the episode, the mover losing; an action outside the
  space is an assertion error; calls out of order are refused);
- `raw_env()`: the bare AEC env, whose bad actions raise this package's errors;
- `parallel_env()`: the turn-based parallel form of `env()` (PettingZoo's
  own conversion: every live agent gives an action, the one to act is applied);
- `vector_env()`: many self-play tables at once on `guandan_fast.VectorEnv`
  (PettingZoo has no vector API: this batches the AEC env's observation
  dict, one acting agent per table).

Agents ``player_0`` .. ``player_3`` (seat i; seats 0 and 2 are a team).
Each observation is a dict: ``"observation"`` (the encoding ``observation``
of docs/encodings.md, float32, of that agent's view) and ``"action_mask"``
(int8, `guandan_fast.actions.SIZE` values, 1 on the legal actions of the
agent to act, all zero for the others). Actions are `Discrete(actions.SIZE)`
indices of `guandan_fast.actions`. Rewards come when a deal (or the game)
ends, as described in docs/environments.md.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.envs._episode import AGENTS, Episode, observation_bounds, render

_SEATS = {a: s for s, a in enumerate(AGENTS)}
_NO_REWARDS = (0.0, 0.0, 0.0, 0.0)

__all__ = ["GuandanAECEnv", "GuandanVectorAECEnv", "env", "parallel_env", "raw_env", "vector_env"]


class _Actions(spaces.Discrete):  # type: ignore[misc]
    """`Discrete(n)` whose `contains` answers a Python int without numpy (the
    out-of-bounds wrapper asks it every step); anything else as `Discrete` does."""

    def contains(self, x: Any) -> bool:
        if type(x) is int and self.start == 0:
            return 0 <= x < self.n
        return bool(super().contains(x))


class GuandanAECEnv(AECEnv):  # type: ignore[misc]
    """The four-seat AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"name": "guandan_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        *,
        rules: gf.Rules | None = None,
        unit: str = "deal",
        reward: str = "deal",
        observation: str = "danzero",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise gf.InvalidArgumentError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.episode = Episode(rules=rules, unit=unit, reward=reward, observation=observation)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        low, high = observation_bounds(observation)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions.SIZE,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self.action_spaces = {a: _Actions(actions.SIZE) for a in AGENTS}
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> gf.Game:
        """A copy of the `Game` being played."""
        return self.episode.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts an episode: its deal seed is drawn from the env's generator, seeded by `seed` when given."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.episode.reset(int(self.np_random.integers(0, 2**63)))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        # Whether the last live step wrote a reward into `rewards` (a step
        # ending the episode otherwise, as PettingZoo's wrappers do, is
        # followed by no live step before the next reset).
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.episode.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = _SEATS[agent]
        episode = self.episode
        return {"observation": episode.observe(seat), "action_mask": episode.action_mask(seat)}

    def step(self, action: Any) -> None:
        """Plays `action` (an index) for `agent_selection`; a dead agent steps with None.

        Raises InvalidArgumentError (not an index), IllegalMoveError (not
        legal now), InvalidStateError (no episode running), ValueError (a
        dead agent given an action, as PettingZoo documents); then nothing changed.
        """
        if not self.agents:
            raise gf.InvalidStateError("the episode is over and every agent has stepped: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        step_rewards = episode.step(action)
        self._cumulative_rewards[agent] = 0.0
        # Every agent is live here, so `rewards` holds the four; adding no
        # reward (most steps) leaves the sums as they are, and writing no
        # reward over none (most steps) leaves `rewards` as it is.
        if step_rewards != _NO_REWARDS or self._rewarded:
            self.rewards.update(zip(AGENTS, step_rewards))
            self._rewarded = step_rewards != _NO_REWARDS
        seat = episode.current_player
        if seat is None:
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[seat]
        if step_rewards != _NO_REWARDS:
            self._accumulate_rewards()
        if seat is None:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), or printed (``"human"``)."""
        return render(self.episode, self.render_mode)

    def close(self) -> None:
        """Nothing to release; kept for the PettingZoo API."""

    def __str__(self) -> str:
        return "guandan_v0"


def raw_env(**kwargs: Any) -> GuandanAECEnv:
    """The bare AEC env: bad actions raise this package's errors and change nothing."""
    return GuandanAECEnv(**kwargs)


#: The AEC state a wrapper reads on every step; `_state_reads` reads it from the bare env.
_STATE = ("agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos")
#: Of those, what `OrderEnforcingWrapper` refuses before reset.
_AFTER_RESET = frozenset(_STATE) - {"_cumulative_rewards"}


def _state_read(name: str, guarded: bool) -> property:
    # Guarded, it reads through `_live`, the bare env once reset: before, the
    # read fails and the wrapper's __getattr__ answers with its refusal.
    return property(operator.attrgetter(f"{'_live' if guarded else '_bare'}.{name}"), doc=f"The bare env's ``{name}``.")


def _last(self: Any, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
    """`AECEnv.last` with the state read from the bare env (the agent read
    as the wrapper reads it: refused before reset where it refuses it)."""
    agent = self.agent_selection
    assert agent is not None
    observation = self.observe(agent) if observe else None
    bare = self._bare
    return observation, bare._cumulative_rewards[agent], bare.terminations[agent], bare.truncations[agent], bare.infos[agent]


def _order_enforcing_steps(base: Any) -> dict[str, Any]:
    """`OrderEnforcingWrapper`'s reset and step, outermost in `env()`. Once
    reset, observing is the bare env's own `observe` (set on the instance:
    the wrappers inside only remember the acting agent's observation for
    their step, which looks again when it holds none), and a step of a live
    agent with an index of the space is tried on the bare env first: a
    legal one is taken there, what the wrappers inside would do; an illegal
    one changes nothing there (this package's errors) and goes down the
    wrappers, which end the episode as PettingZoo's own do. Any other step
    goes down the wrappers, and anything else (errors, warnings) is the
    wrapper's own. Its reset makes the state readable (see `_state_read`),
    and so `_last`."""

    def reset(self: Any, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        bare = self._bare
        self._live = bare
        base.reset(self, seed=seed, options=options)
        self.observe = bare.observe

    size = actions.SIZE

    def step(self: Any, action: Any) -> None:
        bare = self._bare
        if type(action) is int and 0 <= action < size and self._has_reset and bare.agents:
            self._has_updated = True
            agent = bare.agent_selection
            if self._illegal._prev_obs is None and not (bare.terminations[agent] or bare.truncations[agent]):
                try:
                    bare.step(action)
                    return
                except gf.IllegalMoveError:
                    pass
            self.env.step(action)
            return
        base.step(self, action)

    return {"reset": reset, "step": step}


def _out_of_bounds_steps(base: Any) -> dict[str, Any]:
    """`AssertOutOfBoundsWrapper`'s step: an action the space holds goes
    straight to the next env; anything else meets the wrapper's assertion."""

    def step(self: Any, action: Any) -> None:
        bare = self._bare
        if bare.action_space(bare.agent_selection).contains(action):
            self.env.step(action)
        else:
            base.step(self, action)

    return {"step": step}


def _state_reads(cls: type, qualname: str, guarded: bool = False, steps: Any = None) -> type:
    """`cls` (a PettingZoo wrapper) with the AEC state read from the bare env
    at once: each wrapper forwards unknown attributes to the next one, a
    lookup chain that cost more than the game's own step. Same values, same
    errors (before reset, when `guarded`), same name; `qualname` is the
    module's name for it (for pickle). `steps(cls)`: methods doing the
    wrapper's work on a legal step with those reads, the wrapper's own
    methods left the rest."""

    def __init__(self: Any, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, env, *args, **kwargs)
        self._bare = env.unwrapped

    body: dict[str, Any] = {name: _state_read(name, guarded and name in _AFTER_RESET) for name in _STATE}
    body.update(
        __init__=__init__,
        __str__=lambda self: str(self.env),
        action_space=lambda self, agent: self._bare.action_space(agent),
        last=_last,
        __doc__=cls.__doc__,
        __module__=__name__,
        __qualname__=qualname,
    )
    if steps is not None:
        body.update(steps(cls))
    return type(cls.__name__, (cls,), body)


_TerminateIllegal = _state_reads(wrappers.TerminateIllegalWrapper, "_TerminateIllegal")
_AssertOutOfBounds = _state_reads(wrappers.AssertOutOfBoundsWrapper, "_AssertOutOfBounds", steps=_out_of_bounds_steps)
_OrderEnforcing = _state_reads(wrappers.OrderEnforcingWrapper, "_OrderEnforcing", guarded=True, steps=_order_enforcing_steps)


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's standard classic-game wrappers.

    An illegal action ends the episode: the mover gets -1, the others 0 (and
    PettingZoo logs a warning); an action outside the space is an
    AssertionError; stepping before reset is refused.
    """
    illegal = _TerminateIllegal(raw_env(**kwargs), illegal_reward=-1)
    e: AECEnv = _OrderEnforcing(_AssertOutOfBounds(illegal))
    e._illegal = illegal
    return e


def parallel_env(**kwargs: Any) -> Any:
    """The turn-based parallel form of `env()` (PettingZoo's conversion): every
    live agent gives an action, the acting one's is applied, and
    ``infos[agent]["active_agent"]`` names who acts next. As in `env()`, an
    illegal action ends the episode with the mover losing."""
    return turn_based_aec_to_parallel(env(**kwargs))


class GuandanVectorAECEnv:
    """`num_envs` four-agent tables at once on `guandan_fast.VectorEnv`, AEC-style.

    PettingZoo has no vector API; this keeps the AEC env's spaces and
    observation dict, batched: `agent_selection` is the acting seat of each
    table (int8, (num_envs,); agent ``AGENTS[seat]``), `last()` returns the
    acting agents' observation dict (``"observation"`` (num_envs, size),
    ``"action_mask"`` (num_envs, SIZE) int8), the rewards of the last step
    per table and agent ((num_envs, 4): every agent's, not only the actor's),
    terminations, truncations and infos (``"reset"``: the table started its
    next episode in that step, and the observation is that episode's first).
    `step(actions)` takes one index per table. The arrays are copies, or
    with ``copy=False`` (as Gymnasium's ``SyncVectorEnv(copy=False)``) the
    native buffers themselves, rewritten by the next `step` or `reset`.
    """

    metadata = GuandanAECEnv.metadata

    def __init__(
        self,
        num_envs: int = 8,
        *,
        rules: gf.Rules | None = None,
        unit: str = "deal",
        reward: str = "deal",
        observation: str = "danzero",
        threads: int = 0,
        seed: int = 0,
        copy: bool = True,
    ) -> None:
        single = GuandanAECEnv(rules=rules, unit=unit, reward=reward, observation=observation)
        self.copy = bool(copy)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = single.observation_spaces
        self.action_spaces = single.action_spaces
        self.num_envs = num_envs
        self._options = {"threads": threads, "rules": rules, "unit": unit, "observation": observation, "reward": reward}
        self._native = gf.VectorEnv(num_envs, seed=seed, **self._options)
        self._out: dict[str, np.ndarray] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def native(self) -> Any:
        """The `guandan_fast.VectorEnv` underneath."""
        return self._native

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts every table (from seed `seed` when given)."""
        self._out = self._native.reset(seed=seed)

    def _current(self) -> dict[str, np.ndarray]:
        if self._out is None:
            raise gf.InvalidStateError("call reset() first")
        return self._out

    def _array(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    @property
    def agent_selection(self) -> np.ndarray:
        return self._array(self._current()["seat"])

    def last(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        out = self._current()
        a = self._array
        obs = {"observation": a(out["obs"]), "action_mask": a(out["mask"].view(np.int8))}
        return obs, a(out["reward"]), a(out["terminated"]), a(out["truncated"]), {"reset": a(out["reset"])}

    def step(self, actions_: Any) -> None:
        """Plays one index per table for its acting agent; an illegal one raises and no table moves."""
        self._current()
        arr = np.asarray(actions_)
        if arr.shape != (self.num_envs,) or not np.issubdtype(arr.dtype, np.integer):
            raise gf.InvalidArgumentError(f"actions must be {self.num_envs} integer indices, got {arr.dtype} of shape {arr.shape}")
        self._out = self._native.step(arr.astype(np.int64, copy=False))

    def close(self) -> None:
        self._native.close()


def vector_env(num_envs: int = 8, **kwargs: Any) -> GuandanVectorAECEnv:
    """`num_envs` self-play tables at once (see `GuandanVectorAECEnv`)."""
    return GuandanVectorAECEnv(num_envs, **kwargs)
