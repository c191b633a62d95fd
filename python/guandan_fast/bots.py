"""Ready-made players: each takes a `Game` and returns the action for the seat to move."""

from __future__ import annotations

import random
from typing import Literal, Protocol, Union

from guandan_fast._core import Combo, Game, Pass, Return, Tribute, evaluate, policy_action
from guandan_fast.arena import pit

__all__ = ["Bot", "GreedyBot", "MCBot", "RandomBot", "play_deal", "pit"]

Action = Union[Combo, Pass, Tribute, Return]


class Bot(Protocol):
    """Anything with ``act(game) -> action`` for the seat to move."""

    def act(self, game: Game) -> Action: ...


class RandomBot:
    """Uniform over the legal actions (pattern level by default)."""

    def __init__(self, seed: int = 0, mode: Literal["cards", "pattern"] = "pattern") -> None:
        self._rng = random.Random(seed)
        self.mode = mode

    def act(self, game: Game) -> Action:
        return self._rng.choice(game.legal_actions(self.mode))


class GreedyBot:
    """The built-in greedy policy: smallest lead, smallest beating play, bombs only when an opponent is nearly out."""

    def act(self, game: Game) -> Action:
        return policy_action(game, "greedy")


class MCBot:
    """Monte Carlo player: `playouts` determinized playouts per decision, shared
    between the legal actions, hidden hands sampled from what the seat knows."""

    def __init__(
        self,
        playouts: int = 200,
        *,
        seed: int = 0,
        threads: int = 0,
        rollout: Literal["greedy", "random"] = "greedy",
    ) -> None:
        self.playouts = playouts
        self.seed = seed
        self.threads = threads
        self.rollout = rollout
        self._decisions = 0

    def act(self, game: Game) -> Action:
        self._decisions += 1
        if game.phase != "play":
            return policy_action(game, "greedy", seed=self.seed + self._decisions)
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        n = len(game.legal_actions("pattern"))
        if n == 1:
            return game.legal_actions("pattern")[0]
        per_action = max(1, self.playouts // n)
        r = evaluate(
            obs,
            playouts=per_action,
            seed=self.seed * 1_000_003 + self._decisions,
            threads=self.threads,
            policy=self.rollout,
        )
        return r["best"]


def play_deal(game: Game, bots: list[Bot]) -> list[int]:
    """Plays the current deal of `game` to its end with `bots[seat]`; returns the finishing order."""
    if len(bots) != 4:
        raise ValueError("play_deal needs one bot per seat (4)")
    while game.phase in ("tribute", "return", "play"):
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].act(game))
    return game.finish_order
