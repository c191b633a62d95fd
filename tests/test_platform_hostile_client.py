"""guandan_fast's platform `Client` against a hostile fake server over real
loopback sockets: every message the protocol does not allow (garbage, deep
nesting, wrong types, seats out of range, cards not held, a deal without
end), a message over the client's size limit and a connection cut in the
middle of a message raise `ProtocolError` naming the message and the field;
nothing else escapes. The command line prints one ``error:`` line."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

pytest.importorskip("websockets")

import guandan_fast as gf  # noqa: E402
from guandan_fast.cli import main  # noqa: E402
from guandan_fast.platform import Ask, Client, ProtocolError, Referee, Send  # noqa: E402
from guandan_fast.platform.client import MAX_DEAL_ACTIONS  # noqa: E402
from guandan_fast.platform.transport import CLIENT_MAX_MESSAGE  # noqa: E402
from platform_faults import FakeServer, frame  # noqa: E402


def first_messages() -> tuple[dict[str, Any], dict[str, Any]]:
    """The beginning and the first act message a referee sends seat 0."""
    ref = Referee({0: "me"}, bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=3)
    events = ref.start()
    while ref.awaiting is None:
        events += ref.play_bot()
    sent = [e.message for e in events if isinstance(e, Send) and e.seat == 0]
    begin = next(m for m in sent if m["stage"] == "beginning")
    act = next(e.message for e in events if isinstance(e, Ask))
    return begin, act


BEGIN, ACT = first_messages()
MINE = BEGIN["handCards"][0]
NOT_MINE = next(c for c in ("S2", "H3", "C4", "D5", "S6", "H7", "C8", "D9") if c not in BEGIN["handCards"])


def changed(msg: dict[str, Any], **fields: Any) -> str:
    out = copy.deepcopy(msg)
    out.update(fields)
    return json.dumps(out)


def notify(stage: str, **fields: Any) -> str:
    return json.dumps({"type": "notify", "stage": stage, **fields})


B = json.dumps(BEGIN)
PLAY = dict(curPos=1, curAction=["Single", "5", ["D5"]], greaterPos=1, greaterAction=["Single", "5", ["D5"]])
#: (name, frames the server sends, words the error must hold).
SCENARIOS: list[tuple[str, list[Any], str]] = [
    ("garbage", ["not json"], "not JSON"),
    ("cut JSON", ['{"type": "notify"'], "not JSON"),
    ("deep nesting", ["[" * 100_000 + "]" * 100_000], "nested too deeply"),
    ("binary", [b"\x00\x01"], "not binary"),
    ("a list", ["[]"], "JSON object"),
    ("null", ["null"], "JSON object"),
    ("no stage", ['{"type": "notify"}'], "no message has stage None"),
    ("unknown stage", [notify("lunch")], "'lunch'"),
    ("myPos text", [changed(BEGIN, myPos="0")], "myPos must be a seat"),
    ("myPos float", [changed(BEGIN, myPos=0.0)], "myPos must be a seat"),
    ("myPos 9", [changed(BEGIN, myPos=9)], "myPos must be a seat"),
    ("myPos true", [changed(BEGIN, myPos=True)], "myPos must be a seat"),
    ("myPos huge", [changed(BEGIN, myPos=10**400)], "myPos must be a seat"),
    ("myPos moves", [B, changed(BEGIN, myPos=2)], "not this client's seat"),
    ("handCards 5", [changed(BEGIN, handCards=5)], "handCards must be a list of card codes"),
    ("handCards junk", [changed(BEGIN, handCards=["XX"])], "handCards"),
    ("three copies", [changed(BEGIN, handCards=[MINE] * 3 + BEGIN["handCards"][3:])], "does not fit the game"),
    ("no myPos", [notify("beginning", handCards=[])], "lacks myPos"),
    ("curPos 9", [B, notify("play", **{**PLAY, "curPos": 9})], "the play/notify message: curPos must be a seat"),
    ("curPos text", [B, notify("play", **{**PLAY, "curPos": "1"})], "curPos must be a seat"),
    ("curPos -1", [B, notify("play", **{**PLAY, "curPos": -1})], "curPos must be a seat"),
    ("curAction null", [B, notify("play", **{**PLAY, "curAction": None})], "curAction must be an action"),
    ("curAction [0, 1]", [B, notify("play", **{**PLAY, "curAction": [0, 1]})], "curAction must be an action"),
    ("cards as text", [B, notify("play", **{**PLAY, "curAction": ["Single", "5", "D5"]})], "curAction must be an action"),
    ("no such type", [B, notify("play", **{**PLAY, "curAction": ["Quads", "5", ["D5"]]})], "not an action type"),
    ("not a play", [B, notify("play", **{**PLAY, "curAction": ["Pair", "5", ["D5", "S9"]]})], "not a play"),
    ("not my card", [B, notify("play", **{**PLAY, "curPos": 0, "curAction": ["Single", NOT_MINE[1], [NOT_MINE]]})], "does not fit the game"),
    ("tribute seat 9", [B, notify("tribute", result=[[9, 1, "S2"]])], "the tribute/notify message: result"),
    ("tribute to itself", [B, notify("tribute", result=[[0, 0, "S2"]])], "result"),
    ("tribute [0, 1]", [B, notify("tribute", result=[[0, 1]])], "result"),
    ("tribute text", [B, notify("tribute", result="x")], "result"),
    ("back junk card", [B, notify("back", result=[[0, 1, "ZZ"]])], "result"),
    ("anti text", [B, notify("anti-tribute", antiNums="1", antiPos=[0])], "antiNums"),
    ("order short", [B, notify("episodeOver", order=[0, 1, 2], curRank="2", restCards=[])], "order"),
    ("order twice", [B, notify("episodeOver", order=[0, 0, 1, 2], curRank="2", restCards=[])], "order"),
    ("restCards text", [B, notify("episodeOver", order=[0, 1, 2, 3], curRank="2", restCards="x")], "restCards"),
    ("level Z", [B, notify("episodeOver", order=[0, 1, 2, 3], curRank="Z", restCards=[])], "curRank must be a rank"),
    ("curTimes -1", [notify("gameOver", curTimes=-1, settingTimes=1)], "curTimes"),
    ("victoryNum short", [notify("gameResult", victoryNum=[1, 2], draws=[0, 0, 0, 0])], "victoryNum"),
    ("act first", [json.dumps(ACT)], "before the beginning message"),
    ("actionList null", [B, changed(ACT, actionList=None)], "the play/act message: actionList must be"),
    ("actionList empty", [B, changed(ACT, actionList=[], indexRange=-1)], "actionList"),
    ("actionList [[0, 1]]", [B, changed(ACT, actionList=[[0, 1]], indexRange=0)], "actionList"),
    ("indexRange off", [B, changed(ACT, indexRange=ACT["indexRange"] + 1)], "indexRange is not"),
    ("hand differs", [B, changed(ACT, handCards=ACT["handCards"][1:])], "not the hand"),
    ("publicInfo junk", [B, changed(ACT, publicInfo=[1, 2, 3, 4])], "publicInfo"),
    ("selfRank Z", [B, changed(ACT, selfRank="Z")], "selfRank"),
    ("leader with action", [B, changed(ACT, curPos=-1, curAction=["Single", "5", ["D5"]])], "curPos is -1 exactly when curAction is null"),
    ("levels differ", [B, changed(ACT, selfRank="5")], "give the Client the server's rules"),
    ("no card left", [B, *[notify("play", **{**PLAY, "curAction": ["Single", "5", ["D5"]]})] * 28], "no card left"),
    ("a deal without end", [B, *[notify("play", **{**PLAY, "curAction": ["PASS", "PASS", "PASS"]})] * (MAX_DEAL_ACTIONS + 1)], "actions in one deal"),
    ("too big", ["x" * (CLIENT_MAX_MESSAGE + 1)], "over the size limit"),
]


@pytest.mark.parametrize(("frames", "words"), [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS])
def test_a_bad_message_raises_a_protocol_error_naming_it(frames: list[Any], words: str) -> None:
    with FakeServer(frames) as server:
        client = Client(server.url, "greedy")
        with pytest.raises(ProtocolError) as e:
            client.play()
    assert words in str(e.value), str(e.value)
    assert isinstance(e.value, gf.GuandanError)


def test_a_connection_cut_in_the_middle_of_a_message_says_so() -> None:
    cut = frame(json.dumps(BEGIN).encode(), masked=False)[:50]
    with FakeServer(raw=cut) as server:
        with pytest.raises(ProtocolError, match="in the middle of a message"):
            Client(server.url, "greedy").play()


@pytest.mark.parametrize(("then", "words"), [("close", "disconnected (close code 1000)"), ("drop", "without a close frame")])
def test_a_server_leaving_before_the_result_stops_the_client_with_the_reason(then: str, words: str) -> None:
    with FakeServer([B], then=then) as server:
        client = Client(server.url, "greedy")
        assert client.play() is None
    assert client.seat == 0 and client.stopped is not None and words in client.stopped


def test_the_command_line_prints_one_error_line_saying_the_server_sent_it(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeServer([B, notify("play", **{**PLAY, "curPos": 9})]) as server:
        code = main(["connect", server.url, "--bot", "greedy"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: the server at {server.url} sent what the platform protocol does not allow: ")
    assert "the play/notify message: curPos must be a seat 0..3, not 9" in err
    with FakeServer([B], then="drop") as server:
        code = main(["connect", server.url, "--bot", "greedy"])
    out, err = capsys.readouterr()
    assert code == 1 and "the match was stopped before its end: the server dropped the connection without a close frame" in out
