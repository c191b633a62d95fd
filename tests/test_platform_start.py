"""Platform matches started from other levels (``serve --start-levels``):
the first deal played at the start's level with the start shown to the
clients, the record carrying the start and replaying to the referee's game,
a pass of A under the platform's rules, the deal limit telling a pass from a
game decided on levels, and starts the rules cannot take refused before
anything starts. With ``after`` (``--start-after``) the first deal begins
with the tribute that finishing order gives, paid and returned by clients
and bots alike."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any, Callable

import pytest

import guandan_fast as gf
from guandan_fast.platform import Client, ProtocolError, Referee, action_code, action_from_code, platform_rules, read_record, replay
from guandan_fast.platform.rules import check_start
from test_platform_referee import Table

FROM_A = {"levels": ("A", "2"), "declarer": 0}


def dominant(team: int) -> Callable[[int, dict[str, Any]], Any]:
    """`team`'s seats always play (the last action listed), the others pass
    whenever they may (the first, PASS when following): `team` finishes first
    and second."""
    return lambda seat, act: {"actIndex": act["indexRange"] if seat % 2 == team else 0}


def greedy_clients_play(*, games: int, seed: int, rules: gf.Rules, start: dict[str, Any], record: Path) -> list[Client]:
    """A served match from `start` of greedy bots on seats 1 and 3 and two
    greedy `Client`s told the start, recorded to `record`: the clients, each
    with its result."""
    from platform_client import start_server, url

    async def main() -> list[Client]:
        server, task, port, log = await start_server(games=games, seed=seed, bots={1: "greedy", 3: "greedy"}, rules=rules,
                                                     start=start, record=record)
        clients = [Client(url(port, f"c{i}"), "greedy", rules=rules, start=start, keep_decisions=True) for i in range(2)]
        await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 60)
        await asyncio.wait_for(task, 10)
        return clients

    clients = asyncio.run(main())
    assert all(c.result is not None for c in clients)
    return clients


def games_of(table: Table) -> list[dict[str, Any]]:
    return [line for line in table.records() if line["type"] == "game"]


def test_a_match_started_at_a_plays_its_first_deal_at_a_and_a_double_passes_it() -> None:
    ref = Referee({s: f"p{s}" for s in range(4)}, games=2, seed=7, start=FROM_A)
    table = Table(ref, dominant(0))
    result = table.play()
    assert result["victoryNum"] == [2, 0, 2, 0]
    assert table.logs()[1] == "table 0: every game starts at levels A-2, failures at A 0-0; team 0 declares its first deal"
    lines = games_of(table)
    for g, line in enumerate(lines):
        assert line["seed"] == 7 + g and line["start"] == {"levels": ["A", "2"], "declarer": 0, "a_fails": [0, 0]}
        # Team 0 finished first and second at its own A: the game is over after one deal, passed, not on levels.
        assert [d["level"] for d in line["deals"]] == ["A"] and line["winner"] == 0 and "ending" not in line
        game = replay(line)
        (deal,) = game.deals
        assert deal["finish_order"][0] % 2 == deal["finish_order"][1] % 2 == 0 and not deal["a_failed"]
        assert game.game_winners == [0] and game.levels == ("A", "2")
        # The same hands and leader as the game of that seed from 2, and no tribute.
        plain = gf.Game(platform_rules(), seed=line["seed"])
        assert game.dealt == plain.dealt and game.leader == plain.leader and game.tribute is None
    assert replay(lines[-1]).position() == ref.game.position()  # type: ignore[union-attr]
    # The clients see the start from the first deal on.
    for seat, msgs in table.messages.items():
        own, other = ("A", "2") if seat % 2 == 0 else ("2", "A")
        acts = [m for m in msgs if m["type"] == "act"]
        assert acts and {(m["selfRank"], m["oppoRank"], m["curRank"]) for m in acts} == {(own, other, "A")}
        assert [m["curRank"] for m in msgs if m["stage"] == "episodeOver"] == ["A", "A"]


def test_a_start_with_a_failure_drops_at_once_and_the_game_replays_deal_by_deal() -> None:
    ref = Referee({s: f"p{s}" for s in range(4)}, seed=2, start={"levels": ("A", "2"), "a_fails": (1, 0)})
    table = Table(ref, dominant(1))
    table.play()
    (line,) = games_of(table)
    assert line["start"] == {"levels": ["A", "2"], "declarer": 0, "a_fails": [1, 0]}
    game = replay(line)
    first = game.deals[0]
    assert first["level"] == "A" and first["a_failed"] and first["a_reset"] and first["levels"] == ("2", "5")
    assert [d["level"] for d in line["deals"]] == ["A", "5", "8", "J", "A"] and line["winner"] == 1
    assert game.position() == ref.game.position() and game.actions == ref.game.actions  # type: ignore[union-attr]
    assert game.deals == ref.game.deals  # type: ignore[union-attr]


def test_equal_levels_have_no_declarer_in_the_first_deal() -> None:
    # Both at A: the first deal is played at A but is nobody's attempt; its winners declare the next.
    ref = Referee({s: f"p{s}" for s in range(4)}, seed=4, start={"levels": ("a", "A")})
    assert ref.start_state == {"levels": ["A", "A"], "declarer": None, "a_fails": [0, 0]}
    table = Table(ref, dominant(0))
    table.play()
    (line,) = games_of(table)
    first, second = replay(line).deals
    assert first["level"] == second["level"] == "A" and first["game_winner"] is None and second["game_winner"] == 0
    assert check_start({"levels": ("10", "k")}, platform_rules()) == {"levels": ["T", "K"], "declarer": 1, "a_fails": [0, 0]}


@pytest.mark.parametrize("team, ending", [(0, None), (1, "levels")])
def test_single_deals_at_a_say_whether_a_was_passed(team: int, ending: Any) -> None:
    ref = Referee({s: f"p{s}" for s in range(4)}, games=3, seed=20, rules=platform_rules(max_deals=1), start={"levels": ("A", "2")})
    table = Table(ref, dominant(team))
    table.play()
    for line in games_of(table):
        (deal,) = replay(line).deals
        # At the deal limit team 0 wins on levels when it fails at A (still at A, team 1 at 5 at most): only `ending` tells.
        assert line["winner"] == 0 and line.get("ending") == ending and deal["a_failed"] == (ending is not None)
        assert line["deals"][0]["level"] == "A" and deal["finish_order"][0] % 2 == team


@pytest.mark.parametrize("start, text", [
    ({"levels": ("Z", "2")}, "start levels ('Z', '2'): levels[0] must be a rank"),
    ({"levels": ("A", "2"), "declarer": 2}, "start declarer 2: declarer must be a team 0, 1 or None, not 2"),
    ({"levels": ("A", "2"), "a_fails": (2, 0)}, "start a_fails (2, 0): A failures must be below a_max_attempts (2), got 2"),
    ({"declarer": 0}, "start must give the levels"),
    ({"levels": ("A", "2"), "leader": 1}, "not 'leader'"),
    ("A,2", "not 'A,2'"),
    ({"levels": ("A", "2"), "after": (0, 2, 2, 3)}, "start after (0, 2, 2, 3): after must be the seats 0..3 each once, not [0, 2, 2, 3]"),
    ({"levels": ("A", "2"), "after": [0, 2, 1]}, "start after [0, 2, 1]: after must be the seats 0..3 each once, not 3 items"),
    ({"levels": ("A", "2"), "declarer": 0, "after": [1, 3, 0, 2]}, "seat 1 went out first, so its team 1 declares, not team 0"),
    ({"after": [0, 2, 1, 3]}, "start must give the levels"),
])
def test_bad_starts_are_refused_before_anything_starts(start: Any, text: str, tmp_path: Path) -> None:
    with pytest.raises(gf.InvalidArgumentError, match=re.escape(text)):
        Referee({s: "x" for s in range(4)}, start=start)
    with pytest.raises(gf.InvalidArgumentError, match=re.escape(text)):
        Client("ws://127.0.0.1:1/game/x", "greedy", start=start)
    pytest.importorskip("websockets")
    from guandan_fast.platform import Server

    record = tmp_path / "match.jsonl"
    with pytest.raises(gf.InvalidArgumentError, match=re.escape(text)):
        Server(port=0, record=record, start=start, log=lambda line: None)
    assert not record.exists()


def test_what_the_rules_allow_decides_the_failures_a_start_may_hold() -> None:
    rules = platform_rules(a_max_attempts=3)
    ref = Referee({s: "x" for s in range(4)}, rules=rules, start={"levels": ("2", "A"), "a_fails": [0, 2]})
    assert ref.start_state == {"levels": ["2", "A"], "declarer": 1, "a_fails": [0, 2]}
    with pytest.raises(gf.InvalidArgumentError, match="sudden death"):
        Referee({s: "x" for s in range(4)}, rules=platform_rules(sudden_death=True), start=FROM_A)


def test_clients_told_the_start_play_it_and_the_record_replays(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    rules = platform_rules(max_deals=2)
    record = tmp_path / "match.jsonl"

    clients = greedy_clients_play(games=2, seed=5, rules=rules, start=FROM_A, record=record)
    lines = read_record(record)
    games = [line for line in lines if line["type"] == "game"]
    assert len(games) == 2 and lines[-1]["type"] == "result"
    for line in games:
        assert line["start"] == {"levels": ["A", "2"], "declarer": 0, "a_fails": [0, 0]} and line["deals"][0]["level"] == "A"
        game = replay(line)
        assert game.phase == "match_over" and game.game_winners == [line["winner"]] and list(game.levels) == line["levels"]
        # Team 1 reaches 5 at most in two deals: a deal at A is team 0's attempt, passed unless it failed.
        last = game.deals[-1]
        assert line.get("ending") == (None if last["level"] == "A" and not last["a_failed"] else "levels")
    # The client's first observation of each game holds the start.
    first = clients[0].decisions[0][0]
    assert (first.levels, first.declarer, first.a_fails, first.level) == (("A", "2"), 0, (0, 0), "A")


def test_a_client_not_told_the_start_says_the_levels_differ() -> None:
    pytest.importorskip("websockets")
    from platform_client import start_server, url

    async def main() -> BaseException | None:
        server, task, port, log = await start_server(seed=1, bots={1: "greedy", 2: "greedy", 3: "greedy"}, start=FROM_A)
        client = Client(url(port, "c"), "greedy")
        (out,) = await asyncio.wait_for(asyncio.gather(client.run(), return_exceptions=True), 30)
        await asyncio.wait_for(task, 10)
        return out if isinstance(out, BaseException) else None

    error = asyncio.run(main())
    assert isinstance(error, ProtocolError) and "the server's levels (self A, other 2, played A)" in str(error)


# ---------------------------------------------------------------- a start after a finishing order

AFTER_DOUBLE = {"levels": ("A", "2"), "after": (0, 2, 1, 3)}


def phases(line: dict[str, Any]) -> list[tuple[str, int]]:
    """(phase, seat to act) before each action of the first deal of a record line, its game rebuilt from the line's start."""
    game = replay({**line, "deals": []})
    out = []
    for seat, code, *_ in line["deals"][0]["actions"]:
        out.append((game.phase, seat))
        game.apply(action_from_code(code, line["deals"][0]["level"], game.rules))
    return out


