"""What the page is shown, as JSON data made from the engine's objects: cards,
actions, the trick in play, and the whole table at one moment (for one seat,
or face up). Every fact here comes from a `Game`; the page adds no rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Union

import guandan_fast as gf
from guandan_fast.cli.rules import rules_as_flags
from guandan_fast.cli.text import combo_parts

__all__ = ["PENALTY_NAMES", "Action", "TrickTracker", "action_json", "card_json", "cards_json", "eval_command", "settlement", "table_view"]

Action = Union[gf.Combo, gf.Pass, gf.Tribute, gf.Return]
PLACES = ("1st", "2nd", "3rd", "4th")
#: The phases of a game once its deal is over.
OVER = ("deal_over", "game_over", "match_over")

#: The referee's decisions (docs/rules.md §10), as the page names them: the
#: rule's Chinese name where it gives one, the English one, what it does.
PENALTY_NAMES: dict[str, dict[str, str]] = {
    "minus_two": {"zh": "扣两级", "en": "minus two levels", "what": "a mild violation: the team down two levels, never below 2"},
    "back_to_two": {"zh": '回到"2"', "en": "back to 2", "what": "a severe violation: the team back to level 2"},
    "opponents_up": {"zh": "对方升一级，并立即上台主打", "en": "opponents up one and declaring",
                     "what": "the deal is abandoned; the opponents go up one level and declare the next deal"},
    "hidden_card": {"zh": "藏牌", "en": "hidden card",
                    "what": "counted: the opponents up one and declaring each time; the third time they win the game"},
    "out_of_turn": {"zh": "", "en": "out-of-turn draw", "what": "counted: two warnings, the third time the opponents up one and declaring"},
    "illegal_signal": {"zh": "", "en": "illegal signal", "what": "counted: two warnings, the third time the opponents up one and declaring"},
    "forfeit": {"zh": "弃权", "en": "forfeit", "what": "the opponents win the match"},
}


def card_json(card: gf.Card, level: Optional[str] = None) -> dict[str, Any]:
    """A card: its text ``c``, rank ``r``, suit ``s`` (None for a joker); at a
    level, ``w`` when it is a wildcard (逢人配) and ``l`` when it is a level card."""
    d: dict[str, Any] = {"c": str(card), "r": card.rank, "s": card.suit}
    if level is not None:
        d["w"] = card.is_wildcard(level)
        d["l"] = card.rank == level
    return d


def cards_json(cards: Iterable[gf.Card], level: Optional[str] = None) -> list[dict[str, Any]]:
    """`card_json` of each card, in the order given."""
    return [card_json(c, level) for c in cards]


def action_json(action: Action) -> dict[str, Any]:
    """An action: ``{"t": "pass"}``, ``{"t": "tribute" | "return", "card"}``, or a
    play ``{"t": "play", "label", "kind", "rank", "bomb", "text", "cards",
    "stands"}``: its natural cards as players read them, and for each wildcard
    standing for another card what it stands for (`combo_parts`)."""
    if isinstance(action, gf.Combo):
        natural, standing = combo_parts(action)
        return {
            "t": "play",
            "label": action.label,
            "kind": action.kind,
            "rank": action.rank,
            "bomb": action.is_bomb,
            "text": str(action),
            "cards": cards_json(natural, action.level),
            "stands": [str(s) for s in standing],
            "wild": card_json(gf.Card(action.level + "h"), action.level),
        }
    if isinstance(action, gf.Tribute):
        return {"t": "tribute", "card": card_json(action.card), "text": f"tribute {action.card}"}
    if isinstance(action, gf.Return):
        return {"t": "return", "card": card_json(action.card), "text": f"return {action.card}"}
    return {"t": "pass", "text": "pass"}


@dataclass
class TrickTracker:
    """What the engine leaves implicit between moves: each seat's play in the
    trick under way (None: not played yet; a pass counts), the trick's number
    and the deal's decisions so far with the trick each belongs to (0: the
    tribute). Call `before` with the game before each action and `after`
    with the action."""

    area: list[Optional[Action]] = field(default_factory=lambda: [None] * 4)
    trick: int = 0
    #: (seat, action, trick) of every decision of the deal.
    log: list[tuple[int, Action, int]] = field(default_factory=list)
    _seat: Optional[int] = None

    def new_deal(self) -> None:
        self.area, self.trick, self.log, self._seat = [None] * 4, 0, [], None

    def before(self, game: gf.Game) -> None:
        self._seat = game.current_player
        if game.phase == "play" and game.top is None:
            self.area = [None] * 4
            self.trick += 1

    def after(self, action: Action) -> None:
        seat = self._seat
        assert seat is not None
        if isinstance(action, (gf.Combo, gf.Pass)):
            self.area[seat] = action
        self.log.append((seat, action, self.trick if isinstance(action, (gf.Combo, gf.Pass)) else 0))


def eval_command(game: gf.Game) -> str:
    """The ``guandan-fast eval`` command line that ranks this position's actions."""
    flags = " ".join(rules_as_flags(game.rules))
    return f"guandan-fast eval '{game.position()}'" + (f" {flags}" if flags else "")


