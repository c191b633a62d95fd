"""The sparring harness (benches/sparring.py): its statistics on hand-made
records, and short real runs with guandan_fast's own client standing in
for the field's."""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import statistics
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

import guandan_fast as gf
from guandan_fast.bots import decision_seed
from guandan_fast.platform import action_code, action_from_code, platform_rules, read_record, replay

pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))  # sparring.py imports its statistics from sparring_stats.py beside it
import sparring_stats  # noqa: E402

_spec = importlib.util.spec_from_file_location("sparring", ROOT / "benches" / "sparring.py")
assert _spec is not None and _spec.loader is not None
sparring = importlib.util.module_from_spec(_spec)
sys.modules["sparring"] = sparring  # dataclasses look their module up
_spec.loader.exec_module(sparring)


def row(winner: int, order: list[int], gain: int = 1, attempt: Optional[int] = None, passed: bool = False,
        drop: bool = False, level: str = "2", after: Optional[list[int]] = None,
        chance: tuple[float, float] = (0.5, 0.5), tries: Optional[int] = None) -> dict[str, Any]:
    return {"level": level, "order": order, "winner": winner, "double": winner if order[0] % 2 == order[1] % 2 else None,
            "gain": gain, "attempt": attempt, "tries": tries, "passed": passed, "drop": drop, "after": after, "chance": chance}


def test_summarize_counts_games_deals_doubles_levels_and_a_from_our_side() -> None:
    # Game 1: ours on team 0; a 双上 (+3), a loss (+1 for them), two attempts at A, the second passes.
    g1 = {"ours": 0, "winner": 0, "fallbacks": 1, "deals": [
        row(0, [0, 2, 1, 3], gain=3),
        row(1, [1, 0, 2, 3], gain=1),
        row(0, [2, 1, 0, 3], gain=0, attempt=0, level="A"),
        row(0, [0, 2, 3, 1], gain=0, attempt=0, passed=True, level="A"),
    ]}
    # Game 2: ours on team 1 lose it: they attempt A three times, drop once, then pass.
    g2 = {"ours": 1, "winner": 0, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3, attempt=None),
        row(1, [3, 0, 1, 2], gain=2),
        row(0, [0, 1, 2, 3], gain=0, attempt=0, level="A"),
        row(0, [2, 3, 0, 1], gain=0, attempt=0, drop=True, level="A"),
        row(0, [0, 2, 1, 3], gain=0, attempt=0, passed=True, level="A"),
    ]}
    # Game 3: a draw, ours on team 1.
    g3 = {"ours": 1, "winner": None, "fallbacks": 0, "deals": [row(1, [1, 3, 0, 2], gain=3)]}
    s = sparring_stats.summarize([g1, g2, g3])
    assert s["games"]["k"] == 1 and s["games"]["n"] == 3 and s["games"]["draws"] == 1
    assert s["games"]["ci95"] == list(gf.arena.wilson_interval(1, 3))
    assert (s["by_seats"]["0/2"]["k"], s["by_seats"]["0/2"]["n"]) == (1, 1)
    assert (s["by_seats"]["1/3"]["k"], s["by_seats"]["1/3"]["n"]) == (0, 2)
    assert (s["deals"]["k"], s["deals"]["n"]) == (3 + 1 + 1, 10)
    assert s["ours"]["double"]["k"] == 2 + 1 and s["theirs"]["double"]["k"] == 1 + 1
    assert s["ours"]["levels_per_deal"] == pytest.approx((3 + 2 + 3) / 10)
    assert s["theirs"]["levels_per_deal"] == pytest.approx((1 + 3) / 10)
    assert (s["ours"]["a_attempts"], s["ours"]["a_passed"], s["ours"]["a_drops"]) == (2, 1, 0)
    assert (s["theirs"]["a_attempts"], s["theirs"]["a_passed"], s["theirs"]["a_drops"]) == (3, 1, 1)
    assert (s["ours"]["a_lost"], s["ours"]["a_lost_double"], s["ours"]["a_won_short"]) == (0, 0, 1)
    assert (s["theirs"]["a_lost"], s["theirs"]["a_lost_double"], s["theirs"]["a_won_short"]) == (0, 0, 2)
    assert s["deals_per_game"] == pytest.approx(10 / 3) and s["fallbacks"] == 1
    empty = sparring_stats.summarize([])
    assert empty["games"]["n"] == 0 and empty["deals_per_game"] is None


