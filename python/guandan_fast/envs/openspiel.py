"""Guandan as an OpenSpiel game (extra ``openspiel``): ``python_guandan``.

Importing this module registers the game; then
``pyspiel.load_game("python_guandan", {...})`` takes the parameters below.
One episode is one deal, played at level ``level`` with ``declarer``'s team
declaring (-1: nobody, a game's first deal), so without tribute.

- The deal is the game's one chance node: outcome ``k`` (uniform over
  ``0..num_deals-1``) deals ``gf.Game(seed=k)``'s shuffle and leader.
- Actions are the fixed indices of `guandan_fast.actions`
  (``num_distinct_actions = actions.SIZE``); ``action_to_string`` is
  `actions.describe` (a distinct text per index).
- Returns at the end: each seat of the first finisher's team gets the levels
  it gained, the others minus that (zero-sum).
- ``observation_tensor``: a one-hot of the observing seat, then
  `gf.encode_observation` of its view (docs/encodings.md).
  ``information_state_tensor``: the seat one-hot, its dealt hand (54 counts)
  and the deal's moves in order, one row each (the mover relative to the
  observer, one-hot of 4; 1 for a pass; the 54 card counts played).
- ``resample_from_infostate`` deals the unseen cards again with
  `gf.sample_hands` (uniform over the deals the seat's knowledge allows) and
  replays the deal's moves, so OpenSpiel's IS-MCTS runs on it.

Parameters (ranks are integers 2..14, 11 = J .. 14 = A, as OpenSpiel's game
strings would read a rank "2" as a number): ``num_deals``, ``level``,
``declarer`` (-1, 0 or 1) and the rule options of `gf.Rules`: ``upgrade_2``, ``upgrade_3``, ``upgrade_4``
(levels gained when the first finisher's partner is 2nd, 3rd, 4th), ``a_pass``, ``a_max_attempts`` (0: unlimited),
``a_fail_reset``, ``return_max_rank`` (0: none), ``joker_pair_in_full_house``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast._core import InvalidArgumentError
from guandan_fast.envs._episode import Episode

__all__ = ["GuandanGame", "GuandanObserver", "GuandanState", "rules_from_params"]

#: The most decisions one deal can take: 108 plays of one card, each followed by three passes.
MAX_DECISIONS = 108 * 4

_DEFAULTS: dict[str, Any] = {
    "num_deals": 1 << 16,
    "level": 2,
    "declarer": -1,
    "upgrade_2": 3,
    "upgrade_3": 2,
    "upgrade_4": 1,
    "a_pass": "partner_not_last",
    "a_max_attempts": 3,
    "a_fail_reset": 2,
    "return_max_rank": 10,
    "joker_pair_in_full_house": True,
}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_guandan",
    long_name="Python Guandan (guandan_fast)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def rank_text(value: object) -> str:
    """The rank text of a rank parameter: 2..14 (11 = J, 12 = Q, 13 = K, 14 = A)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 14:
        raise InvalidArgumentError(f"a rank parameter is an integer 2..14 (14 = A), got {value!r}")
    return "23456789TJQKA"[value - 2]


def rules_from_params(params: dict[str, Any]) -> gf.Rules:
    """The `gf.Rules` the game parameters ask for."""
    attempts = int(params["a_max_attempts"])
    rmax = int(params["return_max_rank"])
    return gf.Rules(
        upgrade={place: int(params[f"upgrade_{place}"]) for place in (2, 3, 4)},
        a_pass=str(params["a_pass"]),  # type: ignore[arg-type]
        a_max_attempts=None if attempts == 0 else attempts,
        a_fail_reset=rank_text(params["a_fail_reset"]),
        return_max_rank=None if rmax == 0 else rank_text(rmax),
        joker_pair_in_full_house=bool(params["joker_pair_in_full_house"]),
    )


class GuandanGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_guandan`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.rules = rules_from_params(merged)
        self.num_deals = int(merged["num_deals"])
        if not 1 <= self.num_deals <= 2**31 - 1:
            raise InvalidArgumentError(f"num_deals must be in 1..2**31-1, got {self.num_deals}")
        self.level = rank_text(merged["level"])
        declarer = int(merged["declarer"])
        if declarer not in (-1, 0, 1):
            raise InvalidArgumentError(f"declarer must be -1, 0 or 1, got {declarer}")
        self.declarer = None if declarer == -1 else declarer
        gf.Game(self.rules, levels=(self.level, self.level), declarer=self.declarer)  # checks level and rules
        gain = float(max(self.rules.upgrade.values()))
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.SIZE,
            max_chance_outcomes=self.num_deals,
            num_players=4,
            min_utility=-gain,
            max_utility=gain,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        p = 1.0 / self.num_deals
        self._outcomes: list[tuple[int, float]] | None = None
        self._p = p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal's outcomes (built once)."""
        if self._outcomes is None:
            self._outcomes = [(k, self._p) for k in range(self.num_deals)]
        return self._outcomes

    def new_initial_state(self) -> GuandanState:
        return GuandanState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GuandanObserver:
        return GuandanObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class GuandanState(pyspiel.State):  # type: ignore[misc]
    """A deal of ``python_guandan``: before the deal (chance), playing, or over."""

    def __init__(self, game: GuandanGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._level = game.level
        self._declarer = game.declarer
        #: The deal being played (its returns and tensors are the episode's).
        self.episode = Episode(rules=game.rules, observation="guandan")
        self._deal: int | None = None
        # Set by resample_from_infostate: the hands to deal and the moves to replay.
        self._pending_hands: list[gf.Hand] | None = None
        self._pending_leader: int | None = None
        self._pending_moves: list[Any] = []

    @property
    def game(self) -> gf.Game | None:
        """A copy of the deal's `Game`, None before the deal."""
        return self.episode.game if self.episode.started else None

    def current_player(self) -> int:
        episode = self.episode
        if not episode.started:
            return int(pyspiel.PlayerId.CHANCE)
        seat = episode.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        episode = self.episode
        if not episode.started or player != episode.current_player:
            return []
        return episode.legal_indices().tolist()  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.get_game()
        assert isinstance(game, GuandanGame)
        return game.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        episode = self.episode
        if not episode.started:
            if self._pending_hands is not None:
                deal = gf.Game(
                    self._rules,
                    hands=self._pending_hands,
                    leader=self._pending_leader,
                    levels=(self._level, self._level),
                    declarer=self._declarer,
                )
                self._pending_hands = None
            else:
                deal = gf.Game(self._rules, seed=action, levels=(self._level, self._level), declarer=self._declarer)
            episode.start(deal)
            self._deal = action
        elif self._pending_moves:
            move = self._pending_moves[0]
            if actions.index(move, self._level) != action:
                raise InvalidArgumentError(f"a resampled state replays {move!r}, not action {action}")
            episode.play(move)
            self._pending_moves.pop(0)
        else:
            episode.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {action}"
        return actions.describe(action)

    def is_terminal(self) -> bool:
        return bool(self.episode.started and self.episode.over)

    def returns(self) -> list[float]:
        return list(self.episode.returns) if self.episode.started else [0.0] * 4

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GuandanState:
        """A state `player_id` cannot tell from this one, its hidden cards dealt anew."""
        g = self.game
        game = self.get_game()
        if g is None:
            return game.new_initial_state()  # type: ignore[no-any-return]
        obs = self.episode.view(player_id)
        seed = int(probability_sampler() * 2**53)
        now = gf.sample_hands(obs, 1, seed=seed)[0]
        played = np.stack([h.to_array() for h in obs.played])
        state: GuandanState = game.new_initial_state()
        state._pending_hands = [gf.Hand.from_counts(row) for row in now + played]
        state._pending_leader = g.leader
        state._pending_moves = [a for _, a in g.history]
        state.apply_action(self._deal)
        for move in list(state._pending_moves):
            state.apply_action(actions.index(move, self._level))
        return state

    def __str__(self) -> str:
        if self.game is None:
            return "chance: the deal"
        return self.game.position()


class GuandanObserver:
    """OpenSpiel's observer: the tensors and strings described in the module docstring."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_guandan observers take no parameters, got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if self.perfect_recall:
            pieces = [("player", 4, (4,)), ("dealt", 54, (54,)), ("moves", MAX_DECISIONS * 59, (MAX_DECISIONS, 59))]
        else:
            pieces = [("player", 4, (4,)), ("observation", gf.OBSERVATION_SIZE, (gf.OBSERVATION_SIZE,))]
        self.tensor = np.zeros(sum(n for _, n, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, n, shape in pieces:
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n

    def set_from(self, state: GuandanState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        if not state.episode.started:
            return
        if not self.perfect_recall:
            state.episode.observe(player, out=self.dict["observation"])
            return
        obs = state.episode.view(player)
        self.dict["dealt"][:] = (obs.hand + obs.played[player]).to_array()
        moves = self.dict["moves"]
        for row, (seat, move) in enumerate(obs.history):
            moves[row, (seat - player) % 4] = 1
            if isinstance(move, gf.Combo):
                moves[row, 5:] = move.cards.to_array()
            else:
                moves[row, 4] = 1

    def string_from(self, state: GuandanState, player: int) -> str:
        if not state.episode.started:
            return f"p{player} before the deal"
        obs = state.episode.view(player)
        if self.perfect_recall:
            dealt = obs.hand + obs.played[player]
            moves = " ".join(f"{s}:{'pass' if not isinstance(m, gf.Combo) else str(m.cards)}" for s, m in obs.history)
            return f"p{player} dealt {dealt} | {moves}"
        return (
            f"p{player} hand {obs.hand} | sizes {obs.hand_sizes} | top {obs.top} by {obs.top_seat}"
            f" | out {obs.finish_order} | played {' / '.join(str(h) for h in obs.played)}"
        )


pyspiel.register_game(_GAME_TYPE, GuandanGame)