@pytest.mark.parametrize("start, kind, givers", [
    (AFTER_DOUBLE, "double", [1, 3]),
    ({"levels": ("A", "2"), "after": [1, 0, 2, 3]}, "single", [3]),
])
def test_a_start_after_a_finish_begins_every_game_with_its_tribute(start: dict[str, Any], kind: str, givers: list[int]) -> None:
    ref = Referee({0: "p0", 2: "p2"}, bots={1: "greedy", 3: "greedy"}, games=6, seed=11, rules=platform_rules(max_deals=1), start=start)
    table = Table(ref, dominant(0))
    table.play()
    after = list(start["after"])
    declarer = after[0] % 2
    assert table.logs()[1] == (f"table 0: every game starts at levels A-2, failures at A 0-0; team {declarer} declares its first deal, "
                               f"after a deal finished in order {'-'.join(map(str, after))} (tribute first)")
    kinds = []
    for line in games_of(table):
        assert line["start"] == {"levels": ["A", "2"], "declarer": declarer, "a_fails": [0, 0], "after": after}
        assert len(line["deals"]) == 1 and line["deals"][0]["level"] == ("A" if declarer == 0 else "2")
        game = replay(line)
        (deal,) = game.deals
        assert game.phase == "match_over" and deal["deal_number"] == 0
        # Dealt as the game of that seed from 2; tribute as the engine plans it after that order.
        first = gf.Game(platform_rules(max_deals=1), seed=line["seed"], levels=("A", "2"), declarer=declarer, after=after)
        assert first.dealt == gf.Game(platform_rules(), seed=line["seed"]).dealt
        t = first.tribute
        assert t is not None and t["kind"] in (kind, "resisted")
        kinds.append(t["kind"])
        steps = phases(line)
        if t["kind"] == "resisted":
            assert steps[0] == ("play", after[0])
        else:
            paid = [s for p, s in steps if p == "tribute"]
            returned = [s for p, s in steps if p == "return"]
            assert paid == givers and sorted(returned) == sorted(after[:len(givers)])
            assert steps[len(paid) + len(returned)][0] == "play"
    assert kind in kinds
    last = games_of(table)[-1]
    assert replay(last).actions == ref.game.actions and replay(last).position() == ref.game.position()  # type: ignore[union-attr]
    # Client seat 0 is told the tributes and the returns, and asked for its own return when it receives one (after a 双上).
    stages = [(m["stage"], m["type"]) for m in table.messages[0]]
    assert ("tribute", "notify") in stages and ("back", "notify") in stages
    assert (("back", "act") in stages) == (kind == "double")


