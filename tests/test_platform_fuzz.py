"""The platform protocol's parsers on both sides, fuzzed (Hypothesis).

Client side: sequences of messages drawn from the schema — real messages of
refereed matches with fields replaced by other fields' values, arbitrary
JSON or nothing — and raw text and bytes, fed to a fresh `Client`: only
`ProtocolError` may escape. Server side: arbitrary frames (text, bytes,
JSON objects with any ``actIndex``) at every decision of a `Referee`: it
only logs and waits, or moves on; and raw bytes after a websocket handshake
leave the server refereeing its next table. Every size is bounded (so no
example runs long); the runs are derandomized, ``-m slow`` runs more.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import guandan_fast as gf
from guandan_fast.platform import Ask, Client, Log, ProtocolError, Referee, Send, platform_rules
from guandan_fast.platform import messages as m
from guandan_fast.platform.transport import printable

FAST = settings(max_examples=150, derandomize=True, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(FAST, max_examples=600)
RULES = platform_rules(sudden_death=True)


def harvest() -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Real messages sent to seat 0 in a few refereed matches, by (stage, type)."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for seed in range(6):
        ref = Referee({0: "a", 1: "b", 2: "c", 3: "d"}, rules=platform_rules(), seed=seed, games=1)
        rng = random.Random(seed)
        events = ref.start()
        for _ in range(3000):
            if ref.over:
                break
            for e in events:
                if isinstance(e, Send) and e.seat == 0:
                    out.setdefault((e.message["stage"], e.message["type"]), []).append(e.message)
            act = [e for e in events if isinstance(e, Ask)][-1].message
            events = ref.receive(ref.awaiting, {"actIndex": rng.randint(0, act["indexRange"])})
    return out


REAL = harvest()
VALUES = sorted({json.dumps(v) for msgs in REAL.values() for msg in msgs[:20] for v in msg.values()})
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)


@st.composite
def message(draw: Any) -> dict[str, Any]:
    """A real message of the schema, some of its fields changed."""
    key = draw(st.sampled_from(sorted(REAL)))
    msg = dict(draw(st.sampled_from(REAL[key][:40])))
    for f in draw(st.lists(st.sampled_from(sorted(msg)), max_size=3)):
        change = draw(st.integers(0, 2))
        if change == 0:
            msg.pop(f, None)
        else:
            msg[f] = json.loads(draw(st.sampled_from(VALUES))) if change == 1 else draw(JSON)
    return msg


def first_legal(obs: gf.Observation, legal: list[Any]) -> Any:
    return legal[0]


def feed(client: Client, frame: object) -> None:
    """One frame through the client's parser: only `ProtocolError` may come out."""
    try:
        client.handle(m.decode(frame))
    except ProtocolError:
        pass


def beginning() -> str:
    return json.dumps(REAL[("beginning", "notify")][0])


@pytest.mark.parametrize("config", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)])
def test_the_client_takes_any_messages_with_only_protocol_errors(config: settings) -> None:
    @config
    @given(st.booleans(), st.lists(message(), min_size=1, max_size=6))
    def run(begin: bool, msgs: list[dict[str, Any]]) -> None:
        client = Client("ws://127.0.0.1:1/game/fuzz", first_legal, rules=platform_rules())
        if begin:
            feed(client, beginning())
        for msg in msgs:
            feed(client, json.dumps(msg))

    run()


@pytest.mark.parametrize("config", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)])
def test_the_client_takes_any_text_or_bytes_with_only_protocol_errors(config: settings) -> None:
    @config
    @given(st.lists(st.text(max_size=200) | st.binary(max_size=200) | JSON.map(json.dumps), min_size=1, max_size=4))
    def run(frames: list[Any]) -> None:
        client = Client("ws://127.0.0.1:1/game/fuzz", first_legal)
        feed(client, beginning())
        for frame in frames:
            feed(client, frame)

    run()


FRAMES = (
    st.text(max_size=100) | st.binary(max_size=100) | JSON | JSON.map(json.dumps)
    | st.integers(-(2**70), 2**70).map(lambda k: json.dumps({"actIndex": k}))
    | st.dictionaries(st.just("actIndex"), JSON, min_size=1)
)


@pytest.mark.parametrize("config", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)])
def test_the_referee_takes_any_frames_and_only_logs_or_moves_on(config: settings) -> None:
    @config
    @given(st.integers(0, 2**16), st.lists(FRAMES, min_size=1, max_size=30))
    def run(seed: int, frames: list[Any]) -> None:
        ref = Referee({0: "fuzz", 2: "other"}, bots={1: "random", 3: "random"}, rules=RULES, seed=seed)
        events = ref.start()
        for frame in frames:
            while ref.bot is not None:
                events = ref.play_bot()
            if ref.over:
                break
            seat = ref.awaiting
            assert seat is not None
            events = ref.receive(seat, frame)
            if any(isinstance(e, Log) and "invalid reply" in e.line for e in events):
                assert ref.awaiting == seat and len(events) == 1  # logged, and still waiting
            for e in events:
                if isinstance(e, Log):
                    assert printable(e.line, 10**6) == e.line  # nothing unprintable reaches the log
            ref.unasked(2 - seat, frame)

    run()


def test_raw_bytes_after_a_handshake_leave_the_server_refereeing() -> None:
    pytest.importorskip("websockets")
    from platform_client import ProtocolClient, run_all, start_server, url
    from platform_faults import raw_websocket

    rng = random.Random(5)
    junk = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) for _ in range(60)]

    async def main() -> list[dict[str, Any]]:
        server, task, port, log = await start_server(games=1, rules=RULES, seed=3, bots={1: "greedy", 2: "greedy"})
        for k, data in enumerate(junk, start=1):
            reader, writer, head = await raw_websocket(port, "/game/junk")
            assert head.startswith(b"HTTP/1.1 101")
            writer.write(data)
            writer.write_eof()
            await asyncio.wait_for(reader.read(), 10)  # the server answers (a close frame, or nothing) and hangs up
            writer.close()
            await writer.wait_closed()
            while sum("junk left before the match" in line for line in log) < k:  # its seat is free again
                await asyncio.sleep(0.01)
        await run_all([ProtocolClient(url(port, "real"), seed=1), ProtocolClient(url(port, "other"), seed=2)])
        return await asyncio.wait_for(task, 10)

    results = asyncio.run(main())
    assert results[0]["type"] == "result"
