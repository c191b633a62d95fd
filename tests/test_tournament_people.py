"""A knockout that people play (docs/rules.md §9): the draw, results reported as they
come in and in any order, forfeits and penalties, and an event saved and
resumed mid-way that ends as the same event played straight."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import guandan_fast as gf
from guandan_fast.tournament import Event
from guandan_fast.tournament.render import bracket_svg, bracket_tree, standings_table

TEAMS = [f"team {c}" for c in "ABCDEFGHIJKLM"]
UNITS = ["north", "north", "south", "south", "east", None, None, "east", "west", "west", None, "north", None]


def decide(stage: str, a: str, b: str) -> dict:
    """The same result for a tie whenever it is reported: the earlier name in
    TEAMS wins, a forfeit in one tie and a penalty in another."""
    if {a, b} == {"team A", "team E"} or stage == "semi-final" and "team A" in (a, b):
        loser = "team A" if "team A" in (a, b) else a
        return dict(winner=b if loser == a else a, ending="forfeit", penalties=[(loser, "forfeit")])
    w = min(a, b, key=TEAMS.index)
    games = [2, 1] if w == a else [1, 2]
    pens = [(max(a, b, key=TEAMS.index), "minus_two")] if stage == "quarter-final" else []
    return dict(winner=w, games=games, deals=11, penalties=pens)


def play(event: Event, rng: random.Random | None, stop_after: int | None = None) -> int:
    """Reports results until the event is over (or `stop_after` results); shuffled by `rng`."""
    done = 0
    while not event.over and done != stop_after:
        now = event.pairings()
        if rng is not None:
            rng.shuffle(now)
        for stage, a, b in now:
            if rng is not None and rng.random() < 0.5:
                a, b = b, a  # reported either way round
            event.report(a, b, **decide(stage, a, b))
            done += 1
            if done == stop_after:
                break
    return done


def test_a_knockout_of_people_reported_out_of_order_and_resumed_is_the_same_event(tmp_path: Path) -> None:
    straight = Event.create(TEAMS, units=UNITS, seed=21, best_of=3, third_place=True)
    first = straight.pairings()
    assert len(straight.slots) == 16 and straight.slots.count(None) == 3
    assert len(first) == 5  # 13 teams: 3 byes, 5 first-round ties
    for unit in ("north", "south", "east", "west"):
        members = [i for i, u in enumerate(UNITS) if u == unit]
        halves = {straight.slots.index(i) < 8 for i in members}
        assert halves == {True, False}, unit  # same-unit teams in opposite halves
    play(straight, None)
    assert straight.over and not straight.pairings()

    for seed in range(3):
        e = Event.create(TEAMS, units=UNITS, seed=21, best_of=3, third_place=True)
        rng = random.Random(seed)
        play(e, rng, stop_after=4 + seed)
        path = tmp_path / f"event{seed}.json"
        e.save(path)
        resumed = Event.load(path)
        assert resumed.to_dict() == e.to_dict()
        play(resumed, rng)
        assert resumed.over
        assert resumed.rounds() == straight.rounds()  # the same bracket as played straight
        assert resumed.standings() == straight.standings()

    s = straight.standings()
    assert [r["place"] for r in s[:4]] == [1, 2, 3, 4]
    result = straight.result()
    assert result.winner == s[0]["entrant"]
    ties = [t for r in result.bracket["rounds"] for t in r]
    assert any(t.get("ending") == "forfeit" for t in ties)
    assert any(p["kind"] == "minus_two" for t in ties for p in t.get("penalties", []))
    assert "<svg" in bracket_svg(result)
    gf_console = __import__("rich.console", fromlist=["Console"]).Console(record=True, width=120)
    gf_console.print(bracket_tree(result))
    gf_console.print(standings_table(result))
    text = gf_console.export_text()
    assert "forfeit" in text and "penalty: minus two" in text


def test_a_mid_event_bracket_shows_the_ties_to_play() -> None:
    e = Event.create(TEAMS[:5], seed=3)
    stage, a, b = e.pairings()[0]
    e.report(a, b, winner=a)
    r = e.result()
    assert r.winner == "–"
    text = __import__("rich.console", fromlist=["Console"]).Console(record=True, width=120)
    text.print(bracket_tree(r))
    text.print(standings_table(r))
    assert "(to play)" in text.export_text()
    assert "<svg" in bracket_svg(r)


def test_bots_and_people_mixed_and_bad_reports_refused() -> None:
    e = Event.create(["people 1", "greedy", "random", "people 2"], players=[None, "greedy", "random", None], seed=5)
    before = e.to_dict()
    now = e.pairings()
    for kw in [dict(winner="nobody"), dict(winner="people 1", ending="walkover"), dict(winner="people 1", games=[0, 1])]:
        stage, a, b = now[0]
        with pytest.raises(gf.InvalidArgumentError):
            e.report(a, b, **kw)
    with pytest.raises(gf.InvalidArgumentError, match="no tie to play now"):
        e.report("people 1", "people 1", winner="people 1")
    assert e.to_dict() == before
    played = e.play_bots()
    bot_ties = [p for p in now if "people" not in p[1] + p[2]]
    assert played == len(bot_ties)
    assert all("people" in a or "people" in b for _, a, b in e.pairings())
    with pytest.raises(gf.InvalidArgumentError, match="not a knockout event"):
        Event.from_json('{"event": "something else"}')
    data = e.to_dict()
    data["slots"] = data["slots"][::-1]
    with pytest.raises(gf.InvalidArgumentError, match="not the draw"):
        Event.from_dict(data)
