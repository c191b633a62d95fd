"""Referee's decisions at the platform's tables: the referee driven with plain
dicts (each kind at a client's ask and at a bot's turn, refused decisions, an
abandoned deal, a forfeit), its record replaying to its game, and over
loopback sockets `Server.penalize` and ``guandan-fast serve --referee-input``."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

import guandan_fast as gf
from guandan_fast.platform import Log, Record, Referee, Send, platform_rules, read_record, replay
from guandan_fast.platform.codes import cards_code
from platform_client import check
from platform_faults import listening_port

#: Games of at most four deals keep a match short; the levels still move.
SHORT = platform_rules(max_deals=4)
ORDER = "23456789TJQKA"
KINDS = ["minus_two", "back_to_two", "opponents_up", "hidden_card", "out_of_turn", "illegal_signal", "forfeit"]
TOKEN = {("beginning", "notify"): "B", ("anti-tribute", "notify"): "A", ("tribute", "act"): "t", ("tribute", "notify"): "T",
         ("back", "act"): "b", ("back", "notify"): "K", ("play", "act"): "p", ("play", "notify"): "P",
         ("episodeOver", "notify"): "E", ("gameOver", "notify"): "G", ("gameResult", "notify"): "R"}


class Driver:
    """Drives a referee step by step, each asked seat replying at random (seeded); keeps every event."""

    def __init__(self, ref: Referee, seed: int = 0) -> None:
        self.ref = ref
        self.rng = random.Random(seed)
        self.events: list[Any] = []
        self.messages: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
        self.take(ref.start())

    def take(self, events: list[Any]) -> list[Any]:
        for e in events:
            self.events.append(e)
            if isinstance(e, Send):
                check(json.loads(json.dumps(e.message)))
                self.messages[e.seat].append(e.message)
        return events

    def step(self) -> None:
        if self.ref.bot is not None:
            self.take(self.ref.play_bot())
            return
        seat = self.ref.awaiting
        assert seat is not None
        act = self.messages[seat][-1]
        assert act["type"] == "act"
        self.take(self.ref.receive(seat, {"actIndex": self.rng.randint(0, act["indexRange"])}))

    def until(self, ready: Callable[[], bool], limit: int = 20_000) -> None:
        for _ in range(limit):
            if ready():
                return
            assert not self.ref.over, "the match ended first"
            self.step()
        raise AssertionError("never ready")

    def finish(self, limit: int = 100_000) -> dict[str, Any]:
        for _ in range(limit):
            if self.ref.over:
                assert self.ref.result is not None
                return self.ref.result
            self.step()
        raise AssertionError("the match did not end")

    def records(self) -> list[dict[str, Any]]:
        return [e.line for e in self.events if isinstance(e, Record)]

    def logs(self) -> list[str]:
        return [e.line for e in self.events if isinstance(e, Log)]

    def stream(self, seat: int) -> str:
        return "".join(TOKEN[(m["stage"], m["type"])] for m in self.messages[seat])


def mixed(games: int = 2, seed: int = 5, rules: gf.Rules = SHORT) -> Referee:
    """Clients in seats 0 and 1, greedy bots in 2 and 3: each team has a client and a bot."""
    return Referee({0: "north", 1: "east"}, bots={2: "greedy", 3: "greedy"}, games=games, seed=seed, rules=rules)


def same_game(a: gf.Game, b: gf.Game) -> None:
    assert a.position() == b.position()
    assert a.penalties == b.penalties and a.penalty_counts == b.penalty_counts
    assert a.actions == b.actions and a.history == b.history and a.deals == b.deals
    assert (a.levels, a.phase, a.game_winners) == (b.levels, b.phase, b.game_winners)


def stop_and_replay(d: Driver) -> dict[str, Any]:
    """Stops the match: its game line so far, checked to replay to the referee's game."""
    game = d.ref.game
    assert game is not None
    d.take(d.ref.stop("enough"))
    line = d.records()[-2]
    assert line["type"] == "aborted"
    same_game(replay(json.loads(json.dumps(line))), game)
    return line


def higher_team(game: gf.Game) -> int:
    return 0 if ORDER.index(game.levels[0]) >= ORDER.index(game.levels[1]) else 1


