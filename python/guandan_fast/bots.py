"""Ready-made players: each takes a `Game` and returns the action for the seat to move."""

from __future__ import annotations

import operator
import random
from typing import Literal, Protocol, Union

from guandan_fast._core import (
    Combo,
    Game,
    IllegalMoveError,
    InvalidArgumentError,
    Observation,
    Pass,
    Return,
    Tribute,
    _check_args,
    _check_policy,
    policy_action,
)

__all__ = ["Bot", "GreedyBot", "MCBot", "RandomBot", "RuleBot", "SearchBot", "decision_seed", "play_deal"]

Action = Union[Combo, Pass, Tribute, Return]


def _game(game: object) -> Game:
    """`game` if it is a Game, else the core's `InvalidArgumentError`."""
    _check_args(game=game)
    assert isinstance(game, Game)
    return game


def _state(state: object) -> Game | Observation:
    """`state` if it is a Game or an Observation (what a policy decides from), else `InvalidArgumentError`."""
    return state if isinstance(state, Observation) else _game(state)


class Bot(Protocol):
    """Anything with ``act(game) -> action`` for the seat to move."""

    def act(self, game: Game) -> Action: ...


class RandomBot:
    """Uniform over the legal actions (pattern level by default)."""

    def __init__(self, seed: int = 0, mode: Literal["cards", "pattern"] = "pattern") -> None:
        _check_args(seed=seed, mode=mode)
        self._rng = random.Random(operator.index(seed))
        self.mode = mode

    def act(self, game: Game) -> Action:
        actions = _game(game).legal_actions(self.mode)
        if not actions:
            raise IllegalMoveError(f"no action is expected in the {game.phase} phase")
        return self._rng.choice(actions)


class GreedyBot:
    """The built-in greedy policy: smallest lead, smallest beating play, bombs only when an opponent is nearly out."""

    def act(self, game: Game | Observation) -> Action:
        return policy_action(_state(game), "greedy")


class RuleBot:
    """The built-in rule policy: plays chosen by what they do to the hand's
    valued decomposition, the partner and the opponents' hand sizes, the cards
    played counted (docs/bots.md)."""

    def act(self, game: Game | Observation) -> Action:
        return policy_action(_state(game), "rule")


class SearchBot:
    """A search policy of the native simulation by name (``sh:N``,
    ``mc-rule:N``, ``sh-greedy:N``, with ``+game`` and ``@Tms``; docs/bots.md);
    decision `k` (1, 2, ...) is ``policy_action(game, policy, seed=decision_seed(seed, k),
    mode=mode, threads=threads)``. Only playout-count budgets are
    reproducible: ``@Tms`` stops on the clock."""

    def __init__(
        self, policy: str = "sh-greedy:4000", *, seed: int = 0, threads: int = 0, mode: Literal["cards", "pattern"] = "pattern"
    ) -> None:
        _check_args(seed=seed, threads=threads, mode=mode)
        self.policy = _check_policy(policy)
        self.seed = operator.index(seed)  # a numpy integer's arithmetic would overflow in decision_seed
        self.threads = threads
        self.mode = mode
        self._decisions = 0

    def act(self, game: Game | Observation) -> Action:
        k = self._decisions + 1
        action = policy_action(_state(game), self.policy, seed=decision_seed(self.seed, k), mode=self.mode, threads=self.threads)
        self._decisions = k  # a refused call is not a decision
        return action


class MCBot(SearchBot):
    """Monte Carlo player: the ``mc:N`` policy (``mc-random:N`` with random
    rollouts) of the native simulation, about `playouts` determinized
    playouts per decision shared between the legal actions, hidden hands
    sampled from what the seat knows; decision `k` (1, 2, ...) of the bot is
    ``policy_action(game, policy, seed=decision_seed(seed, k))``."""

    def __init__(
        self,
        playouts: int = 200,
        *,
        seed: int = 0,
        threads: int = 0,
        rollout: Literal["greedy", "random"] = "greedy",
    ) -> None:
        _check_args(playouts=playouts, seed=seed, threads=threads)
        if not isinstance(rollout, str) or rollout not in ("greedy", "random"):
            raise InvalidArgumentError(f"rollout must be 'greedy' or 'random', not {rollout!r:.40}")
        super().__init__(f"{'mc' if rollout == 'greedy' else 'mc-random'}:{playouts}", seed=seed, threads=threads)
        self.playouts = playouts
        self.rollout = rollout


def decision_seed(seed: int, k: int) -> int:
    """The seed of decision `k` of a bot seeded with `seed` (a 64-bit value)."""
    return (seed * 1_000_003 + k) % 2**64


def play_deal(game: Game, bots: list[Bot]) -> list[int]:
    """Plays the current deal of `game` to its end with `bots[seat]`; returns the finishing order."""
    _game(game)
    try:
        if isinstance(bots, (str, bytes)):
            raise TypeError
        bots = list(bots)
    except TypeError:
        raise InvalidArgumentError(f"bots must be four bots, one per seat, not a {type(bots).__name__}") from None
    if len(bots) != 4:
        raise InvalidArgumentError(f"bots must be four bots, one per seat, not {len(bots)}")
    for i, bot in enumerate(bots):
        if not callable(getattr(bot, "act", None)):
            raise InvalidArgumentError(f"bots[{i}] must have an act(game) method, not a {type(bot).__name__}")
    while game.phase in ("tribute", "return", "play"):
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].act(game))
    return game.finish_order
