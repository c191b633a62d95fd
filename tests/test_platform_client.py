"""guandan_fast's own `Client` against the platform server: its observation
built from the messages alone is the engine's observation of the server's
game, and its Monte Carlo decisions are the engine's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import guandan_fast as gf  # noqa: E402
from guandan_fast.bots import decision_seed  # noqa: E402
from guandan_fast.platform import Client, ProtocolError, platform_rules, read_record  # noqa: E402
from guandan_fast.platform.codes import action_from_code  # noqa: E402
from platform_client import ProtocolClient, run_all, start_server, url  # noqa: E402


def play(tmp_path: Path, bot: Any, seed: int, games: int = 1, bots: dict[int, str] | None = None) -> tuple[Client, list[dict]]:
    record = tmp_path / "match.jsonl"

    async def main() -> Client:
        server, task, port, log = await start_server(games=games, seed=seed, record=record, bots=bots or {})
        client = Client(url(port, "gf"), bot, keep_decisions=True)
        others = [ProtocolClient(url(port, f"p{i}"), seed=seed + i) for i in range(3 - len(bots or {}))]
        await asyncio.wait_for(asyncio.gather(client.run(), *(c.run() for c in others)), 30)
        await asyncio.wait_for(task, 5)
        return client

    return asyncio.run(main()), read_record(record)


def decision_points(line: dict, seat: int) -> list[gf.Game]:
    """The game at every decision of `seat`, replayed from the record."""
    rules = platform_rules()
    game = gf.Game(rules, seed=line["seed"])
    out = []
    for i, deal in enumerate(line["deals"]):
        for s, code in deal["actions"]:
            if s == seat:
                out.append(game.clone())
            game.apply(action_from_code(code, deal["level"], rules))
        if i + 1 < len(line["deals"]):
            game.next_deal()
    return out


def test_mc_decisions_from_messages_are_the_engines(tmp_path: Path) -> None:
    client, lines = play(tmp_path, "mc:30", seed=7, games=2)
    assert client.seat == 0 and client.result is not None
    games = [g for line in lines if line["type"] == "game" for g in decision_points(line, 0)]
    assert len(games) == len(client.decisions) > 50
    phases = set()
    for k, (game, (obs, action)) in enumerate(zip(games, client.decisions), start=1):
        # Every state, a double-down's second giver and receiver included (docs/rules.md §6).
        assert obs == game.observation(0), (k, game.phase)  # the whole view of the seat
        phases.add((game.phase, None if game.tribute is None else game.tribute["kind"]))
        assert gf.policy_action(game, "mc:30", seed=decision_seed(0, k)) == action, k
    assert ("play", None) in phases and ("return", "double") in phases, phases


def test_bot_objects_and_callables_connect(tmp_path: Path) -> None:
    seen: list[int] = []

    def first(obs: gf.Observation, legal: list) -> Any:
        seen.append(len(legal))
        return legal[-1]

    for bot in (gf.GreedyBot(), gf.MCBot(10, seed=3), first):
        client, lines = play(tmp_path, bot, seed=3, bots={2: "greedy"})
        assert client.result is not None and client.result["stage"] == "gameResult"
        for game, (obs, action) in zip(decision_points(lines[-2], 0), client.decisions):
            if game.phase == "play":
                assert obs == game.observation(0)
    assert seen and all(n >= 1 for n in seen)


def test_the_client_refuses_what_the_protocol_does_not_hold() -> None:
    client = Client("ws://127.0.0.1:1/game/x", "greedy")
    with pytest.raises(ProtocolError, match="no message"):
        client.handle({"type": "notify", "stage": "nonsense"})
    with pytest.raises(ProtocolError, match="lacks myPos"):
        client.handle({"type": "notify", "stage": "beginning", "handCards": []})
    with pytest.raises(TypeError):
        Client("ws://127.0.0.1:1/game/x", 42)
    with pytest.raises(gf.InvalidArgumentError):
        Client("ws://127.0.0.1:1/game/x", "no-such-policy")


def test_observations_from_public_information_are_checked() -> None:
    rules = platform_rules()
    base = dict(seat=0, rules=rules, levels=("2", "2"), a_fails=(0, 0), declarer=None, phase="play", current=0,
                hand=gf.deal(1)[0], sizes=[27, 27, 27, 27], top=None, finish=[], history=[], prev_finish=None, resisted=False)
    obs = gf._core._observation_from_public(**base)
    assert obs == gf.Game(rules, seed=1, hands=gf.deal(1), leader=0).observation(0)
    assert gf.policy_action(obs, "greedy") in gf.Game(rules, seed=1, hands=gf.deal(1), leader=0).legal_actions()
    bad = [
        (dict(seat=7), gf.InvalidArgumentError),
        (dict(phase="lunch"), gf.InvalidArgumentError),
        (dict(sizes=[27, 27]), gf.InvalidArgumentError),
        (dict(history=[(1, "not an action")]), gf.InvalidArgumentError),
        (dict(history=[(1, gf.Tribute("2s"))], prev_finish=[0, 1, 2, 3]), gf.InvalidStateError),  # seat 3 pays, not 1
        (dict(sizes=[27, 27, 27, 26]), gf.InvalidStateError),  # the cards do not add up
        (dict(history=[(1, gf.Tribute("2s"))]), gf.InvalidStateError),  # no tribute in a game's first deal
    ]
    for change, error in bad:
        with pytest.raises(error):
            gf._core._observation_from_public(**{**base, **change})
    other = gf._core._observation_from_public(**{**base, "current": 1, "hand": gf.deal(1)[0]})
    with pytest.raises(gf.IllegalMoveError, match="not to move"):
        gf.policy_action(other, "greedy")
    with pytest.raises(gf.InvalidArgumentError, match="a Game or an Observation"):
        gf.policy_action("not a game", "greedy")  # type: ignore[arg-type]