def test_summarize_tells_how_attempts_at_a_failed() -> None:
    # Ours (team 1) at A: lost to a 双上, lost with theirs 1st and 3rd, won with the partner last, passed.
    g = {"ours": 1, "winner": 1, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3, attempt=1, level="A"),
        row(0, [2, 3, 0, 1], gain=2, attempt=1, level="A"),
        row(1, [1, 0, 2, 3], gain=1, attempt=1, level="A"),
        row(1, [3, 1, 0, 2], gain=0, attempt=1, passed=True, level="A"),
    ]}
    s = sparring_stats.summarize([g])
    assert (s["ours"]["a_attempts"], s["ours"]["a_passed"]) == (4, 1)
    assert (s["ours"]["a_lost"], s["ours"]["a_lost_double"], s["ours"]["a_won_short"]) == (2, 1, 1)
    assert s["theirs"]["a_attempts"] == s["theirs"]["a_lost"] == s["theirs"]["a_won_short"] == 0
    report = {"policy": "rule", "entrant": "x", **s, "decision": {"mean_ms": None},
              "faults": {"bad_replies": 0, "timeouts": 0}, "statuses": {"aborted": 0, "timeout": 0, "connect-crash": 0}}
    table = sparring_stats.markdown([report])
    assert "| 1/4 / 0/0 | 2 (1) / 1 / 0 (0) / 0 |" in table


def test_attempts_at_a_are_counted_by_how_they_began() -> None:
    # Ours on team 1. Its attempts: a first one after its 双上 (double tribute) lost to their 双上,
    # a later one after a single tribute won short, a later one after a double passed;
    # theirs: a first one after a single tribute passed; one deal not at A.
    g = {"ours": 1, "winner": 1, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3, after=[1, 3, 0, 2], tries=0, attempt=1, level="A"),
        row(1, [1, 0, 2, 3], gain=1, after=[1, 0, 3, 2], tries=1, attempt=1, level="A"),
        row(1, [3, 1, 0, 2], gain=0, passed=True, after=[1, 3, 0, 2], tries=1, attempt=1, level="A"),
    ]}
    h = {"ours": 1, "winner": 0, "fallbacks": 0, "deals": [
        row(0, [0, 1, 2, 3], gain=1),
        row(0, [2, 0, 1, 3], gain=0, passed=True, attempt=0, level="A", after=[0, 1, 2, 3], tries=0),
    ]}
    a = sparring_stats.a_by_start([g, h])
    assert a["ours"]["first_double"] == {"attempts": 1, "passed": 0, "lost": 1, "lost_double": 1, "won_short": 0}
    assert a["ours"]["later_single"] == {"attempts": 1, "passed": 0, "lost": 0, "lost_double": 0, "won_short": 1}
    assert a["ours"]["later_double"] == {"attempts": 1, "passed": 1, "lost": 0, "lost_double": 0, "won_short": 0}
    assert a["theirs"]["first_single"]["passed"] == a["theirs"]["first_single"]["attempts"] == 1
    assert sum(c["attempts"] for side in a.values() for c in side.values()) == 4
    # A start at A without a finishing order before it: no tribute.
    assert sparring_stats.a_start(row(0, [0, 2, 1, 3], attempt=1, level="A")) == "first_none"
    table = sparring_stats.a_start_markdown([{"policy": "x", "entrant": "y", "a_by_start": a}])
    assert table.splitlines()[2] == "| x | y | x | 0/1 (1 (1) / 0) | — | — | 1/1 (0 (0) / 0) | 0/1 (0 (0) / 1) | — |"
    assert table.splitlines()[3] == "| x | y | y | — | 1/1 (0 (0) / 0) | — | — | — | — |"


