"""One episode played seat by seat on a `Game`, as every framework adapter sees it.

An episode is a deal (``unit="deal"``: a game's first deal, at both teams'
level) or a whole game (``unit="game"``: deals follow one another, with
tribute, until a team wins the game). Actions are indices of
`guandan_fast.actions`; observations are one of the encodings of
docs/encodings.md, from the acting seat's point of view; rewards are per seat
and zero-sum between the teams:

- ``reward="deal"``: when a deal ends, each seat of the team of its first
  finisher gets the levels that team gained (``last_result["gain"]``), each
  seat of the other team minus that;
- ``reward="game"`` (``unit="game"`` only): when the game ends, +1 for each
  seat of the winning team, -1 for the others.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast._core import InvalidArgumentError, InvalidStateError

__all__ = [
    "AGENTS",
    "Episode",
    "check_choice",
    "check_index",
    "observation_bounds",
    "observation_encoder",
]

#: Agent names of the four seats (seat i is ``AGENTS[i]``; seats 0 and 2 are team 0).
AGENTS = ("player_0", "player_1", "player_2", "player_3")

_OVER = {"deal": ("deal_over", "game_over", "match_over"), "game": ("game_over", "match_over")}


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """`value` if it is one of `choices`, else InvalidArgumentError naming `name`."""
    if not isinstance(value, str) or value not in choices:
        raise InvalidArgumentError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_index(action: object) -> int:
    """The action index `action` stands for: an integer (Python or numpy) in 0..SIZE-1.

    Raises InvalidArgumentError for anything else (a bool, a float, None, a
    number out of range), naming it.
    """
    if isinstance(action, (bool, np.bool_)):
        raise InvalidArgumentError(f"an action is an integer index in 0..{actions.SIZE - 1}, got {action!r}")
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    try:
        i = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgumentError(
            f"an action is an integer index in 0..{actions.SIZE - 1}, got {type(action).__name__} {action!r}"
        ) from None
    if not 0 <= i < actions.SIZE:
        raise InvalidArgumentError(f"action index {i} is outside 0..{actions.SIZE - 1}")
    return i


def observation_encoder(observation: str) -> tuple[Callable[..., np.ndarray], int]:
    """The encoding function and vector size of ``observation`` ("danzero" or "guandan")."""
    check_choice("observation", observation, ("danzero", "guandan"))
    if observation == "danzero":
        return gf.danzero_state, gf.DANZERO_SIZE
    return gf.encode_observation, gf.OBSERVATION_SIZE


def observation_bounds(observation: str, rules: gf.Rules) -> tuple[np.ndarray, np.ndarray]:
    """Per-value lower and upper bounds (float32) of the encoding ``observation`` under `rules`."""
    _, size = observation_encoder(observation)
    if observation == "danzero":
        # Card counts 0..2, flags and one-hots 0..1, "no move" as -1.
        return np.full(size, -1.0, np.float32), np.full(size, 2.0, np.float32)
    low = np.zeros(size, np.float32)
    high = np.full(size, 2.0, np.float32)
    layout = gf.OBSERVATION_LAYOUT
    high[layout["hand_sizes"]] = 28 / 27
    high[layout["a_fails"]] = 3.0  # counts clipped to 3
    return low, high


class Episode:
    """A deal or a game played one decision at a time, with per-seat rewards.

    `game` is the underlying `Game` (read it, do not change it). A failed
    `step` raises and changes nothing.
    """

    def __init__(
        self,
        *,
        rules: gf.Rules | None = None,
        unit: str = "deal",
        reward: str = "deal",
        observation: str = "danzero",
    ) -> None:
        if rules is not None and not isinstance(rules, gf.Rules):
            raise gf.InvalidRulesError(f"rules must be a guandan_fast.Rules or None, got {type(rules).__name__}")
        self.rules = rules if rules is not None else gf.Rules()
        self.unit = check_choice("unit", unit, ("deal", "game"))
        self.reward = check_choice("reward", reward, ("deal", "game"))
        if reward == "game" and unit != "game":
            raise InvalidArgumentError('reward="game" needs unit="game" (a deal alone has no game winner)')
        self.observation = observation
        self._encode, self.observation_size = observation_encoder(observation)
        self._over = _OVER[unit]
        self.game: gf.Game | None = None
        #: Seeds of the deals played so far in this episode (the first is the episode's seed).
        self.seed: int | None = None

    # ------------------------------------------------------------------ state
    def reset(self, seed: int) -> None:
        """Starts a new episode whose first deal is `gf.deal(seed)` (the game's seeded stream)."""
        self.game = gf.Game(self.rules, seed=seed)
        self.seed = seed

    def _game(self) -> gf.Game:
        if self.game is None:
            raise InvalidStateError("the episode has not started: call reset() first")
        return self.game

    def render(self, mode: str | None) -> str | None:
        """The table as text for render mode ``"ansi"``, printed for ``"human"``, nothing for None."""
        if mode is None:
            return None
        text = str(self.game) if self.game is not None else "(no episode: call reset())"
        if mode == "human":
            print(text)
            return None
        return text

    @property
    def over(self) -> bool:
        """Whether the episode has ended."""
        return self._game().phase in self._over

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the episode is over."""
        g = self._game()
        return None if g.phase in self._over else g.current_player

    def mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """The legal-action mask of the seat to act (uint8, all zero once over)."""
        g = self._game()
        if g.phase in self._over:
            m = np.zeros(actions.SIZE, np.uint8) if out is None else out
            m[:] = 0
            return m
        return g.legal_action_mask(out=out)

    def observe(self, seat: int) -> np.ndarray:
        """The encoded observation of `seat` (float32, `observation_size` values)."""
        return np.asarray(self._encode(self._game().observation(seat)), dtype=np.float32)

    # ----------------------------------------------------------------- acting
    def step(self, action: Any) -> np.ndarray:
        """Applies the action index `action` for the seat to act; returns the reward of each seat (float32, (4,)).

        Raises InvalidArgumentError (not an index), InvalidStateError (the
        episode is over) or IllegalMoveError (not legal now); then nothing changed.
        """
        i = check_index(action)
        g = self._running()
        g.apply_index(i)
        return self._settle(g)

    def play_policy(self, policy: str, seed: int) -> np.ndarray:
        """Lets the built-in `policy` (as `gf.policy_action`) act for the seat to act; returns the rewards."""
        g = self._running()
        g.apply(gf.policy_action(g, policy, seed=seed, threads=1))
        return self._settle(g)

    def _running(self) -> gf.Game:
        g = self._game()
        if g.phase in self._over:
            raise InvalidStateError("the episode is over: reset() starts the next one")
        return g

    def _settle(self, g: gf.Game) -> np.ndarray:
        """The rewards of the action just applied; starts the next deal of a game."""
        rewards = np.zeros(4, np.float32)
        phase = g.phase
        if phase in ("deal_over", "game_over", "match_over"):
            result = g.last_result
            assert result is not None
            if self.reward == "deal":
                team, gain = result["winner"], float(result["gain"])
                rewards[team::2] = gain
                rewards[1 - team :: 2] = -gain
            elif phase != "deal_over":
                team = g.game_winners[-1]
                rewards[team::2] = 1.0
                rewards[1 - team :: 2] = -1.0
            if phase == "deal_over" and self.unit == "game":
                g.next_deal()
        return rewards

    def team_reward_bound(self) -> float:
        """The largest |reward| a seat can get in one step."""
        if self.reward == "game":
            return 1.0
        return float(max(self.rules.upgrade.values()))
