"""The ``guandan-fast`` command line: every sub-command through ``main([...])``,
once as ``python -m guandan_fast``, scripted ``play`` sessions, and bad input
(one ``error:`` line on stderr, exit status 2, never a traceback).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.cli import main
from guandan_fast.cli.simulate import BLOCK
from guandan_fast.cli.text import CardPrinter, InputError, match_actions, parse_move_text

#: Seed 2 deals seat 0 the first lead; seed 30 gives seat 0 the lead and a straight flush 6d..Td.
LEAD_SEED = 2
FLUSH_SEED = 30


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---------------------------------------------------------------- simulate


def test_simulate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pit.json"
    code, out, _ = run(capsys, "simulate", "greedy", "random", "--n", "30", "--seed", "3", "--out", str(path), "--no-progress")
    assert code == 0
    assert "greedy" in out and "random" in out and "95% CI" in out and f"wrote {path}" in out
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["n"] == 30 and doc["seed"] == 3 and doc["unit"] == "deal" and doc["block"] == BLOCK
    assert doc["rules"] == json.loads(json.dumps(gf.Rules().to_dict()))
    (r,) = doc["results"]
    assert (r["a"], r["b"], r["played"]) == ("greedy", "random", 60)
    lo, hi = r["ci95"]
    assert lo <= r["win_rate"] <= hi and r["win_rate"] == r["a_wins"] / 60
    # Two blocks (deals 0..25 and 25..30 of the seeded stream) add up to one pit of 30.
    first = gf.pit("greedy", "random", n=25, seed=3)
    second = gf.pit("greedy", "random", n=5, seed=3, start=25)
    whole = gf.pit("greedy", "random", n=30, seed=3)
    assert r["a_wins"] == first.a_wins + second.a_wins == whole.a_wins
    assert r["mean_gain"] == pytest.approx((first.mean_gain * 50 + second.mean_gain * 10) / 60)
    assert r["mean_gain"] == pytest.approx(whole.mean_gain)


def test_simulate_blocks_do_not_depend_on_threads() -> None:
    seen: list[int] = []
    a = gf.pit("random", "greedy", n=40, seed=11, threads=1, chunk=BLOCK, progress=seen.append)
    b = gf.pit("random", "greedy", n=40, seed=11, threads=2, chunk=BLOCK)
    assert a == b == gf.pit("random", "greedy", n=40, seed=11)  # to the last bit of mean_gain
    assert seen == [2 * BLOCK, 2 * (40 - BLOCK)]  # both seatings
    games = [gf.pit("greedy", "random", n=3, seed=5, start=s, unit="game") for s in (0, 3)]
    assert gf.PitResult.merge(games) == gf.pit("greedy", "random", n=6, seed=5, unit="game")
    with pytest.raises(gf.InvalidArgumentError, match="one pairing"):
        gf.PitResult.merge([a, games[0]])
    with pytest.raises(gf.InvalidArgumentError, match="non-empty"):
        gf.PitResult.merge([])


def test_simulate_npz_games_and_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.npz"
    code, out, _ = run(
        capsys, "simulate", "greedy,random", "--unit", "game", "--n", "3", "--max-deals", "4", "--out", str(path), "--threads", "1"
    )
    assert code == 0 and "deals/game" in out
    with np.load(path, allow_pickle=False) as d:
        assert list(d["a"]) == ["greedy"] and list(d["b"]) == ["random"]
        assert d["played"].tolist() == [6] and d["ci95"].shape == (1, 2)
        assert 1 <= d["deals_per_game"][0] <= 4
        settings = json.loads(str(d["settings"]))
    assert settings["unit"] == "game" and settings["rules"]["max_deals"] == 4


def test_simulate_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "random", "greedy", "random", "--n", "2")
    assert code == 0
    assert out.count("random") >= 3  # three pairings: random-greedy, random-random, greedy-random


# ---------------------------------------------------------------- eval


def test_eval_position_string(capsys: pytest.CaptureFixture[str]) -> None:
    game = gf.Game(seed=5)
    code, out, _ = run(capsys, "eval", game.position(), "--playouts", "8", "--top", "4", "--threads", "1")
    assert code == 0
    assert f"seat {game.current_player}" in out and "win prob" in out and "top 4 shown" in out
    code, out, _ = run(capsys, "eval", *game.position().split(), "--playouts", "8", "--top", "0", "--json")
    doc = json.loads(out)
    means = [row["mean"] for row in doc["actions"]]
    assert means == sorted(means, reverse=True) and len(means) == gf.count_moves(game.hands[game.current_player], 2, mode="pattern")
    assert {row["count"] for row in doc["actions"]} == {8} and doc["position"] == game.position()


def test_eval_hands_and_history(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["3s 4d 5c 6h 7s 9s", "8d 8c Kd Kc", "5s 6s Qd", "Ts Jd Qc Ac"]
    code, out, _ = run(capsys, "eval", "--hands", *hands, "--leader", "0", "--history", "3s 4d 5c 6h 7s", "--playouts", "5", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["seat"] == 1 and [row["action"] for row in doc["actions"]] == ["PASS"]
    code, _, err = run(capsys, "eval", "--hands", *hands, "--leader", "0", "--history", "3s 3s")
    assert code == 2 and err.startswith("error: --history move 1") and "you do not hold" in err


# ---------------------------------------------------------------- rules, bench, demo


def test_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "the defaults" in out and "2:3,3:2,4:1" in out and "partner-not-last" in out
    code, out, _ = run(capsys, "rules", "--upgrade", "2:4,3:2,4:1", "--a-max-attempts", "unlimited", "--sudden-death")
    assert "* 2:4,3:2,4:1" in out and "* unlimited" in out and "* yes" in out
    code, out, _ = run(
        capsys, "rules", "--json", "--a-pass", "double-down", "--return-max-rank", "any", "--no-joker-pair-full-house",
        "--best-of", "3", "--max-deals", "9", "--a-fail-reset", "5",
    )
    doc = json.loads(out)
    assert doc["a_pass"] == "double_down" and doc["return_max_rank"] is None and doc["joker_pair_in_full_house"] is False
    assert (doc["best_of"], doc["max_deals"], doc["a_fail_reset"]) == (3, 9, "5")


def test_bench_quick(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--quick", "--threads", "1")
    assert code == 0 and "count_moves" in out and "simulate" in out and "evaluate" in out


def test_demo_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--seed", "1")
    assert code == 0 and "leading moves" in out
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "--upgrade" in out and "--threads" in out


# ---------------------------------------------------------------- play


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, script: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, err = run(capsys, "play", *argv)
    assert err == ""
    return code, out


def test_play_bad_inputs_then_quit(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    script = "\n".join(["h", "xyz", "99", "0", "pass", "3s 3s 3s", "As As", "Straight(3)", "l pair", "t", "1", "q", ""])
    code, out = play(capsys, monkeypatch, script, "--seed", str(LEAD_SEED), "--bots", "greedy")
    assert code == 0
    for message in (
        "Type one of:",                       # h
        '"xyz" is not a card',                # not card text
        "No move numbered 99",                # out of range
        "You cannot pass: you lead",          # 0 when leading
        "You lead this trick, so you must play",  # pass when leading
        "A third 3s",                         # three copies
        "You do not hold A♠",                 # cards not held
        "Straight(3) of which cards?",        # a declaration alone
        "  you: ",                            # 1 was played
        "Bye.",
    ):
        assert message in out, message


def test_play_eof_at_first_prompt(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = play(capsys, monkeypatch, "", "--seed", str(LEAD_SEED), "--bots", "random", "--ascii")
    assert code == 0 and "Your hand (27 cards" in out and out.rstrip().endswith("opponents 2.")


def test_play_asks_which_declaration(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    script = "6d7d8d9dTd\n5\n\n6d 7d 8d 9d Td\n2\nq\n"
    code, out = play(capsys, monkeypatch, script, "--seed", str(FLUSH_SEED), "--bots", "greedy", "--ascii")
    assert code == 0
    assert "can be played several ways" in out and "1) Straight(6) 6d 7d 8d 9d Td" in out
    assert "Type a number from 1 to 2" in out
    assert "you: StraightFlush(6d) 6d 7d 8d 9d Td" in out


def test_play_whole_deal_with_bots(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    script = "1\n0\n" * 80  # play the first listed move, or pass; the extra lines go to later prompts
    code, out = play(capsys, monkeypatch, script, "--seed", str(LEAD_SEED), "--bots", "greedy,mc:20,random", "--max-deals", "2")
    assert code == 0
    assert "Deal over" in out and "Finishing order: 1st" in out
    assert "deal 2" in out and "tribute" in out.lower()


# ---------------------------------------------------------------- moves typed by a person


def test_move_text() -> None:
    assert parse_move_text(" p ").is_pass
    m = parse_move_text("3s4s,5d 10c")
    assert [str(c) for c in m.cards] == ["3s", "4s", "5d", "Tc"] and m.label is None
    assert parse_move_text("straight(3) 2h 3c 4d 5s 6h").label == "Straight(3)"
    for bad in ("", "pass 3s", "Pair(3)", "3x", "Pair Straight 3s"):
        with pytest.raises(InputError):
            parse_move_text(bad)


def test_match_actions() -> None:
    g = gf.Game(hands=["3c 4d 5s 6h 2h 9s", "3s", "4s", "5h"], leader=0)
    both = match_actions(g, parse_move_text("3c 4d 5s 6h 2h"))
    assert sorted(str(a) for a in both) == ["Straight(2) 2h 3c 4d 5s 6h", "Straight(3) 2h 3c 4d 5s 6h"]
    (one,) = match_actions(g, parse_move_text("Straight(3) 3c 4d 5s 6h 2h"))
    assert one.rank == "3" and CardPrinter().combo(one).plain == "Straight(3) 3♣ 4♦ 5♠ 6♥ 2♥→7"
    with pytest.raises(InputError, match="not a combination"):
        match_actions(g, parse_move_text("3c 9s"))
    g.apply(gf.Combo("9s", level="2"))
    with pytest.raises(InputError, match="does not beat"):
        match_actions(g, parse_move_text("3s"))
    assert match_actions(g, parse_move_text("pass")) == [gf.PASS]


# ---------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["simulate", "--n", "0"],
        ["simulate", "--n", "lots"],
        ["simulate", "greedy"],
        ["simulate", "greedy", "bogus"],
        ["simulate", "greedy", "random", "--out", "results.csv"],
        ["simulate", "greedy", "random", "--out", "/no/such/folder/x.json"],
        ["simulate", "--upgrade", "2:3,3:2"],
        ["simulate", "--upgrade", "2:1,3:2,4:3"],
        ["rules", "--best-of", "2"],
        ["rules", "--a-fail-reset", "A"],
        ["rules", "--a-pass", "sometimes"],
        ["eval", "gf1 play nonsense"],
        ["eval", "--deal", "1", "--history", "3s 3s 3s"],
        ["eval", "--deal", "1", "--hands", "3s", "4s", "5s", "6s"],
        ["eval", "--hands", "3s", "4s"],
        ["eval", "--policy", "clever"],
        ["play", "--seat", "5"],
        ["play", "--bots", "greedy,random"],
        ["play", "--bots", "genius"],
        ["play", "--delay", "-1"],
        ["bench", "--threads", "-1"],
        # every numeric option has a range: none reaches the engine as a number it cannot hold
        ["eval", "--playouts", "9223372036854775808"],
        ["eval", "--playouts", "-1"],
        ["eval", "--threads", "257"],
        ["eval", "--top", "1" * 5000],
        ["eval", "--leader", "9" * 100_000],
        ["eval", "--seed", "18446744073709551616"],
        ["simulate", "--n", "18446744073709551616"],
        ["simulate", "--threads", "9223372036854775808"],
        ["rules", "--best-of", "9223372036854775809"],
        ["rules", "--max-deals", "4294967296"],
        ["rules", "--a-max-attempts", "256"],
        ["play", "--delay", "inf"],
        ["play", "--delay", "nan"],
        ["play", "--seat", "2.5"],
        ["demo", "--seat", "-1"],
        ["bench", "--threads", "2.0"],
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err


# ---------------------------------------------------------------- as a program


def _module(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guandan_fast", *args], input=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_python_dash_m() -> None:
    r = _module("simulate", "--n", "5", "--seed", "1")
    assert r.returncode == 0 and "greedy" in r.stdout and r.stderr == ""
    r = _module("play", "--seed", str(LEAD_SEED), "--bots", "greedy", stdin="1\nbogus\n")
    assert r.returncode == 0 and '"bogus" is not a card' in r.stdout and "Bye." in r.stdout and r.stderr == ""
    r = _module("simulate", "--n", "-3")
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.stderr