def test_implied_games_plays_whole_games_from_the_deal_rates_by_context() -> None:
    # Ours (team 1 here) always finish first and second: every game is won; theirs always: none is.
    ours = {"ours": 1, "winner": 1, "fallbacks": 0, "deals": [row(1, [1, 3, 0, 2], gain=3)]}
    theirs = {"ours": 0, "winner": 1, "fallbacks": 0, "deals": [row(1, [3, 1, 2, 0], gain=3)]}
    assert sparring_stats.implied_games([ours], n=200) == {"rate": 1.0, "a_as_others": 1.0}
    assert sparring_stats.implied_games([theirs], n=200) == {"rate": 0.0, "a_as_others": 0.0}
    even = sparring_stats.implied_games([ours, theirs], n=2000, seed=3)
    assert even is not None and 0.44 < even["rate"] < 0.56 and even["rate"] == even["a_as_others"]
    # 双上 everywhere but at our own A, where the other team always does: under the platform's
    # rules (A passes only with a 双上) our team never wins a game; with the A deals played
    # like the others it wins every one.
    at_a = {"ours": 0, "winner": 1, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3),
        row(1, [1, 3, 0, 2], gain=3, attempt=0, level="A"),
    ]}
    assert sparring_stats.implied_games([at_a], n=200) == {"rate": 0.0, "a_as_others": 1.0}
    assert sparring_stats.implied_games([{"ours": 0, "winner": None, "fallbacks": 0, "deals": []}]) is None
    # The tribute a deal begins with: ours win every first deal and every deal after their own 双上,
    # theirs every deal after theirs. Half the deals each, but the first deal decides every game.
    streak: dict[str, Any] = {"ours": 0, "winner": 0, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3), row(0, [2, 0, 3, 1], gain=3, after=[0, 2, 1, 3])]}
    theirs_after_theirs: dict[str, Any] = {"ours": 1, "winner": 0, "fallbacks": 0, "deals": [
        row(0, [0, 2, 1, 3], gain=3, after=[2, 0, 1, 3]), row(0, [2, 0, 3, 1], gain=3, after=[0, 2, 1, 3])]}
    assert sparring_stats.implied_games([streak, theirs_after_theirs], n=200) == {"rate": 1.0, "a_as_others": 1.0}
    # The same deals with their tribute forgotten: half each, drawn alike whatever came before.
    forgot = [{**g, "deals": [{**r, "after": None} for r in g["deals"]]} for g in (streak, theirs_after_theirs)]
    even = sparring_stats.implied_games(forgot, n=2000, seed=3)
    assert even is not None and 0.44 < even["rate"] < 0.56
    s = sparring_stats.summarize([at_a])
    report = {"policy": "rule", "entrant": "x", **s, "implied": sparring_stats.implied_games([at_a], n=200),
              "decision": {"mean_ms": None}, "faults": {"bad_replies": 0, "timeouts": 0},
              "statuses": {"aborted": 0, "timeout": 0, "connect-crash": 0}}
    assert "| 1/2 = 50% (9%–91%) | 0% (100%) | 50% / 50% |" in sparring_stats.markdown([report])


def test_log_faults_counts_the_servers_fault_lines() -> None:
    log = "\n".join([
        "seat 0: client0 connected",
        "seat 1 (client0): invalid reply '{\"actIndex\": 99}': index 99 is outside 0..3; waiting for a valid one",
        "seat 1 (client0): invalid reply 'oops': not JSON; waiting for a valid one",
        "seat 3 (client2): no valid reply in 60.0 s; greedy moves for it",
        "seat 3 (client2): ignored a message sent unasked: '{\"actIndex\": 0}'",
    ])
    assert sparring_stats.log_faults(log) == {"bad_replies": 2, "timeouts": 1, "unasked": 1}


def recorded_game(seed: int, ours: int, policy: str = "rule", other: str = "greedy", match_seed: Optional[int] = None,
                  game_index: int = 0, made: Optional[list[int]] = None) -> dict[str, Any]:
    """A record line as the server writes it: one platform game with `policy`
    as the server's bots on team `ours` (seeded as the server seeds them) and
    `other` on the client seats."""
    base = seed - game_index if match_seed is None else match_seed
    made = [0, 0, 0, 0] if made is None else made
    game = gf.Game(platform_rules(), seed=seed)
    deals: list[dict[str, Any]] = []
    while game.phase != "match_over":
        if game.phase in ("deal_over", "game_over"):
            game.next_deal()
        if len(deals) == len(game.deals):  # a deal starts
            deals.append({"level": game.level, "actions": []})
        seat = game.current_player
        if seat % 2 == ours:
            made[seat] += 1
            action = gf.policy_action(game, policy, seed=decision_seed(base + seat, made[seat]))
        else:
            action = gf.policy_action(game, other, seed=len(game.actions))
        game.apply(action)
        deals[-1]["actions"].append([seat, action_code(action)])
    seats = {str(s): (f"bot {policy}" if s % 2 == ours else f"client{s}") for s in range(4)}
    return {"type": "game", "table": 0, "game": game_index, "seed": seed, "seats": seats,
            "rules": {**platform_rules().to_dict(), "upgrade": {str(k): v for k, v in platform_rules().to_dict()["upgrade"].items()}},
            "deals": deals,
            "winner": game.game_winners[-1], "levels": list(game.levels)}


