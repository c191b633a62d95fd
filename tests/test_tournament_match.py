"""Matches with a deal limit: ending on levels, the sudden-death switch, replay, bots, threads."""

from __future__ import annotations

import json
import pickle

import pytest

import guandan_fast as gf
from guandan_fast.tournament import MatchSpec, game_from_record, play_match, play_matches

RANKS = "23456789TJQKA"


def _team(seat: int) -> int:
    return seat % 2


def test_an_unlimited_match_is_won_by_winning_the_games() -> None:
    for seed in range(4):
        r = play_match(MatchSpec("greedy", "random", {"best_of": 3}, seed=seed))
        assert r.ending == "played"
        assert r.games_won[r.winner] == 2 and r.games_won[1 - r.winner] < 2
        (g,) = r.replay()
        assert g.is_over and list(g.game_winners).count(r.winner) == 2
        assert len(g.deals) == r.deals


def test_at_the_limit_the_match_ends_on_levels_and_equal_levels_go_to_the_last_first_out() -> None:
    seen_equal = seen_unequal = 0
    for seed in range(40):
        r = play_match(MatchSpec("random", "random", {}, seed=seed, limit=2))
        if r.ending == "played":
            continue
        assert r.ending == "levels" and r.deals == 2
        (g,) = r.replay()
        assert g.phase == "deal_over"
        a, b = (RANKS.index(x) for x in g.levels)
        assert r.levels == g.levels
        if a == b:
            seen_equal += 1
            expect = _team(g.deals[-1]["finish_order"][0])
        else:
            seen_unequal += 1
            expect = 0 if a > b else 1
        assert r.winner == expect and r.games_won[expect] == 1
    assert seen_equal and seen_unequal


def test_drawing_lots_decides_equal_levels_by_the_seed_and_nothing_else() -> None:
    lots = {0: 0, 1: 0}
    for seed in range(60):
        levels = play_match(MatchSpec("random", "random", {}, seed=seed, limit=2))
        r = play_match(MatchSpec("random", "random", {}, seed=seed, limit=2, at_limit="lots"))
        assert (r.ending, r.deals, r.levels) == (levels.ending, levels.deals, levels.levels)
        again = play_match(MatchSpec("random", "random", {}, seed=seed, limit=2, at_limit="lots"))
        assert (again.winner, again.games_won) == (r.winner, r.games_won)
        a, b = (RANKS.index(x) for x in r.levels)
        if r.ending == "played" or a != b:
            assert r.winner == levels.winner  # the lot only breaks a tie
        else:
            lots[r.winner] += 1
    assert lots[0] and lots[1]


def test_the_sudden_death_switch_keeps_games_won_and_plays_fresh_games_at_a() -> None:
    seen = 0
    for seed in range(30):
        spec = MatchSpec("greedy", "random", {"best_of": 3}, seed=seed, limit=8, at_limit="sudden_death")
        r = play_match(spec)
        if r.ending != "sudden_death":
            continue
        seen += 1
        main, sd = r.replay()
        assert len(main.deals) == 8 and not main.is_over
        kept = main.games_won
        assert sd.rules.sudden_death and sd.rules.best_of == 3
        assert all(d["level"] == "A" for d in sd.deals)
        # Each sudden-death game is one deal, won by the first team out.
        assert [_team(d["finish_order"][0]) for d in sd.deals] == list(sd.game_winners)
        assert r.games_won == (kept[0] + sd.games_won[0], kept[1] + sd.games_won[1])
        assert r.games_won[r.winner] == 2 and r.deals == 8 + len(sd.deals)
    assert seen


def test_a_best_of_one_switch_is_decided_by_one_sudden_death_deal() -> None:
    r = play_match(MatchSpec("random", "random", {}, seed=3, limit=1, at_limit="sudden_death"))
    assert r.ending == "sudden_death" and r.deals == 2
    main, sd = r.replay()
    assert main.games_won == (0, 0)
    assert r.winner == _team(sd.deals[0]["finish_order"][0])


def test_results_do_not_depend_on_threads() -> None:
    specs = [MatchSpec("greedy", "random", {"best_of": 3}, seed=s, limit=6, at_limit="sudden_death") for s in range(10)]
    one = play_matches(specs, threads=1)
    two = play_matches(specs, threads=2)
    assert [(r.winner, r.games_won, r.deals, r.seeds) for r in one] == [(r.winner, r.games_won, r.deals, r.seeds) for r in two]
    assert [[g.actions for g in r.games] for r in one] == [[g.actions for g in r.games] for r in two]


def test_a_match_replayed_from_its_record_gives_the_recorded_winner() -> None:
    r = play_match(MatchSpec("greedy", "mc:8", {"best_of": 3}, seed=11, limit=10, at_limit="sudden_death"))
    data = json.loads(json.dumps(r.to_dict(records=True)))
    games = [game_from_record(g) for g in data["games"]]
    assert [g.actions for g in games] == [g.actions for g in r.games]
    won = [0, 0]
    for g in games:
        for w in g.game_winners:
            won[w] += 1
    if r.ending != "levels":
        assert won[r.winner] == 2
    assert pickle.loads(pickle.dumps(r)).games_won == r.games_won


class Scripted:
    """A bot that plays the first legal action and counts its decisions."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, game: gf.Game) -> object:
        self.calls += 1
        return game.legal_actions()[0]


def test_a_bot_plays_in_this_thread_and_its_match_replays() -> None:
    bot = Scripted()
    r = play_match(MatchSpec(bot, "greedy", {}, seed=2, limit=3))
    assert bot.calls > 0
    (g,) = r.replay()
    assert g.actions == r.games[0].actions


def test_a_built_in_side_decides_as_it_does_natively() -> None:
    spec = MatchSpec("greedy", "random", {"best_of": 3}, seed=9, limit=7, at_limit="sudden_death")
    native = play_match(spec)
    core = spec._core()
    in_thread = gf._core.play_bot_match(core)
    assert [g.actions for g in native.games] == [g.actions for g in in_thread["games"]]


def test_a_bot_that_breaks_the_rules_is_refused() -> None:
    class Cheat:
        def act(self, game: gf.Game) -> object:
            return gf.Combo("As As", level=game.level) if game.phase == "play" else game.legal_actions()[0]

    with pytest.raises(gf.GuandanError):
        play_match(MatchSpec(Cheat(), "random", {}, seed=0))

    class Broken:
        def act(self, game: gf.Game) -> object:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        play_match(MatchSpec(Broken(), "random", {}, seed=0))


def test_bad_specs_are_refused_with_the_packages_error() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="policy"):
        play_match(MatchSpec("nobody", "random"))
    with pytest.raises(gf.InvalidArgumentError, match="limit"):
        play_match(MatchSpec("greedy", "random", limit=0))
    with pytest.raises(gf.InvalidArgumentError, match="at_limit"):
        play_match(MatchSpec("greedy", "random", limit=3, at_limit="coin"))  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidRulesError, match="best_of"):
        play_match(MatchSpec("greedy", "random", {"best_of": 2}))
    with pytest.raises(gf.InvalidArgumentError, match="MatchSpec"):
        play_matches(["greedy"])  # type: ignore[list-item]
