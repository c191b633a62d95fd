"""``guandan-fast serve`` and ``guandan-fast connect`` end to end, as subprocesses on the loopback."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from guandan_fast.platform import read_record, replay  # noqa: E402
from platform_faults import CLI, serve_and_connect, start_serve  # noqa: E402


def test_serve_and_connect_play_a_match(tmp_path: Path) -> None:
    record = tmp_path / "cli.jsonl"
    server, port = start_serve("--games", "2", "--seed", "3", "--bots", "1:greedy,2:mc:10,3:greedy", "--sudden-death", "--record", str(record))
    try:
        out = subprocess.run([*CLI, "connect", f"ws://127.0.0.1:{port}/game/me", "--bot", "mc:10", "--sudden-death"],
                             capture_output=True, text=True, timeout=60)
        stdout, stderr = server.communicate(timeout=20)
    finally:
        server.kill()
    assert out.returncode == 0, out.stderr
    assert re.match(r"seat 0: games won per seat \[\d, \d, \d, \d\], draws \[0, 0, 0, 0\]", out.stdout)
    assert server.returncode == 0 and "seat 0: me connected" in stdout and "done: 1 table(s), 0 stopped" in stderr
    lines = read_record(record)
    assert [line["type"] for line in lines] == ["game", "game", "result"]
    assert lines[0]["seats"] == {"0": "me", "1": "bot greedy", "2": "bot mc:10", "3": "bot greedy"}
    for line in lines[:2]:
        assert replay(line).phase == "match_over"


def test_single_deals_at_a_served_and_connected(tmp_path: Path) -> None:
    record = tmp_path / "a.jsonl"
    stdout, _ = serve_and_connect(4, 9, record, ["--start-levels", "A,2", "--max-deals", "1"])
    assert "every game starts at levels A-2, failures at A 0-0; team 0 declares its first deal" in stdout
    games = [line for line in read_record(record) if line["type"] == "game"]
    assert len(games) == 4
    for line in games:
        assert line["start"] == {"levels": ["A", "2"], "declarer": 0, "a_fails": [0, 0]} and len(line["deals"]) == 1
        (deal,) = replay(line).deals
        assert deal["level"] == "A" and line.get("ending") == ("levels" if deal["a_failed"] else None)


def test_bad_starts_end_serve_before_it_listens(tmp_path: Path) -> None:
    record = tmp_path / "never.jsonl"
    cases = [
        (["--start-levels", "Z,2"], "start levels ('Z', '2'): levels[0] must be a rank"),
        (["--start-levels", "A,2", "--start-declarer", "2"], "--start-declarer: must be a team, 0 (seats 0 and 2) or 1 (seats 1 and 3), not '2'"),
        (["--start-levels", "A,2", "--start-a-fails", "2,0"], "start a_fails (2, 0): A failures must be below a_max_attempts (2), got 2"),
        (["--start-levels", "A,2", "--start-a-fails", "2,0", "--a-max-attempts", "3", "--sudden-death"], "sudden death"),
        (["--start-a-fails", "1,0"], "need --start-levels"),
        (["--start-levels", "A"], "expected two ranks"),
    ]
    for args, text in cases:
        out = subprocess.run([*CLI, "serve", "--port", "0", "--record", str(record), *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and out.stdout == "", (args, out)
        assert out.stderr.startswith("error: ") and text in out.stderr and out.stderr.count("\n") == 1, (args, out.stderr)
        assert not record.exists()


def test_bad_command_lines_end_with_one_error_line() -> None:
    cases = [
        (["serve", "--bots", "5:greedy"], "a seat 0..3"),
        (["serve", "--bots", "0:greedy,1:greedy,2:greedy,3:greedy"], "no seat for a client"),
        (["serve", "--bots", "1:nonsense"], "nonsense"),
        (["serve", "--port", "0", "--bots", "1:onnx:/no/such/model.onnx"], "no model file '/no/such/model.onnx'"),
        (["serve", "--best-of", "3"], "--games N"),
        (["serve", "--timeout", "0"], "above 0"),
        (["connect", "http://127.0.0.1:1/game/x"], "ws://"),
        (["connect", "ws://127.0.0.1:1/game/x", "--bot", "nonsense"], "nonsense"),
        (["connect", "ws://127.0.0.1:1/game/x", "--start-levels", "A,Z"], "levels[1] must be a rank"),
        (["connect", "ws://127.0.0.1:1/game/x"], "cannot connect"),
    ]
    for args, text in cases:
        out = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (args, out.stderr)
        assert out.stderr.startswith("error: ") and text in out.stderr and out.stderr.count("\n") == 1, (args, out.stderr)