def test_deal_rows_follow_the_engines_settlement_and_find_every_attempt_at_a() -> None:
    attempts = passes = 0
    for seed in range(6):
        line = recorded_game(seed, ours=seed % 2)
        game = replay(line)
        rows = sparring_stats.deal_rows(line)
        assert len(rows) == len(game.deals) == len(line["deals"])
        assert sparring_stats.ours_team(line) == seed % 2 and sparring_stats.ours_policy(line) == "rule"
        for i, (r, d) in enumerate(zip(rows, game.deals)):
            assert (r["level"], r["order"], r["winner"], r["gain"]) == (d["level"], d["finish_order"], d["winner"], d["gain"])
            assert r["after"] == (game.deals[i - 1]["finish_order"] if i else None)
            # An attempt at A is a deal the engine settles as a failure at A or as the game's end.
            assert (r["attempt"] is not None) == (d["a_failed"] or d["game_winner"] is not None)
            # Its failed attempts before it: the engine's count after the deal before.
            if r["attempt"] is not None:
                assert r["tries"] == (game.deals[i - 1]["a_fails"][r["attempt"]] if i else 0)
            else:
                assert r["tries"] is None
            if r["passed"]:
                assert r["attempt"] == d["game_winner"] == r["double"] == line["winner"]
            attempts += r["attempt"] is not None
            passes += r["passed"]
            # Team 0's chance of the game: the model's, before the deal and after it (1 or 0 once A is passed).
            before, end = r["chance"]
            assert before == (rows[i - 1]["chance"][1] if i else pytest.approx(0.5, abs=1e-8))
            if r["passed"]:
                assert end == float(line["winner"] == 0)
            else:
                assert end == gf.win_chance(levels=d["levels"], a_fails=d["a_fails"], declarer=d["declarer"],
                                            after=d["finish_order"], rules=game.rules)
        assert rows[-1]["passed"] and sum(r["passed"] for r in rows) == 1
        summary = sparring_stats.game_summary(line)
        assert summary["winner"] == line["winner"] and summary["fallbacks"] == 0
    assert passes == 6 and attempts > passes


def test_the_chance_gained_by_context_adds_up_to_the_games_won() -> None:
    games = [sparring_stats.game_summary(recorded_game(seed, ours=seed % 2)) for seed in range(4)]
    c = sparring_stats.chance_by_context(games)
    assert c["games"] == 4 and sum(c[k]["n"] for k in sparring_stats.CHANCE_GROUPS) == sum(len(g["deals"]) for g in games)
    # Over whole games the chance gained is the share of games won less the even start.
    won = sum(g["winner"] == g["ours"] for g in games) / len(games)
    assert sum(c[k]["per_game"] for k in sparring_stats.CHANCE_GROUPS) == pytest.approx(won - 0.5, abs=1e-7)
    assert c["first"]["n"] == 4 and c["ours_a"]["n"] > 0
    # Hand-made deals: one of each group, from team 1's side (its gain is team 0's loss).
    deals = [row(1, [1, 0, 2, 3], chance=(0.5, 0.4)),
             row(1, [1, 3, 0, 2], after=[1, 0, 2, 3], chance=(0.4, 0.2)),
             row(0, [0, 1, 2, 3], after=[0, 1, 2, 3], chance=(0.3, 0.35)),
             row(1, [1, 3, 0, 2], attempt=1, passed=True, level="A", after=[3, 1, 0, 2], chance=(0.2, 0.0))]
    hand = sparring_stats.chance_by_context([{"ours": 1, "seed": 0, "winner": 1, "play": "", "fallbacks": 0, "deals": deals}])
    assert [hand[k]["per_game"] for k in sparring_stats.CHANCE_GROUPS] == pytest.approx([0.1, 0.2, -0.05, 0.2, 0.0])
    assert hand["theirs_a"] == {"n": 0, "mean": None, "ci95": None, "per_game": 0.0}
    table = sparring_stats.chance_markdown([{"policy": "x", "entrant": "y", "chance": hand}])
    assert table.splitlines()[2] == ("| x | y | 1 | +10.0, +10.00 (-inf to +inf) | +20.0, +20.00 (-inf to +inf) | -5.0, -5.00 (-inf to +inf)"
                                     " | +20.0, +20.00 (-inf to +inf) | — | +45.0 |")


