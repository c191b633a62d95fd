"""The platform's messages: one builder per (stage, type), the fields each
carries, and the check of a message and of a reply.

Every message is a JSON object with ``type`` (``notify`` or ``act``) and
``stage``; a client answers an ``act`` with ``{"actIndex": k}``.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence

from guandan_fast.platform.codes import ProtocolError

__all__ = [
    "ACT_FIELDS",
    "FIELDS",
    "act",
    "anti_tribute",
    "back_result",
    "beginning",
    "check_message",
    "episode_over",
    "game_over",
    "game_result",
    "parse_reply",
    "play_notify",
    "reply",
    "tribute_result",
]

Code = list[Any]

#: The fields of an ``act`` message besides type and stage.
ACT_FIELDS = (
    "handCards", "publicInfo", "selfRank", "oppoRank", "curRank",
    "curPos", "curAction", "greaterPos", "greaterAction", "actionList", "indexRange",
)

#: (stage, type) -> the fields the message carries besides type and stage.
FIELDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("beginning", "notify"): ("handCards", "myPos"),
    ("play", "notify"): ("curPos", "curAction", "greaterPos", "greaterAction"),
    ("tribute", "notify"): ("result",),
    ("anti-tribute", "notify"): ("antiNums", "antiPos"),
    ("back", "notify"): ("result",),
    ("episodeOver", "notify"): ("order", "curRank", "restCards"),
    ("gameOver", "notify"): ("curTimes", "settingTimes"),
    ("gameResult", "notify"): ("victoryNum", "draws"),
    ("play", "act"): ACT_FIELDS,
    ("tribute", "act"): ACT_FIELDS,
    ("back", "act"): ACT_FIELDS,
}


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


def check_message(msg: object) -> tuple[str, str]:
    """The (stage, type) of `msg`, a message of the protocol with every field; else `ProtocolError`."""
    if not isinstance(msg, dict):
        raise ProtocolError(f"a message is a JSON object, not {type(msg).__name__}")
    key = (msg.get("stage"), msg.get("type"))
    fields = FIELDS.get(key)  # type: ignore[arg-type]
    if fields is None:
        raise ProtocolError(f"no message has stage {key[0]!r} and type {key[1]!r}")
    missing = [f for f in fields if f not in msg]
    if missing:
        raise ProtocolError(f"the {key[0]}/{key[1]} message lacks {', '.join(missing)}")
    if key[1] == "act" and msg["indexRange"] != len(msg["actionList"]) - 1:
        raise ProtocolError("indexRange is not len(actionList) - 1")
    return key  # type: ignore[return-value]


def reply(index: int) -> str:
    """The reply choosing action `index`."""
    return json.dumps({"actIndex": index})


def parse_reply(reply: object, index_range: int) -> int:
    """The action index of a client's reply (a JSON text frame, or the object it
    decodes to); a malformed or out-of-range one raises `ProtocolError`."""
    data = reply
    if isinstance(reply, str):
        try:
            data = json.loads(reply)
        except (ValueError, RecursionError):
            raise ProtocolError(f"not JSON: {reply[:80]!r}") from None
    elif isinstance(reply, (bytes, bytearray, memoryview)):
        raise ProtocolError("a reply is a JSON text frame, not binary")
    k = data.get("actIndex") if isinstance(data, dict) else None
    if not isinstance(k, int) or isinstance(k, bool):
        raise ProtocolError(f'a reply is {{"actIndex": k}} with an integer k, not {str(reply)[:80]!r}')
    if not 0 <= k <= index_range:
        raise ProtocolError(f"actIndex {k} is outside 0..{index_range}")
    return k