@pytest.mark.parametrize("who", ["client", "bot"])
@pytest.mark.parametrize("kind", KINDS)
def test_each_decision_mid_deal(kind: str, who: str) -> None:
    d = Driver(mixed(games=3))
    ref = d.ref

    def ready() -> bool:
        g = ref.game
        turn = ref.awaiting is not None if who == "client" else ref.bot is not None
        return turn and g is not None and g.phase == "play" and len(g.history) > 10 and max(g.levels, key=ORDER.index) != "2"

    d.until(ready)
    game = ref.game
    assert game is not None
    team = higher_team(game)
    before = (game.levels, ref.awaiting, ref.bot, ref.game_index)
    events = d.take(ref.penalize(team, kind))
    assert isinstance(events[0], Log) and f"referee's decision {kind} against team {team} (seat {team})" in events[0].line
    ends_deal = kind in ("opponents_up", "hidden_card", "forfeit")
    if not ends_deal:
        assert len(events) == 1 and (ref.awaiting, ref.bot) == before[1:3]
        if kind == "minus_two":
            assert game.levels[team] == ORDER[max(0, ORDER.index(before[0][team]) - 2)]
        elif kind == "back_to_two":
            assert game.levels[team] == "2"
        else:
            assert game.levels == before[0] and "warning 1 of 3" in events[0].line
    elif kind == "forfeit":
        assert ref.over and ref.result is not None and ref.result["forfeit"]["team"] == team
    else:  # the deal abandoned, the next one begun: beginning messages, no episodeOver
        assert game.phase == "play" and game.levels[1 - team] == ORDER[min(12, ORDER.index(before[0][1 - team]) + 1)]
        assert game.declarer == 1 - team and game.tribute is None
        sent = [e for e in events if isinstance(e, Send)]
        assert [(e.seat, e.message["stage"]) for e in sent[:2]] == [(0, "beginning"), (1, "beginning")]
        assert not any(e.message["stage"] == "episodeOver" for e in sent)
    for _ in range(30):
        if not ref.over:
            d.step()
    if not ref.over:
        d.take(ref.stop("enough"))
    line = [r for r in d.records() if r["type"] in ("game", "aborted")][before[3]]
    same_game(replay(line), game)
    decided = [p for deal in line["deals"] for p in deal.get("penalties", [])]
    assert decided == [[game.penalties[0]["actions"], team, kind, team]]


def test_a_decision_before_a_deals_first_action() -> None:
    """At a later deal's first decision (`at` 0): the replay takes it once that deal has begun."""
    d = Driver(mixed(games=2, seed=8))
    ref = d.ref
    d.until(lambda: ref.game is not None and ref.game.deal_number > 0 and not ref.game.history and ref.awaiting is not None)
    game = ref.game
    assert game is not None
    d.take(ref.penalize(higher_team(game), "minus_two"))
    d.take(ref.penalize(0, "opponents_up", seat=2))
    assert not game.history  # at the next deal's first decision
    d.take(ref.penalize(1, "illegal_signal", seat=3))
    line = stop_and_replay(d)
    at_zero = [deal["penalties"] for deal in line["deals"] if deal.get("penalties")]
    assert [[p[0] for p in ps] for ps in at_zero] == [[0, 0], [0]]
    assert [p["kind"] for p in game.penalties] == ["minus_two", "opponents_up", "illegal_signal"]


def test_the_third_counted_offence_abandons_the_deal_and_a_third_hidden_card_wins_the_game() -> None:
    d = Driver(mixed(games=2, seed=3))
    ref = d.ref
    d.until(lambda: ref.awaiting == 0 and ref.game is not None and ref.game.phase == "play")
    game = ref.game
    assert game is not None
    for n in (1, 2):
        assert "warning" in d.take(ref.penalize(1, "out_of_turn", seat=1))[0].line and game.phase == "play"
    events = d.take(ref.penalize(1, "out_of_turn", seat=1))
    assert "the deal is abandoned" in events[0].line and game.declarer == 0
    for n in (1, 2):
        d.until(lambda: ref.awaiting is not None)
        d.take(ref.penalize(0, "hidden_card"))
        assert ref.game is game and game.phase != "match_over"
    d.until(lambda: ref.bot is not None)
    events = d.take(ref.penalize(0, "hidden_card"))
    assert "team 1 wins the game" in events[0].line
    assert ref.game is not game and ref.game_index == 1 and not ref.over  # the next game began
    line = [r for r in d.records() if r["type"] == "game"][0]
    assert line["winner"] == 1 and line["levels"] == list(game.levels)
    same_game(replay(line), game)
    assert [m["stage"] for m in d.messages[0]].count("gameOver") == 1
    result = d.finish()
    assert result["type"] == "result" and "forfeit" not in result and sum(result["victoryNum"]) == 4


