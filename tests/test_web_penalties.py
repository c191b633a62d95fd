"""The referee's decisions at the web table (docs/rules.md §10, docs/web.md):
`Table.penalize` applies them to the table's game, refuses a bad one without
a change, and the view lists them; a decision that ends the deal, the game
or the match leaves the table as a deal's end does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import play_simply

import guandan_fast as gf
from guandan_fast.web.table import PageError, Table
from guandan_fast.web.views import PENALTY_NAMES

GREEDY = {1: "greedy", 2: "greedy", 3: "greedy"}
KINDS = ["minus_two", "back_to_two", "opponents_up", "hidden_card", "out_of_turn", "illegal_signal", "forfeit"]
RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def in_play(steps: int = 9) -> Table:
    """A best-of-3 table `steps` actions into its first deal (seat 0 first to move among the people)."""
    rules = gf.Rules(best_of=3)
    g = gf.Game(rules, seed=4)
    for _ in range(steps):
        g.apply(g.legal_actions()[0])
    return Table(GREEDY, rules=rules, game=g, seed=4)


def state(t: Table) -> tuple[Any, ...]:
    return t.game.position(), t.game.penalties, t.version, t.view()


@pytest.mark.parametrize("kind", KINDS)
def test_each_decision_is_the_engines_and_the_view_lists_it(kind: str) -> None:
    t = in_play()
    expected = t.game.clone()
    expected.penalize(1, kind, seat=3)
    version = t.version
    t.penalize(1, kind, 3)
    g = t.game
    assert (g.position(), g.penalties, g.phase) == (expected.position(), expected.penalties, expected.phase)
    assert t.version == version + 1  # a bot's decision on the table before is dropped
    v = t.view()
    assert v["penalties"] == [{"team": 1, "seat": 3, "kind": kind, "game_number": 0, "deal_number": 0, "actions": 9}]
    assert v["penalty_counts"] == {k: list(n) for k, n in expected.penalty_counts.items()}
    assert v["levels"] == list(expected.levels) and v["phase"] == expected.phase
    if g.phase == "play":  # a level decision or a warning: the deal goes on
        assert v["result"] is None and v["to_move"] == expected.current_player
    else:  # the deal abandoned, or the match forfeited: the table shows it as a deal's end
        r = v["result"]
        assert r["settled"] is False and r["winner"] is None and r["finish_order"] == []
        assert r["referee"] == v["penalties"] and r["levels"] == v["levels"]
        assert v["to_move"] is None and t.bot is None and all(s["hand"] is not None for s in v["seats"])


def test_the_names_are_the_engines_kinds_as_the_rules_give_them() -> None:
    assert list(PENALTY_NAMES) == KINDS == list(gf.PENALTY_KINDS)  # the engine's own list, in the order of §10
    section = RULES_MD.read_text(encoding="utf-8").split("## 10. Referee decisions")[1].split("\n## ")[0]
    for kind, names in PENALTY_NAMES.items():
        assert f'"{kind}"' in section and names["en"] and names["what"]
        assert not names["zh"] or names["zh"] in section, names["zh"]


@pytest.mark.parametrize(
    "team, kind, seat, why",
    [
        (2, "forfeit", None, "team"),
        ("0", "minus_two", None, "team must be 0 or 1"),
        (True, "minus_two", None, "team must be 0 or 1"),
        (None, "minus_two", None, "team must be 0 or 1"),
        (0, "yellow_card", None, "kind must be one of"),
        (0, 5, None, "kind must be"),
        (0, "x" * 500, None, "kind must be"),
        (0, "minus_two", 1, "not of team 0"),
        (0, "minus_two", "2", "seat must be"),
        (0, "minus_two", 2.0, "seat must be"),
        (1, "minus_two", 7, "seat"),
    ],
)
def test_a_bad_decision_is_refused_and_changes_nothing(team: Any, kind: Any, seat: Any, why: str) -> None:
    t = in_play()
    before = state(t)
    with pytest.raises(PageError, match=why) as refused:
        t.penalize(team, kind, seat)
    assert state(t) == before
    assert len(str(refused.value)) < 200  # the message quotes a little of the field at most


def test_a_decision_the_rules_refuse_changes_nothing() -> None:
    t = in_play()
    t.penalize(0, "forfeit")
    over = state(t)
    for kind in KINDS:
        with pytest.raises(PageError, match="match is over"):
            t.penalize(1, kind)
    assert state(t) == over
    with pytest.raises(PageError, match="start a new one"):
        t.next_deal()
    sudden = Table(GREEDY, rules=gf.Rules(sudden_death=True), seed=1)
    before = state(sudden)
    with pytest.raises(PageError, match="sudden-death"):
        sudden.receive({"type": "penalize", "team": 0, "kind": "minus_two"})
    assert state(sudden) == before


def test_after_an_abandoned_deal_the_next_deal_follows_as_after_any_deal() -> None:
    t = in_play()
    assert t.receive({"type": "penalize", "team": 0, "kind": "opponents_up", "seat": 2})["view"]["phase"] == "deal_over"
    v = t.view()
    assert (v["levels"], v["declarer"], v["result"]["level"]) == (["2", "3"], 1, "2")
    assert [(p["team"], p["seat"], p["kind"]) for p in v["result"]["referee"]] == [(0, 2, "opponents_up")]
    t.receive({"type": "next"})
    v = t.view()
    assert (v["phase"], v["level"], v["tribute"], v["to_move"], v["log"], v["result"]) == ("play", "3", None, 3, [], None)
    assert len(v["penalties"]) == 1  # the match's decisions stay listed
    while t.bot is not None:  # the bots play on from the new deal
        assert t.apply_bot(t.decide_bot())
    t.penalize(1, "minus_two")  # a later decision: only it belongs to the deal shown next
    play_simply(t)
    v = t.view()
    assert v["result"]["settled"] is True and [p["kind"] for p in v["result"]["referee"]] == ["minus_two"]


def test_counted_offences_are_shown_and_the_third_ends_the_deal() -> None:
    t = in_play()
    for n in (1, 2):
        t.receive({"type": "penalize", "team": 1, "kind": "illegal_signal"})
        v = t.view()
        assert v["phase"] == "play" and v["penalty_counts"]["illegal_signal"] == [0, n] and v["result"] is None
    t.receive({"type": "penalize", "team": 1, "kind": "illegal_signal"})
    v = t.view()
    assert (v["phase"], v["levels"], v["declarer"], v["penalty_counts"]["illegal_signal"]) == ("deal_over", ["3", "2"], 0, [0, 0])
    assert [p["kind"] for p in v["result"]["referee"]] == ["illegal_signal"] * 3 and len(v["penalties"]) == 3


def test_a_decision_after_a_settled_deal_is_shown_with_its_settlement() -> None:
    t = Table(GREEDY, seed=3)
    play_simply(t)
    settled = t.view()["result"]
    t.penalize(0, "minus_two")
    v = t.view()
    assert v["phase"] == "deal_over" and v["result"]["settled"] is True
    assert v["result"]["finish_order"] == settled["finish_order"] and v["result"]["levels"] == settled["levels"]
    assert [p["kind"] for p in v["result"]["referee"]] == ["minus_two"] and v["levels"] == list(t.game.levels)
    t.next_deal()
    assert t.view()["result"] is None


def test_a_third_hidden_card_ends_the_game_and_a_new_game_follows() -> None:
    t = in_play()
    for _ in range(3):
        if t.game.phase == "deal_over":
            t.next_deal()
        t.penalize(0, "hidden_card")
    v = t.view()
    assert (v["phase"], v["result"]["game_winner"], v["games_won"]) == ("game_over", 1, [0, 1])
    assert v["result"]["levels"] == v["levels"] == list(t.game.levels)
    t.receive({"type": "next"})
    assert (t.game.phase in ("play", "tribute"), t.game.game_number, t.view()["penalties"][-1]["kind"]) == (True, 1, "hidden_card")


def test_a_bot_decision_made_before_a_decision_is_dropped() -> None:
    t = Table(GREEDY, seed=3)
    assert t.bot is not None  # a bot leads this deal
    decided = t.decide_bot()
    t.penalize(1, "minus_two")
    assert not t.apply_bot(decided) and t.bot == decided[0]
    assert t.apply_bot(t.decide_bot())
