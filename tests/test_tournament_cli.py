"""``guandan-fast tournament``: JSON and SVG outputs, the same result as the API, bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from guandan_fast.cli import main
from guandan_fast.tournament import Tournament, game_from_record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_knockout_writes_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, svg = tmp_path / "r.json", tmp_path / "b.svg"
    code, text, _ = run(
        capsys, "tournament", "mc:6", "greedy", "random", "greedy,random", "--best-of", "3", "--units", "A,A,B,,B",
        "--seed", "1", "--third-place", "--max-deals", "8", "--at-limit", "sudden-death",
        "--out", str(out), "--records", "--svg", str(svg), "--no-progress",
    )
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    api = Tournament(
        ["mc:6", "greedy", "random", "greedy", "random"], best_of=3, units=["A", "A", "B", None, "B"], seed=1,
        third_place=True, max_deals=8, at_limit="sudden_death",
    ).run(keep_games=True)
    assert data == json.loads(api.to_json(records=True))
    assert f"winner: {api.winner}" in text and "standings" in text
    # The records rebuild every game.
    for m, (*_, r) in zip(data["matches"], api.matches):
        assert [game_from_record(g).actions for g in m["games"]] == [g.actions for g in r.games]
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    texts = "".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert api.winner in texts and "champion" in texts


@pytest.mark.parametrize("fmt", ["qualify_final", "race", "round_robin", "swiss"])
def test_every_format_runs_from_the_command_line(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "s.svg"
    code, text, _ = run(capsys, "tournament", "greedy", "random", "random", "greedy", "--format", fmt, "--max-deals", "20",
                        "--qualify-deals", "3", "--svg", str(svg), "--no-progress")
    assert code == 0 and "winner:" in text
    ET.fromstring(svg.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["greedy"], "at least two entrants"),
        (["greedy", "nobody"], "'nobody'"),
        (["greedy", "random", "--units", "A"], "one unit per entrant"),
        (["greedy", "random", "--best-of", "2"], "best_of must be 1 or 3"),
        (["greedy", "random", "--out", "r.txt"], "--out must end in .json"),
        (["greedy", "random", "random", "--format", "race"], "even number"),
    ],
)
def test_bad_input_is_one_error_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tournament", *argv, "--no-progress")
    assert code == 2 and err.startswith("error:") and message in err
