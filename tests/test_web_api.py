"""The web table's HTTP and websocket API with Starlette's test client: every
route, and bad input answered with a 4xx and a reason, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from web_helpers import platform_record, referee_steps, tournament_json

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import guandan_fast as gf  # noqa: E402
from guandan_fast.web import create_app  # noqa: E402
from guandan_fast.web.app import MAX_BODY, Settings, open_record  # noqa: E402
from guandan_fast.web.records import RecordError  # noqa: E402

STATIC = Path(gf.__file__).parent / "web" / "static"


@pytest.fixture()
def client() -> Any:
    app = create_app(Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=3, delay=0, playouts=40))
    with TestClient(app) as c:
        yield c


def _receive_until(ws: Any, want: Any, most: int = 500) -> dict[str, Any]:
    for _ in range(most):
        msg = ws.receive_json()
        if want(msg):
            return msg  # type: ignore[no-any-return]
    raise AssertionError("the message never came")


def test_importing_the_package_and_the_command_line_imports_no_web_stack() -> None:
    code = (
        "import sys, guandan_fast, guandan_fast.cli, guandan_fast.web, guandan_fast.web.table, guandan_fast.web.records\n"
        "bad = [m for m in ('starlette', 'uvicorn', 'httpx', 'httpx2', 'playwright', 'websockets', 'anyio') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/main.js">' in r.text
    for path in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
        assert client.get(path).status_code == 200, path
    js = client.get("/static/js/main.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    for module in (STATIC / "js").glob("*.js"):
        for imported in re.findall(r'from "\./([^"]+)"', module.read_text()):
            assert (STATIC / "js" / imported).is_file(), (module.name, imported)
    assert client.get("/static/nothing.js").status_code == 404


def test_the_page_names_no_outside_resource() -> None:
    for f in STATIC.rglob("*"):
        if f.is_file():
            text = f.read_text()
            urls = [u for u in re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", text) if "www.w3.org/2000/svg" not in u]
            assert not urls, (f.name, urls)
            assert "@import" not in text and "@font-face" not in text


def test_config_gives_the_command_lines_settings(client: TestClient) -> None:
    c = client.get("/api/config").json()
    assert c["bots"] == {"1": "greedy", "2": "greedy", "3": "greedy"} and c["seed"] == 3 and c["playouts"] == 40
    assert gf.Rules(**{**c["rules"], "upgrade": {int(k): v for k, v in c["rules"]["upgrade"].items()}}) == gf.Rules()


def test_a_table_is_made_and_read_back(client: TestClient) -> None:
    r = client.post("/api/tables", json={})
    assert r.status_code == 201
    tid, view = r.json()["id"], r.json()["view"]
    assert view["seed"] == 3 and view["humans"] == [0] and view["bots"] == {"1": "greedy", "2": "greedy", "3": "greedy"}
    assert client.get(f"/api/tables/{tid}").json()["view"]["position"] == view["position"]
    r = client.post("/api/tables", json={"bots": {"0": "random", "1": "human", "3": "mc:20"}, "seed": 9, "names": {"1": "Ana"}})
    assert r.status_code == 201
    v = r.json()["view"]
    assert v["humans"] == [1, 2] and v["bots"] == {"0": "random", "3": "mc:20"} and v["seats"][1]["name"] == "Ana"
    r = client.post("/api/tables", json={"bots": {}, "seed": 1})
    assert r.json()["view"]["humans"] == [0, 1, 2, 3]


def test_a_table_starts_from_a_position(client: TestClient) -> None:
    game = gf.Game(hands=["3c 4d 5s 6h 2h 9s 9d", "Ks Kd", "As Ac", "Qs Qd"], leader=0)
    r = client.post("/api/tables", json={"position": game.position(), "bots": {"1": "greedy", "2": "greedy", "3": "greedy"}})
    assert r.status_code == 201
    view = r.json()["view"]
    assert view["position"] == game.position() and view["to_move"] == 0
    assert [c["c"] for c in view["seats"][0]["hand"]] == [str(c) for c in game.hands[0].sorted("2")]


@pytest.mark.parametrize(
    "body, why",
    [
        (b"not json", "not JSON"),
        (b"[1]", "JSON object"),
        (b'{"bots": {"5": "greedy"}}', "seats"),
        (b'{"bots": {"1": "nonsense"}}', "nonsense"),
        (b'{"bots": {"0": "greedy", "1": "greedy", "2": "greedy", "3": "greedy"}}', "at most three"),
        (b'{"seed": -1}', "seed"),
        (b'{"seed": true}', "seed"),
        (b'{"seat": 1}', "unknown field"),
        (b'{"names": [1]}', "names"),
        (b'{"position": 5}', "position string"),
        (b'{"position": "gf2 nonsense"}', "bad position"),
    ],
)
def test_a_bad_table_request_gets_a_400_with_a_reason(client: TestClient, body: bytes, why: str) -> None:
    r = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and why in r.json()["error"]


def test_unknown_things_get_json_404s_and_405s(client: TestClient) -> None:
    for path in ("/api/tables/nope", "/api/records/nope", "/api/records/nope/steps/0", "/nothing/here"):
        r = client.get(path)
        assert r.status_code == 404 and "error" in r.json(), path
    assert client.get("/api/tables").status_code == 405
    assert client.delete("/api/records").json()["error"]
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws/tables/nope") as ws:
            ws.receive_json()
    assert e.value.code == 4404


def test_a_whole_deal_over_the_websocket(client: TestClient) -> None:
    tid = client.post("/api/tables", json={}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = ws.receive_json()["view"]
        for _ in range(400):
            if view["phase"] != "play":
                break
            if view["choices"] is None:
                view = _receive_until(ws, lambda m: m["type"] == "table")["view"]
                continue
            if view["choices"]["can_pass"]:
                ws.send_json({"type": "pass"})
            else:
                card = view["seats"][0]["hand"][0]["c"]
                ws.send_json({"type": "select", "cards": [card]})
                sel = _receive_until(ws, lambda m: m["type"] == "selection")
                assert sel["plays"] and sel["plays"][0]["kind"] == "Single"
                ws.send_json({"type": "play", "cards": [card]})
            view = _receive_until(ws, lambda m: m["type"] == "table")["view"]
        assert view["phase"] == "deal_over" and view["result"]["finish_order"] == view["finish_order"]
        ws.send_json({"type": "next"})
        assert _receive_until(ws, lambda m: m["type"] == "table")["view"]["phase"] in ("tribute", "return", "play")


def test_bad_websocket_messages_get_an_error_and_the_table_goes_on(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"bots": {"2": "greedy"}, "seed": 5}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.receive_json()
        for frame, why in [
            ("not json", "JSON object"),
            ("[1]", "JSON object"),
            ('{"type": "dance"}', "unknown message type"),
            ('{"type": "select", "cards": 3}', "list of at most 27"),
            ('{"type": "hint", "playouts": 0}', "playouts must be"),
            ('{"type": "why", "step": 99}', "step must be"),
            ("x" * 70_000, "at most 64 KiB"),
        ]:
            ws.send_text(frame)
            assert why in _receive_until(ws, lambda m: m["type"] == "error")["message"], frame
        ws.send_bytes(b"\x00")
        assert "not binary" in _receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "view"})
        assert _receive_until(ws, lambda m: m["type"] == "table")["view"]["phase"] == "play"


def test_a_hint_streams_its_progress_to_the_end(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"seed": 5}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["choices"] is not None)["view"]
        assert view["to_move"] == 0
        ws.send_json({"type": "hint", "playouts": 60})
        first = _receive_until(ws, lambda m: m["type"] == "hint")
        assert first["progress"] == 0 and first["rows"] == [] and first["seat"] == 0
        last = _receive_until(ws, lambda m: m["type"] == "hint" and m["done"])
        assert last["progress"] == 1 and last["rows"] and all(r["playouts"] == 60 for r in last["rows"])
        assert last["actions"] == len(last["rows"]) or len(last["rows"]) == 100
        # why: a past decision of the deal, from the seat that made it
        if view["log"]:
            ws.send_json({"type": "why", "step": 0, "playouts": 20})
            why = _receive_until(ws, lambda m: m["type"] == "hint" and m.get("done"))
            assert why["of"] == "step" and why["seat"] == view["log"][0][0] and why["played"] == view["log"][0][1]


def test_a_move_stops_the_hint_under_way(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"seed": 5}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["choices"] is not None)["view"]
        ws.send_json({"type": "hint", "playouts": 20_000})
        _receive_until(ws, lambda m: m["type"] == "hint")
        ws.send_json({"type": "pass"} if view["choices"]["can_pass"] else {"type": "play", "cards": [view["seats"][0]["hand"][0]["c"]]})
        stopped = _receive_until(ws, lambda m: m["type"] == "hint" and (m.get("cancelled") or m.get("done")))
        assert stopped.get("cancelled")


def test_a_referee_decision_over_the_websocket(client: TestClient) -> None:
    tid = client.post("/api/tables", json={}).json()["id"]
    assert set(client.get("/api/config").json()["penalties"]) >= {"minus_two", "opponents_up", "forfeit"}
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["choices"] is not None)  # the person's turn
        ws.send_json({"type": "penalize", "team": 1, "kind": "minus_two"})
        view = _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["penalties"])["view"]
        assert view["phase"] == "play" and view["penalties"][0]["kind"] == "minus_two" and view["penalties"][0]["seat"] == 1
        ws.send_json({"type": "penalize", "team": 1, "kind": "opponents_up", "seat": 3})
        view = _receive_until(ws, lambda m: m["type"] == "table" and len(m["view"]["penalties"]) == 2)["view"]
        assert (view["phase"], view["levels"], view["declarer"]) == ("deal_over", ["3", "2"], 0)
        assert view["result"]["settled"] is False and [p["kind"] for p in view["result"]["referee"]] == ["minus_two", "opponents_up"]
        ws.send_json({"type": "next"})
        view = _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["phase"] == "play")["view"]
        assert view["level"] == "3" and view["tribute"] is None and view["result"] is None
        ws.send_json({"type": "penalize", "team": 0, "kind": "forfeit"})
        view = _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["phase"] == "match_over")["view"]
        assert view["result"]["game_winner"] == 1 and [p["kind"] for p in view["result"]["referee"]] == ["forfeit"]
        assert client.get(f"/api/tables/{tid}").json()["view"]["penalties"] == view["penalties"]


def test_bad_referee_decisions_get_an_error_and_change_nothing(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"bots": {}, "seed": 5}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        before = ws.receive_json()["view"]
        for msg, why in [
            ({"type": "penalize"}, "team must be 0 or 1"),
            ({"type": "penalize", "team": 2, "kind": "minus_two"}, "team"),
            ({"type": "penalize", "team": 0, "kind": "yellow_card"}, "kind must be one of"),
            ({"type": "penalize", "team": 0, "kind": ["minus_two"]}, "kind must be"),
            ({"type": "penalize", "team": 0, "kind": "minus_two", "seat": 1}, "not of team 0"),
            ({"type": "penalize", "team": 0, "kind": "minus_two", "seat": "2"}, "seat must be"),
        ]:
            ws.send_json(msg)
            assert why in _receive_until(ws, lambda m: m["type"] == "error")["message"], msg
        ws.send_json({"type": "view"})
        assert _receive_until(ws, lambda m: m["type"] == "table")["view"] == before
        ws.send_json({"type": "penalize", "team": 0, "kind": "forfeit"})
        assert _receive_until(ws, lambda m: m["type"] == "table")["view"]["phase"] == "match_over"
        ws.send_json({"type": "penalize", "team": 1, "kind": "minus_two"})
        assert "match is over" in _receive_until(ws, lambda m: m["type"] == "error")["message"]


def test_a_referee_decision_stops_the_hint_under_way(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"seed": 5}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _receive_until(ws, lambda m: m["type"] == "table" and m["view"]["choices"] is not None)
        ws.send_json({"type": "hint", "playouts": 20_000})
        _receive_until(ws, lambda m: m["type"] == "hint")
        ws.send_json({"type": "penalize", "team": 1, "kind": "out_of_turn", "seat": 3})
        stopped = _receive_until(ws, lambda m: m["type"] == "hint" and (m.get("cancelled") or m.get("done")))
        assert stopped.get("cancelled")


def test_records_open_and_step(client: TestClient) -> None:
    text = platform_record()
    r = client.post("/api/records", content=text.encode(), headers={"Content-Type": "text/plain"})
    assert r.status_code == 201
    rid, summary = r.json()["id"], r.json()["summary"]
    assert summary["source"] == "platform record" and summary["steps"] > 100
    assert client.get(f"/api/records/{rid}").json()["summary"] == summary
    last = client.get(f"/api/records/{rid}/steps/{summary['steps'] - 1}").json()
    assert last["phase"] == "match_over" and last["result"] is not None
    assert client.get(f"/api/records/{rid}/steps/0").json()["next"] is not None
    for bad in (str(summary["steps"]), "-1", "x", "9" * 30):
        assert client.get(f"/api/records/{rid}/steps/{bad}").status_code == 404
    r = client.post("/api/records", content=tournament_json().encode())
    assert r.status_code == 201 and r.json()["summary"]["source"] == "tournament"


@pytest.mark.parametrize(
    "body, status, why",
    [
        (b"", 400, "empty"),
        (b"\xff\xfe", 400, "UTF-8"),
        (b"hello", 400, "not a record"),
        (b'{"type": "game"}\n{', 400, "line 2"),
    ],
)
def test_a_bad_record_gets_a_4xx_with_a_reason(client: TestClient, body: bytes, status: int, why: str) -> None:
    r = client.post("/api/records", content=body)
    assert r.status_code == status and why in r.json()["error"]


def test_a_record_over_the_size_limit_gets_a_413(client: TestClient) -> None:
    r = client.post("/api/records", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413 and "MiB" in r.json()["error"]


def test_a_hint_on_a_recorded_step(client: TestClient) -> None:
    rec = client.post("/api/records", content=platform_record().encode()).json()
    rid, summary = rec["id"], rec["summary"]
    deal = summary["deals"][0]
    with client.websocket_connect(f"/ws/records/{rid}") as ws:
        ws.send_json({"type": "hint", "step": deal["first"] + 1, "playouts": 20})
        done = _receive_until(ws, lambda m: m["type"] == "hint" and m.get("done"))
        assert done["seat"] == deal["moves"][1][0] and done["played"]["t"] in ("play", "pass")
        assert any(r["action"] == done["played"] for r in done["rows"]) or done["played"]["t"] == "play"
        ws.send_json({"type": "hint", "step": deal["first"] + deal["steps"] - 1})
        assert "nobody plays" in _receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "hint", "step": -4})
        assert "step must be" in _receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "other"})
        assert "hint" in _receive_until(ws, lambda m: m["type"] == "error")["message"]


def test_open_record_for_the_command_line() -> None:
    app = create_app()
    rid = open_record(app, platform_record())
    with TestClient(app) as c:
        assert c.get(f"/api/records/{rid}").status_code == 200
    with pytest.raises(RecordError):
        open_record(app, "nothing")


def test_a_failure_inside_gets_a_500_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(Settings(bots={1: "greedy"}, seed=1))
    from guandan_fast.web import table as table_module

    def broken(self: Any) -> dict[str, Any]:
        raise RuntimeError("boom at line 12 of a secret file")

    monkeypatch.setattr(table_module.Table, "view", broken)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/tables", json={})
    assert r.status_code == 500 and "boom" not in r.text and "Traceback" not in r.text and r.json()["error"]


def test_the_command_line_refuses_bad_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from guandan_fast.cli import main

    assert main(["web", "--port", "70000"]) == 2
    assert main(["web", "--bots", "7:greedy"]) == 2
    assert main(["web", "--bots", "1:nonsense"]) == 2
    assert main(["web", "--playouts", "30000"]) == 2
    assert main(["web", "--watch", str(tmp_path / "missing.jsonl")]) == 2
    (tmp_path / "bad.txt").write_text("hello")
    assert main(["web", "--watch", str(tmp_path / "bad.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("error: ") == 6 and "Traceback" not in err


def test_live_tables_of_a_platform_server_are_read_only_views() -> None:
    from guandan_fast.web.live import LiveTables

    live = LiveTables()
    ref = referee_steps(live, 12)
    with TestClient(create_app(Settings(live=live))) as c:
        assert c.get("/api/config").json()["live"] is True
        tables = c.get("/api/live").json()["tables"]
        assert [t["table"] for t in tables] == [0] and tables[0]["names"][0] == "north"
        view = c.get("/api/live/0").json()
        assert len(view["log"]) == len(ref.game.history) and all(s["hand"] is not None for s in view["seats"])
        assert [s["count"] for s in view["seats"]] == list(ref.game.hand_sizes)
        assert c.get("/api/live/7").status_code == 404 and c.get("/api/live/x").status_code == 404
        with c.websocket_connect("/ws/live/0") as ws:
            first = ws.receive_json()
            assert first["type"] == "live" and first["view"]["version"] == view["version"]
            for _ in range(3):
                ws.send_json({"type": "play", "cards": ["As"]})
                assert "read-only" in _receive_until(ws, lambda m: m["type"] == "error")["message"]
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws/live/3") as ws:
                ws.receive_json()
    with TestClient(create_app(Settings())) as c:
        assert c.get("/api/live").json() == {"tables": []} and c.get("/api/live/0").status_code == 404


def test_a_live_table_follows_the_match_across_its_deals() -> None:
    from guandan_fast.web.live import LiveTables

    live = LiveTables()
    versions = []
    live.listen(lambda: versions.append(live.version(0)))
    ref = referee_steps(live, 10_000)
    assert ref.over and versions == sorted(versions) and len(set(versions)) == len(versions)
    view = live.view(0)
    assert view is not None and view["over"] and view["tallies"]["type"] == "result"
    assert view["phase"] == "match_over" and view["finish_order"] == ref.game.deals[-1]["finish_order"]


def test_serve_web_spectates_its_tables(tmp_path: Path) -> None:
    import json
    import os
    import signal
    import urllib.request

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    serve = subprocess.Popen(
        [sys.executable, "-m", "guandan_fast", "serve", "--port", "0", "--web", "0", "--tables", "2",
         "--bots", "1:greedy,2:greedy,3:greedy", "--seed", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert serve.stdout is not None
        lines = [serve.stdout.readline(), serve.stdout.readline()]
        web = re.search(r"(http://127\.0\.0\.1:\d+/)", "".join(lines))
        port = re.search(r"ws://127\.0\.0\.1:(\d+)/", "".join(lines))
        assert web and port, lines
        client = subprocess.run(
            [sys.executable, "-m", "guandan_fast", "connect", f"ws://127.0.0.1:{port.group(1)}/game/me", "--bot", "greedy"],
            capture_output=True, text=True, timeout=120,
        )
        assert client.returncode == 0, client.stderr
        with urllib.request.urlopen(web.group(1) + "api/live", timeout=10) as r:
            tables = json.loads(r.read())["tables"]
        assert tables and tables[0]["over"] and tables[0]["names"][0] == "me"
        with urllib.request.urlopen(web.group(1), timeout=10) as r:
            assert b"Live" in r.read()
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            serve.communicate(timeout=30)
        finally:
            serve.kill()
    assert serve.returncode == 130