def test_an_abandoned_deal_then_the_next_deals_beginning() -> None:
    d = Driver(mixed(games=1, seed=2))
    ref = d.ref
    d.until(lambda: ref.awaiting == 1 and ref.game is not None and ref.game.phase == "play" and len(ref.game.history) > 20)
    game = ref.game
    assert game is not None
    hands = [m["handCards"] for m in d.messages[1] if m["stage"] == "beginning"]
    d.take(ref.penalize(0, "opponents_up"))
    if ref.awaiting != 1:  # the ask was cancelled: a reply to it now is a message sent unasked
        assert "ignored a message sent unasked" in d.take(ref.receive(1, {"actIndex": 0}))[0].line
    begun = [m for m in d.messages[1] if m["stage"] == "beginning"]
    assert len(begun) == len(hands) + 1 and begun[-1]["myPos"] == 1
    assert sorted(begun[-1]["handCards"]) == sorted(cards_code(game.dealt[1]))
    result = d.finish()
    assert result["type"] == "result"
    for seat in (0, 1):  # a deal without its episodeOver, then the next beginning; no tribute after it
        stream = d.stream(seat)
        assert re.fullmatch(r"(B(A|t?Tb?K)?(p?P)*p?E?)+GR", stream), stream[:200]
    assert re.search(r"pB[pP]", d.stream(1))
    line = d.records()[0]
    same_game(replay(line), game)
    assert len(line["deals"]) == len(game.deals) + 1  # the abandoned deal is in the record, not in the game's deals


def test_a_forfeit_ends_the_match_and_counts_the_games_not_played() -> None:
    d = Driver(mixed(games=3, seed=6))
    ref = d.ref
    d.until(lambda: ref.game_index == 1 and ref.awaiting == 0 and ref.game is not None and len(ref.game.history) > 5)
    first = d.records()[0]
    game = ref.game
    assert game is not None
    events = d.take(ref.penalize(0, "forfeit", seat=2))
    assert ref.over and ref.awaiting is None and ref.bot is None
    result = ref.result
    assert result is not None and result == d.records()[-1]
    wins = [0] * 4
    for s in (first["winner"], first["winner"] + 2):
        wins[s] += 1
    wins[1] += 2
    wins[3] += 2  # the forfeited game and the one not played
    assert result == {"type": "result", "table": 0, "games": 3, "victoryNum": wins, "draws": [0] * 4,
                      "forfeit": {"team": 0, "seat": 2, "game": 1, "unplayed": 1}}
    line = d.records()[1]
    assert line["type"] == "game" and line["winner"] == 1
    same_game(replay(line), game)
    for seat in (0, 1):
        assert d.messages[seat][-2:] == [{"type": "notify", "stage": "gameOver", "curTimes": 2, "settingTimes": 3},
                                         {"type": "notify", "stage": "gameResult", "victoryNum": wins, "draws": [0] * 4}]
    assert any("forfeits the match" in e.line for e in events if isinstance(e, Log))
    with pytest.raises(gf.InvalidStateError):
        ref.penalize(1, "minus_two")


