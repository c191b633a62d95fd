"""Whole matches of the platform server over real loopback sockets: every
message checked by the protocol test client, the game it saw equal to the
game the server's record replays to."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

pytest.importorskip("websockets")

import guandan_fast as gf  # noqa: E402
from guandan_fast.platform import platform_rules, read_record, replay  # noqa: E402
from guandan_fast.platform.codes import action_from_code, cards_code  # noqa: E402
from platform_client import ProtocolClient, run_all, start_server, url  # noqa: E402


def check_against_record(clients: list[ProtocolClient], line: dict, first_deal: int = 0) -> None:
    """What each client saw of the game equals the record's game, replayed step by step."""
    rules = platform_rules()
    game = gf.Game(rules, seed=line["seed"])
    deals = line["deals"]
    seen = {c.seat: c.deals()[first_deal:first_deal + len(deals)] for c in clients}
    for i, deal in enumerate(deals):
        assert deal["level"] == game.level
        for seat, s in seen.items():
            assert s[i]["hand"] == sorted(cards_code(game.dealt[seat]))
            assert s[i]["actions"] == [a[:2] for a in deal["actions"]]
            assert s[i]["level"] == game.level
        for seat, code in deal["actions"]:
            assert game.current_player == seat
            game.apply(action_from_code(code, deal["level"], rules))
        for seat, s in seen.items():
            assert s[i]["order"] == game.finish_order
        if i + 1 < len(deals):
            game.next_deal()
    assert replay(line).actions == game.actions


def test_four_protocol_clients_play_a_match(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"

    async def main() -> list[ProtocolClient]:
        server, task, port, log = await start_server(games=2, seed=11, record=record)
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(4)]
        await run_all(clients)
        results = await asyncio.wait_for(task, 5)
        assert results[0]["type"] == "result"
        return clients

    clients = asyncio.run(main())
    assert [c.seat for c in clients] == [0, 1, 2, 3]  # seats by order of connection
    lines = read_record(record)
    games = [l for l in lines if l["type"] == "game"]
    assert len(games) == 2 and lines[-1]["type"] == "result"
    offset = 0
    for line in games:
        check_against_record(clients, line, offset)
        offset += len(line["deals"])
        g = replay(line)
        assert g.phase == "match_over" and g.game_winners == [line["winner"]]
    for c in clients:
        stages = [(m["stage"], m["type"]) for m in c.messages]
        assert stages.count(("gameOver", "notify")) == 2 and stages[-1] == ("gameResult", "notify")
        assert [m["curTimes"] for m in c.messages if m["stage"] == "gameOver"] == [1, 2]
        wins = c.messages[-1]["victoryNum"]
        assert sum(wins) == 4 and wins[0] == wins[2] and wins[1] == wins[3]
    kinds = {m["stage"] for c in clients for m in c.messages}
    assert {"tribute", "back", "episodeOver"} <= kinds
    # The order of the messages of a deal, a game and the match, as clients expect it.
    token = {("beginning", "notify"): "B", ("anti-tribute", "notify"): "A", ("tribute", "act"): "t", ("tribute", "notify"): "T",
             ("back", "act"): "b", ("back", "notify"): "K", ("play", "act"): "p", ("play", "notify"): "P",
             ("episodeOver", "notify"): "E", ("gameOver", "notify"): "G", ("gameResult", "notify"): "R"}
    for c in clients:
        stream = "".join(token[(m["stage"], m["type"])] for m in c.messages)
        assert re.fullmatch(r"((B(A|t?Tb?K)?(p?P)+E)+G)+R", stream), stream[:200]


def test_two_protocol_clients_and_two_bots(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"

    async def main() -> list[ProtocolClient]:
        server, task, port, log = await start_server(games=1, seed=5, bots={1: "mc:20", 3: "greedy"}, record=record)
        clients = [ProtocolClient(url(port, f"p{i}"), seed=10 + i) for i in range(2)]
        await run_all(clients)
        await asyncio.wait_for(task, 5)
        return clients

    clients = asyncio.run(main())
    assert [c.seat for c in clients] == [0, 2]
    line = read_record(record)[0]
    assert line["seats"]["1"] == "bot mc:20" and line["seats"]["3"] == "bot greedy"
    check_against_record(clients, line)
    # The bots decide as the built-in policies do in the replayed game.
    game = gf.Game(platform_rules(), seed=line["seed"])
    k = {1: 0, 3: 0}
    for i, deal in enumerate(line["deals"]):
        for seat, code in deal["actions"]:
            action = action_from_code(code, deal["level"], game.rules)
            if seat in k:
                k[seat] += 1
                policy = line["seats"][str(seat)].split()[1]
                assert gf.policy_action(game, policy, seed=gf.bots.decision_seed(5 + seat, k[seat])) == action
            game.apply(action)
        if i + 1 < len(line["deals"]):
            game.next_deal()


def test_the_platform_preset_and_its_draw_rule(tmp_path: Path) -> None:
    rules = platform_rules()
    assert rules.a_pass == "double_down" and rules.a_max_attempts == 2 and rules.a_fail_reset == "2"
    # Every deal's winner jumps to A; one failure at A drops a team: the first drop draws the game.
    fast = platform_rules(upgrade={2: 12, 3: 12, 4: 12}, a_max_attempts=1)
    record = tmp_path / "draw.jsonl"

    async def main() -> list[ProtocolClient]:
        server, task, port, log = await start_server(games=1, seed=0, rules=fast, draw_drops=1, record=record)
        clients = [ProtocolClient(url(port, f"p{i}"), seed=i) for i in range(4)]
        await run_all(clients)
        await asyncio.wait_for(task, 5)
        return clients

    clients = asyncio.run(main())
    line, result = read_record(record)
    assert line["winner"] is None and line["draw"] == "1 drops from A"
    assert result["draws"] == [1, 1, 1, 1] and result["victoryNum"] == [0, 0, 0, 0]
    assert clients[0].messages[-1] == {"type": "notify", "stage": "gameResult", "victoryNum": [0, 0, 0, 0], "draws": [1, 1, 1, 1]}
    deals = replay(line).deals
    assert deals[-1]["a_reset"] and not any(d["a_reset"] for d in deals[:-1])  # stopped at the first drop


def test_importing_the_package_does_not_import_websockets() -> None:
    import subprocess
    import sys

    code = "import sys, guandan_fast, guandan_fast.platform; print('websockets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"
