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
        (["greedy", "onnx:"], "onnx:PATH"),
    ],
)
def test_bad_input_is_one_error_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tournament", *argv, "--no-progress")
    assert code == 2 and err.startswith("error:") and message in err


def test_a_missing_model_is_one_error_line_before_any_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("onnxruntime")
    missing = tmp_path / "missing.onnx"
    out = tmp_path / "r.json"
    code, text, err = run(capsys, "tournament", "greedy", f"puct:{missing}", "random", "--out", str(out), "--no-progress")
    assert code == 2 and err.startswith("error:") and str(missing) in err and len(err.splitlines()) == 1
    assert text == "" and not out.exists()  # nothing played, nothing written
    ev = tmp_path / "event.json"
    code, text, err = run(capsys, "tournament", "create", "A", f"B=onnx:{missing}", "--event", str(ev))
    assert code == 2 and err.startswith("error:") and str(missing) in err
    assert not ev.exists()


def test_an_event_of_people_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev, svg = tmp_path / "event.json", tmp_path / "event.svg"
    code, out, _ = run(capsys, "tournament", "create", "A,B,C,D", "E", "bot=greedy", "--units", "x,x,,,,", "--best-of", "3",
                       "--seed", "2", "--event", str(ev))
    assert code == 0 and ev.is_file()
    now = [line.split(": ")[1].split(" – ") for line in out.splitlines() if " – " in line]
    assert now and all(len(p) == 2 for p in now)
    for a, b in reversed(now):  # reported out of order
        code, out, _ = run(capsys, "tournament", "report", a, b, "--winner", b, "--games", "1-2", "--penalty", f"{a}:minus_two",
                           "--event", str(ev))
        assert code == 0 and "penalty: minus two" in out
    code, out, _ = run(capsys, "tournament", "pairings", "--event", str(ev))
    a, b = out.splitlines()[0].split(": ")[1].split(" – ")
    code, out, _ = run(capsys, "tournament", "report", a, b, "--winner", a, "--ending", "forfeit", "--event", str(ev))
    assert code == 0 and "forfeit" in out
    code, out, _ = run(capsys, "tournament", "bracket", "--event", str(ev), "--svg", str(svg))
    assert code == 0 and "🏆" in out and ET.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg")
    code, out, _ = run(capsys, "tournament", "standings", "--event", str(ev))
    assert code == 0 and "standings" in out
    for argv, message in [
        (["report", a, b, "--winner", a], "no tie to play now"),
        (["report", a, "--winner", a], "report takes TEAM_A TEAM_B"),
        (["report", a, b, "--winner", a, "--games", "two"], "--games must be A-B"),
        (["pairings", "extra"], "takes no teams"),
    ]:
        code, _, err = run(capsys, "tournament", *argv, "--event", str(ev))
        assert code != 0 and message in err, (argv, err)
    code, _, err = run(capsys, "tournament", "pairings", "--event", str(tmp_path / "none.json"))
    assert code != 0 and "no such file" in err


@pytest.mark.parametrize("fmt", ["qualify_final", "race"])
def test_an_odd_field_has_a_bye_in_the_table_formats(fmt: str) -> None:
    field = ["greedy", "random", "greedy", "random", "random"]
    units = ["N", "N", None, None, None]
    r = Tournament(field, format=fmt, units=units, max_deals=4, seed=3).run(keep_games=True)
    assert sorted(s["entrant"] for s in r.standings) == sorted(Tournament(field, format=fmt).entrants[i].name for i in range(5))
    byes = [s for s in r.standings if s.get("bye")]
    assert len(byes) == 1
    stage = "qualifying" if fmt == "qualify_final" else "race"
    table = [m for m in r.matches if m[0] == stage]
    assert len(table) == 3  # two tables and the bye's game
    again = Tournament(field, format=fmt, units=units, max_deals=4, seed=3).run()
    assert again.standings == r.standings


def test_an_event_reports_levels_at_the_deal_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev, out_json, svg = tmp_path / "event.json", tmp_path / "standings.json", tmp_path / "event.svg"
    code, out, _ = run(capsys, "tournament", "create", "A,B,C,D", "--tie-break", "lots", "--seed", "1", "--event", str(ev))
    assert code == 0
    (a, b), (c, d) = [line.split(": ")[1].split(" – ") for line in out.splitlines() if " – " in line]
    # --levels alone means the match ended on levels.
    code, out, _ = run(capsys, "tournament", "report", b, a, "--winner", a, "--levels", "10,k", "--deals", "12", "--event", str(ev))
    assert code == 0 and "levels K–T after 12 deals" in out and "levels, last tie" in out
    # Equal levels: decided as the event decides them (lots).
    code, out, _ = run(capsys, "tournament", "report", c, d, "--winner", d, "--levels", "Q,Q", "--event", str(ev))
    assert code == 0 and "levels Q–Q (lots)" in out
    saved = json.loads(ev.read_text(encoding="utf-8"))
    assert saved["tie_break"] == "lots" and [r["levels"] for r in saved["results"].values()] == [["K", "T"], ["Q", "Q"]]

    before = ev.read_text(encoding="utf-8")
    for argv, message in [
        (["--levels", "K"], "--levels must be A,B"),
        (["--levels", "K,1"], "must be a level '2'"),
        (["--levels", "9,K"], "goes to the higher level"),
        (["--levels", "K,9", "--ending", "played"], "not for one ending 'played'"),
        (["--levels", "K,9", "--tie-break", "first_out"], "this result has none"),
        (["--levels", "K,9", "--tie-break", "coin"], "invalid choice"),
    ]:
        code, _, err = run(capsys, "tournament", "report", a, d, "--winner", a, *argv, "--event", str(ev))
        assert code == 2 and err.startswith("error:") and message in err, (argv, err)
    assert ev.read_text(encoding="utf-8") == before  # nothing changed

    code, out, _ = run(capsys, "tournament", "report", a, d, "--winner", d, "--levels", "9,9", "--tie-break", "first_out",
                       "--event", str(ev))
    assert code == 0 and "levels 9–9 (first out)" in out
    code, out, _ = run(capsys, "tournament", "standings", "--event", str(ev), "--out", str(out_json))
    assert code == 0 and "9–9" in out
    rows = {s["entrant"]: s for s in json.loads(out_json.read_text(encoding="utf-8"))["standings"]}
    assert rows[d]["place"] == 1 and rows[d]["levels"] == ["9", "9"] and rows[b]["levels"] == ["T", "K"]
    code, out, _ = run(capsys, "tournament", "bracket", "--event", str(ev), "--svg", str(svg))
    assert code == 0 and "levels K–T after 12 deals" in out
    notes = [t.text for t in ET.fromstring(svg.read_text(encoding="utf-8")).iter() if t.get("class") == "note"]
    assert "levels 9–9 (first out)" in notes and "levels K–T after 12 deals" in notes