def test_play_style_counts_every_play_decision_of_each_side() -> None:
    lines = [recorded_game(seed, ours=seed % 2) for seed in range(3)]
    style = sparring_stats.play_style(lines)
    decisions = {"ours": 0, "theirs": 0}
    bombs = {"ours": 0, "theirs": 0}
    deals = 0
    rules = platform_rules()
    for line in lines:
        deals += len(line["deals"])
        for deal in line["deals"]:
            for seat, code, *_ in deal["actions"]:
                action = action_from_code(code, deal["level"], rules)
                if isinstance(action, gf.Combo) or action is gf.PASS:
                    side = "ours" if seat % 2 == sparring_stats.ours_team(line) else "theirs"
                    decisions[side] += 1
                    bombs[side] += isinstance(action, gf.Combo) and action.is_bomb
    for side in ("ours", "theirs"):
        st = style[side]
        assert st["deals"] == deals
        leads = round(st["leads"] * deals)
        assert leads + st["facing_long"]["n"] + st["facing_short"]["n"] + st["over_partner"]["n"] == decisions[side]
        assert round(st["bombs"] * deals) == bombs[side]
        assert sum(st["lead_kinds"].values()) == pytest.approx(1.0)
        for key in ("facing_long", "facing_short"):
            assert st[key]["pass"] + st[key]["beat"] + st[key]["bomb"] == pytest.approx(1.0)
    assert style["ours"]["leads"] > 0 and style["theirs"]["over_partner"]["n"] > 0
    table = sparring_stats.style_markdown([{"policy": "rule", "entrant": "greedy", "style": style}])
    assert table.count("\n") == 3 and "| rule | greedy | greedy |" in table
    empty = sparring_stats.play_style([])
    assert empty["ours"]["leads"] is None and empty["theirs"]["over_partner"] == {"n": 0, "rate": None}


def test_deal_rows_of_single_deals_started_at_a_count_passes_not_wins_on_levels() -> None:
    from test_platform_referee import Table

    rows = []
    for team in (0, 1):  # team 0 finishes first and second (it passes A), or team 1 does (team 0 fails, still wins on levels)
        ref = gf.platform.Referee({s: f"c{s}" for s in range(4)}, games=2, seed=30, rules=platform_rules(max_deals=1),
                                  start={"levels": ("A", "2")})
        table = Table(ref, lambda seat, act, team=team: {"actIndex": act["indexRange"] if seat % 2 == team else 0})
        table.play()
        rows += [(team, r) for line in table.records() if line["type"] == "game" for r in sparring_stats.deal_rows(line)]
    assert [(team, r["level"], r["attempt"], r["passed"], r["double"]) for team, r in rows] == [
        (0, "A", 0, True, 0), (0, "A", 0, True, 0), (1, "A", 0, False, 1), (1, "A", 0, False, 1)]


def test_single_deals_started_after_a_finish_are_read_through_their_tribute() -> None:
    from test_platform_referee import Table

    # Our rule bots on team 1 pay the double tribute after team 0's 双上; the clients receive and return.
    ref = gf.platform.Referee({0: "c0", 2: "c2"}, bots={1: "rule", 3: "rule"}, games=4, seed=50, rules=platform_rules(max_deals=1),
                              start={"levels": ("A", "2"), "after": (0, 2, 1, 3)})
    table = Table(ref, lambda seat, act: {"actIndex": act["indexRange"]})
    table.play()
    match = table.records()
    games = [line for line in match if line["type"] == "game"]
    assert all(line["start"]["after"] == [0, 2, 1, 3] for line in games)
    for line in games:
        (r,) = sparring_stats.deal_rows(line)
        (d,) = replay(line).deals
        assert r["after"] == [0, 2, 1, 3]
        assert (r["level"], r["attempt"], r["order"], r["passed"]) == ("A", 0, d["finish_order"], not d["a_failed"])
    # Our bots' decisions replay from the record's start, their tributes included.
    decisions = [(game.phase, policy) for game, policy, _, _ in sparring.bot_decisions(match)]
    assert sum(phase == "tribute" for phase, _ in decisions) >= len(games) and {p for _, p in decisions} == {"rule"}
    assert sparring.time_decisions([match], limit=1000)["same_action"] == 1.0


