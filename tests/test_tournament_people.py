"""A knockout that people play (docs/rules.md §9): the draw, results reported as they
come in and in any order, forfeits and penalties, levels at the deal limit,
and an event saved and resumed mid-way that ends as the same event played
straight."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console

import guandan_fast as gf
from guandan_fast.tournament import Event, TournamentResult
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


def _text(result: TournamentResult) -> str:
    """The bracket tree and standings table of `result` as printed."""
    console = Console(record=True, width=160)
    console.print(bracket_tree(result))
    console.print(standings_table(result))
    return console.export_text()


def test_levels_at_the_deal_limit_are_stored_shown_and_resumed(tmp_path: Path) -> None:
    e = Event.create(["A", "B", "C", "D"], seed=1, best_of=3, third_place=True, tie_break="lots")
    (_, a, b), (_, c, d) = e.pairings()
    # Named b then a, levels as a dict: stored in the bracket's order, as the engine names them.
    e.report(b, a, winner=a, games=[0, 2], ending="levels", deals=14, levels={a: "k", b: "10"})
    # Equal levels: the game in progress decided by the event's lots.
    e.report(c, d, winner=d, games=[1, 2], ending="levels", deals=16, levels=("Q", "Q"))
    semis = e.rounds()[0]
    assert semis[0]["levels"] == ["K", "T"] and "tie_break" not in semis[0]
    assert semis[1]["levels"] == ["Q", "Q"] and semis[1]["tie_break"] == "lots"
    # Equal games (1-1 with the game in progress): the tie-break gives the match to the lower level.
    e.report(a, d, winner=d, games=[1, 1], ending="levels", deals=20, levels=["A", "9"], tie_break="first_out")
    e.report(b, c, winner=c, ending="sudden_death", deals=22, levels=("7", "J"))
    assert e.over

    path = tmp_path / "event.json"
    e.save(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["tie_break"] == "lots"
    assert {k: (r.get("levels"), r.get("tie_break")) for k, r in saved["results"].items()} == {
        "0.0": (["K", "T"], None), "0.1": (["Q", "Q"], "lots"), "1.0": (["A", "9"], "first_out"), "third": (["7", "J"], None),
    }
    resumed = Event.load(path)
    assert resumed.to_dict() == e.to_dict() and resumed.rounds() == e.rounds()

    rows = {s["entrant"]: s for s in resumed.standings()}
    assert rows[d]["place"] == 1 and rows[d]["levels"] == ["9", "A"]  # its own level first
    assert rows[a]["levels"] == ["A", "9"]
    assert rows[c]["levels"] == ["J", "7"] and rows[b]["levels"] == ["7", "J"]
    result = resumed.result()
    data = result.to_dict()
    assert data["bracket"]["rounds"][1][0]["levels"] == ["A", "9"] and data["bracket"]["rounds"][1][0]["tie_break"] == "first_out"
    assert {s["entrant"]: s["levels"] for s in data["standings"]} == {n: r["levels"] for n, r in rows.items()}
    text = _text(result)
    assert "levels K–T after 14 deals" in text and "levels Q–Q (lots) after 16 deals" in text
    assert "levels A–9 (first out) after 20 deals" in text and "levels, last tie" in text
    assert "sudden death at levels" in text
    svg = bracket_svg(result)
    assert "levels A–9 (first out) after 20 deals" in svg


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (dict(ending="levels", levels=("9", "K")), "goes to the higher level"),
        (dict(ending="levels", levels=("K", "K")), "equal levels at the deal limit: say how"),
        (dict(ending="levels", games=[1, 1], levels=("K", "9")), "equal games at the deal limit: say how"),
        (dict(ending="levels", games=[0, 0], levels=("K", "9")), "count the game in progress"),
        (dict(ending="levels", games=[2, 2], levels=("K", "9")), "count the game in progress"),
        (dict(ending="levels", levels=("K", "9"), tie_break="lots"), "this result has none"),
        (dict(ending="levels", levels=("K", "K"), tie_break="coin"), "tie_break must be one of first_out, lots"),
        (dict(ending="levels", levels=("K", "1")), "must be a level '2'"),
        (dict(ending="levels", levels=("K", 13)), "must be a level '2'"),
        (dict(ending="levels", levels="K9"), "levels must be two levels"),
        (dict(ending="levels", levels=("K", "9", "2")), "levels must be two levels"),
        (dict(ending="levels", levels={"X": "K"}), "levels must give the level of"),
        (dict(levels=("K", "9")), "not for one ending 'played'"),
        (dict(ending="forfeit", levels=("K", "9")), "not for one ending 'forfeit'"),
        (dict(ending="sudden_death", levels=("K", "9"), tie_break="first_out"), "this result has none"),
    ],
)
def test_levels_that_do_not_fit_the_result_are_refused(kw: dict, message: str) -> None:
    e = Event.create(["A", "B", "C", "D"], seed=1, best_of=3)
    (_, a, b), _ = e.pairings()
    before = e.to_dict()
    with pytest.raises(gf.InvalidArgumentError, match=message.replace("(", r"\(")):
        e.report(a, b, winner=a, **kw)
    assert e.to_dict() == before
    with pytest.raises(gf.InvalidArgumentError, match="tie_break must be one of"):
        Event.create(["A", "B"], tie_break="coin")


def test_an_event_saved_before_levels_were_reported_still_loads() -> None:
    e = Event.create(["A", "B", "C", "D"], seed=2)
    (_, a, b), (_, c, d) = e.pairings()
    old = e.to_dict()
    del old["tie_break"]
    # As written before levels: a match ended on levels with no levels and its games not counting the game in progress.
    old["results"] = {"0.0": {"winner": e.names.index(a), "games": [0, 0], "ending": "levels", "deals": 11}}
    resumed = Event.from_dict(old)
    assert resumed.tie_break is None and "levels" not in resumed.results["0.0"]
    assert [s["levels"] for s in resumed.standings()] == [None] * 4
    text = _text(resumed.result())
    assert "[levels after 11 deals]" in text and "levels, last tie" not in text
    resumed.report(c, d, winner=c)  # and it goes on
    assert Event.from_json(resumed.to_json()).to_dict() == resumed.to_dict()
    # A tampered level in a saved event is refused as a report is.
    bad = resumed.to_dict()
    bad["results"]["0.0"].update(games=[1, 0], levels=["K", "Z"])
    with pytest.raises(gf.InvalidArgumentError, match="must be a level"):
        Event.from_dict(bad)
