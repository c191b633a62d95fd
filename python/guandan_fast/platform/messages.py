"""The platform's messages: one builder per (stage, type), the fields each
carries with their shapes (`SHAPES`), and the checks of a frame (`decode`),
of a message (`check_message`) and of a reply (`parse_reply`), which raise
`ProtocolError` naming the message and the field.

Every message is a JSON object with ``type`` (``notify`` or ``act``) and
``stage``; a client answers an ``act`` with ``{"actIndex": k}``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Optional, Sequence

from guandan_fast.platform.codes import CARD_CODES, ProtocolError
from guandan_fast.platform.transport import printable

__all__ = [
    "ACT_SHAPES",
    "FIELDS",
    "SHAPES",
    "act",
    "anti_tribute",
    "back_result",
    "beginning",
    "check_message",
    "decode",
    "episode_over",
    "game_over",
    "game_result",
    "parse_reply",
    "play_notify",
    "reply",
    "tribute_result",
]

Code = list[Any]
#: The levels a deal is played at.
LEVELS = "23456789TJQKA"


def _msg(stage: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "stage": stage, **fields}


def beginning(hand: list[str], seat: int) -> dict[str, Any]:
    """A deal starts: the seat's hand and seat."""
    return _msg("beginning", "notify", handCards=hand, myPos=seat)


def play_notify(seat: int, action: Code, greater_seat: int, greater: Optional[Code]) -> dict[str, Any]:
    """`seat` did `action`; the trick's top play is `greater` by `greater_seat`."""
    return _msg("play", "notify", curPos=seat, curAction=action, greaterPos=greater_seat, greaterAction=greater)


def tribute_result(result: list[list[Any]]) -> dict[str, Any]:
    """Tributes paid: ``[[from, to, card], ...]``."""
    return _msg("tribute", "notify", result=result)


def anti_tribute(seats: list[int]) -> dict[str, Any]:
    """Tribute resisted by `seats` (抗贡)."""
    return _msg("anti-tribute", "notify", antiNums=len(seats), antiPos=seats)


def back_result(result: list[list[Any]]) -> dict[str, Any]:
    """Return cards: ``[[from, to, card], ...]``."""
    return _msg("back", "notify", result=result)


def episode_over(order: list[int], level: str, rest: list[list[Any]]) -> dict[str, Any]:
    """A deal ends: finishing order, the level played, the cards left per seat."""
    return _msg("episodeOver", "notify", order=order, curRank=level, restCards=rest)


def game_over(games: int, games_set: int) -> dict[str, Any]:
    """A game ends: games played so far of the games set."""
    return _msg("gameOver", "notify", curTimes=games, settingTimes=games_set)


def game_result(wins: list[int], draws: list[int]) -> dict[str, Any]:
    """All games played: games won and drawn per seat."""
    return _msg("gameResult", "notify", victoryNum=wins, draws=draws)


def act(
    stage: str,
    hand: list[str],
    public: list[dict[str, Any]],
    ranks: tuple[str, str, str],
    cur: tuple[int, Optional[Code]],
    greater: tuple[int, Optional[Code]],
    actions: Sequence[Code],
) -> dict[str, Any]:
    """The seat's move in `stage` (``play``, ``tribute``, ``back``): its hand,
    the public info, (selfRank, oppoRank, curRank), the last action and the
    top play with their seats (-1 and None when leading), the actions."""
    return _msg(
        stage, "act",
        handCards=hand, publicInfo=public, selfRank=ranks[0], oppoRank=ranks[1], curRank=ranks[2],
        curPos=cur[0], curAction=cur[1], greaterPos=greater[0], greaterAction=greater[1],
        actionList=list(actions), indexRange=len(actions) - 1,
    )


