"""A client of a platform server for any guandan_fast bot.

`Client(url, bot)` keeps the seat's full `Observation` of the game from the
messages alone (hand, plays and passes, tribute and return cards, levels,
finishing order) and answers every ``act`` with the index of the bot's
action. A bot is a policy name (``"mc:200"``), an object with
``act(observation)`` (`GreedyBot`, `MCBot`) or a callable taking the
observation and the legal actions.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Mapping, Optional, Union

from guandan_fast._core import (
    Combo,
    GuandanError,
    Hand,
    Observation,
    Return,
    Rules,
    Tribute,
    _observation_from_public,
    settle_deal,
)
from guandan_fast.bots import SearchBot
from guandan_fast.platform import messages as m
from guandan_fast.platform.codes import Action, ProtocolError, action_code, action_from_code, card_from_code
from guandan_fast.platform.rules import check_start, platform_rules
from guandan_fast.platform.transport import (
    CLIENT_MAX_MESSAGE,
    CLIENT_MAX_QUEUE,
    CLOSE_TIMEOUT,
    OPEN_TIMEOUT,
    closed_reason,
    peer_fault,
    printable,
)

__all__ = ["Client", "PolicyBot"]

_ORDER = "23456789TJQKA"
#: Actions in one deal at most (a deal has at most 108 plays and passes between them): more is a server at fault.
MAX_DEAL_ACTIONS = 1000
_PHASES: dict[str, Literal["play", "tribute", "return"]] = {"play": "play", "tribute": "tribute", "back": "return"}


class PolicyBot(SearchBot):
    """A built-in policy by name, deciding from an observation: decision `k`
    is ``policy_action(observation, name, seed=decision_seed(seed, k))``, as
    `SearchBot(name, seed=seed)` decides (for ``mc:N`` exactly what
    ``MCBot(N, seed=seed)`` decides)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        super().__init__(name, seed=seed)
        self.name = self.policy


Bot = Union[str, Any, Callable[[Observation, list[Action]], Action]]


