"""The referee of one platform match, without sockets: messages in, messages out.

A `Referee` plays a match of `games` games for four seats, some of them
built-in bots, exactly as the platform does (docs/platform.md). It says what
is to be done as a list of events — `Send` (a message for a client seat),
`Ask` (an ``act`` message: the referee then waits for that seat's reply),
`Log` (a line for the log), `Record` (a line of the match record) — and is
told what happens by calls: `receive` (a seat's frame, or the message it
decodes to), `timeout` (the asked seat sent no valid reply in time: the
fallback policy moves for it), `leave` (a seat is gone: the match stops),
`stop` (the match cannot go on: the server stops), `penalize` (a referee's
decision, docs/rules.md §10) and `play_bot` (a bot seat's turn: the one call
that takes CPU time, which a server may make in a worker thread). A seat
that sends `MAX_INVALID` invalid replies to one ``act`` stops the match. It
holds the match state (`game`, `awaiting`, `bot`, `over`, `result`) and
never touches a socket or a clock:
a test drives it with plain dicts, and the websocket server (server.py) only
moves frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generator, Mapping, Optional, Union, cast

from guandan_fast._core import Game, InvalidArgumentError, InvalidStateError, Return, Rules, _check_policy, policy_action, settle_deal
from guandan_fast.arguments import check_int
from guandan_fast.bots import decision_seed
from guandan_fast.platform import messages as m
from guandan_fast.platform import record
from guandan_fast.platform.codes import Action, ProtocolError, action_code, card_code, cards_code
from guandan_fast.platform.rules import DRAW_DROPS, check_start, platform_rules, start_game
from guandan_fast.models import is_model_name, model_from_spec
from guandan_fast.platform.seating import check_bots

if TYPE_CHECKING:
    from guandan_fast._core import _PenaltyKind

__all__ = ["MAX_INVALID", "Ask", "Event", "Log", "MatchAborted", "Record", "Referee", "Send", "match_options"]

#: Invalid replies to one ``act`` after which the match is stopped (the seat floods).
MAX_INVALID = 100


@dataclass(frozen=True)
class Send:
    """A message for the client in `seat`."""

    seat: int
    message: dict[str, Any]


@dataclass(frozen=True)
class Ask(Send):
    """An ``act`` message for the client in `seat`: the referee waits for its reply."""


@dataclass(frozen=True)
class Log:
    """A line for the log."""

    line: str


@dataclass(frozen=True)
class Record:
    """A line of the match record (record.py), complete when it is given."""

    line: dict[str, Any]


Event = Union[Send, Log, Record]
#: What the match waits on is resumed with: None (a bot's turn), ("reply", frame) or ("timeout", seconds).
_Input = Optional[tuple[str, Any]]


class MatchAborted(Exception):
    """The match cannot go on (a client left); the text says why."""


class _DealEnded(Exception):
    """A referee's decision ended the deal in progress (abandoned, or the game or match decided)."""


def match_options(
    rules: Optional[Rules], bots: Optional[Mapping[int, str]], fallback: str, *, games: int = 1, seed: int = 0, draw_drops: int = DRAW_DROPS
) -> tuple[Rules, dict[int, str], str]:
    """A match's rules (default: the platform's), bots (seat -> policy) and
    fallback policy as the engine writes them, with its games, seed and draw
    rule checked; `InvalidArgumentError` for what a platform match cannot take."""
    if rules is None:
        rules = platform_rules()
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules or None, not a {type(rules).__name__}")
    if rules.best_of != 1:
        raise InvalidArgumentError("a platform match is a number of games (games=N); best_of does not apply")
    check_int("games", games, 1, 2**32)
    check_int("seed", seed, 0, 2**64 - 1)
    check_int("draw_drops", draw_drops, 1, 2**32)
    return rules, check_bots(bots), _check_policy(fallback)


@dataclass
class _Deal:
    """What the referee tracks of the deal in progress besides the game."""

    #: The deal's entry in the game's record line: ``{"level", "actions"[, "penalties"]}``.
    entry: dict[str, Any]
    #: Its number in the game (from 0), abandoned deals included.
    number: int
    record: list[list[Any]] = field(default_factory=list)
    #: The referee's decisions in it: ``[at, team, kind, seat]``, `at` the actions recorded before it.
    penalties: list[list[Any]] = field(default_factory=list)
    play_area: list[Optional[list[Any]]] = field(default_factory=lambda: [None] * 4)
    last: tuple[int, Optional[list[Any]]] = (-1, None)
    greater: tuple[int, Optional[list[Any]]] = (-1, None)
    #: The code of every action listed so far (the same plays are listed again and again).
    codes: dict[Action, list[Any]] = field(default_factory=dict)
    #: The level state the deal's last action was applied at: (levels, a_fails, declarer).
    state: Optional[tuple[Any, Any, Optional[int]]] = None