def test_refused_decisions_change_nothing() -> None:
    ref = mixed(games=1)
    with pytest.raises(gf.InvalidStateError):
        ref.penalize(0, "minus_two")  # before the start
    d = Driver(ref)
    d.until(lambda: ref.awaiting is not None and ref.game is not None and len(ref.game.history) > 3)
    game = ref.game
    assert game is not None
    state = (game.position(), ref.awaiting, ref.bot, len(d.events))
    for team, kind, seat, error in [(2, "minus_two", None, gf.InvalidArgumentError), (0, "nope", None, gf.InvalidArgumentError),
                                    (0, "minus_two", 1, gf.InvalidArgumentError), (True, "forfeit", None, gf.InvalidArgumentError),
                                    (1, 7, None, gf.InvalidArgumentError), (0, "forfeit", 9, gf.InvalidArgumentError)]:
        with pytest.raises(error):
            ref.penalize(team, kind, seat)  # type: ignore[arg-type]
        assert (game.position(), ref.awaiting, ref.bot, len(d.events)) == state and game.penalties == []
    line = stop_and_replay(d)
    assert not any("penalties" in deal for deal in line["deals"])
    with pytest.raises(gf.InvalidStateError):
        ref.penalize(0, "minus_two")  # after the end
    # Under sudden death there are no levels to change: refused by the game.
    sudden = Referee({0: "a"}, bots={1: "greedy", 2: "greedy", 3: "greedy"}, rules=platform_rules(sudden_death=True))
    d = Driver(sudden)
    d.until(lambda: sudden.awaiting == 0)
    with pytest.raises(gf.IllegalMoveError):
        sudden.penalize(1, "opponents_up")
    assert sudden.awaiting == 0 and sudden.game is not None and sudden.game.penalties == []


def test_old_records_still_replay() -> None:
    d = Driver(mixed(games=1, seed=9))
    d.finish()
    line = d.records()[0]
    assert not any("penalties" in deal for deal in line["deals"])
    game = replay(line)
    assert game.phase == "match_over" and game.game_winners == [line["winner"]]
    for seat, code, *_ in line["deals"][0]["actions"]:  # as older readers walk the actions
        assert seat in range(4) and isinstance(code, list)
    bad = json.loads(json.dumps(line))
    bad["deals"][0]["penalties"] = [[len(bad["deals"][0]["actions"]) + 1, 0, "minus_two", 0]]
    with pytest.raises(gf.InvalidArgumentError, match="penalties"):
        replay(bad)


def test_referee_input_lines() -> None:
    from guandan_fast.cli.serve import _lines

    read, write = os.pipe()
    os.write(write, b"penalize 0 1 minus_two\n" + b"x" * 300 + b"\nsecond\n" + b"y" * 250 + b"\nlast")
    os.close(write)
    assert list(_lines(read, 200)) == ["penalize 0 1 minus_two", None, "second", None, "last"]
    os.close(read)


# ---------------------------------------------------------------- over sockets

Hook = Callable[[], Awaitable[bool]]


class HoldingClient:
    """A platform client replying at random; before its act number k it awaits
    `hooks[k]()`, and does not reply when that says the act was cancelled."""

    def __init__(self, url: str, hooks: dict[int, Hook], seed: int = 0) -> None:
        self.url, self.hooks, self.rng = url, hooks, random.Random(seed)
        self.messages: list[dict[str, Any]] = []

    async def run(self) -> list[dict[str, Any]]:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        acts = 0
        async with connect(self.url, ping_interval=None) as ws:
            try:
                async for text in ws:
                    msg = json.loads(text)
                    check(msg)
                    self.messages.append(msg)
                    if msg["type"] != "act":
                        continue
                    hook = self.hooks.get(acts)
                    acts += 1
                    if hook is not None and await hook():
                        continue
                    await ws.send(json.dumps({"actIndex": self.rng.randint(0, msg["indexRange"])}))
            except ConnectionClosed:
                pass
        return self.messages


