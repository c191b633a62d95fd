"""Policies, bots and pitting them against each other."""

from __future__ import annotations

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.arena import wilson_interval


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_pit_is_deterministic_and_counts_both_seatings() -> None:
    a = gf.pit("greedy", "random", n=60, seed=4, threads=1)
    b = gf.pit("greedy", "random", n=60, seed=4, threads=2)
    assert a == b
    assert a.played == 120
    assert a.ci95[0] <= a.win_rate <= a.ci95[1]
    assert "greedy wins" in str(a)


def test_a_policy_against_itself_is_even() -> None:
    r = gf.pit("random", "random", n=400, seed=9)
    assert r.ci95[0] < 0.5 < r.ci95[1]


def test_greedy_beats_random_clearly() -> None:
    r = gf.pit("greedy", "random", n=200, seed=1)
    assert r.ci95[0] > 0.8


@pytest.mark.slow
def test_mc_beats_greedy() -> None:
    r = gf.pit("mc:100", "greedy", n=60, seed=3)
    assert r.ci95[0] > 0.5


def test_pit_over_games() -> None:
    r = gf.pit("greedy", "random", n=4, seed=2, unit="game")
    assert r.played == 8 and r.deals_per_game >= 1


def test_a_pit_played_one_decision_at_a_time_is_the_native_pit() -> None:
    """The path a pit with a model takes: the same deals (and games) as the
    native pit, so deterministic policies get exactly its record."""
    from guandan_fast.arena import _pit_bots_chunk, pit_chunk
    from guandan_fast.distributed.chunks import Span

    rules = gf.Rules(upgrade={2: 4, 3: 2, 4: 1})
    for a, b in (("greedy", "rule-v1"), ("rule", "greedy")):
        for unit, span in (("deal", Span(3, 30)), ("game", Span(1, 3))):
            config = dict(seed=7, threads=1, rules=rules, unit=unit, mode="pattern")
            native = pit_chunk(span, a, b, config)
            assert _pit_bots_chunk(span, a, b, config, {}) == native
            if (a, unit) == ("greedy", "deal"):
                assert 0 < native.a_wins < native.played  # both sides win deals: the winners are compared too


def test_policy_names() -> None:
    g = gf.Game(seed=1)
    for name in ("random", "greedy", "mc", "mc:20", "mc-random:20", "focus:20", "focus+win+infer:20", "best", "best@900ms"):
        a = gf.policy_action(g, name, seed=1)
        assert a in g.legal_actions("pattern")
    for bad in ("mc:0", "mc:x", "greedy:3", "best:3", "best@0ms", "best@9"):
        with pytest.raises(gf.InvalidArgumentError):
            gf.policy_action(g, bad)


def test_a_focused_search_settles_its_endgames_exactly_and_for_any_thread_count() -> None:
    g = gf.Game(hands=["3s 4d 5c 6h 7s 9d", "8d 8c Kd Kc", "5s 6s Qd", "Ts Jd Qc Ac"], leader=0)
    a = gf.policy_action(g, "focus+exact:80", seed=3, threads=1)
    assert a in g.legal_actions("pattern")
    assert a == gf.policy_action(g, "focus+exact:80", seed=3, threads=2)
    bots = [gf.SearchBot("focus+win+exact:40", seed=1), gf.GreedyBot(), gf.SearchBot("focus+exact:40", seed=2), gf.GreedyBot()]
    assert sorted(gf.play_deal(gf.Game(seed=8), bots)) == [0, 1, 2, 3]


def test_bots_play_a_whole_deal_legally() -> None:
    g = gf.Game(seed=5)
    bots = [gf.MCBot(40, seed=1), gf.RandomBot(2), gf.GreedyBot(), gf.RandomBot(3)]
    order = gf.play_deal(g, bots)
    assert sorted(order) == [0, 1, 2, 3]
    assert g.phase == "deal_over"
    g.next_deal()
    gf.play_deal(g, bots)  # tribute and return through the bots
    assert g.phase in ("deal_over", "game_over", "match_over")


def test_mc_bot_takes_a_winning_exit() -> None:
    g = gf.Game(hands=["3s 4d 5c 6h 7s", "8d 8c Kd Kc", "5s 6s Qd", "Ts Jd Qc Ac"], leader=0)
    move = gf.MCBot(50, seed=1).act(g)
    assert isinstance(move, gf.Combo) and move.size == 5


@pytest.mark.parametrize("seed", [np.uint8(200), np.array(200, dtype=np.uint8), np.int64(-5)])
def test_numpy_integer_seeds_seed_like_ints(seed) -> None:
    """A numpy integer seed decides what the same int does (numpy's own
    arithmetic on it would overflow)."""
    g = gf.Game(seed=3)
    assert gf.SearchBot("mc:20", seed=seed).act(g) == gf.SearchBot("mc:20", seed=int(seed)).act(g)
    assert gf.RandomBot(seed).act(g) == gf.RandomBot(int(seed)).act(g)


def test_search_bot_decides_in_its_mode() -> None:
    """`SearchBot(mode=...)` is `policy_action` in that mode: in card mode a
    random bot draws among card-level moves, so some seeds choose otherwise."""
    from guandan_fast.bots import decision_seed

    g = gf.Game(seed=5)
    differ = 0
    for s in range(20):
        by_mode = {}
        for mode in ("cards", "pattern"):
            bot = gf.SearchBot("random", seed=s, mode=mode)
            assert bot.mode == mode
            by_mode[mode] = bot.act(g)
            assert by_mode[mode] == gf.policy_action(g, "random", seed=decision_seed(s, 1), mode=mode)
        differ += by_mode["cards"] != by_mode["pattern"]
    assert differ > 0
    with pytest.raises(gf.InvalidArgumentError, match="mode"):
        gf.SearchBot("random", mode="suits")  # type: ignore[arg-type]