class Referee:
    """One match of table `table`: `clients` (seat -> name) and `bots` (seat
    -> policy) fill the four seats; game `i` (from 0) is ``Game(rules,
    seed=seed + i)``, started from the level state `start` when one is given
    (``{"levels": (team 0's, team 1's)[, "declarer": team][, "a_fails": (n,
    m)]}``, see `check_start`; `InvalidArgumentError` for one the rules cannot
    start from); a bot seat's decision `k` is ``policy_action(game,
    policy, seed=decision_seed(seed + seat, k))``; after `draw_drops` drops
    from A a game is a draw. Call `start`, then whatever happens: `receive`,
    `timeout`, `leave`, `play_bot`, `penalize`; each returns the events to
    carry out, in order. A forfeit ends the match: the opponents win the game
    in progress and each game not played, and the result line names the
    forfeit (docs/platform.md, "Referee decisions")."""

    def __init__(
        self,
        clients: Mapping[int, str],
        *,
        bots: Optional[Mapping[int, str]] = None,
        games: int = 1,
        seed: int = 0,
        rules: Optional[Rules] = None,
        table: int = 0,
        fallback: str = "greedy",
        draw_drops: int = DRAW_DROPS,
        start: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.rules, self.bots, self.fallback = match_options(rules, bots, fallback, games=games, seed=seed, draw_drops=draw_drops)
        #: The level state every game starts from, as the record writes it (None: both teams at 2).
        self.start_state = check_start(start, self.rules)
        check_int("table", table, 0, 2**64)
        seats = list(clients) if isinstance(clients, Mapping) else None
        if seats is None or any(type(s) is not int for s in seats) or sorted([*seats, *self.bots]) != [0, 1, 2, 3]:
            raise InvalidArgumentError(f"clients and bots must fill seats 0..3 once each, not {clients!r:.60} and {sorted(self.bots)}")
        #: Seat -> the name the log and the record give it (``bot POLICY`` for a bot).
        self.names = {s: str(clients[s]) if s in clients else f"bot {self.bots[s]}" for s in range(4)}
        self.games, self.seed, self.table, self.draw_drops = games, seed, table, draw_drops
        #: The game being played (None before `start`).
        self.game: Optional[Game] = None
        #: The client seat whose reply the referee waits for (its `Ask` was the last event).
        self.awaiting: Optional[int] = None
        #: The bot seat whose turn it is (`play_bot` plays it).
        self.bot: Optional[int] = None
        self.over = False
        #: The match's last record line (``type`` ``"result"`` or ``"aborted"``) once it is over.
        self.result: Optional[dict[str, Any]] = None
        #: The number of the game being played (from 0).
        self.game_index = 0
        self._current: Optional[_Deal] = None
        self._bot_decisions = [0, 0, 0, 0]
        #: Bot seats played by a model (``onnx:PATH``), loaded and checked now.
        self._models = {s: model_from_spec(p, seed=seed + s) for s, p in self.bots.items() if is_model_name(p)}
        self._events: list[Event] = []
        self._run = self._match()
        self._started = False

    # ------------------------------------------------------------ what happens

    def start(self) -> list[Event]:
        """Starts the match: its events up to the first decision."""
        if self._started:
            raise InvalidStateError("the match has already started")
        self._started = True
        return self._resume(None)

    def receive(self, seat: int, reply: object) -> list[Event]:
        """A frame (or the message it decodes to) from `seat`: the reply the
        referee waits for, or else a message sent unasked (logged, ignored).
        An invalid reply is logged and the referee keeps waiting."""
        self._check_seat(seat)
        if seat != self.awaiting:
            return self.unasked(seat, reply)
        return self._resume(("reply", reply))

    def unasked(self, seat: int, reply: object) -> list[Event]:
        """A frame `seat` sent before it was asked (before its `Ask` went out): logged and ignored."""
        self._check_seat(seat)
        return [Log(f"seat {seat} ({self.names[seat]}): ignored a message sent unasked: {str(reply)[:80]!r}")]

    def timeout(self, seconds: float) -> list[Event]:
        """The asked seat sent no valid reply within `seconds`: the fallback policy moves for it (recorded as such)."""
        if self.awaiting is None:
            raise InvalidStateError("no seat is asked to move")
        return self._resume(("timeout", seconds))

    def leave(self, seat: int, why: str) -> list[Event]:
        """`seat` is gone (`why`: ``disconnected ...``): the match stops, recorded as aborted."""
        self._check_seat(seat)
        return self.stop(f"seat {seat} ({self.names[seat]}) {why}")

    def stop(self, why: str) -> list[Event]:
        """The match cannot go on (`why`: a seat left, the server stops): it is recorded as aborted."""
        if self.over or not self._started:
            return []
        self._events = []
        try:
            self._run.throw(MatchAborted(why))
        except StopIteration:
            pass
        return self._take()

    def play_bot(self) -> list[Event]:
        """The bot seat whose turn it is decides; the match goes on to the next decision."""
        if self.bot is None:
            raise InvalidStateError("it is no bot's turn")
        return self._resume(None)

    def penalize(self, team: int, kind: str, seat: Optional[int] = None) -> list[Event]:
        """A referee's decision against `team` now (``Game.penalize``: `kind`,
        offender `seat`), applied to the game, logged (the first event) and
        recorded in the deal's ``penalties``. A decision that ends the deal
        leaves it at once, the reply awaited no longer awaited: the next deal
        begins, or the game is over, or (a forfeit) the match. Before the start
        and after the end `InvalidStateError`; a decision the game refuses
        raises its error; either way nothing changes."""
        if not self._started or self.over:
            raise InvalidStateError("a referee's decision applies only while the match is played")
        game, deal = self.game, self._current
        assert game is not None and deal is not None
        game.penalize(team, cast("_PenaltyKind", kind), seat=seat)
        taken = game.penalties[-1]
        deal.penalties.append([len(deal.record), taken["team"], taken["kind"], taken["seat"]])
        deal.entry["penalties"] = deal.penalties
        self._events = []
        self._log(self._decision_text(game, deal, taken))
        if game.phase in ("deal_over", "match_over"):
            try:
                self._run.throw(_DealEnded())
            except StopIteration:
                pass
        return self._take()

    def _decision_text(self, game: Game, deal: _Deal, taken: Mapping[str, Any]) -> str:
        """The log line of the decision `taken` just applied to `game`."""
        team, kind = taken["team"], taken["kind"]
        if game.phase == "match_over":
            outcome = f"team {team} forfeits the match" if kind == "forfeit" else f"team {1 - team} wins the game"
        elif game.phase == "deal_over":
            outcome = f"the deal is abandoned; levels {'-'.join(game.levels)}, team {game.declarer} declares"
        elif kind in game.penalty_counts:
            outcome = f"warning {game.penalty_counts[kind][team]} of 3"
        else:
            outcome = f"levels {'-'.join(game.levels)}"
        return (f"table {self.table}: referee's decision {kind} against team {team} (seat {taken['seat']}) in game "
                f"{self.game_index + 1}, deal {deal.number + 1}, after {len(deal.record)} actions: {outcome}")

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
            raise InvalidArgumentError(f"seat must be 0..3, not {seat!r:.40}")

    def _resume(self, value: _Input) -> list[Event]:
        self._events = []
        try:
            self._run.send(value)
        except StopIteration:
            pass
        return self._take()

    def _take(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _log(self, line: str) -> None:
        self._events.append(Log(line))

    def _send(self, seat: int, msg: dict[str, Any]) -> None:
        if seat not in self.bots:
            self._events.append(Send(seat, msg))

    def _notify(self, msg: dict[str, Any]) -> None:
        for seat in range(4):
            self._send(seat, msg)

    # ------------------------------------------------------------ the match

    def _match(self) -> Generator[None, _Input, None]:
        self._log(f"table {self.table}: " + ", ".join(f"seat {s} {self.names[s]}" for s in range(4)))
        if self.start_state is not None:
            st = self.start_state
            declares = "no team declares" if st["declarer"] is None else f"team {st['declarer']} declares"
            after = "" if st.get("after") is None else f", after a deal finished in order {'-'.join(map(str, st['after']))} (tribute first)"
            self._log(f"table {self.table}: every game starts at levels {'-'.join(st['levels'])}, "
                      f"failures at A {'-'.join(map(str, st['a_fails']))}; {declares} its first deal{after}")
        wins, draws = [0] * 4, [0] * 4
        forfeit: Optional[dict[str, Any]] = None
        for g in range(self.games):
            seed = (self.seed + g) % 2**64
            self.game_index = g
            self.game = game = start_game(self.rules, seed, self.start_state)
            line = record.game_line(self.table, g, seed, self.names, self.rules, start=self.start_state)
            try:
                winner = yield from self._game(game, line)
            except MatchAborted as e:
                line["type"] = "aborted"
                line["reason"] = str(e)
                self._events.append(Record(line))
                self._log(f"table {self.table}: match stopped: {e}")
                self._end(record.aborted_line(self.table, str(e), g, wins, draws))
                return
            if winner is None:
                draws = [d + 1 for d in draws]
            else:
                for s in (winner, winner + 2):
                    wins[s] += 1
            line["winner"] = winner
            line["levels"] = list(game.levels)
            self._events.append(Record(line))
            self._notify(m.game_over(g + 1, self.games))
            forfeit = _forfeit(game, g, self.games)
            if forfeit is not None:
                for s in (1 - forfeit["team"], 3 - forfeit["team"]):
                    wins[s] += forfeit["unplayed"]
                self._log(f"table {self.table}: team {forfeit['team']} forfeited: its opponents win the {forfeit['unplayed']} games not played")
                break
        self._notify(m.game_result(wins, draws))
        self._end(record.result_line(self.table, self.games, wins, draws, forfeit=forfeit))
        self._log(f"table {self.table}: games won per seat {wins}, draws {draws}")

    def _end(self, result: dict[str, Any]) -> None:
        self._events.append(Record(result))
        self.result = result
        self.over = True

    def _game(self, game: Game, line: dict[str, Any]) -> Generator[None, _Input, Optional[int]]:
        """Plays one game to its end; its winning team, or None for a draw."""
        drops = 0
        while True:
            entry: dict[str, Any] = {"level": game.level, "actions": []}
            self._current = deal = _Deal(entry, len(line["deals"]), entry["actions"])
            line["deals"].append(entry)
            try:
                yield from self._deal(game, deal)
            except _DealEnded:  # a referee's decision: no settlement, no drop
                pass
            else:
                last = game.last_result
                assert last is not None
                drops += bool(last["a_reset"])
                if last["game_winner"] is not None and self._on_levels(game, deal):
                    line["ending"] = "levels"
            if game.phase == "match_over":
                return game.game_winners[-1]
            if drops >= self.draw_drops:
                line["draw"] = f"{drops} drops from A"
                return None
            game.next_deal()

    def _on_levels(self, game: Game, deal: _Deal) -> bool:
        """Whether the game just won was decided by the deal limit (`Rules.max_deals`),
        on levels, rather than by its last deal (a pass of A)."""
        if self.rules.max_deals is None or self.rules.sudden_death or deal.state is None:
            return False
        levels, a_fails, declarer = deal.state
        finish = game.deals[-1]["finish_order"]
        return settle_deal(finish, levels=levels, a_fails=a_fails, declarer=declarer, rules=self.rules)["game_winner"] is None

    def _deal(self, game: Game, deal: _Deal) -> Generator[None, _Input, None]:
        for seat in range(4):
            self._send(seat, m.beginning(cards_code(game.dealt[seat]), seat))
        t = game.tribute
        if t is not None and t["kind"] == "resisted":
            # The finishing order tribute follows: the last deal's, or the start's in a game's first deal.
            f = game.deals[-1]["finish_order"] if game.deals else self.start_state["after"]  # type: ignore[index]
            losers = f[2:] if f[0] % 2 == f[1] % 2 else f[3:]
            self._notify(m.anti_tribute([s for s in losers if any(c.rank == "RJ" for c in game.dealt[s])]))
        while game.phase == "tribute":
            yield from self._decide(game, "tribute", deal)
        if t is not None and t["kind"] in ("single", "double"):
            t = game.tribute
            assert t is not None
            self._notify(m.tribute_result([[g, r, card_code(c)] for g, r, c in t["tributes"]]))
        while game.phase == "return":
            yield from self._decide(game, "back", deal)
        if t is not None and t["kind"] in ("single", "double"):
            backs = [(s, a.card) for s, a in game.history if isinstance(a, Return)]
            givers = {r: g for g, r, _ in t["tributes"]}
            self._notify(m.back_result([[s, givers[s], card_code(c)] for s, c in backs]))
        while game.phase == "play":
            mover = game.current_player
            assert mover is not None
            if game.top is None:
                deal.play_area = [None] * 4
                deal.greater = (-1, None)
            yield from self._decide(game, "play", deal)
            code = deal.record[-1][1]
            deal.play_area[mover] = code
            deal.last = (mover, code)
            if code[0] != "PASS":
                deal.greater = (mover, code)
            self._notify(m.play_notify(mover, code, deal.greater[0], deal.greater[1]))
        rest = [[s, cards_code(h)] for s, h in enumerate(game.hands) if len(h)]
        self._notify(m.episode_over(list(game.finish_order), game.deals[-1]["level"], rest))

    def _decide(self, game: Game, stage: str, deal: _Deal) -> Generator[None, _Input, None]:
        """The seat to move (a client, or its bot) chooses; its action is applied and recorded."""
        seat = game.current_player
        assert seat is not None
        fallback: Optional[str] = None
        if seat in self.bots:
            self.bot = seat
            try:
                yield  # until `play_bot`
            finally:
                self.bot = None
            self._bot_decisions[seat] += 1
            k = self._bot_decisions[seat]
            if seat in self._models:
                action = self._models[seat].act(game)
            else:
                action = policy_action(game, self.bots[seat], seed=decision_seed(self.seed + seat, k))
        else:
            legal = game.legal_actions("cards")
            action, fallback = yield from self._ask(game, self._act_message(game, stage, deal, legal), legal)
        deal.state = (game.levels, game.a_fails, game.declarer)
        game.apply(action)
        entry: list[Any] = [seat, action_code(action)]
        if fallback is not None:
            entry.append({"fallback": fallback})
        deal.record.append(entry)

    def _act_message(self, game: Game, stage: str, deal: _Deal, legal: list[Action]) -> dict[str, Any]:
        """The ``act`` message of `stage` for the seat to move, listing `legal`."""
        seat = game.current_player
        assert seat is not None
        known = deal.codes
        codes = [known[a] if a in known else known.setdefault(a, action_code(a)) for a in legal]
        cur, greater = deal.last, deal.greater
        if stage != "play" or game.top is None:
            cur, greater = (-1, None), (-1, None)
        levels = game.levels
        team = seat % 2
        ranks = (levels[team], levels[1 - team], game.level)
        public = [{"rest": n, "playArea": deal.play_area[i]} for i, n in enumerate(game.hand_sizes)]
        return m.act(stage, cards_code(game.hands[seat]), public, ranks, cur, greater, codes)

    def _ask(self, game: Game, msg: dict[str, Any], legal: list[Action]) -> Generator[None, _Input, tuple[Action, Optional[str]]]:
        """Asks the seat to move with `msg`: the action its valid reply chooses among
        `legal`, or the fallback's and the fallback policy's name after a timeout."""
        seat = game.current_player
        assert seat is not None
        name = self.names[seat]
        self._events.append(Ask(seat, msg))
        self.awaiting = seat
        try:
            for _ in range(MAX_INVALID):
                got = yield
                assert got is not None
                kind, value = got
                if kind == "timeout":
                    self._log(f"seat {seat} ({name}): no valid reply in {value} s; {self.fallback} moves for it")
                    return policy_action(game, self.fallback, mode="cards"), self.fallback
                try:
                    return legal[m.parse_reply(value, len(legal) - 1)], None
                except ProtocolError as e:
                    self._log(f"seat {seat} ({name}): invalid reply {str(value)[:80]!r}: {e}; waiting for a valid one")
            raise MatchAborted(f"seat {seat} ({name}) sent {MAX_INVALID} invalid replies to one act")
        finally:
            self.awaiting = None


def _forfeit(game: Game, number: int, games: int) -> Optional[dict[str, Any]]:
    """The result line's ``forfeit`` field when game `number` (from 0) of `games`
    ended by a forfeit: the team, its seat, the game, the games not played."""
    for p in game.penalties:
        if p["kind"] == "forfeit":
            return {"team": p["team"], "seat": p["seat"], "game": number, "unplayed": games - number - 1}
    return None
