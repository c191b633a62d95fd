"""A table of the page's Play view, without sockets: a match in a `Game`, the
seats people play from the page (one, or several sharing the screen in turn)
and the built-in bots in the others. It takes the page's messages as dicts
and answers with dicts; the bots' decisions are the one CPU-heavy call
(`decide_bot`), which the server makes in a worker thread on a copy of the
game, and applies (`apply_bot`) back on its event loop.

Every rule comes from the engine: the plays a selection of cards makes and
their declarations (`match_actions` over ``Game.legal_actions``), the cards
a tribute or a return may be, the settlement. A bot seat's decision `k`
(1, 2, ...) is ``policy_action(game, policy, seed=decision_seed(seed + seat,
k))``, as at a platform table, so a match replays from its seed and the
people's moves.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import guandan_fast as gf
from guandan_fast._core import InvalidArgumentError
from guandan_fast.arguments import check_int
from guandan_fast.bots import decision_seed
from guandan_fast.cli.text import InputError, MoveText, match_actions
from guandan_fast.platform.seating import check_bots
from guandan_fast.web.views import OVER, Action, TrickTracker, action_json, table_view

__all__ = ["MAX_EXTENSIONS", "PageError", "Table"]

#: How many plays that extend a selection the page is offered.
MAX_EXTENSIONS = 8


class PageError(Exception):
    """A message from the page that cannot be carried out now (the text says why)."""


def _card_list(value: object, what: str = "cards") -> list[gf.Card]:
    """A list of at most 27 card texts from the page, as Cards."""
    if not isinstance(value, list) or len(value) > 27 or not all(isinstance(c, str) and len(c) <= 3 for c in value):
        raise PageError(f"{what} must be a list of at most 27 card texts like \"Th\", not {str(value)[:60]!r}")
    try:
        return [gf.Card(c) for c in value]
    except gf.InvalidCardError as e:
        raise PageError(str(e)) from None


class Table:
    """One match: `bots` (seat -> policy) play their seats, people the others;
    ``Game(rules, seed=seed)``, or a copy of `game` (under `rules`) when given."""

    def __init__(
        self,
        bots: Optional[Mapping[int, str]] = None,
        *,
        seed: int = 0,
        rules: Optional[gf.Rules] = None,
        names: Optional[Mapping[int, str]] = None,
        game: Optional[gf.Game] = None,
    ) -> None:
        self.bots = check_bots(bots)
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        if rules is not None and not isinstance(rules, gf.Rules):
            raise InvalidArgumentError(f"rules must be a Rules or None, not a {type(rules).__name__}")
        self.rules = rules or gf.Rules()
        self.humans = [s for s in range(4) if s not in self.bots]
        given = dict(names or {})
        self.names = [str(given.get(s, self.bots[s] if s in self.bots else f"seat {s}"))[:40] for s in range(4)]
        if game is not None and (not isinstance(game, gf.Game) or game.rules != self.rules):
            raise InvalidArgumentError("game must be a Game under the table's rules")
        #: The match (`game`, a copy of it, when given: a table may start from any position).
        self.game = gf.Game(self.rules, seed=self.seed) if game is None else game.clone()
        self.tracker = TrickTracker()
        #: The position before each play-phase decision of this deal (what `why` evaluates).
        self.positions: list[Optional[str]] = []
        #: Bumped by every change of the game: a bot's move decided on an older version is dropped.
        self.version = 0
        self._decisions = [0, 0, 0, 0]
        #: The index in ``Game.penalties`` of this deal's first referee's decision.
        self.deal_decisions = len(self.game.penalties)
        #: The person whose hand is shown (the one to move, else the last one who moved).
        self.viewer = self.humans[0]

    # ------------------------------------------------------------ what the page sees

    def view(self) -> dict[str, Any]:
        """The table for the page: the viewer's hand face up (every hand once the deal is over)."""
        g = self.game
        if g.current_player in self.humans:
            self.viewer = g.current_player
        over = g.phase in OVER
        v = table_view(g, self.names, self.tracker, face_up=range(4) if over else [self.viewer], humans=self.humans,
                       decisions_from=self.deal_decisions)
        v["viewer"] = self.viewer
        v["humans"] = self.humans
        v["bots"] = {str(s): p for s, p in self.bots.items()}
        v["version"] = self.version
        v["seed"] = self.seed
        v["rules"] = self.rules.to_dict()
        v["rules"]["upgrade"] = {str(k): n for k, n in v["rules"]["upgrade"].items()}
        return v

    @property
    def bot(self) -> Optional[int]:
        """The bot seat to move, if it is a bot's turn."""
        seat = self.game.current_player
        return seat if seat is not None and seat in self.bots else None

    # ------------------------------------------------------------ moves

    def _apply(self, action: Action) -> None:
        g = self.game
        self.tracker.before(g)
        self.positions.append(g.position() if g.phase == "play" else None)
        g.apply(action)
        self.tracker.after(action)
        self.version += 1

    def decide_bot(self) -> tuple[int, int, Action]:
        """The bot to move decides, on a copy of the game (safe in a worker thread
        while the page reads the table): its seat, the version it saw, its action."""
        seat = self.bot
        if seat is None:
            raise PageError("it is no bot's turn")
        k = self._decisions[seat] + 1
        action = gf.policy_action(self.game.clone(), self.bots[seat], seed=decision_seed(self.seed + seat, k))
        return seat, self.version, action

    def apply_bot(self, decided: tuple[int, int, Action]) -> bool:
        """Applies a decision of `decide_bot`; False (nothing done) when the game moved on since."""
        seat, version, action = decided
        if version != self.version or self.bot != seat:
            return False
        self._decisions[seat] += 1
        self._apply(action)
        return True

    def _human_to_move(self) -> int:
        seat = self.game.current_player
        if seat is None:
            raise PageError(f"nobody is to move: the {'match' if self.game.phase == 'match_over' else 'deal'} is over")
        if seat not in self.humans:
            raise PageError(f"it is seat {seat}'s turn ({self.names[seat]}), not yours")
        return seat

    def selection(self, cards: object) -> dict[str, Any]:
        """What the selected cards can be now: the legal plays of exactly these
        cards (several when they declare several ways), and some plays that hold
        them and more (the smallest first, one per declaration); or why they
        are no play."""
        chosen = _card_list(cards)
        self._human_to_move()
        g = self.game
        out: dict[str, Any] = {"type": "selection", "cards": [str(c) for c in chosen], "plays": [], "extends": [], "reason": None}
        if not chosen:
            return out
        if g.phase in ("tribute", "return"):
            try:
                out["plays"] = [action_json(a) for a in match_actions(g, MoveText(cards=chosen))]
            except InputError as e:
                out["reason"] = str(e)
            return out
        try:
            want = gf.Hand(chosen)
        except gf.DuplicateCardError as e:
            out["reason"] = str(e)
            return out
        try:
            out["plays"] = [action_json(a) for a in match_actions(g, MoveText(cards=chosen))]
        except InputError as e:
            out["reason"] = str(e)
        if want in g.hands[g.current_player or 0]:
            bigger = [a for a in g.legal_actions("cards") if isinstance(a, gf.Combo) and len(a) > len(want) and want in a.cards]
            bigger.sort(key=len)
            seen: set[str] = set()
            for a in bigger:  # one per declaration: the engine's first cards for it
                key = a.label
                if key not in seen:
                    seen.add(key)
                    out["extends"].append(action_json(a))
                if len(out["extends"]) >= MAX_EXTENSIONS:
                    break
        return out

    def play(self, cards: object, label: object = None) -> None:
        """Plays the selected cards, as the declaration `label` (``Straight(3)``)
        when they declare several ways; a single card in the tribute and return phases."""
        chosen = _card_list(cards)
        if label is not None and (not isinstance(label, str) or len(label) > 40):
            raise PageError(f"label must be a declaration like \"Straight(3)\", not {str(label)[:40]!r}")
        self._human_to_move()
        if not chosen:
            raise PageError("select the cards to play first")
        try:
            found = match_actions(self.game, MoveText(cards=chosen, label=label))
        except InputError as e:
            raise PageError(str(e)) from None
        if len(found) > 1:
            labels = ", ".join(a.label for a in found if isinstance(a, gf.Combo))
            raise PageError(f"these cards can be played several ways: choose one of {labels}")
        self._apply(found[0])

    def pass_turn(self) -> None:
        """Passes (过)."""
        self._human_to_move()
        try:
            found = match_actions(self.game, MoveText(is_pass=True))
        except InputError as e:
            raise PageError(str(e)) from None
        self._apply(found[0])

    def next_deal(self) -> None:
        """Starts the next deal (or game) once the deal is over."""
        g = self.game
        if g.phase not in ("deal_over", "game_over"):
            raise PageError("the deal is not over" if g.phase != "match_over" else "the match is over: start a new one")
        g.next_deal()
        self.tracker.new_deal()
        self.positions = []
        self.deal_decisions = len(g.penalties)
        self.version += 1

    def penalize(self, team: object, kind: object, seat: object = None) -> None:
        """Applies a referee's decision against `team` (``Game.penalize``,
        docs/rules.md §10), `seat` of that team the offender (None: seat
        `team`). One that cannot apply raises `PageError` and changes nothing.
        A decision that ends the deal, the game or the match leaves the table
        as a deal's end does: the next deal (or a new match) follows."""
        if not isinstance(team, int) or isinstance(team, bool):
            raise PageError(f"team must be 0 or 1, not {str(team)[:20]!r}")
        if not isinstance(kind, str) or len(kind) > 40:
            raise PageError(f"kind must be a decision's name like \"minus_two\", not {str(kind)[:40]!r}")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise PageError(f"seat must be a seat 0..3 or left out, not {str(seat)[:20]!r}")
        try:
            self.game.penalize(team, kind, seat=seat)  # type: ignore[arg-type]  # the engine checks the name
        except gf.GuandanError as e:
            raise PageError(str(e)) from None
        self.version += 1

    def position_before(self, step: object) -> tuple[gf.Game, int, Action]:
        """The game as it was before decision `step` (0-based) of this deal, the
        seat that made it and what it did: what the page's "why" evaluates."""
        log = self.tracker.log
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(log):
            raise PageError(f"step must be a decision of this deal, 0..{len(log) - 1}, not {str(step)[:20]!r}")
        text = self.positions[step]
        if text is None:
            raise PageError("only a play or a pass can be evaluated, not a tribute or a return")
        seat, action, _ = log[step]
        return gf.Game.from_position(text, self.rules), seat, action

    # ------------------------------------------------------------ messages

    def receive(self, msg: object) -> dict[str, Any]:
        """Carries out one message of the page (``select``, ``play``, ``pass``,
        ``next``, ``penalize``) and answers it: the selection's plays, or the
        table after the move. A message that cannot be carried out raises `PageError`."""
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise PageError("a message is a JSON object with a \"type\"")
        kind = msg["type"]
        if kind == "select":
            return self.selection(msg.get("cards"))
        if kind == "play":
            self.play(msg.get("cards"), msg.get("label"))
        elif kind == "pass":
            self.pass_turn()
        elif kind == "next":
            self.next_deal()
        elif kind == "penalize":
            self.penalize(msg.get("team"), msg.get("kind"), msg.get("seat"))
        elif kind == "view":
            pass
        else:
            raise PageError(f"unknown message type {kind[:40]!r}: select, play, pass, next, penalize, view, hint, why, cancel")
        return {"type": "table", "view": self.view()}
