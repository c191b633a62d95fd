"""Referee decisions (docs/rules.md §10): `Game.penalize` as the rule books give
them, kept by the position string, pickles, `replay` and the record, and
refused without a change when they cannot apply."""

from __future__ import annotations

import pickle

import pytest

import guandan_fast as gf

KINDS = ["minus_two", "back_to_two", "opponents_up", "hidden_card", "out_of_turn", "illegal_signal", "forfeit"]


def in_play(seed: int = 4, steps: int = 9, rules: gf.Rules | None = None) -> gf.Game:
    g = gf.Game(rules or gf.Rules(best_of=3), seed=seed)
    for _ in range(steps):
        g.apply(g.legal_actions()[0])
    return g


def same(a: gf.Game, b: gf.Game) -> bool:
    return a.position() == b.position() and a.penalties == b.penalties


@pytest.mark.parametrize("kind", KINDS)
def test_each_decision_survives_position_pickle_and_replay(kind: str) -> None:
    rules = gf.Rules(best_of=3)
    actions: list = []
    g = gf.Game(rules, seed=4)
    for _ in range(9):
        a = g.legal_actions()[0]
        actions.append(a)
        g.apply(a)
    g.penalize(1, kind, seat=3)
    actions.append(("penalize", 1, kind, 3))
    assert g.penalties[-1] == {"team": 1, "seat": 3, "kind": kind, "game_number": 0, "deal_number": 0, "actions": 9}
    assert gf.Game.from_position(g.position(), rules).position() == g.position()
    assert same(pickle.loads(pickle.dumps(g)), g)
    r = gf.Game.replay(actions, seed=4, rules=rules)
    assert r.position() == g.position()


def test_opponents_up_abandons_the_deal_and_the_opponents_declare_without_tribute() -> None:
    g = in_play()
    g.penalize(0, "opponents_up", seat=2)
    assert (g.phase, g.levels, g.declarer, g.deals) == ("deal_over", ("2", "3"), 1, [])
    g.next_deal()
    assert (g.phase, g.level, g.tribute, g.current_player) == ("play", "3", None, 3)


def test_counted_offences_trigger_on_the_third_time() -> None:
    g = in_play()
    g.penalize(1, "out_of_turn")
    g.penalize(1, "out_of_turn")
    assert g.phase == "play" and g.penalty_counts["out_of_turn"] == (0, 2)
    g.penalize(1, "out_of_turn")
    assert (g.phase, g.levels, g.declarer, g.penalty_counts["out_of_turn"]) == ("deal_over", ("3", "2"), 0, (0, 0))
    g.next_deal()
    g.penalize(0, "hidden_card")
    g.next_deal()
    g.penalize(0, "hidden_card")
    assert (g.levels, g.penalty_counts["hidden_card"]) == (("3", "4"), (2, 0))
    g.penalize(0, "hidden_card")  # the third 藏牌: the opponents win the game
    assert (g.phase, g.games_won, g.game_winners) == ("game_over", (0, 1), [1])


def test_a_forfeit_gives_the_opponents_the_match() -> None:
    g = in_play()
    g.penalize(0, "forfeit")
    assert (g.phase, g.is_over, g.games_won, g.game_winners) == ("match_over", True, (0, 2), [1, 1])


def test_level_decisions_keep_the_deal_at_its_level_and_never_go_below_two() -> None:
    g = gf.Game(gf.Rules(), seed=1, levels=("4", "A"), declarer=1, a_fails=(0, 1))
    g.penalize(0, "minus_two")
    g.penalize(0, "minus_two")
    g.penalize(1, "back_to_two")
    assert (g.levels, g.a_fails, g.level, g.phase) == (("2", "2"), (0, 0), "A", "play")
    assert gf.Game.from_position(g.position()).position() == g.position()


def test_refused_decisions_change_nothing() -> None:
    g = in_play()
    before = g.position()
    for args, kw, err in [
        ((2, "forfeit"), {}, gf.InvalidArgumentError),
        ((0, "yellow_card"), {}, gf.InvalidArgumentError),
        ((0, "minus_two"), {"seat": 1}, gf.InvalidArgumentError),
    ]:
        with pytest.raises(err):
            g.penalize(*args, **kw)
    g.penalize(1, "forfeit")
    over = g.position()
    for kind in KINDS:
        with pytest.raises(gf.IllegalMoveError, match="match is over"):
            g.penalize(0, kind)
    assert g.position() == over and before != over
    s = gf.Game(gf.Rules(sudden_death=True), seed=1)
    with pytest.raises(gf.IllegalMoveError, match="sudden-death"):
        s.penalize(0, "opponents_up")


def test_strings_without_a_decision_are_unchanged() -> None:
    g = in_play()
    assert " r:" not in g.position()
    g.penalize(0, "illegal_signal")
    assert g.position().endswith(" r:0,0,1,0,0,0,0,0,0")
