"""The one-decision values of benches/decision_values.py: decisions are the
play decisions with a choice, every legal action is estimated, a choice
scores its own estimate, and the differences are grouped by situation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))
import decision_values as dv  # noqa: E402


def _played(seed: int, plays: int) -> list[tuple[gf.Game, int, object]]:
    """(game, seat, action) of the first `plays` decisions of a rule deal, the game copied at each."""
    game, out = gf.Game(seed=seed), []
    while len(out) < plays and game.phase == "play":
        seat = game.current_player
        action = gf.policy_action(game, "rule")
        out.append((gf.Game.from_position(game.position()), seat, action))
        game.apply(action)
    return out


def test_decisions_are_play_decisions_with_a_choice() -> None:
    positions = _played(3, 40)
    kept = list(dv.decisions(positions))
    choices = [(g.position(), str(a)) for g, _, a in positions if len(g.legal_actions("pattern")) > 1]
    assert kept == choices
    assert 0 < len(kept) < len(positions)  # some decisions (forced passes) have one action


def test_every_legal_action_is_estimated_and_a_choice_scores_its_own() -> None:
    chosen = list(dv.decisions(_played(5, 12)))[:3]
    rows = list(dv.label(chosen, playouts=8, seed=1, truth=True))
    for (text, action), row in zip(chosen, rows):
        game = gf.Game.from_position(text)
        assert sorted(row["actions"]) == sorted(str(a) for a in game.legal_actions("pattern"))
        assert len(row["mean"]) == len(row["win"]) == len(row["true"]) == len(row["actions"])
        assert row["recorded"] == action and action in row["actions"]
    r = dv.report(rows, ["rule"])
    recorded = sum(row["mean"][row["actions"].index(row["recorded"])] for row in rows) / len(rows)
    assert r["means"]["recorded"][0] == pytest.approx(recorded)
    # The records are rule's own choices: the same means, nothing differs.
    assert r["means"]["rule"][0] == pytest.approx(recorded)
    assert r["differs"] == 0 and r["gain"][0] == 0
    assert r["means"]["best estimate"][0] >= recorded


def test_differences_are_grouped_by_situation() -> None:
    (text, action), = list(dv.decisions(_played(7, 1)))
    game = gf.Game.from_position(text)
    legal = [str(a) for a in game.legal_actions("pattern")]
    other = next(a for a in legal if a != str(gf.policy_action(game, "rule")))
    mean = [0.0] * len(legal)
    mean[legal.index(other)] = 1.5
    row = {"position": text, "recorded": other, "actions": legal, "mean": mean, "win": mean}
    r = dv.report([row, row], ["rule"])
    assert r["differs"] == 2 and r["gain"][0] == pytest.approx(1.5) and r["unmatched"] == 0
    assert dv.report([{**row, "recorded": "not a pattern"}], ["rule"])["unmatched"] == 1
    (t,) = r["situations"]
    assert t["positions"] == 2 and t["difference"] == pytest.approx(1.5) and t["share"] == pytest.approx(1.0)
    assert t["situation"][0] == "lead"  # a deal's first decision
    assert t["situation"][4] == other.split("(")[0]
    assert "| lead |" in dv.markdown(r, ["rule"], 5)


@pytest.mark.parametrize("top_seat, want", [(None, "lead"), (3, "follow"), (2, "support")])
def test_situation_reads_who_holds_the_trick(top_seat: int | None, want: str) -> None:
    game = gf.Game(seed=11)
    if top_seat is not None:
        # Play until seat 0 is to move with the trick held by `top_seat`.
        while not (game.current_player == 0 and game.top is not None and game.top_seat == top_seat):
            assert game.phase == "play", "this seeded deal has such a position"
            game.apply(gf.policy_action(game, "greedy"))
    assert dv.situation(game)[0] == want
    assert dv.action_class("PASS") == "pass"


def test_record_positions_take_one_side(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from test_sparring import recorded_game

    pair = tmp_path / "rule--greedy-client"
    pair.mkdir()
    # Match 0 broke off at its first attempt, after a game that is not
    # read, and was settled by its second.
    attempts = [{"match": 0, "attempt": 1, "stem": "m00-1", "status": "connect-crash"}, {"match": 0, "attempt": 2, "stem": "m00-2", "status": "ok"}]
    (pair / "matches.jsonl").write_text("".join(json.dumps(a) + "\n" for a in attempts))
    (pair / "m00-1.jsonl").write_text(json.dumps(recorded_game(5, ours=0)) + "\n")
    (pair / "m00-2.jsonl").write_text(json.dumps(recorded_game(4, ours=1)) + "\n")
    # The game moves on after each item: read it as it comes.
    ours = [(seat, str(gf.policy_action(g, "rule")) == str(a)) for g, seat, a in dv.record_positions([tmp_path]) if g.phase == "play"]
    theirs = [seat for _, seat, _ in dv.record_positions([tmp_path], "theirs")]
    assert len(ours) > 20 and len(theirs) > 20
    assert {seat % 2 for seat, _ in ours} == {1} and {seat % 2 for seat in theirs} == {0}
    # Our bots are the server's rule policy: the record holds its choices.
    assert all(same for _, same in ours)


def test_true_values_are_the_deal_as_rule_plays_it_on() -> None:
    # In a deal rule plays at every seat, the real deal's value of rule's
    # own choice at any position is the deal's result for the mover's team.
    game = gf.Game(seed=9)
    while game.phase == "play":
        game.apply(gf.policy_action(game, "rule"))
    result = game.last_result
    assert result is not None
    checked = 0
    for g, seat, action in _played(9, 400)[::5]:
        actions = g.legal_actions("pattern")
        if len(actions) < 2:
            continue
        values = dv.true_values(g, actions, seed=3)
        want = result["gain"] if result["winner"] % 2 == seat % 2 else -result["gain"]
        assert values[[str(a) for a in actions].index(str(action))] == want
        assert set(values) <= {-3, -2, -1, 1, 2, 3}
        checked += 1
    assert checked >= 5


def test_report_scores_the_real_deal_where_every_row_has_it() -> None:
    (text, _), = list(dv.decisions(_played(7, 1)))
    game = gf.Game.from_position(text)
    legal = [str(a) for a in game.legal_actions("pattern")]
    rule = str(gf.policy_action(game, "rule"))
    other = next(a for a in legal if a != rule)
    mean = [0.5] * len(legal)
    true = [-1] * len(legal)
    true[legal.index(other)] = 2
    true[legal.index(rule)] = -2
    row = {"position": text, "recorded": other, "actions": legal, "mean": mean, "win": mean, "true": true}
    r = dv.report([row, row], ["rule"])
    assert r["true"]["recorded"][0] == 2 and r["true"]["rule"][0] == -2
    assert r["true"]["best estimate"][0] == 2  # the best action in the real deal
    assert r["true gain"][0] == pytest.approx(4.0) and r["gain"][0] == 0
    assert "in the real deal" in dv.markdown(r, ["rule"], 5)
    # Rows without the real deal's values: none of it is reported.
    plain = {k: v for k, v in row.items() if k != "true"}
    assert "true" not in dv.report([row, plain], ["rule"])
    assert "real deal" not in dv.markdown(dv.report([plain], ["rule"]), ["rule"], 5)
