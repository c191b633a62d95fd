"""Each format on small fields with the result checked by hand for seed 7, the
third-place play-off, ties broken by extra deals, determinism and bad input.

The pinned results were checked against the list of matches each run
played (the comments give the reasoning); the checks that follow each one
recompute the standings from the matches, so they hold for any seed."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import guandan_fast as gf
import guandan_fast.distributed as gd
from guandan_fast.tournament import Entrant, LocalBackend, Tournament, TournamentResult

FIELD = ["greedy", "random", "greedy", "random", "random"]  # names: greedy, random, greedy#2, random#2, random#3


def _places(r: TournamentResult) -> list[tuple[int, str]]:
    return [(s["place"], s["entrant"]) for s in r.standings]


def _matches(r: TournamentResult) -> list[tuple[str, str, str, int]]:
    return [(stage, a, b, m.winner) for stage, a, b, m in r.matches]


def _winner(m: tuple[str, str, str, Any]) -> str:
    return m[1] if m[3].winner == 0 else m[2]


def test_knockout_best_of_three_with_a_third_place_play_off() -> None:
    r = Tournament(FIELD, format="knockout", best_of=3, third_place=True, units=["A", "A", "B", "B", None], seed=7).run()
    # 5 entrants: a bracket of 8, 3 byes; one quarter-final, two semi-finals,
    # the final greedy 2-0 random, the play-off greedy#2 beats random#2.
    assert _matches(r) == [
        ("quarter-final", "greedy", "random#3", 0),
        ("semi-final", "greedy#2", "greedy", 1),
        ("semi-final", "random#2", "random", 1),
        ("final", "greedy", "random", 0),
        ("third place", "greedy#2", "random#2", 0),
    ]
    assert _places(r) == [(1, "greedy"), (2, "random"), (3, "greedy#2"), (4, "random#2"), (5, "random#3")]
    assert all(m.games_won[m.winner] == 2 for *_, m in r.matches)
    b = r.bracket
    assert b is not None and b["size"] == 8 and len(b["rounds"]) == 3
    assert sum(1 for t in b["rounds"][0] if t.get("bye")) == 3
    # Units A (greedy, random) and B (greedy#2, random#2) are drawn into opposite halves.
    top = set(b["slots"][:4])
    assert len(top & {"greedy", "random"}) == 1 and len(top & {"greedy#2", "random#2"}) == 1
    # The play-off is between the semi-final losers; the final between their winners.
    semis = [m for m in r.matches if m[0] == "semi-final"]
    losers = {m[1] if _winner(m) == m[2] else m[2] for m in semis}
    third = [m for m in r.matches if m[0] == "third place"][0]
    assert {third[1], third[2]} == losers
    final = [m for m in r.matches if m[0] == "final"][0]
    assert {final[1], final[2]} == {_winner(m) for m in semis}
    assert r.winner == _winner(final)


def test_knockout_without_a_play_off_shares_third_place() -> None:
    r = Tournament(FIELD[:4], format="knockout", seed=7).run()
    assert [p for p, _ in _places(r)] == [1, 2, 3, 3]
    assert len(r.matches) == 3 and all(m.games_won == (1, 0) or m.games_won == (0, 1) for *_, m in r.matches)


def test_qualify_final_breaks_ties_by_one_extra_deal() -> None:
    field = ["greedy", "random", "greedy", "random", "random", "greedy"]
    r = Tournament(field, format="qualify_final", qualify_deals=3, seed=7).run(keep_games=True)
    # Tables: random#2-greedy#2 (levels 2, J), random-greedy (2, J),
    # greedy#3-random#3 (8, 3). greedy and greedy#2 tie on J: an extra deal,
    # won by greedy#2; random and random#2 tie on 2: an extra deal, won by random.
    assert _matches(r) == [
        ("qualifying", "random#2", "greedy#2", 1),
        ("qualifying", "random", "greedy", 1),
        ("qualifying", "greedy#3", "random#3", 0),
        ("qualifying extra deal", "greedy", "greedy#2", 1),
        ("qualifying extra deal", "random", "random#2", 0),
        ("final", "greedy#2", "greedy", 0),
    ]
    assert _places(r) == [(1, "greedy#2"), (2, "greedy"), (3, "greedy#3"), (4, "random#3"), (5, "random"), (6, "random#2")]
    for stage, a, b, m in r.matches:
        if stage == "qualifying":
            assert m.deals == 3 and m.ending == "levels"
        if stage.endswith("extra deal"):
            # One deal at A, won by the first team out.
            (g,) = m.replay()
            assert m.deals == 1 and g.deals[0]["level"] == "A" and m.winner == g.deals[0]["finish_order"][0] % 2
            qual = {row["entrant"]: row["qualifying_place"] for row in r.standings}
            w = _winner((stage, a, b, m))
            assert qual[w] < qual[b if w == a else a]
    assert r.bracket is not None and r.bracket["winner"] == r.winner


def test_race_ranks_by_deals_to_pass_a_then_level() -> None:
    r = Tournament(["greedy", "random", "random", "random"], format="race", max_deals=30, seed=7).run()
    # greedy passes A in 5 deals, random#2 in 24; random (level 3) before random#3 (level 2).
    assert _places(r) == [(1, "greedy"), (2, "random#2"), (3, "random"), (4, "random#3")]
    rows = {s["entrant"]: s for s in r.standings}
    assert (rows["greedy"]["passed_a"], rows["greedy"]["deals"]) == (True, 5)
    assert (rows["random#2"]["passed_a"], rows["random#2"]["deals"]) == (True, 24)
    assert (rows["random"]["level"], rows["random#3"]["level"]) == ("3", "2")


def test_round_robin_plays_every_pair_once_and_ranks_by_wins() -> None:
    r = Tournament(FIELD, format="round_robin", seed=7).run()
    pairs = [frozenset((a, b)) for _, a, b, _ in r.matches]
    assert len(pairs) == 10 and len(set(pairs)) == 10
    wins = {s["entrant"]: 0 for s in r.standings}
    for m in r.matches:
        wins[_winner(m)] += 1
    assert [s["points"] for s in r.standings] == [wins[s["entrant"]] for s in r.standings]
    # greedy#2 4 wins, greedy 3, random 2, random#3 1, random#2 0.
    assert _places(r) == [(1, "greedy#2"), (2, "greedy"), (3, "random"), (4, "random#3"), (5, "random#2")]


def test_swiss_pairs_by_score_without_rematches() -> None:
    r = Tournament(FIELD, format="swiss", rounds=3, seed=7).run()
    pairs = [frozenset((a, b)) for _, a, b, _ in r.matches]
    assert len(pairs) == 6 and len(set(pairs)) == 6
    # Byes: greedy, random#2, random#3, one each. Scores greedy#2 3, greedy 2,
    # random#3 2 (Buchholz 4 and 4, games 0 and 0: the lot), random 1
    # (Buchholz 5) before random#2 1 (Buchholz 4).
    assert _places(r) == [(1, "greedy#2"), (2, "greedy"), (3, "random#3"), (4, "random"), (5, "random#2")]
    rows = {s["entrant"]: s for s in r.standings}
    assert [rows[n]["score"] for n in ("greedy#2", "greedy", "random#3", "random", "random#2")] == [3, 2, 2, 1, 1]
    assert [rows[n]["buchholz"] for n in ("greedy", "random#3", "random", "random#2")] == [4, 4, 5, 4]
    assert sorted(n for n, s in rows.items() if s["bye"]) == ["greedy", "random#2", "random#3"]
    # Round 2 paired the teams on one point first.
    assert ("round 2", "greedy#2", "greedy") in [(s, a, b) for s, a, b, _ in r.matches]


@pytest.mark.parametrize("fmt", ["knockout", "qualify_final", "race", "round_robin", "swiss"])
def test_the_same_seed_gives_the_same_tournament_for_any_thread_count(fmt: str) -> None:
    field = ["greedy", "random", "greedy", "random", "random", "mc:6"]
    runs = [Tournament(field, format=fmt, max_deals=12, at_limit="sudden_death", seed=3, threads=t).run(keep_games=True) for t in (1, 2)]
    assert runs[0].to_dict(records=True) == runs[1].to_dict(records=True)
    other = Tournament(field, format=fmt, max_deals=12, seed=4).run()
    assert other.to_dict() != runs[0].to_dict()


def test_every_match_of_a_tournament_replays_to_its_recorded_winner() -> None:
    r = Tournament(FIELD, format="knockout", best_of=3, max_deals=9, at_limit="sudden_death", seed=5).run(keep_games=True)
    for *_, m in r.matches:
        games = m.replay()
        won = [0, 0]
        for g in games[-1:] if m.ending != "played" else games:
            for w in g.game_winners:
                won[w] += 1
        if m.ending == "sudden_death":
            won = [won[t] + games[0].games_won[t] for t in range(2)]
        assert won[m.winner] == 2


def test_python_bots_and_named_entrants_play_in_this_thread() -> None:
    r = Tournament(
        [Entrant("mine", gf.RandomBot(seed=1), unit="X"), Entrant("theirs", "greedy", unit="X"), Entrant("more", gf.GreedyBot())],
        format="round_robin",
        seed=1,
    ).run()
    assert sorted(s["entrant"] for s in r.standings) == ["mine", "more", "theirs"]
    assert len(r.matches) == 3


def test_a_map_object_receives_every_match() -> None:
    class Counting:
        """Any object with map(func, items): it is handed every match, as play_match and a pickled spec."""

        def __init__(self) -> None:
            self.items = 0

        def map(self, func: Any, items: Any) -> Any:
            self.items += len(items)
            return [pickle.loads(pickle.dumps(func(pickle.loads(pickle.dumps(i))))) for i in items]

    b = Counting()
    r = Tournament(FIELD, format="round_robin", seed=7).run(backend=b, keep_games=True)
    assert b.items == 10
    want = Tournament(FIELD, format="round_robin", seed=7).run(keep_games=True)
    assert _places(r) == _places(want) and r.to_dict(records=True) == want.to_dict(records=True)
    for backend, chunk in ((LocalBackend(threads=1), None), ("local", 3), (gd.MatchBatches("local", 4), None)):
        got = Tournament(FIELD, format="round_robin", seed=7).run(backend, chunk=chunk, keep_games=True)
        assert got.to_dict(records=True) == want.to_dict(records=True)


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    Tournament(FIELD, format="knockout", seed=7).run(progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (4, 4)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (["greedy"], {}, "at least two entrants"),
        ([], {}, "at least two entrants"),
        (["greedy", "random"], {"format": "league"}, "format must be one of"),
        (["greedy", "random"], {"best_of": 2}, "best_of must be 1 or 3"),
        (["greedy", "random", "random"], {"units": ["A", "B"]}, "one unit per entrant"),
        (["greedy", "nobody"], {}, "'nobody'"),
        (["greedy", object()], {}, "policy name or a bot"),
        (["greedy", "random", "random"], {"format": "race"}, "even number of entrants"),
        (["greedy", "random"], {"format": "qualify_final"}, "at least four"),
        (["greedy", "random", "random"], {"format": "swiss", "rounds": 3}, "1..2 rounds"),
        (["greedy", "random"], {"max_deals": 0}, "max_deals"),
        (["greedy", "random"], {"at_limit": "coin"}, "at_limit"),
        (["greedy", "random"], {"rounds": 2}, "rounds is an option of the swiss"),
        ("greedy", {}, "entrants must be a list"),
        (["greedy", "random"], {"max_deals": 10**20}, "max_deals"),
        (["greedy", "random", "greedy", "random"], {"format": "qualify_final", "qualify_deals": 2**32}, "qualify_deals"),
        (["greedy", "random"], {"seed": -1}, "seed"),
        ({1: "greedy", 2: "random"}, {}, "name of entrant 0 must be a non-empty str"),
        ({"": "greedy", "b": "random"}, {}, "name of entrant 0"),
        ([Entrant(" ", "greedy"), "random"], {}, "name of entrant 0"),
    ],
)
def test_bad_input_raises_the_packages_error_naming_what_is_wrong(args: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(gf.InvalidArgumentError, match=message):
        Tournament(args, **kwargs)


def test_a_bad_backend_is_refused() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="backend"):
        Tournament(["greedy", "random"]).run(backend=object())
    with pytest.raises(gf.InvalidArgumentError, match="backend must be 'local', 'ray'"):
        Tournament(["greedy", "random"]).run(backend="spark")
    with pytest.raises(gf.InvalidArgumentError, match="chunk must be at least 1"):
        Tournament(["greedy", "random"]).run(chunk=0)
    with pytest.raises(gf.InvalidArgumentError, match="needs backend='ray'"):
        Tournament(["greedy", "random"]).run("local", address="127.0.0.1:6379")
    for kwargs in ({"progress": 5}, {"on_match": "print"}, {"keep_games": "yes"}):
        with pytest.raises(gf.InvalidArgumentError, match=next(iter(kwargs))):
            Tournament(["greedy", "random"]).run(**kwargs)  # type: ignore[arg-type]


def test_a_tournament_keeps_a_summary_of_each_match_and_streams_the_games() -> None:
    played: list[tuple[str, str, str, Any]] = []
    field = ["greedy", "random"] * 6
    r = Tournament(field, format="round_robin", max_deals=6, seed=2).run(on_match=lambda *m: played.append(m))
    full = Tournament(field, format="round_robin", max_deals=6, seed=2).run(keep_games=True)
    assert len(r.matches) == len(played) == len(full.matches) == 66
    assert r.to_dict() == full.to_dict() and [m[:3] for m in played] == [m[:3] for m in r.matches]
    assert all(m.games == () for *_, m in r.matches) and all(m.games for *_, m in played)
    assert [m.to_dict(True) for *_, m in played] == [m.to_dict(True) for *_, m in full.matches]
    assert len({id(m.spec.rules) for *_, m in r.matches}) == 1  # one rules dict for every spec
    assert len(pickle.dumps(r.matches)) < 600 * len(r.matches)  # a few hundred bytes a match, not the games' 100+ KB
    with pytest.raises(gf.InvalidStateError, match="summary without its games"):
        r.matches[0][3].replay()
    with pytest.raises(gf.InvalidStateError, match="keep_games=True"):
        r.to_dict(records=True)
