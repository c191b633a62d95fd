"""The platform's card and action codes and the engine's cards and actions.

A card is two characters, suit then rank (``S5``, ``HT``; ``SB`` the small
joker, ``HR`` the big one); an action is ``[type, rank, cards]`` (see
docs/platform.md). Text that is not a code raises `ProtocolError`.
"""

from __future__ import annotations

from typing import Any, Union

from guandan_fast._core import PASS, Card, Combo, GuandanError, Hand, Pass, Return, Rules, Tribute

__all__ = ["CARD_CODES", "Action", "ProtocolError", "action_code", "action_from_code", "card_code", "card_from_code", "cards_code"]

Action = Union[Combo, Pass, Tribute, Return]

#: Engine kind -> platform action type.
KIND_TO_TYPE = {
    "Single": "Single",
    "Pair": "Pair",
    "Triple": "Trips",
    "Tube": "ThreePair",
    "FullHouse": "ThreeWithTwo",
    "Plate": "TwoTrips",
    "Straight": "Straight",
    "StraightFlush": "StraightFlush",
    "Bomb": "Bomb",
    "JokerBomb": "Bomb",
}
TYPE_TO_KIND = {t: k for k, t in KIND_TO_TYPE.items() if k != "JokerBomb"}
SUITS = "SHCD"
RANKS = "A23456789TJQK"


class ProtocolError(GuandanError):
    """A message or code that the platform protocol does not allow."""


def card_code(card: Card) -> str:
    """The platform code of `card` (``S5``, ``SB``, ``HR``)."""
    rank = card.rank
    if rank == "BJ":
        return "SB"
    if rank == "RJ":
        return "HR"
    assert card.suit is not None
    return card.suit.upper() + rank


def card_from_code(code: object) -> Card:
    """The card of platform code `code`."""
    if isinstance(code, str) and len(code) == 2:
        if code == "SB":
            return Card("BJ")
        if code == "HR":
            return Card("RJ")
        if code[0] in SUITS and code[1] in RANKS:
            return Card(code[1] + code[0].lower())
    raise ProtocolError(f"not a card code: {str(code)[:40]!r} (suit S H C D then rank A 2..9 T J Q K, or SB / HR)")


#: Engine card text -> platform code, for every card.
_CODE_OF_TEXT = {str(c): card_code(c) for c in (Card.from_index(i) for i in range(54))}
#: Every card code.
CARD_CODES = frozenset(_CODE_OF_TEXT.values())


def cards_code(cards: Any) -> list[str]:
    """The codes of `cards` (a Hand, a Combo's cards or any iterable of Cards), in the engine's order."""
    if isinstance(cards, Hand):
        return [_CODE_OF_TEXT[t] for t in str(cards).split()]  # one call into the engine, not one per card
    return [card_code(c) for c in cards]


def _combo_rank(combo: Combo) -> str:
    if combo.kind == "JokerBomb":
        return "JOKER"
    return {"BJ": "B", "RJ": "R"}.get(combo.rank, combo.rank)


def action_code(action: Action) -> list[Any]:
    """The platform action ``[type, rank, cards]`` of an engine action."""
    if isinstance(action, Pass):
        return ["PASS", "PASS", "PASS"]
    if isinstance(action, Tribute):
        return ["tribute", "tribute", [card_code(action.card)]]
    if isinstance(action, Return):
        return ["back", "back", [card_code(action.card)]]
    return [KIND_TO_TYPE[action.kind], _combo_rank(action), cards_code(action.cards)]


def action_from_code(code: object, level: str, rules: Rules | None = None) -> Action:
    """The engine action of platform action `code` in a deal played at `level`."""
    if not (isinstance(code, (list, tuple)) and len(code) == 3):
        raise ProtocolError(f"an action is [type, rank, cards], not {str(code)[:60]!r}")
    kind, rank, cards = code
    if kind == "PASS":
        return PASS
    if not isinstance(cards, (list, tuple)) or not cards:
        raise ProtocolError(f"the cards of an action are a list of card codes, not {str(cards)[:60]!r}")
    parsed = [card_from_code(c) for c in cards]
    if kind in ("tribute", "back"):
        if len(parsed) != 1:
            raise ProtocolError(f"a {kind} action holds one card, not {len(parsed)}")
        return Tribute(parsed[0]) if kind == "tribute" else Return(parsed[0])
    if kind not in TYPE_TO_KIND or not isinstance(rank, str):
        raise ProtocolError(f"not an action type: {str(kind)[:40]!r}")
    joker_pair = True if rules is None else rules.joker_pair_in_full_house
    try:
        if kind == "Bomb" and rank == "JOKER":
            return Combo(parsed, "JokerBomb", None, level=level, joker_pair_in_full_house=joker_pair)
        engine_rank = {"B": "BJ", "R": "RJ"}.get(rank, rank)
        return Combo(parsed, TYPE_TO_KIND[kind], engine_rank, level=level, joker_pair_in_full_house=joker_pair)
    except GuandanError as e:
        raise ProtocolError(f"{code!r} is not a play at level {level}: {e}") from None