def test_server_penalize_over_sockets(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from platform_client import start_server, url

    record = tmp_path / "decisions.jsonl"
    answers: list[str] = []

    async def main() -> tuple[Any, list[dict[str, Any]]]:
        server, task, port, log = await start_server(games=2, seed=4, rules=SHORT, bots={1: "greedy", 2: "greedy", 3: "greedy"}, record=record)

        async def from_a_thread() -> bool:  # a thread's decision, waited for in that thread
            answers.append(await asyncio.to_thread(lambda: server.penalize(0, 1, "minus_two").result(10)))
            with pytest.raises(gf.InvalidStateError, match="table 5 is not being played"):
                await asyncio.wrap_future(server.penalize(5, 1, "minus_two"))
            with pytest.raises(gf.InvalidArgumentError, match="kind"):
                await asyncio.wrap_future(server.penalize(0, 1, "nope"))
            return False

        async def decide(team: int, kind: str) -> bool:
            answers.append(await asyncio.wait_for(asyncio.wrap_future(server.penalize(0, team, kind)), 10))
            return True  # the act was cancelled: no reply

        client = HoldingClient(url(port, "me"), {2: from_a_thread, 6: lambda: decide(1, "opponents_up"), 12: lambda: decide(0, "forfeit")})
        messages = await asyncio.wait_for(client.run(), 60)
        await asyncio.wait_for(task, 10)
        with pytest.raises(gf.InvalidStateError, match="not serving"):
            server.penalize(0, 1, "minus_two").result(1)
        return server, messages

    server, messages = asyncio.run(main())
    assert [re.search(r"decision (\w+)", a).group(1) for a in answers] == ["minus_two", "opponents_up", "forfeit"]  # type: ignore[union-attr]
    lines = read_record(record)
    assert [line["type"] for line in lines] == ["game", "result"]
    line, result = lines
    assert result["forfeit"] == {"team": 0, "seat": 0, "game": 0, "unplayed": 1} and result["victoryNum"] == [0, 2, 0, 2]
    assert line["winner"] == 1
    decided = [(p[1], p[2]) for deal in line["deals"] for p in deal.get("penalties", [])]
    assert decided == [(1, "minus_two"), (1, "opponents_up"), (0, "forfeit")]
    game = replay(line)
    assert [p["kind"] for p in game.penalties] == ["minus_two", "opponents_up", "forfeit"] and game.game_winners == [1]
    # What the client saw: as many beginnings as recorded deals, the abandoned one without its episodeOver.
    stages = [m["stage"] for m in messages]
    assert stages.count("beginning") == len(line["deals"]) and stages.count("episodeOver") == len(line["deals"]) - 2
    assert stages[-2:] == ["gameOver", "gameResult"] and messages[-1]["victoryNum"] == [0, 2, 0, 2]
    assert server.results == [result]


def test_serve_referee_input(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from platform_faults import CLI

    record = tmp_path / "cli.jsonl"
    proc = subprocess.Popen([*CLI, "serve", "--port", "0", "--bots", "1:greedy,2:greedy,3:greedy", "--games", "2", "--max-deals", "4",
                             "--record", str(record), "--referee-input"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        port = listening_port(proc)

        async def client() -> list[dict[str, Any]]:
            async def decide() -> bool:
                assert proc.stdin is not None
                proc.stdin.write("hello\npenalize 7 1 minus_two\n" + "z" * 300 + "\n\npenalize 0 1 forfeit 3\n")
                proc.stdin.flush()
                return True

            return await asyncio.wait_for(HoldingClient(f"ws://127.0.0.1:{port}/game/me", {1: decide}).run(), 30)

        messages = asyncio.run(client())
        stdout, stderr = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0, stderr
    answers = [line for line in stdout.splitlines() if line.startswith("decision")]
    assert len(answers) == 4, stdout  # each a line of its own, whatever the server logs meanwhile
    assert answers[0].startswith("decision refused: not a decision: type penalize TABLE TEAM KIND [SEAT]")
    assert answers[1] == "decision refused: table 7 is not being played (table 0 is)"
    assert answers[2] == "decision refused: a line over 200 bytes"
    assert re.fullmatch(r"decision: table 0: referee's decision forfeit against team 1 \(seat 3\) in game 1, deal \d+, after \d+ actions: "
                        r"team 1 forfeits the match", answers[3]), answers[3]
    assert messages[-1]["stage"] == "gameResult" and messages[-1]["victoryNum"] == [2, 0, 2, 0]
    line, result = read_record(record)
    assert result["forfeit"] == {"team": 1, "seat": 3, "game": 0, "unplayed": 1}
    assert replay(line).penalties[0]["kind"] == "forfeit"

