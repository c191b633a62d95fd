"""`danzero_actions` against DanZero's own feature code, run unmodified.

DanZero's actor client (AltmanD/guandan_mcc, ``rl-frame/actor_n/game.py``
with ``rl-frame/actor_n/utils/utils.py``) is not part of this project: put
those two files under tests/external/guandan_mcc/ (git-ignored), e.g.::

    git clone https://github.com/AltmanD/guandan_mcc tests/external/guandan_mcc

The test skips when they are absent. It feeds the client the messages of
DanZero's platform protocol for seeded games played by the engine (every
play notified to one client per seat, every decision with more than one
legal action asked of the seat's client) and compares the rows the client
builds (``x_batch``, 567 values per action) with `danzero_actions` of the
same decision, the candidate actions listed in the engine's index order.
The client's network and socket modules are replaced by stand-ins that
record what it sends; its own code runs as published.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import guandan_fast as gf

ACTOR = Path(__file__).resolve().parent / "external" / "guandan_mcc" / "rl-frame" / "actor_n"

pytestmark = pytest.mark.skipif(
    not (ACTOR / "game.py").is_file() or not (ACTOR / "utils" / "utils.py").is_file(),
    reason="DanZero's client (AltmanD/guandan_mcc) is not in tests/external/guandan_mcc",
)

SUITS = "HSCD"
RANKS = "23456789TJQKA"


def card_texts(counts: Any) -> list[str]:
    """The protocol's card names of 54 counts (DanZero's SB / HR for the jokers)."""
    out = []
    for i, n in enumerate(np.asarray(counts, dtype=np.int64)):
        name = "SB" if i == 52 else "HR" if i == 53 else SUITS[i % 4] + RANKS[i // 4]
        out += [name] * int(n)
    return out


class _Socket:
    def __init__(self, sent: list[Any]) -> None:
        self.sent = sent

    def connect(self, address: str) -> None:
        pass

    def send(self, data: Any) -> None:
        self.sent.append(data)

    def recv(self) -> int:
        return 0


def _stand_ins(sent: list[Any]) -> dict[str, types.ModuleType]:
    """Modules the client imports for its transport, recording what it sends in `sent`."""
    zmq = types.ModuleType("zmq")
    zmq.REQ = 3  # type: ignore[attr-defined]

    class Context:
        linger = 0

        def socket(self, kind: int) -> _Socket:
            return _Socket(sent)

    zmq.Context = Context  # type: ignore[attr-defined]
    arrow = types.ModuleType("pyarrow")

    class _Wrapped:
        def __init__(self, value: Any) -> None:
            self.value = value

        def to_buffer(self) -> Any:
            return self.value

    arrow.serialize = _Wrapped  # type: ignore[attr-defined]
    arrow.deserialize = lambda data: data  # type: ignore[attr-defined]
    ws4py = types.ModuleType("ws4py")
    client = types.ModuleType("ws4py.client")
    threaded = types.ModuleType("ws4py.client.threadedclient")

    class WebSocketClient:
        def __init__(self, url: str) -> None:
            pass

        def send(self, text: str) -> None:
            pass

    threaded.WebSocketClient = WebSocketClient  # type: ignore[attr-defined]
    return {"zmq": zmq, "pyarrow": arrow, "ws4py": ws4py, "ws4py.client": client, "ws4py.client.threadedclient": threaded}


@pytest.fixture(scope="module")
def danzero() -> Any:
    """DanZero's client module, imported with the stand-ins; `sent` records its messages."""
    sent: list[Any] = []
    saved_modules = {k: sys.modules.get(k) for k in ("zmq", "pyarrow", "ws4py", "ws4py.client", "ws4py.client.threadedclient", "utils", "utils.utils")}
    saved_env = dict(os.environ)
    saved_path = list(sys.path)
    sys.modules.update(_stand_ins(sent))
    sys.modules.pop("utils", None)
    sys.modules.pop("utils.utils", None)
    sys.path.insert(0, str(ACTOR))
    try:
        with warnings.catch_warnings():  # the module silences every warning on import
            spec = importlib.util.spec_from_file_location("danzero_actor_game", ACTOR / "game.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved_path
        os.environ.clear()
        os.environ.update(saved_env)
        for k, v in saved_modules.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    module.recorded = sent
    return module


def _client(danzero: Any, seat: int) -> Any:
    c = danzero.MyClient("ws://unused", types.SimpleNamespace(client_index=seat))
    c.received_message(json.dumps({"type": "notify", "stage": "beginning", "myPos": seat}))
    return c


def _act_message(game: gf.Game, seat: int, rows: Any) -> dict[str, Any]:
    obs = game.observation(seat)
    own, other = obs.levels[seat % 2], obs.levels[1 - seat % 2]
    actions = [["PASS", "PASS", "PASS"] if not row.any() else ["play", "-", card_texts(row)] for row in rows]
    return {
        "type": "act",
        "stage": "play",
        "handCards": card_texts(obs.hand.to_array()),
        "actionList": actions,
        "indexRange": len(actions) - 1,
        "curRank": obs.level,
        "selfRank": own,
        "oppoRank": other,
    }


def test_rows_equal_danzero_client(danzero: Any) -> None:
    rng = random.Random(2024)
    compared = deals = 0
    for seed in range(8):
        game = gf.Game(seed=seed)
        while game.phase != "match_over" and deals < 24:
            if game.phase in ("deal_over", "game_over"):
                game.next_deal()
                continue
            clients = [_client(danzero, s) for s in range(4)]
            deals += 1
            while game.phase in ("tribute", "return", "play"):
                seat = game.current_player
                assert seat is not None
                if game.phase != "play":
                    game.apply(gf.policy_action(game, "rule"))
                    continue
                legal = game.legal_action_rows()
                mine = gf.danzero_actions(game)
                sent = danzero.recorded
                sent.clear()
                clients[seat].received_message(json.dumps(_act_message(game, seat, legal["cards"])))
                if len(legal["index"]) > 1:
                    assert len(sent) == 1
                    theirs = sent[0]["x_batch"]
                    assert theirs.shape == mine.shape == (len(legal["index"]), gf.DANZERO_ROW_SIZE)
                    bad = np.flatnonzero((theirs != mine).any(axis=0))
                    assert not len(bad), f"seed {seed} deal {deals}: columns {bad[:10]} differ"
                    compared += 1
                # a greedy move most of the time, a random one otherwise, so that plays vary
                k = rng.randrange(len(legal["index"])) if rng.random() < 0.3 else None
                action = gf.actions.action(int(legal["index"][k]), game) if k is not None else gf.policy_action(game, "greedy")
                cards = [] if isinstance(action, gf.Pass) else card_texts(action.cards.to_array())
                game.apply(action)
                note = {"type": "notify", "stage": "play", "curPos": seat, "curAction": ["play", "-", cards or "PASS"]}
                for c in clients:
                    c.received_message(json.dumps(note))
    assert compared > 500 and deals >= 20