def test_start_failure_is_an_abort_by_the_last_seat_before_its_first_move() -> None:
    seats = {"0": "bot rule", "1": "c0", "2": "bot rule", "3": "c1"}
    aborted = {"type": "aborted", "game": 0, "seats": seats, "deals": [{"level": "2", "actions": [[0, ["PASS", "PASS", "PASS"]]]}]}
    end = {"type": "aborted", "games": 0, "reason": "seat 3 (c1) connection error ConnectionClosedError"}
    assert sparring_stats.start_failure([aborted, end], 3)
    assert not sparring_stats.start_failure([aborted, end], 1)
    moved = {**aborted, "deals": [{"level": "2", "actions": [[0, ["PASS", "PASS", "PASS"]], [3, ["PASS", "PASS", "PASS"]]]}]}
    assert not sparring_stats.start_failure([moved, end], 3)
    assert not sparring_stats.start_failure([{"type": "game"}, aborted, {**end, "games": 1}], 3)
    assert not sparring_stats.start_failure([{"type": "result", "games": 1}], 3)


def test_our_decisions_replayed_from_a_record_choose_the_recorded_actions() -> None:
    made = [0, 0, 0, 0]
    match = [recorded_game(40 + g, ours=1, match_seed=40, game_index=g, made=made) for g in range(2)]
    match.append({"type": "aborted", "table": 0, "reason": "seat 0 (c) disconnected", "games": 2, "victoryNum": [0] * 4, "draws": [0] * 4})
    decisions = list((seat_policy, seed) for _, seat_policy, seed, _ in sparring.bot_decisions(match))
    assert len(decisions) == made[1] + made[3] and {p for p, _ in decisions} == {"rule"}
    timing = sparring.time_decisions([match], limit=25)
    assert timing["n"] == 25 and timing["same_action"] == 1.0 and timing["mean_ms"] > 0
    assert sparring.time_decisions([match], limit=0)["n"] == 0


def test_a_seeded_client_replays_its_random_draws(tmp_path: Path) -> None:
    import os
    import random
    import subprocess

    draw = [sys.executable, "-c", "import random, sys; print(random.random(), sys.path[1:3])"]
    base = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def run(seed: str) -> tuple[float, str]:
        out = subprocess.run(draw, env=sparring.seeded_env(base, seed), capture_output=True, text=True, timeout=60, check=True).stdout
        value, path = out.split(" ", 1)
        return float(value), path

    first, path = run("7-1")
    assert first == random.Random("7-1").random() and run("7-1")[0] == first
    assert run("7-3")[0] != first
    assert str(tmp_path) in path  # the caller's PYTHONPATH is kept, after the seeding folder


CLIENT = "{python} -m guandan_fast connect --bot greedy --sudden-death ws://127.0.0.1:{port}/game/{name}"
QUICK = ["--serve-arg=--sudden-death", "--port", "0", "--reply-timeout", "20", "--connect-timeout", "30",
         "--match-timeout", "120", "--time-decisions", "10"]


