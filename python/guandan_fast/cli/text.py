"""How the command line shows cards and moves (Unicode suits, colours) and
reads back what a person types (card text, a declaration, ``pass``).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Iterable, TextIO, Union

from rich.console import Console
from rich.text import Text

import guandan_fast as gf
from guandan_fast._core import _declarations, _rank_order

__all__ = ["CardPrinter", "InputError", "MoveText", "make_console", "match_actions", "parse_move_text", "unicode_ok"]

Action = Union[gf.Combo, gf.Pass, gf.Tribute, gf.Return]

SUIT_SYMBOLS = {"h": "♥", "s": "♠", "c": "♣", "d": "♦"}
SUIT_STYLES = {"h": "red", "d": "red", "s": "", "c": ""}
WILD_STYLE = "bold magenta"
PASS_WORDS = ("p", "pass", "过")


def unicode_ok(stream: TextIO | None = None) -> bool:
    """Whether `stream` (stdout by default) can print the suit symbols."""
    stream = stream or sys.stdout
    try:
        "♠♥♣♦—·".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def make_console(*, stderr: bool = False) -> Console:
    """A console that follows sys.stdout / sys.stderr as they are at print time (tests swap them)."""
    return Console(stderr=stderr, highlight=False, emoji=False)


class CardPrinter:
    """Renders cards, hands and actions as rich `Text`: Unicode suits (or letters
    with ``unicode=False``), red hearts and diamonds, wildcards (逢人配) highlighted."""

    def __init__(self, unicode: bool = True) -> None:
        self.unicode = unicode

    def card(self, card: gf.Card, level: str | None = None) -> Text:
        if card.suit is None:
            return Text(card.rank, style="bold red" if card.rank == "RJ" else "bold")
        suit = SUIT_SYMBOLS[card.suit] if self.unicode else card.suit
        style = WILD_STYLE if level is not None and card.is_wildcard(level) else SUIT_STYLES[card.suit]
        return Text(card.rank + suit, style=style)

    def cards(self, cards: Iterable[gf.Card], level: str | None = None, *, group: bool = False) -> Text:
        """Cards in the order given; `group`: an extra space between ranks."""
        out = Text()
        prev: str | None = None
        for c in cards:
            if prev is not None:
                out.append("  " if group and c.rank != prev else " ")
            out.append_text(self.card(c, level))
            prev = c.rank
        return out

    def hand(self, hand: gf.Hand, level: str) -> Text:
        """A hand weakest to strongest at `level`, grouped by rank."""
        return self.cards(hand.sorted(level), level, group=True)

    def combo(self, combo: gf.Combo) -> Text:
        """Like ``Pair(7) 7♠ 7♦``; a wildcard shows what it stands for: ``2♥→7``."""
        label = combo.label
        if combo.suit is not None and self.unicode:
            label = label.replace(combo.suit + ")", SUIT_SYMBOLS[combo.suit] + ")")
        wild_card = gf.Card(combo.level + "h")
        # A wildcard standing for a level card (a lone level single or pair) is shown as itself.
        if combo.kind == "StraightFlush":
            standing = [c for c in combo.wildcards if c != wild_card]
        else:
            standing = [c for c in combo.wildcards if c.rank != combo.level]
        natural = list(combo.cards)
        for _ in standing:
            natural.remove(wild_card)
        if combo.kind == "FullHouse" or (combo.rank == "A" and combo.kind in ("Straight", "Tube", "Plate", "StraightFlush")):
            natural.sort(key=lambda c: c.rank != combo.rank)  # the triple first; the low A first
        out = Text(label + " ", style="bold")
        out.append_text(self.cards(natural, combo.level))
        for stands_for in standing:
            out.append(" ")
            out.append_text(self.card(wild_card, combo.level))
            target = stands_for if combo.kind == "StraightFlush" else stands_for.rank
            out.append("→" if self.unicode else "=")
            out.append_text(self.card(target) if isinstance(target, gf.Card) else Text(target))
        return out

    @staticmethod
    def display_order(actions: list[Action], level: str) -> list[Action]:
        """`actions` in the engine's kind order, but same-rank kinds (Single, Pair, Triple,
        FullHouse, Bomb) weakest first at `level` (the level rank above A), as players sort."""
        order = _rank_order(level)
        kinds: dict[str, int] = {}
        for a in actions:
            kinds.setdefault(a.kind if isinstance(a, gf.Combo) else "", len(kinds))

        def key(a: Action) -> tuple[int, int, int]:
            if not isinstance(a, gf.Combo):
                return (-1, 0, 0)
            if a.kind in ("Single", "Pair", "Triple", "FullHouse", "Bomb"):
                return (kinds[a.kind], a.size if a.kind == "Bomb" else 0, order.index(a.rank))
            return (kinds[a.kind], 0, 0)

        return sorted(actions, key=key)

    def action(self, action: Action) -> Text:
        if isinstance(action, gf.Combo):
            return self.combo(action)
        if isinstance(action, gf.Tribute):
            return Text("tribute ").append_text(self.card(action.card))
        if isinstance(action, gf.Return):
            return Text("return ").append_text(self.card(action.card))
        return Text("pass", style="dim")


# ---------------------------------------------------------------- reading moves


class InputError(Exception):
    """Text a person typed that is not a move they can make now (the message says why)."""


@dataclass
class MoveText:
    """What a person typed: ``pass``, or cards with an optional declaration."""

    is_pass: bool = False
    cards: list[gf.Card] = field(default_factory=list)
    #: A declaration as shown in the move list (``Straight(3)``) or a kind name (``straight``).
    label: str | None = None


_LABEL = re.compile(r"^([A-Za-z]+)(\([^()\s]*\))?$")
_KINDS = {k.lower(): k for k in gf.KINDS}
_CARD_RUN = re.compile(r"(10|[2-9TJQKA])([HSCD♥♠♣♦])|BJ|RJ", re.IGNORECASE)


def _card_tokens(token: str) -> list[gf.Card]:
    """One token as cards: ``7s``, or several written together (``3s4s5s``)."""
    try:
        return [gf.Card(token)]
    except gf.InvalidCardError:
        pieces = [m.group(0) for m in _CARD_RUN.finditer(token)]
        if pieces and "".join(pieces) == token:
            return [gf.Card(p) for p in pieces]
        raise InputError(f'"{token}" is not a card (rank then suit: 7s, Th or 10♥, As; jokers BJ, RJ)') from None


def parse_move_text(text: str) -> MoveText:
    """Parses ``pass`` / ``p``, or cards (``3s 4s 5d 6c 7h``, ``3s,4s``, ``3s4s``) with an
    optional declaration anywhere (``Straight(3)``, ``straight``). Raises `InputError`."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise InputError("nothing typed")
    if len(tokens) == 1 and tokens[0].lower() in PASS_WORDS:
        return MoveText(is_pass=True)
    move = MoveText()
    for tok in tokens:
        m = _LABEL.match(tok)
        if m and m.group(1).lower() in _KINDS:
            if move.label is not None:
                raise InputError(f"two declarations: {move.label} and {tok}")
            move.label = _KINDS[m.group(1).lower()] + (m.group(2) or "")
            continue
        if tok.lower() in PASS_WORDS:
            raise InputError("'pass' goes alone, without cards")
        move.cards.extend(_card_tokens(tok))
    if not move.cards:
        raise InputError(f"{move.label} of which cards?")
    return move