class Client:
    """Plays one seat of a platform server at `url` with `bot`, under `rules`
    (the platform's preset by default: the server's rules), each game from
    the level state `start` (the server's; None: both teams at 2; as
    `Referee` takes it)."""

    def __init__(
        self, url: str, bot: Bot, *, rules: Optional[Rules] = None, keep_decisions: bool = False, start: Optional[Mapping[str, Any]] = None
    ) -> None:
        self.url = url
        if isinstance(bot, str):
            bot = PolicyBot(bot)
        act = getattr(bot, "act", None)
        if callable(act):
            self._decide: Callable[[Observation, list[Action]], Action] = lambda o, legal: act(o)
        elif callable(bot):
            self._decide = bot
        else:
            raise TypeError(f"a bot is a policy name, an object with act(observation) or a callable, not {type(bot).__name__}")
        self.rules = platform_rules() if rules is None else rules
        self.start = check_start(start, self.rules)
        self.keep_decisions = keep_decisions
        #: (observation, action) of every decision, when `keep_decisions`.
        self.decisions: list[tuple[Observation, Action]] = []
        #: The ``gameResult`` message once the match is over.
        self.result: Optional[dict[str, Any]] = None
        self.seat: Optional[int] = None
        #: How the connection ended before the ``gameResult`` (None while playing or after it).
        self.stopped: Optional[str] = None
        self._new_game()
        self._new_deal([])

    # ------------------------------------------------------------ the view of the game

    def _new_game(self) -> None:
        first = "A" if self.rules.sudden_death else "2"
        self.levels: tuple[str, str] = (first, first)
        self.a_fails: tuple[int, int] = (0, 0)
        self.declarer: Optional[int] = None
        if self.start is not None:
            (l0, l1), (f0, f1) = self.start["levels"], self.start["a_fails"]
            self.levels, self.a_fails, self.declarer = (l0, l1), (f0, f1), self.start["declarer"]
        #: The finishing order tribute follows: the start's in a game's first deal (None: no tribute).
        self.prev_finish: Optional[list[int]] = None
        if self.start is not None and self.start.get("after") is not None:
            self.prev_finish = list(self.start["after"])

    def _new_deal(self, hand: list[Any]) -> None:
        self.hand = Hand(hand)
        self.sizes = [27, 27, 27, 27]
        self.history: list[tuple[int, Action]] = []
        self.finish: list[int] = []
        self.resisted = False

    @property
    def level(self) -> str:
        """The rank played in the current deal."""
        if self.declarer is None:
            return max(self.levels, key=_ORDER.index)
        return self.levels[self.declarer]

    def _move(self, seat: int, to: Optional[int], card: Any) -> None:
        if self.sizes[seat] == 0:
            raise ProtocolError(f"seat {seat} has no card left to give or play")
        self.sizes[seat] -= 1
        if seat == self.seat:
            self.hand = self.hand - [card]
        if to is not None:
            self.sizes[to] += 1
            if to == self.seat:
                self.hand = self.hand + [card]

    def observation(self, msg: dict[str, Any]) -> Observation:
        """The seat's Observation at the ``act`` message `msg`."""
        if self.seat is None:
            raise ProtocolError("an act message before the beginning message")
        top = None
        if msg["greaterPos"] != -1:
            action = action_from_code(msg["greaterAction"], self.level, self.rules)
            if not isinstance(action, Combo):
                raise ProtocolError("greaterAction is not a play")
            top = (action, msg["greaterPos"])
        return _observation_from_public(
            seat=self.seat, rules=self.rules, levels=self.levels, a_fails=self.a_fails, declarer=self.declarer,
            phase=_PHASES[msg["stage"]], current=self.seat, hand=self.hand, sizes=self.sizes, top=top,
            finish=self.finish, history=self.history, prev_finish=self.prev_finish, resisted=self.resisted,
        )

    # ------------------------------------------------------------ messages

    def handle(self, msg: object) -> Optional[str]:
        """Takes in one message (decoded JSON); returns the reply to send (for an
        ``act``), else None. A message the protocol does not allow, or one that
        does not fit the game the messages so far describe, raises
        `ProtocolError` naming the message and what is wrong."""
        stage, kind = m.check_message(msg)
        assert isinstance(msg, dict)
        try:
            if kind != "act":
                self._notify(stage, msg)
                return None
            obs, legal = self._read_act(msg)
        except ProtocolError as e:
            raise ProtocolError(f"the {stage}/{kind} message: {e}") from None
        except GuandanError as e:  # the engine refuses what the message says (a card not in a hand, ...)
            raise ProtocolError(f"the {stage}/{kind} message does not fit the game so far: {e}") from None
        return self._answer(obs, legal)

    def _notify(self, stage: str, msg: dict[str, Any]) -> None:
        if stage == "beginning":
            if self.seat is not None and msg["myPos"] != self.seat:
                raise ProtocolError(f"myPos {msg['myPos']} is not this client's seat {self.seat}")
            self.seat = msg["myPos"]
            self._new_deal([card_from_code(c) for c in msg["handCards"]])
        elif stage == "anti-tribute":
            self.resisted = True
        elif stage in ("tribute", "back"):
            cls = Tribute if stage == "tribute" else Return
            for giver, to, code in msg["result"]:
                card = card_from_code(code)
                self._record_action(giver, cls(card))
                self._move(giver, to, card)
        elif stage == "play":
            seat = msg["curPos"]
            action = action_from_code(msg["curAction"], self.level, self.rules)
            self._record_action(seat, action)
            if isinstance(action, Combo):
                for card in action.cards:
                    self._move(seat, None, card)
                if self.sizes[seat] == 0:
                    self.finish.append(seat)
        elif stage == "episodeOver":
            order = list(msg["order"])
            s = settle_deal(order, levels=self.levels, a_fails=self.a_fails, declarer=self.declarer, rules=self.rules)
            self.levels, self.a_fails, self.declarer = s["levels"], s["a_fails"], s["declarer"]
            self.prev_finish = order
        elif stage == "gameOver":
            self._new_game()
        elif stage == "gameResult":
            self.result = msg

    def _record_action(self, seat: int, action: Action) -> None:
        if len(self.history) >= MAX_DEAL_ACTIONS:
            raise ProtocolError(f"more than {MAX_DEAL_ACTIONS} actions in one deal")
        self.history.append((seat, action))

    def _read_act(self, msg: dict[str, Any]) -> tuple[Observation, list[Action]]:
        """The observation at the ``act`` message `msg` and the actions it lists."""
        if self.seat is None:
            raise ProtocolError("an act message before the beginning message")
        team = self.seat % 2
        ranks = (self.levels[team], self.levels[1 - team], self.level)
        if (msg["selfRank"], msg["oppoRank"], msg["curRank"]) != ranks:
            raise ProtocolError(
                f"the server's levels (self {msg['selfRank']}, other {msg['oppoRank']}, played {msg['curRank']}) are not "
                f"what its deals give under these rules ({', '.join(ranks)}): give the Client the server's rules"
            )
        if Hand([card_from_code(c) for c in msg["handCards"]]) != self.hand:
            raise ProtocolError(f"the hand of the act message is not the hand the messages so far leave seat {self.seat}")
        return self.observation(msg), [action_from_code(c, self.level, self.rules) for c in msg["actionList"]]

    def _answer(self, obs: Observation, legal: list[Action]) -> str:
        """The reply choosing the bot's action among `legal`."""
        action = self._decide(obs, legal)
        try:
            index = legal.index(action)
        except ValueError:
            raise ProtocolError(f"the bot chose {action_code(action)}, which is not in the action list") from None
        if self.keep_decisions:
            self.decisions.append((obs, action))
        return m.reply(index)

    # ------------------------------------------------------------ the connection

    async def run(self) -> Optional[dict[str, Any]]:
        """Connects, plays until the server closes the connection; returns the
        ``gameResult`` message (None if the match was stopped: `stopped` says
        how). A message the protocol does not allow, one over the client's size
        limit or a connection cut in the middle of a message raises
        `ProtocolError` (the connection is closed with code 1002)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        async with connect(
            self.url, ping_interval=None, max_size=CLIENT_MAX_MESSAGE, max_queue=CLIENT_MAX_QUEUE,
            open_timeout=OPEN_TIMEOUT, close_timeout=CLOSE_TIMEOUT, compression=None,
        ) as ws:
            try:
                while True:
                    out = self.handle(m.decode(await ws.recv()))
                    if out is not None:
                        await ws.send(out)
            except ConnectionClosed as e:
                fault = peer_fault(e)
                if fault is not None:
                    raise ProtocolError(f"the server {fault}") from None
                if self.result is None:
                    self.stopped = f"the server {closed_reason(e)}"
            except ProtocolError as e:
                await ws.close(1002, printable(e, 120))
                raise
        return self.result

    def play(self) -> Optional[dict[str, Any]]:
        """`run` in a new event loop (blocking)."""
        import asyncio

        return asyncio.run(self.run())