def test_a_short_run_against_our_own_client_and_its_resumption(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, out = tmp_path / "records", tmp_path / "out.json"
    args = ["--ours", "rule", "--client-cmd", CLIENT, "--label", "greedy-client", "--matches", "2", "--games-per-match", "2",
            "--seed", "5", "--records", str(records), "--out", str(out), *QUICK]
    assert sparring.main(args) == 0
    table = capsys.readouterr().out
    assert "| rule | greedy-client | " in table
    report = json.loads(out.read_text(encoding="utf-8"))["pairs"][0]
    assert report["games"]["n"] == 4 and report["matches"] == 2
    assert report["by_seats"]["0/2"]["n"] == report["by_seats"]["1/3"]["n"] == 2
    assert report["statuses"] == {"ok": 2, "aborted": 0, "timeout": 0, "connect-crash": 0}
    assert report["faults"] == {"bad_replies": 0, "timeouts": 0, "unasked": 0} and report["fallbacks"] == 0
    attempts = [json.loads(x) for x in (records / "rule--greedy-client" / "matches.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [a["seeded_clients"] for a in attempts] == [True, True]
    assert report["decision"]["n"] > 0 and report["decision"]["same_action"] == 1.0
    folder = sparring.pair_dir(records, "rule", "greedy-client")
    attempts = sparring.read_attempts(folder)
    assert [(a["match"], a["ours_seats"], a["seed"]) for a in attempts] == [(0, [0, 2], 5), (1, [1, 3], 5)]
    assert sorted(p.name for p in folder.iterdir()) == ["m00-1.jsonl", "m00-1.server.log", "m01-1.jsonl", "m01-1.server.log", "matches.jsonl"]
    for a in attempts:
        lines = read_record(folder / f"{a['stem']}.jsonl")
        assert [line["type"] for line in lines] == ["game", "game", "result"]
        assert {sparring_stats.ours_team(line) for line in lines[:2]} == {a["ours_seats"][0]}
    # Run again: every match is settled, nothing is played; --report gives the same figures.
    assert sparring.main(args) == 0
    assert len(sparring.read_attempts(folder)) == 2
    assert sparring.main(["--report", "--records", str(records), "--out", str(out), "--time-decisions", "0"]) == 0
    again = json.loads(out.read_text(encoding="utf-8"))["pairs"][0]
    assert again["games"] == report["games"] and again["deals"] == report["deals"]
    with pytest.raises(sparring.SparringError, match="holds matches of 2 games"):
        plan = sparring.PairPlan("rule", "greedy-client", 2, 3, 5)
        sparring.play_pair(plan, records, [], sparring.MatchSetup("rule", (0, 2), 5, 3), retries=0,
                           connect_timeout=1, match_timeout=1, keep_logs=False)


CRASHY = '''
import os, sys
from pathlib import Path
from websockets.sync.client import connect as open_socket

port, name = sys.argv[1], sys.argv[2]
flag = Path(__file__).with_name("crashed-once")


def connect():
    socket = open_socket(f"ws://127.0.0.1:{port}/game/{name}")
    socket.recv()  # the match has started
    raise RuntimeError("the handshake's trailing bytes broke the parser")


if name == "sparring1" and not flag.exists():
    flag.write_text("")
    connect()
os.execv(sys.executable, [sys.executable, "-m", "guandan_fast", "connect", "--bot", "greedy", "--sudden-death",
                          f"ws://127.0.0.1:{port}/game/{name}"])
'''


def test_a_match_whose_last_client_breaks_at_its_start_is_played_again(tmp_path: Path) -> None:
    script = tmp_path / "crashy.py"
    script.write_text(CRASHY, encoding="utf-8")
    records = tmp_path / "records"
    args = ["--ours", "greedy", "--client-cmd", f"{{python}} {script} {{port}} {{name}}", "--matches", "1",
            "--games-per-match", "1", "--records", str(records), *QUICK]
    assert sparring.main(args) == 0
    attempts = sparring.read_attempts(sparring.pair_dir(records, "greedy", "custom"))
    assert [(a["attempt"], a["status"]) for a in attempts] == [(1, "connect-crash"), (2, "ok")]
    report = sparring.pair_report(sparring.pair_dir(records, "greedy", "custom"), 0)
    assert report["games"]["n"] == 1 and report["statuses"]["connect-crash"] == 1


def test_a_busy_port_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        args = ["--client-cmd", CLIENT, "--port", str(port), "--records", str(tmp_path), "--matches", "1"]
        assert sparring.main(args) == 2
    assert f"port {port} on 127.0.0.1 is busy" in capsys.readouterr().err


def summary(seed: int, ours: int, won: bool, deals: int = 1, play: str = "x") -> dict[str, Any]:
    winner = ours if won else 1 - ours
    return {"ours": ours, "seed": seed, "winner": winner, "play": play, "fallbacks": 0,
            "deals": [row(winner if i == deals - 1 else 1 - ours, [0, 1, 2, 3]) for i in range(deals)]}


def test_paired_compares_the_games_of_the_same_seed_and_seats() -> None:
    base = [summary(1, 0, True), summary(1, 1, False), summary(2, 0, True, play="y"), summary(3, 1, True)]
    other = [summary(1, 0, True), summary(1, 1, True, play="z"), summary(2, 0, False), summary(4, 0, True),
             summary(3, 0, True)]
    p = sparring_stats.paired(base, other)
    # (1, 0), (1, 1) and (2, 0) are on both sides; (3, 1) and (4, 0), (3, 0) are not.
    assert p["n"] == 3 and p["identical"] == 1
    assert (p["only_other_won"], p["only_base_won"]) == (1, 1)
    assert p["games"]["mean"] == pytest.approx(0.0)
    lo, hi = p["games"]["ci95"]
    assert lo < 0 < hi and hi == pytest.approx(1.96 * statistics.stdev([0, 1, -1]) / 3 ** 0.5)
    # Two-deal games, the first lost: the share of deals won moves by half.
    two = sparring_stats.paired([summary(5, 0, False, deals=2)], [summary(5, 0, True, deals=2)])
    assert two["deal_share"]["mean"] == pytest.approx(0.5) and two["games"]["mean"] == 1.0
    # Levels per deal: base loses both deals (-1 a deal), the other wins its second (0 a deal).
    assert two["levels"]["mean"] == pytest.approx(1.0)
    three = summary(6, 1, True)
    three["deals"] = [row(1, [1, 3, 0, 2], gain=3)]
    assert sparring_stats.paired([summary(6, 1, False)], [three])["levels"]["mean"] == pytest.approx(4.0)
    empty = sparring_stats.paired(base, [])
    assert empty["n"] == 0 and empty["games"] == {"mean": None, "ci95": None}


def test_paired_counts_a_passed_by_each_side() -> None:
    def a_deal(seed: int, ours: int, declarer: int, passed: bool) -> dict[str, Any]:
        g = summary(seed, ours, True)
        g["deals"] = [row(declarer, [declarer, declarer + 2, 1 - declarer, 3 - declarer], attempt=declarer, passed=passed, level="A")]
        return g

    # Ours at A on seed 1 and defending on seed 2: base passes neither time's A
    # of ours and lets theirs pass; the other passes its own and stops theirs.
    base = [a_deal(1, 0, 0, False), a_deal(2, 1, 0, True)]
    other = [a_deal(1, 0, 0, True), a_deal(2, 1, 0, False)]
    p = sparring_stats.paired(base, other)
    assert p["a_net"]["mean"] == pytest.approx(1.0)
    # The chance of the game gained per deal, from our side: team 0's on seed 1, team 1's on seed 2.
    base[0]["deals"][0]["chance"], other[0]["deals"][0]["chance"] = (0.7, 0.5), (0.7, 1.0)
    base[1]["deals"][0]["chance"], other[1]["deals"][0]["chance"] = (0.3, 0.0), (0.3, 0.4)
    p = sparring_stats.paired(base, other)
    assert p["chance"]["mean"] == pytest.approx(((1.0 - 0.5) + ((0.3 - 0.4) - (0.3 - 0.0))) / 2)  # +0.5 and -0.4
    assert sparring_stats.paired(other, base)["a_net"]["mean"] == pytest.approx(-1.0)
    table = sparring_stats.paired_markdown([dict(p, policy="x", base="y", entrant="z")])
    assert "A passed by ours less by theirs" in table and "levels gained by ours less by theirs" in table
    assert table.splitlines()[2].endswith(" | +5.0 (-83.2 to +93.2) |")


def test_policies_take_turns_by_seating_pair_and_are_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, out = tmp_path / "records", tmp_path / "out.json"
    args = ["--ours", "rule,greedy", "--client-cmd", CLIENT, "--label", "greedy-client", "--matches", "4",
            "--games-per-match", "1", "--seed", "9", "--records", str(records), "--out", str(out), *QUICK]
    assert sparring.main(args) == 0
    said = [m.groups() for m in re.finditer(r"^(\S+) vs greedy-client: match (\d)/4", capsys.readouterr().out, re.MULTILINE)]
    assert said == [(p, str(j)) for pair in ((1, 2), (3, 4)) for p in ("rule", "greedy") for j in pair]
    comparison = json.loads(out.read_text(encoding="utf-8"))["paired"]
    assert [(c["policy"], c["base"], c["n"]) for c in comparison] == [("greedy", "rule", 4)]