def _is_int(v: object, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _is_cards(v: object, most: int = 108) -> bool:
    return isinstance(v, list) and len(v) <= most and all(isinstance(c, str) and c in CARD_CODES for c in v)


def _is_action(v: object) -> bool:
    if not (isinstance(v, list) and len(v) == 3 and isinstance(v[0], str) and isinstance(v[1], str)):
        return False
    if v[0] == "PASS":
        return bool(v[1] == v[2] == "PASS")
    return _is_cards(v[2], 10) and len(v[2]) >= 1


def _is_level(v: object) -> bool:
    return isinstance(v, str) and len(v) == 1 and v in LEVELS


def _is_seats(v: object, n: range) -> bool:
    return isinstance(v, list) and len(v) in n and all(_is_int(s, 0, 3) for s in v) and len(set(v)) == len(v)


def _is_transfers(v: object) -> bool:
    return isinstance(v, list) and 1 <= len(v) <= 2 and all(
        isinstance(t, list) and len(t) == 3 and _is_seats(t[:2], range(2, 3)) and _is_cards(t[2:]) for t in v
    )


def _is_public(v: object) -> bool:
    return isinstance(v, list) and len(v) == 4 and all(
        isinstance(p, dict) and set(p) == {"rest", "playArea"} and _is_int(p["rest"], 0, 108)
        and (p["playArea"] is None or _is_action(p["playArea"]))
        for p in v
    )


def _is_rest(v: object) -> bool:
    return isinstance(v, list) and len(v) <= 4 and all(isinstance(r, list) and len(r) == 2 and _is_int(r[0], 0, 3) and _is_cards(r[1]) for r in v)


#: A field's shape: what it must be (for the error) and the test.
Shape = tuple[str, Callable[[object], bool]]
SEAT: Shape = ("a seat 0..3", lambda v: _is_int(v, 0, 3))
POS: Shape = ("a seat 0..3, or -1 when the seat leads", lambda v: _is_int(v, -1, 3))
CARDS: Shape = ("a list of card codes", _is_cards)
ACTION: Shape = ("an action [type, rank, cards]", _is_action)
ACTION_OR_NULL: Shape = ("an action [type, rank, cards], or null when the seat leads", lambda v: v is None or _is_action(v))
LEVEL: Shape = ("a rank 2..9, T, J, Q, K or A", _is_level)
COUNT: Shape = ("a whole number 0..2**32", lambda v: _is_int(v, 0, 2**32))
TALLY: Shape = ("four whole numbers, one per seat", lambda v: isinstance(v, list) and len(v) == 4 and all(_is_int(x, 0, 2**32) for x in v))
ACT_SHAPES: dict[str, Shape] = {
    "handCards": CARDS,
    "publicInfo": ('four {"rest": cards left, "playArea": action or null}', _is_public),
    "selfRank": LEVEL,
    "oppoRank": LEVEL,
    "curRank": LEVEL,
    "curPos": POS,
    "curAction": ACTION_OR_NULL,
    "greaterPos": POS,
    "greaterAction": ACTION_OR_NULL,
    "actionList": ("a list of one or more actions", lambda v: isinstance(v, list) and len(v) >= 1 and all(_is_action(a) for a in v)),
    "indexRange": ("len(actionList) - 1", lambda v: _is_int(v, 0, 2**32)),
}
#: (stage, type) -> each field the message carries besides type and stage, with its shape.
SHAPES: dict[tuple[str, str], dict[str, Shape]] = {
    ("beginning", "notify"): {"handCards": CARDS, "myPos": SEAT},
    ("play", "notify"): {"curPos": SEAT, "curAction": ACTION, "greaterPos": SEAT, "greaterAction": ACTION},
    ("tribute", "notify"): {"result": ("[[from, to, card], ...] (one or two)", _is_transfers)},
    ("anti-tribute", "notify"): {"antiNums": ("a whole number 0..4", lambda v: _is_int(v, 0, 4)), "antiPos": ("a list of seats", lambda v: _is_seats(v, range(5)))},
    ("back", "notify"): {"result": ("[[from, to, card], ...] (one or two)", _is_transfers)},
    ("episodeOver", "notify"): {
        "order": ("the four seats in finishing order", lambda v: _is_seats(v, range(4, 5))),
        "curRank": LEVEL,
        "restCards": ("[[seat, cards], ...]", _is_rest),
    },
    ("gameOver", "notify"): {"curTimes": COUNT, "settingTimes": COUNT},
    ("gameResult", "notify"): {"victoryNum": TALLY, "draws": TALLY},
    ("play", "act"): ACT_SHAPES,
    ("tribute", "act"): ACT_SHAPES,
    ("back", "act"): ACT_SHAPES,
}
#: (stage, type) -> the fields the message carries besides type and stage.
FIELDS: dict[tuple[str, str], tuple[str, ...]] = {key: tuple(shapes) for key, shapes in SHAPES.items()}


def decode(frame: object) -> object:
    """The JSON value of a text frame (a str); `ProtocolError` for binary data or text that is not JSON."""
    if isinstance(frame, (bytes, bytearray, memoryview)):
        raise ProtocolError("a message is a JSON text frame, not binary")
    if not isinstance(frame, str):
        raise ProtocolError(f"a message is a JSON text frame, not a {type(frame).__name__}")
    try:
        return json.loads(frame)
    except RecursionError:
        raise ProtocolError(f"JSON nested too deeply: {printable(frame, 40)!r}") from None
    except ValueError:
        raise ProtocolError(f"not JSON: {printable(frame)!r}") from None


def check_message(msg: object) -> tuple[str, str]:
    """The (stage, type) of `msg`, a message of the protocol with every field in
    shape; else `ProtocolError` naming the message and the field."""
    if not isinstance(msg, dict):
        raise ProtocolError(f"a message is a JSON object, not {type(msg).__name__}")
    key = (msg.get("stage"), msg.get("type"))
    shapes = SHAPES.get(key) if all(isinstance(k, str) for k in key) else None  # type: ignore[arg-type]
    if shapes is None:
        raise ProtocolError(f"no message has stage {printable(repr(key[0]), 40)} and type {printable(repr(key[1]), 40)}")
    name = f"the {key[0]}/{key[1]} message"
    missing = [f for f in shapes if f not in msg]
    if missing:
        raise ProtocolError(f"{name} lacks {', '.join(missing)}")
    for f, (what, ok) in shapes.items():
        if not ok(msg[f]):
            raise ProtocolError(f"{name}: {f} must be {what}, not {printable(repr(msg[f]), 60)}")
    if key[1] == "act":
        if msg["indexRange"] != len(msg["actionList"]) - 1:
            raise ProtocolError(f"{name}: indexRange is not len(actionList) - 1")
        for pos, action in (("curPos", "curAction"), ("greaterPos", "greaterAction")):
            if (msg[pos] == -1) != (msg[action] is None):
                raise ProtocolError(f"{name}: {pos} is -1 exactly when {action} is null")
    return key  # type: ignore[return-value]


def reply(index: int) -> str:
    """The reply choosing action `index`."""
    return json.dumps({"actIndex": index})


def parse_reply(reply: object, index_range: int) -> int:
    """The action index of a client's reply (a JSON text frame, or the object it
    decodes to); a malformed or out-of-range one raises `ProtocolError`."""
    data = decode(reply) if isinstance(reply, (str, bytes, bytearray, memoryview)) else reply
    k = data.get("actIndex") if isinstance(data, dict) else None
    if not isinstance(k, int) or isinstance(k, bool):
        raise ProtocolError(f'a reply is {{"actIndex": k}} with an integer k, not {printable(reply)!r}')
    if not 0 <= k <= index_range:
        raise ProtocolError(f"actIndex {printable(k, 40)} is outside 0..{index_range}")
    return k