def settlement(game: gf.Game, decisions_from: Optional[int] = None) -> Optional[dict[str, Any]]:
    """Once a deal is over: its settlement (``Game.last_result``) with its finishing
    order and level, ``settled``, and the referee's decisions of the deal
    (``referee``: ``Game.penalties`` from index `decisions_from`; none when
    None). When a decision ended the deal, the game or the match before it
    was played out (docs/rules.md §10), ``settled`` is False, there is no
    winner nor finishing order, and the levels and the game's winner are the
    ones the decision left."""
    if game.phase not in OVER:
        return None
    last = game.last_result
    if last is None or len(game.finish_order) < 4:  # a decision abandoned the deal or ended the match
        r: dict[str, Any] = {
            "winner": None, "partner_place": None, "gain": 0, "a_failed": False, "a_reset": False,
            "levels": list(game.levels), "a_fails": list(game.a_fails), "declarer": game.declarer,
            "game_winner": game.game_winners[-1] if game.phase != "deal_over" and game.game_winners else None,
            "settled": False,
        }
    else:
        r = dict(last)
        r["levels"] = list(last["levels"])
        r["a_fails"] = list(last["a_fails"])
        r["settled"] = True
    r["finish_order"] = list(game.finish_order)
    r["level"] = game.level
    r["referee"] = [] if decisions_from is None else [dict(p) for p in game.penalties[decisions_from:]]
    return r


def _tribute(game: gf.Game) -> Optional[dict[str, Any]]:
    t = game.tribute
    if t is None:
        return None
    out: dict[str, Any] = {
        "kind": t["kind"],
        "givers": list(t["givers"]),
        "tributes": [[g, r, card_json(c)] for g, r, c in t["tributes"]],
        "returns": [[r, g, card_json(c)] for r, g, c in t["returns"]],
        "leader": t["leader"],
    }
    if t["kind"] == "resisted":  # 抗贡: who held the big jokers
        out["resisters"] = [s for s in range(4) if game.dealt[s].count("RJ")]
    return out


def _choices(game: gf.Game) -> dict[str, Any]:
    """What the seat to move may do, as the page offers it: the cards it may
    give in the tribute and return phases; whether it leads or may pass."""
    if game.phase in ("tribute", "return"):
        cards = sorted({a.card for a in game.legal_actions() if isinstance(a, (gf.Tribute, gf.Return))})
        return {"kind": game.phase, "cards": [str(c) for c in cards]}
    if game.phase == "play":
        return {"kind": "play", "lead": game.top is None, "can_pass": game.top is not None}
    return {"kind": game.phase}


def table_view(
    game: gf.Game,
    names: list[str],
    tracker: TrickTracker,
    *,
    face_up: Iterable[int] = range(4),
    humans: Iterable[int] = (),
    games_won: Optional[tuple[int, int]] = None,
    decisions_from: Optional[int] = None,
) -> dict[str, Any]:
    """The table as the page draws it: the match's state, each seat (its hand
    when face up, else only its size), the trick, the deal's log, the tribute,
    the settlement once the deal is over, the referee's decisions of the match
    and the counted offences (``Game.penalties``, ``Game.penalty_counts``), and
    the choices of the seat to move (when it is a human's). `games_won`
    replaces the game's own count (a game restored from a position counts
    from there); `decisions_from`, the index
    in ``Game.penalties`` of the deal's first decision, lists the deal's
    decisions in its result (`settlement`)."""
    level = game.level
    shown = set(face_up)
    human = set(humans)
    order = list(game.finish_order)
    mover = game.current_player
    seats = []
    for s in range(4):
        hand = game.hands[s]
        play = tracker.area[s]
        seats.append({
            "seat": s,
            "name": names[s],
            "human": s in human,
            "count": len(hand),
            "hand": cards_json(hand.sorted(level), level) if s in shown else None,
            "wildcards": hand.wildcards(level) if s in shown else None,
            "place": order.index(s) + 1 if s in order else None,
            "play": None if play is None or game.phase != "play" else action_json(play),
        })
    view: dict[str, Any] = {
        "phase": game.phase,
        "level": level,
        "levels": list(game.levels),
        "a_fails": list(game.a_fails),
        "a_max_attempts": game.rules.a_max_attempts,
        "declarer": game.declarer,
        "game_number": game.game_number,
        "deal_number": game.deal_number,
        "games_won": list(games_won if games_won is not None else game.games_won),
        "best_of": game.rules.best_of,
        "to_move": mover,
        "leader": game.leader,
        "top": None if game.top is None else action_json(game.top),
        "top_seat": game.top_seat,
        "trick": tracker.trick,
        "finish_order": order,
        "seats": seats,
        "tribute": _tribute(game),
        "log": [[s, action_json(a), t] for s, a, t in tracker.log],
        "result": settlement(game, decisions_from),
        "penalties": [dict(p) for p in game.penalties],
        "penalty_counts": {kind: list(n) for kind, n in game.penalty_counts.items()},
        "choices": _choices(game) if mover is not None and mover in human else None,
    }
    if game.phase == "play":
        view["position"] = game.position()
        view["eval_command"] = eval_command(game)
    return view