def test_clients_pay_and_return_the_tribute_of_a_start_after_a_finish(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    rules = platform_rules(max_deals=1)
    record = tmp_path / "match.jsonl"
    # Clients on seats 0 and 2 finished last: they pay (double) tribute to the bots on 1 and 3.
    start = {"levels": ("2", "A"), "after": [1, 3, 0, 2]}

    clients = greedy_clients_play(games=3, seed=3, rules=rules, start=start, record=record)
    games = [line for line in read_record(record) if line["type"] == "game"]
    assert len(games) == 3
    paid = 0
    for line in games:
        assert line["start"] == {"levels": ["2", "A"], "declarer": 1, "a_fails": [0, 0], "after": [1, 3, 0, 2]}
        assert replay(line).phase == "match_over" and len(line["deals"]) == 1
        paid += [p for p, _ in phases(line)].count("tribute")
    tributes = [(o, a) for c in clients for o, a in c.decisions if o.phase == "tribute"]
    assert paid and len(tributes) == paid and all(isinstance(a, gf.Tribute) for _, a in tributes)
    first = clients[0].decisions[0][0]
    assert (first.levels, first.declarer, first.level) == (("2", "A"), 1, "A")


def test_a_client_not_told_the_after_of_the_start_stops_at_the_tribute() -> None:
    pytest.importorskip("websockets")
    from platform_client import start_server, url

    async def main() -> BaseException | None:
        server, task, port, log = await start_server(seed=1, bots={1: "greedy", 2: "greedy", 3: "greedy"},
                                                     start={"levels": ("2", "A"), "after": [1, 3, 0, 2]})
        client = Client(url(port, "c"), "greedy", start={"levels": ("2", "A"), "declarer": 1})
        (out,) = await asyncio.wait_for(asyncio.gather(client.run(), return_exceptions=True), 30)
        await asyncio.wait_for(task, 10)
        return out if isinstance(out, BaseException) else None

    error = asyncio.run(main())
    assert isinstance(error, ProtocolError) and "tribute/act" in str(error)


def test_a_start_after_served_and_connected_replays_from_the_record(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from platform_faults import serve_and_connect

    record = tmp_path / "after.jsonl"
    stdout, _ = serve_and_connect(3, 9, record, ["--start-levels", "A,2", "--start-after", "0,2,1,3", "--max-deals", "1"])
    assert "team 0 declares its first deal, after a deal finished in order 0-2-1-3 (tribute first)" in stdout
    games = [line for line in read_record(record) if line["type"] == "game"]
    assert len(games) == 3
    through = 0
    for line in games:
        assert line["start"] == {"levels": ["A", "2"], "declarer": 0, "a_fails": [0, 0], "after": [0, 2, 1, 3]}
        assert len(line["deals"]) == 1 and line["deals"][0]["level"] == "A"
        steps = [p for p, _ in phases(line)]
        through += steps[:4] == ["tribute", "tribute", "return", "return"]
        game = replay(line)
        assert game.phase == "match_over" and len(game.actions) == len(line["deals"][0]["actions"])
        codes = [action_code(a) for a in game.actions]
        assert codes == [code for _, code, *_ in line["deals"][0]["actions"]]
    assert through  # a deal with both tributes paid and returned (not all resisted)


@pytest.mark.parametrize("args, text", [
    (["--start-levels", "A,2", "--start-after", "0,2,2,3"], "start after [0, 2, 2, 3]: after must be the seats 0..3 each once, not [0, 2, 2, 3]"),
    (["--start-levels", "A,2", "--start-after", "0,2,1"], "after must be the seats 0..3 each once, not 3 items"),
    (["--start-levels", "A,2", "--start-after", "0,2,1,x"], "expected a finishing order"),
    (["--start-levels", "A,2", "--start-declarer", "0", "--start-after", "1,3,0,2"], "seat 1 went out first, so its team 1 declares, not team 0"),
    (["--start-after", "0,2,1,3"], "need --start-levels"),
])
def test_bad_start_afters_end_serve_before_it_listens(args: list[str], text: str, tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    import subprocess

    from platform_faults import CLI

    record = tmp_path / "never.jsonl"
    out = subprocess.run([*CLI, "serve", "--port", "0", "--record", str(record), *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == "", out
    assert out.stderr.startswith("error: ") and text in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert not record.exists()
    out = subprocess.run([*CLI, "connect", "ws://127.0.0.1:1/game/x", *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.startswith("error: ") and text in out.stderr and out.stderr.count("\n") == 1, out.stderr