def _label_text(label: str) -> str:
    """A typed declaration with suit symbols as the letters a Combo's label uses."""
    for letter, symbol in SUIT_SYMBOLS.items():
        label = label.replace(symbol, letter)
    return label


def match_actions(game: gf.Game, move: MoveText, printer: CardPrinter | None = None) -> list[Action]:
    """The legal actions of the player to move that `move` describes (card level;
    several when the cards allow several declarations). Raises `InputError` saying
    why nothing matches."""
    p = printer or CardPrinter(unicode=False)
    seat = game.current_player
    if seat is None or game.phase not in ("play", "tribute", "return"):
        raise InputError(f"nobody is to move: the {'match' if game.phase == 'match_over' else 'deal'} is over")
    legal = game.legal_actions("cards")
    if game.phase in ("tribute", "return"):
        word = "tribute (进贡)" if game.phase == "tribute" else "return (还贡)"
        allowed = p.cards(sorted({a.card for a in legal if isinstance(a, (gf.Tribute, gf.Return))})).plain
        if move.is_pass or len(move.cards) != 1 or move.label:
            raise InputError(f"choose one card to give as {word}: {allowed}")
        found: list[Action] = [a for a in legal if isinstance(a, (gf.Tribute, gf.Return)) and a.card == move.cards[0]]
        if not found:
            raise InputError(f"{p.card(move.cards[0]).plain} cannot be given as {word}; you may give {allowed}")
        return found
    if move.is_pass:
        if gf.PASS not in legal:
            raise InputError("you lead this trick, so you must play (passing is only for following)")
        return [gf.PASS]
    try:
        want = gf.Hand(move.cards)
    except gf.DuplicateCardError as e:
        raise InputError(str(e)) from None
    shown = p.cards(sorted(move.cards)).plain
    hand = game.hands[seat]
    if want not in hand:
        missing = [c for c in sorted(set(want)) if want.count(c) > hand.count(c)]
        raise InputError(f"you do not hold {p.cards(missing).plain}")
    label = None if move.label is None else _label_text(move.label)
    try:
        decls = _declarations(want, game.level, label, joker_pair_in_full_house=game.rules.joker_pair_in_full_house)
    except gf.InvalidComboError as e:
        raise InputError(str(e)) from None
    labels = {d.label for d in decls}
    plays: list[Action] = [a for a in legal if isinstance(a, gf.Combo) and a.cards == want and a.label in labels]
    if plays:
        return plays
    top = game.top
    if top is not None:
        names = " or ".join(d.label for d in decls)
        raise InputError(f"{names} {shown} does not beat {p.combo(top).plain}")
    raise InputError(f"{shown} is not a legal play now")
