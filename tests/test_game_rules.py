"""RULES.md sections 5-7 against the engine: a deal's turns, tricks, 接风 and
finishing order; tribute, return and 抗贡; levels, the A rules and the end of
a game.

Hand-written cases pin every rule (each assertion would fail if the rule
were implemented differently), and differential tests compare
``settle_deal``, ``tribute_plan`` and whole random games against the
pure-Python reference (tests/reference_game.py) on seeded random inputs.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_game as ref  # noqa: E402

RANKS = ref.RANKS
DECK = [r + s for r in RANKS for s in ref.SUITS] * 2 + ["BJ", "RJ"] * 2  # 108 cards
SETTLE_KEYS = ("winner", "partner_place", "gain", "a_failed", "a_reset", "levels", "a_fails", "declarer", "game_winner")
UPGRADE_VARIANTS = ({2: 3, 3: 2, 4: 1}, {2: 4, 3: 2, 4: 1}, {2: 5, 3: 3, 4: 1}, {2: 6, 3: 4, 4: 2})


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def settle(finish, **kw):
    return gf.settle_deal(list(finish), **kw)


def norm_settle(d):
    """An engine or reference settlement as a plain dict of the documented keys."""
    out = {}
    for k in SETTLE_KEYS:
        v = d[k]
        if k == "levels":
            v = tuple(str(x) for x in v)
        elif k == "a_fails":
            v = tuple(int(x) for x in v)
        out[k] = v
    return out


def texts(cards):
    """Sorted card texts of Cards / a Hand / card text."""
    return sorted(str(c) for c in cards)


def hand_texts(h):
    return sorted(str(c) for c in h)


def action_card(a):
    """The card of a gf.Tribute / gf.Return action."""
    return str(a.card)


def tribute_actions(g):
    acts = g.legal_actions()
    assert all(isinstance(a, gf.Tribute) for a in acts), acts
    return sorted(action_card(a) for a in acts)


def return_actions(g):
    acts = g.legal_actions()
    assert all(isinstance(a, gf.Return) for a in acts), acts
    return sorted(action_card(a) for a in acts)


def is_pass(a):
    return a == gf.PASS


def plays(g):
    return [a for a in g.legal_actions() if isinstance(a, gf.Combo)]


def play(g, cards, kind=None):
    """Plays `cards` (text) as the current player, declared `kind` if given."""
    want = gf.Hand(cards)
    found = [a for a in plays(g) if a.cards == want and (kind is None or a.kind == kind)]
    assert found, f"seat {g.current_player} cannot play {cards} now; legal: {plays(g)}"
    assert len(found) == 1 or kind is not None, found
    g.apply(found[0])
    return found[0]


def pass_(g):
    assert any(is_pass(a) for a in g.legal_actions()), "passing should be legal here"
    g.apply(gf.PASS)


def snapshot(g):
    """Everything observable about a Game, to check that an illegal action changed nothing."""
    return (
        g.phase,
        g.current_player,
        g.level,
        tuple(g.levels),
        tuple(g.a_fails),
        g.declarer,
        tuple(g.finish_order),
        tuple(str(h) for h in g.hands),
        len(g.history),
        None if g.top is None else (str(g.top.cards), g.top.kind, g.top.rank),
    )


def force_finish(g, prefix, max_nodes=50_000):
    """Drives the current deal of `g` (tribute, return and play) so that the
    deal ends with a finishing order starting with `prefix` (the places that
    decide the result: 2 seats for a 1-2 finish, 3 otherwise).  Searches the
    small hand-made deal with clone(); returns the actions applied."""
    prefix = list(prefix)
    nodes = [0]

    def ordered(h):
        acts = h.legal_actions()
        if h.phase != "play":
            return acts
        out = [s for s in prefix if s not in h.finish_order]
        target = out[0] if out else None
        cur = h.current_player
        passes = [a for a in acts if is_pass(a)]
        ps = [a for a in acts if not is_pass(a)]
        if cur == target:
            ps.sort(key=lambda a: -len(a))  # try to go out
            return ps + passes
        ps.sort(key=len)
        return passes + ps

    def dfs(h, path):
        nodes[0] += 1
        if nodes[0] > max_nodes:
            return None
        if h.phase not in ("tribute", "return", "play"):
            return path if list(h.finish_order[: len(prefix)]) == prefix else None
        if list(h.finish_order) != prefix[: len(h.finish_order)]:
            return None
        for a in ordered(h):
            c = h.clone()
            c.apply(a)
            r = dfs(c, path + [a])
            if r is not None:
                return r
        return None

    path = dfs(g.clone(), [])
    assert path is not None, f"no way to finish {prefix} from hands {[str(x) for x in g.hands]}"
    for a in path:
        g.apply(a)
    assert g.phase in ("deal_over", "game_over", "match_over")
    assert list(g.finish_order[: len(prefix)]) == prefix
    return path


def new_game(hands, leader=0, **rules):
    return gf.Game(rules=gf.Rules(**rules) if rules else None, seed=1, hands=list(hands), leader=leader)


# --------------------------------------------------------------------------
# Rules options
# --------------------------------------------------------------------------

def test_rules_defaults_and_errors():
    gf.Rules()
    gf.Rules(upgrade={2: 4, 3: 2, 4: 1}, a_pass="double_down", a_max_attempts=None, a_fail_reset="J", return_max_rank=None)
    assert issubclass(gf.InvalidRulesError, ValueError)
    for bad in (
        dict(a_pass="sometimes"),
        dict(a_max_attempts=0),
        dict(upgrade={2: 3, 3: 2}),
        dict(upgrade={2: 0, 3: 2, 4: 1}),
        dict(a_fail_reset="Z"),
        dict(return_max_rank="Z"),
        dict(best_of=2),
    ):
        with pytest.raises(gf.InvalidRulesError):
            gf.Rules(**bad)


# --------------------------------------------------------------------------
# section 7: settle_deal, hand-written
# --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "finish, winner, place, levels",
    [
        ([0, 2, 1, 3], 0, 2, ("5", "2")),  # 双下 +3
        ([0, 2, 3, 1], 0, 2, ("5", "2")),
        ([2, 1, 0, 3], 0, 3, ("4", "2")),  # partner third +2
        ([2, 3, 1, 0], 0, 4, ("3", "2")),  # partner last +1
        ([1, 3, 0, 2], 1, 2, ("2", "5")),
        ([3, 0, 1, 2], 1, 3, ("2", "4")),
        ([1, 0, 2, 3], 1, 4, ("2", "3")),
    ],
)
def test_upgrade_default(finish, winner, place, levels):
    r = settle(finish)
    assert r["winner"] == winner
    assert r["partner_place"] == place
    assert r["gain"] == {2: 3, 3: 2, 4: 1}[place]
    assert tuple(r["levels"]) == levels
    assert r["declarer"] == winner
    assert r["game_winner"] is None
    assert not r["a_failed"] and not r["a_reset"]
    assert tuple(r["a_fails"]) == (0, 0)


def test_upgrade_variants():
    assert tuple(settle([0, 2, 1, 3], rules=gf.Rules(upgrade={2: 4, 3: 2, 4: 1}))["levels"]) == ("6", "2")
    assert tuple(settle([0, 1, 2, 3], rules=gf.Rules(upgrade={2: 5, 3: 3, 4: 1}))["levels"]) == ("5", "2")
    assert tuple(settle([0, 1, 3, 2], rules=gf.Rules(upgrade={2: 6, 3: 4, 4: 2}))["levels"]) == ("4", "2")


def test_each_team_goes_up_from_its_own_level():
    r = settle([1, 3, 0, 2], levels=("9", "6"), declarer=0)
    assert tuple(r["levels"]) == ("9", "9")
    assert r["declarer"] == 1


def test_level_capped_at_a():
    r = settle([0, 2, 1, 3], levels=("Q", "2"), declarer=0)
    assert tuple(r["levels"]) == ("A", "2") and r["gain"] == 2 and r["game_winner"] is None
    r = settle([0, 1, 2, 3], levels=("K", "3"), declarer=0)
    assert tuple(r["levels"]) == ("A", "3") and r["gain"] == 1
    r = settle([1, 3, 0, 2], levels=("4", "Q"), declarer=0)
    assert tuple(r["levels"]) == ("4", "A") and r["gain"] == 2
    # Exactly to A is no cap.
    r = settle([0, 2, 1, 3], levels=("J", "2"), declarer=1)
    assert tuple(r["levels"]) == ("A", "2") and r["gain"] == 3
    # Reaching A is not winning: the game goes on.
    assert r["game_winner"] is None and not r["a_failed"]


@pytest.mark.parametrize("finish", [[0, 2, 1, 3], [0, 2, 3, 1], [0, 1, 2, 3], [0, 3, 2, 1], [2, 1, 0, 3], [2, 0, 3, 1]])
def test_a_passed_partner_not_last(finish):
    r = settle(finish, levels=("A", "5"), a_fails=(1, 0), declarer=0)
    assert r["game_winner"] == 0
    assert r["winner"] == 0
    assert not r["a_failed"]


def test_a_passed_by_team_1():
    r = settle([3, 1, 0, 2], levels=("5", "A"), declarer=1)
    assert r["game_winner"] == 1


def test_a_failed_partner_last():
    r = settle([0, 1, 3, 2], levels=("A", "5"), a_fails=(0, 0), declarer=0)
    assert r["game_winner"] is None
    assert r["a_failed"] and not r["a_reset"]
    assert tuple(r["levels"]) == ("A", "5")
    assert tuple(r["a_fails"]) == (1, 0)
    assert r["gain"] == 0
    assert r["declarer"] == 0  # still their deal: they declare A again


def test_a_failed_lost():
    r = settle([1, 3, 0, 2], levels=("A", "5"), a_fails=(1, 0), declarer=0)
    assert r["game_winner"] is None
    assert r["a_failed"] and not r["a_reset"]
    assert tuple(r["levels"]) == ("A", "8")
    assert tuple(r["a_fails"]) == (2, 0)
    assert r["declarer"] == 1


def test_a_pass_double_down_option():
    rules = gf.Rules(a_pass="double_down")
    r = settle([0, 1, 2, 3], levels=("A", "5"), declarer=0, rules=rules)
    assert r["game_winner"] is None and r["a_failed"] and tuple(r["a_fails"]) == (1, 0)
    r = settle([0, 2, 1, 3], levels=("A", "5"), declarer=0, rules=rules)
    assert r["game_winner"] == 0


def test_a_reset_after_max_attempts_lost():
    r = settle([1, 0, 2, 3], levels=("A", "5"), a_fails=(2, 0), declarer=0)
    assert r["a_failed"] and r["a_reset"]
    assert tuple(r["levels"]) == ("2", "6")
    assert tuple(r["a_fails"]) == (0, 0)
    assert r["game_winner"] is None


def test_a_reset_even_when_won():
    r = settle([0, 1, 3, 2], levels=("A", "5"), a_fails=(2, 0), declarer=0)
    assert r["a_failed"] and r["a_reset"]
    assert tuple(r["levels"]) == ("2", "5")
    assert tuple(r["a_fails"]) == (0, 0)
    assert r["declarer"] == 0
    assert r["game_winner"] is None


def test_a_reset_options():
    r = settle([1, 0, 2, 3], levels=("A", "5"), a_fails=(2, 0), declarer=0, rules=gf.Rules(a_fail_reset="J"))
    assert tuple(r["levels"]) == ("J", "6") and r["a_reset"]
    r = settle([1, 0, 2, 3], levels=("A", "5"), a_fails=(0, 0), declarer=0, rules=gf.Rules(a_max_attempts=1))
    assert tuple(r["levels"]) == ("2", "6") and r["a_reset"]
    r = settle([1, 0, 2, 3], levels=("A", "5"), a_fails=(7, 0), declarer=0, rules=gf.Rules(a_max_attempts=None))
    assert tuple(r["levels"]) == ("A", "6") and not r["a_reset"] and tuple(r["a_fails"]) == (8, 0)
    r = settle([1, 0, 2, 3], levels=("A", "5"), a_fails=(2, 0), declarer=0, rules=gf.Rules(a_max_attempts=4))
    assert tuple(r["levels"]) == ("A", "6") and not r["a_reset"] and tuple(r["a_fails"]) == (3, 0)


def test_a_failures_need_not_be_consecutive():
    # A deal at the other team's level is no attempt: the count is kept, not reset.
    r = settle([1, 3, 0, 2], levels=("A", "5"), a_fails=(2, 0), declarer=1)
    assert not r["a_failed"] and tuple(r["a_fails"]) == (2, 0) and tuple(r["levels"]) == ("A", "8")
    r = settle([0, 1, 3, 2], levels=("A", "5"), a_fails=(2, 0), declarer=1)
    assert not r["a_failed"] and tuple(r["a_fails"]) == (2, 0)


def test_team_at_a_winning_the_other_teams_deal_does_not_pass():
    r = settle([0, 2, 1, 3], levels=("A", "5"), a_fails=(1, 0), declarer=1)
    assert r["game_winner"] is None
    assert r["gain"] == 0
    assert tuple(r["levels"]) == ("A", "5")
    assert tuple(r["a_fails"]) == (1, 0)
    assert not r["a_failed"]
    assert r["declarer"] == 0  # declares A in the next deal


def test_both_teams_at_a():
    # Team 1's attempt fails (its third) when team 0 wins; team 0 does not pass.
    r = settle([0, 2, 1, 3], levels=("A", "A"), a_fails=(0, 2), declarer=1)
    assert r["game_winner"] is None
    assert r["a_failed"] and r["a_reset"]
    assert tuple(r["levels"]) == ("A", "2")
    assert tuple(r["a_fails"]) == (0, 0)
    assert r["declarer"] == 0
    r = settle([1, 3, 0, 2], levels=("A", "A"), a_fails=(0, 2), declarer=1)
    assert r["game_winner"] == 1


def test_first_deal_no_attempt():
    r = settle([0, 1, 3, 2], levels=("2", "2"), declarer=None)
    assert tuple(r["levels"]) == ("3", "2") and not r["a_failed"] and r["declarer"] == 0


def test_sudden_death_first_f1_wins():
    rules = gf.Rules(sudden_death=True)
    for finish in ([1, 0, 2, 3], [1, 3, 0, 2], [2, 1, 3, 0]):
        r = settle(finish, levels=("A", "A"), declarer=None, rules=rules)
        assert r["game_winner"] == finish[0] % 2


# --------------------------------------------------------------------------
# section 6: tribute_plan, hand-written
# --------------------------------------------------------------------------

def plan(hands, prev, level, **rules):
    return gf.tribute_plan([h.split() for h in hands], list(prev), level, rules=gf.Rules(**rules) if rules else None)


def opts(p):
    return {int(k): texts(v) for k, v in p["options"].items()}


def payments(p):
    return sorted(tuple(x) for x in p["payments"])


def test_single_tribute():
    p = plan(["3s 4s", "5s 6s", "7s 8s", "9s Ks Kd Qs"], [0, 1, 2, 3], "5")
    assert p["kind"] == "single"
    assert payments(p) == [(3, 0)]
    assert opts(p) == {3: ["Kd", "Ks"]}  # either K: suits never matter
    assert p["leader"] == 3


def test_single_tribute_1_3_team_1():
    p = plan(["3s 9d", "5s 6s", "7s 8s", "9s Ks"], [3, 2, 1, 0], "5")
    assert p["kind"] == "single" and payments(p) == [(0, 3)] and opts(p) == {0: ["9d"]} and p["leader"] == 0


def test_single_tribute_1_4_partner_pays():
    # f4 is f1's own partner and still pays f1.
    p = plan(["3s", "4s", "As 3d", "6s"], [0, 1, 3, 2], "3")
    assert p["kind"] == "single"
    assert payments(p) == [(2, 0)]
    assert opts(p) == {2: ["3d"]}  # the non-heart level card is above A
    assert p["leader"] == 2


@pytest.mark.parametrize(
    "hand, level, best",
    [
        ("As 5s 5c 5h BJ", "5", ["BJ"]),
        ("As 5s 5c 5h", "5", ["5c", "5s"]),  # level card above A; the heart 5 is a wildcard
        ("As 5h", "5", ["As"]),  # wildcard exempt even when it is the highest
        ("As 5h 5h 3c", "5", ["As"]),
        ("RJ BJ", "5", ["RJ"]),
        ("Ah Ad Ks", "7", ["Ad", "Ah"]),  # a heart that is not of the level rank is no wildcard
        ("Ah Ad Ks", "A", ["Ad"]),  # at level A the heart A is the wildcard
        ("2d 3s", "2", ["2d"]),  # level 2: a 2 beats a 3
    ],
)
def test_tribute_options_highest(hand, level, best):
    p = plan(["3s", "4s", "6s", hand], [0, 1, 2, 3], level)
    assert opts(p) == {3: best}


def test_double_tribute_larger_to_f1():
    p = plan(["3s", "6s 7s RJ", "4s", "6d BJ 8c"], [0, 2, 3, 1], "5")
    assert p["kind"] == "double"
    assert opts(p) == {1: ["RJ"], 3: ["BJ"]}
    assert payments(p) == [(1, 0), (3, 2)]
    assert p["leader"] == 1
    p = plan(["3s", "6s 7s BJ", "4s", "6d RJ 8c"], [0, 2, 3, 1], "5")
    assert payments(p) == [(1, 2), (3, 0)]
    assert p["leader"] == 3


def test_double_tribute_level_card_above_a():
    p = plan(["3s", "5s 6s", "4s", "As 7s"], [0, 2, 1, 3], "5")
    assert payments(p) == [(1, 0), (3, 2)] and p["leader"] == 1
    # The wildcard is exempt: seat 1 pays its A, seat 3 its level card.
    p = plan(["3s", "5h As", "4s", "Ks 5d"], [0, 2, 1, 3], "5")
    assert opts(p) == {1: ["As"], 3: ["5d"]}
    assert payments(p) == [(1, 2), (3, 0)] and p["leader"] == 3


@pytest.mark.parametrize("f1", [0, 1, 2, 3])
@pytest.mark.parametrize("gifts", [("BJ", "BJ"), ("Ks", "Kd"), ("5s", "5c")])
def test_double_tribute_equal(f1, gifts):
    # Equal tributes: f1 takes from the player seated after f1, who leads.
    f2 = (f1 + 2) % 4
    after = (f1 + 1) % 4
    other = (f1 + 3) % 4
    hands = ["3s", "3s", "3s", "3s"]
    hands[f1] = "3s"
    hands[f2] = "4s"
    hands[after] = f"{gifts[0]} 6s"
    hands[other] = f"{gifts[1]} 7s"
    for prev in ([f1, f2, after, other], [f1, f2, other, after]):
        p = plan(hands, prev, "5")
        assert p["kind"] == "double"
        assert payments(p) == sorted([(after, f1), (other, f2)])
        assert p["leader"] == after


@pytest.mark.parametrize(
    "h_after, h_other",
    [("RJ 6s", "RJ 7s"), ("RJ RJ 6s", "7s"), ("6s", "RJ RJ 7s")],
)
def test_double_resisted(h_after, h_other):
    p = plan(["3s", h_after, "4s", h_other], [0, 2, 1, 3], "5")
    assert p["kind"] == "resisted"
    assert list(p["payments"]) == []
    assert p["leader"] == 0


def test_double_not_resisted_without_both_big_jokers():
    # One big joker with the givers, the other with a receiver.
    p = plan(["RJ 3s", "RJ 6s", "4s", "BJ BJ 7s"], [0, 2, 1, 3], "5")
    assert p["kind"] == "double"
    # Small jokers never resist.
    p = plan(["RJ 3s", "BJ 6s", "RJ 4s", "BJ 7s"], [0, 2, 1, 3], "5")
    assert p["kind"] == "double" and p["leader"] == 1


def test_single_resisted():
    p = plan(["3s", "4s", "5s", "RJ RJ 6s"], [0, 1, 2, 3], "5")
    assert p["kind"] == "resisted" and list(p["payments"]) == [] and p["leader"] == 0
    # 1-4 finish: f4 (f1's partner) resists with both big jokers too.
    p = plan(["3s", "4s", "5s", "RJ RJ"], [1, 0, 2, 3], "5")
    assert p["kind"] == "resisted" and p["leader"] == 1
    p = plan(["3s", "4s", "RJ RJ", "5s"], [1, 0, 2, 3], "5")  # the jokers with f3: tribute
    assert p["kind"] == "single" and payments(p) == [(3, 1)]


def test_single_not_resisted_when_big_jokers_split():
    # Single tribute: only f4's hand counts; one big joker each in f3 and f4 is not 抗贡.
    p = plan(["3s", "4s", "RJ 5s", "RJ 6s"], [0, 1, 2, 3], "5")
    assert p["kind"] == "single" and opts(p) == {3: ["RJ"]} and p["leader"] == 3


# --------------------------------------------------------------------------
# section 5: turns, tricks, 接风, going out, the end of a deal (Game)
# --------------------------------------------------------------------------

def test_first_deal_has_no_tribute_and_given_leader_leads():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=2)
    assert g.phase == "play"
    assert g.current_player == 2
    assert g.tribute is None
    assert g.level == "2" and tuple(g.levels) == ("2", "2") and g.declarer is None
    assert list(g.finish_order) == [] and g.last_result is None


def test_leader_cannot_pass():
    g = new_game(["3s 9d", "4s 9c", "5s 8d", "6s 7d"], leader=0)
    assert not any(is_pass(a) for a in g.legal_actions())
    before = snapshot(g)
    with pytest.raises(gf.IllegalMoveError):
        g.apply(gf.PASS)
    assert snapshot(g) == before


def test_illegal_play_changes_nothing():
    g = new_game(["3s 9d", "4s 9c", "5s 8d", "6s 7d"], leader=0)
    play(g, "9d")
    before = snapshot(g)
    with pytest.raises(gf.IllegalMoveError):
        g.apply(gf.Combo("4s", level="2"))  # does not beat 9d
    assert snapshot(g) == before
    with pytest.raises(gf.GuandanError):
        g.apply(gf.Combo("8d", level="2"))  # not in seat 1's hand
    assert snapshot(g) == before


def test_trick_ends_when_all_others_pass():
    g = new_game(["3s 3d", "4s 9d", "5s 8d", "6s 7d"], leader=0)
    play(g, "3s")
    assert g.current_player == 1
    play(g, "9d")
    assert g.top is not None and g.top.rank == "9"
    pass_(g)
    pass_(g)
    assert g.current_player == 0
    pass_(g)
    assert g.current_player == 1  # the top player leads the next trick
    assert g.top is None
    assert not any(is_pass(a) for a in g.legal_actions())


def test_passing_does_not_leave_the_trick():
    # A player who passed may play when the turn comes round again.
    g = new_game(["3s 3d", "4s Td", "5s 8d", "6s 7d"], leader=0)
    play(g, "3s")
    pass_(g)  # seat 1 passes
    play(g, "5s")
    play(g, "6s")
    pass_(g)  # seat 0
    assert g.current_player == 1
    play(g, "Td")  # seat 1 passed earlier in this trick and may still play
    assert g.current_player == 2 and g.top.rank == "T"


def test_jiefeng_lead_goes_to_partner():
    g = new_game(["3s", "4s 9d", "5s 8d", "6s 7d"], leader=0)
    play(g, "3s")  # seat 0 goes out
    assert list(g.finish_order) == [0]
    assert g.phase == "play"
    pass_(g)
    pass_(g)  # the partner passes too
    pass_(g)
    assert g.current_player == 2  # 接风: not seat 1, the next player
    assert g.top is None
    hist = g.history
    assert [s for s, _ in hist] == [0, 1, 2, 3]
    assert isinstance(hist[0][1], gf.Combo) and all(a == gf.PASS for _, a in hist[1:])


def test_jiefeng_team_1():
    g = new_game(["3s 9d", "4s 8d", "5s 7d", "6s"], leader=3)
    play(g, "6s")  # seat 3 goes out
    pass_(g)
    pass_(g)
    pass_(g)
    assert g.current_player == 1  # 接风 (the next player would have been 0)


def test_out_player_beaten_no_jiefeng():
    # Seat 0 goes out mid-trick; the others can still beat its play.
    g = new_game(["3s", "4s 9d", "5s 8d", "6s 7d"], leader=0)
    play(g, "3s")
    assert g.current_player == 1 and any(is_pass(a) for a in g.legal_actions())
    play(g, "4s")
    pass_(g)
    play(g, "6s")
    assert g.current_player == 1  # seat 0 is out and skipped
    pass_(g)
    pass_(g)
    assert g.current_player == 3  # seat 3's play stood: it leads, no 接风
    assert g.top is None


def test_out_players_are_skipped():
    g = new_game(["3s", "4s", "5s 9d", "6s 7d 8d"], leader=0)
    play(g, "3s")
    play(g, "4s")  # seats 0 and 1 are out
    assert list(g.finish_order) == [0, 1]
    assert g.current_player == 2
    pass_(g)
    assert g.current_player == 3
    pass_(g)
    # Seat 1's play stood and seat 1 is out: 接风 to seat 3.
    assert g.current_player == 3 and g.top is None


def test_deal_end_1_2():
    g = new_game(["3s", "4s 9d", "5s", "6s 7d"], leader=0)
    play(g, "3s")
    pass_(g)
    play(g, "5s")
    assert g.phase == "deal_over"
    assert g.current_player is None
    # The deal ends at once; the rest rank in order of play after the last out.
    assert list(g.finish_order) == [0, 2, 3, 1]
    assert g.legal_actions() == []
    r = g.last_result
    assert r["winner"] == 0 and r["partner_place"] == 2 and r["gain"] == 3
    assert tuple(r["levels"]) == ("5", "2") and tuple(g.levels) == ("5", "2")
    assert g.declarer == 0
    with pytest.raises(gf.IllegalMoveError):
        g.apply(gf.PASS)


def test_deal_end_1_3():
    g = new_game(["3s", "4s", "5s", "6s"], leader=0)
    play(g, "3s")
    play(g, "4s")
    play(g, "5s")
    assert g.phase == "deal_over"
    assert list(g.finish_order) == [0, 1, 2, 3]
    assert g.last_result["partner_place"] == 3 and tuple(g.levels) == ("4", "2")


def test_deal_end_1_4():
    g = new_game(["3s", "4s", "5s", "6s"], leader=0)
    play(g, "3s")
    play(g, "4s")
    pass_(g)
    play(g, "6s")
    assert g.phase == "deal_over"
    assert list(g.finish_order) == [0, 1, 3, 2]
    r = g.last_result
    # Team 1 is out first as a team, but the deal goes to the team of f1.
    assert r["winner"] == 0 and r["partner_place"] == 4 and tuple(g.levels) == ("3", "2")


def test_clone_is_independent():
    g = new_game(["3s 4d", "4s 9d", "5s 8d", "6s 7d"], leader=0)
    c = g.clone()
    play(c, "3s")
    assert g.current_player == 0 and len(g.history) == 0
    assert c.current_player == 1 and len(c.history) == 1


# --------------------------------------------------------------------------
# section 6 in a Game: tribute, return, 抗贡
# --------------------------------------------------------------------------

def game_after(prefix, **rules):
    """A game whose first (hand-made) deal finished with `prefix` first."""
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=prefix[0], **rules)
    force_finish(g, prefix)
    assert g.phase == "deal_over"
    return g


def test_single_tribute_and_return_flow():
    g = game_after([0, 1, 2])  # 1-3: team 0 +2, next level 4
    prev = list(g.finish_order)
    assert prev == [0, 1, 2, 3]
    g.next_deal(hands=["3s Ts Jd 4s Qh", "5s 6s", "7s 8s", "4h As 4d 4c 9s"])
    assert g.level == "4"
    assert list(g.finish_order) == []
    assert g.phase == "tribute"
    assert g.current_player == 3
    assert g.tribute["kind"] == "single"
    assert tribute_actions(g) == ["4c", "4d"]  # level cards above A; 4h is a wildcard
    before = snapshot(g)
    for bad in ("As", "4h", "9s"):
        with pytest.raises(gf.IllegalMoveError):
            g.apply(gf.Tribute(gf.Card(bad)))
        assert snapshot(g) == before
    with pytest.raises(gf.IllegalMoveError):
        g.apply(gf.PASS)
    g.apply(gf.Tribute(gf.Card("4d")))
    assert g.phase == "return"
    assert g.current_player == 0
    assert hand_texts(g.hands[0]) == texts(gf.Hand("3s Ts Jd 4s Qh 4d"))
    # Return: 2..10 and not a level card.
    assert return_actions(g) == ["3s", "Ts"]
    for bad in ("Jd", "4s", "4d", "Qh"):
        with pytest.raises(gf.IllegalMoveError):
            g.apply(gf.Return(gf.Card(bad)))
    g.apply(gf.Return(gf.Card("Ts")))
    assert g.phase == "play"
    assert g.current_player == 3  # f4 leads after a single tribute
    assert hand_texts(g.hands[0]) == texts(gf.Hand("3s Jd 4s Qh 4d"))
    assert hand_texts(g.hands[3]) == texts(gf.Hand("4h As 4c 9s Ts"))
    assert hand_texts(g.hands[1]) == ["5s", "6s"] and hand_texts(g.hands[2]) == ["7s", "8s"]


def test_receiver_with_no_card_up_to_ten_returns_any():
    g = game_after([0, 1, 2])  # next level 4
    g.next_deal(hands=["Jd Qh 4s", "5s 6s", "7s 8s", "As 9s"])
    g.apply(gf.Tribute(gf.Card("As")))
    assert g.phase == "return"
    # Holding 4s (a level card), Jd, Qh and the As just received: nothing of
    # 2..10 that is not a level card, so any card may be returned.
    assert return_actions(g) == sorted(["4s", "As", "Jd", "Qh"])


def test_return_limit_excludes_level_cards_below_ten():
    g = game_after([0, 1, 2])  # level 4: a 4 is a level card, so not returnable
    g.next_deal(hands=["4s 4c Jd", "5s 6s", "7s 8s", "As 9s"])
    g.apply(gf.Tribute(gf.Card("As")))
    assert return_actions(g) == sorted(["4s", "4c", "Jd", "As"])  # nothing allowed: any card
    g2 = game_after([0, 1, 2])
    g2.next_deal(hands=["4s 4c Jd 9c", "5s 6s", "7s 8s", "As 9s"])
    g2.apply(gf.Tribute(gf.Card("As")))
    assert return_actions(g2) == ["9c"]


def test_return_max_rank_options():
    g = game_after([0, 1, 2], return_max_rank=None)
    g.next_deal(hands=["3s Jd", "5s 6s", "7s 8s", "As 9s"])
    g.apply(gf.Tribute(gf.Card("As")))
    assert return_actions(g) == sorted(["3s", "Jd", "As"])
    g = game_after([0, 1, 2], return_max_rank="8")
    g.next_deal(hands=["3s 9c Td 8d Jd", "5s 6s", "7s 8s", "As 9s"])
    g.apply(gf.Tribute(gf.Card("As")))
    assert return_actions(g) == ["3s", "8d"]


def test_1_4_finish_partner_pays_in_game():
    g = game_after([0, 1, 3])  # 1-4: team 0 +1, level 3
    assert list(g.finish_order) == [0, 1, 3, 2]
    g.next_deal(hands=["5s 6s", "7s 8s", "As 3d 9s", "Ts Js"])
    assert g.level == "3"
    assert g.phase == "tribute" and g.current_player == 2
    assert tribute_actions(g) == ["3d"]
    g.apply(gf.Tribute(gf.Card("3d")))
    assert g.current_player == 0
    g.apply(gf.Return(gf.Card("5s")))
    assert g.phase == "play" and g.current_player == 2
    assert hand_texts(g.hands[0]) == ["3d", "6s"]
    assert hand_texts(g.hands[2]) == sorted(["As", "5s", "9s"])


def run_tribute(g, expect_leader, expect_moves):
    """Pays and returns (first legal choice); checks who ends up with what."""
    dealt = [Counter(hand_texts(h)) for h in g.hands]
    moved = {}
    while g.phase == "tribute":
        seat = g.current_player
        card = tribute_actions(g)[0]
        g.apply(gf.Tribute(gf.Card(card)))
        moved[seat] = card
    received = {}
    while g.phase == "return":
        seat = g.current_player
        card = return_actions(g)[0]
        g.apply(gf.Return(gf.Card(card)))
        received[seat] = card
    assert g.phase == "play"
    assert g.current_player == expect_leader
    now = [Counter(hand_texts(h)) for h in g.hands]
    for giver, receiver in expect_moves:
        assert now[receiver][moved[giver]] >= 1
    # Each seat gave one card and got one back (or none moved).
    for s in range(4):
        assert sum(now[s].values()) == sum(dealt[s].values())
    return moved, received


def test_double_tribute_flow_unequal():
    g = game_after([0, 2])  # level 5
    g.next_deal(hands=["3s 8s", "6s 7s RJ", "4s 9s", "6d BJ 8c"])
    assert g.level == "5" and g.phase == "tribute" and g.tribute["kind"] == "double"
    seen = set()
    while g.phase == "tribute":
        seat = g.current_player
        seen.add(seat)
        exp = {1: ["RJ"], 3: ["BJ"]}[seat]
        assert tribute_actions(g) == exp
        g.apply(gf.Tribute(gf.Card(exp[0])))
    assert seen == {1, 3}
    returned = {}
    while g.phase == "return":
        seat = g.current_player
        assert seat in (0, 2)
        c = return_actions(g)[0]
        returned[seat] = c
        g.apply(gf.Return(gf.Card(c)))
    assert set(returned) == {0, 2}
    assert g.current_player == 1  # gave the larger tribute
    assert "RJ" in hand_texts(g.hands[0]) and "BJ" in hand_texts(g.hands[2])
    assert returned[0] in hand_texts(g.hands[1]) and returned[2] in hand_texts(g.hands[3])
    assert "RJ" not in hand_texts(g.hands[1]) and "BJ" not in hand_texts(g.hands[3])


@pytest.mark.parametrize("f1", [0, 1, 2, 3])
def test_double_tribute_flow_equal(f1):
    g = game_after([f1, (f1 + 2) % 4])
    level = g.levels[f1 % 2]
    assert level == "5"
    after, other = (f1 + 1) % 4, (f1 + 3) % 4
    hands = [None] * 4
    hands[f1] = "3s 8s"
    hands[(f1 + 2) % 4] = "4s 9s"
    hands[after] = "Ks 6s"
    hands[other] = "Kd 7s"
    g.next_deal(hands=hands)
    assert g.phase == "tribute"
    run_tribute(g, after, [(after, f1), (other, (f1 + 2) % 4)])
    assert "Ks" in hand_texts(g.hands[f1]) and "Kd" in hand_texts(g.hands[(f1 + 2) % 4])


@pytest.mark.parametrize(
    "prefix, hands, leader",
    [
        ([0, 2], ["3s", "RJ 6s", "4s", "RJ 7s"], 0),  # double: one each
        ([0, 2], ["3s", "RJ RJ 6s", "4s", "7s"], 0),  # double: both in one hand
        ([3, 1], ["RJ 3s", "4s", "RJ 6s", "7s"], 3),
        ([0, 1, 2], ["3s", "4s", "5s", "RJ RJ 6s"], 0),  # single
        ([1, 2, 0], ["3s", "4s", "5s", "RJ RJ 6s"], 1),
        ([0, 1, 3], ["3s", "4s", "RJ RJ", "6s"], 0),  # single, 1-4: f4 is f1's partner
    ],
)
def test_resisted_in_game(prefix, hands, leader):
    g = game_after(prefix)
    g.next_deal(hands=hands)
    assert g.phase == "play"
    assert g.current_player == leader
    assert g.tribute["kind"] == "resisted"
    assert [hand_texts(h) for h in g.hands] == [texts(gf.Hand(h)) for h in hands]


def test_not_resisted_when_the_big_jokers_are_split_in_a_single():
    g = game_after([0, 1, 2])
    g.next_deal(hands=["3s", "4s", "RJ 5s", "RJ 6s"])
    assert g.phase == "tribute" and g.current_player == 3
    assert tribute_actions(g) == ["RJ"]


# --------------------------------------------------------------------------
# section 7 in a Game: levels, A, the end of a game and a match
# --------------------------------------------------------------------------

TEAM0_DOUBLE_RESISTED = ["3s 3d", "RJ 4s", "6s 6d", "RJ 7s"]  # after team 0's 双下


def climb_to_a(g):
    """Team 0 wins 1-2 four times from level 2: 2 -> 5 -> 8 -> J -> A."""
    for want in ("5", "8", "J", "A"):
        force_finish(g, [0, 2])
        assert g.phase == "deal_over"
        assert tuple(g.levels) == (want, "2")
        g.next_deal(hands=TEAM0_DOUBLE_RESISTED)
        assert g.level == want
        assert g.phase == "play" and g.current_player == 0


def test_game_won_by_passing_a():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0)
    climb_to_a(g)
    assert g.level == "A" and g.declarer == 0
    force_finish(g, [0, 2])
    assert g.last_result["game_winner"] == 0
    assert g.phase == "match_over"  # best_of=1
    assert g.current_player is None
    with pytest.raises(gf.GuandanError):
        g.next_deal()


def test_game_not_won_reaching_a():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0)
    for _ in range(3):
        force_finish(g, [0, 2])
        g.next_deal(hands=TEAM0_DOUBLE_RESISTED)
    force_finish(g, [0, 2])
    assert tuple(g.levels) == ("A", "2")
    assert g.phase == "deal_over" and g.last_result["game_winner"] is None


def test_a_attempts_fail_and_reset_in_game():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0)
    climb_to_a(g)
    # Three deals at A, won 1-4 (partner last): each a failed attempt.
    hands_after_1_4 = ["3s", "4s", "RJ RJ", "5s"]  # f4 = 2 holds both: 抗贡
    for attempt in (1, 2, 3):
        assert g.level == "A"
        force_finish(g, [0, 1, 3])
        r = g.last_result
        assert r["a_failed"] and r["game_winner"] is None
        if attempt < 3:
            assert tuple(g.a_fails) == (attempt, 0)
            assert tuple(g.levels) == ("A", "2")
            g.next_deal(hands=hands_after_1_4)
            assert g.phase == "play" and g.current_player == 0
        else:
            assert r["a_reset"]
            assert tuple(g.a_fails) == (0, 0)
            assert tuple(g.levels) == ("2", "2")
    assert g.declarer == 0
    g.next_deal(hands=hands_after_1_4)
    assert g.level == "2"


def test_team_at_a_winning_other_deal_then_passing():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0)
    climb_to_a(g)
    # At A, team 1 wins 1-2: a failed attempt for team 0.
    force_finish(g, [1, 3])
    assert tuple(g.levels) == ("A", "5") and tuple(g.a_fails) == (1, 0) and g.declarer == 1
    g.next_deal(hands=["RJ 3s", "4s 4d", "RJ 6s", "7s 7d"])  # 抗贡 by seats 0 and 2
    assert g.level == "5" and g.phase == "play" and g.current_player == 1
    # Team 0 wins team 1's deal 1-2: no pass, it declares A next.
    force_finish(g, [2, 0])
    r = g.last_result
    assert r["game_winner"] is None and r["gain"] == 0 and not r["a_failed"]
    assert tuple(g.levels) == ("A", "5") and tuple(g.a_fails) == (1, 0) and g.declarer == 0
    assert g.phase == "deal_over"
    g.next_deal(hands=["3s", "RJ 9s", "4s", "RJ 9d"])
    assert g.level == "A" and g.current_player == 2
    force_finish(g, [2, 0])
    assert g.last_result["game_winner"] == 0 and g.phase == "match_over"


def test_best_of_three_new_game_after_a_win():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0, best_of=3)
    climb_to_a(g)
    force_finish(g, [0, 2])
    assert g.phase == "game_over"
    g.next_deal(hands=["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=1)
    # A fresh game: both at 2, no tribute.
    assert g.phase == "play" and g.current_player == 1
    assert tuple(g.levels) == ("2", "2") and g.level == "2" and g.declarer is None
    assert g.tribute is None


def test_max_deals_higher_level_wins():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=1, max_deals=1)
    force_finish(g, [1, 3])  # team 1 +3
    assert tuple(g.levels) == ("2", "5")
    assert g.last_result["game_winner"] == 1
    assert g.phase == "match_over"


def test_max_deals_equal_levels_last_f1_wins():
    g = new_game(["3s 3d", "4s 4d", "5s 5d", "6s 6d"], leader=0, max_deals=2)
    force_finish(g, [0, 1, 3])  # team 0 +1: 3 vs 2
    assert g.phase == "deal_over"
    g.next_deal(hands=["5s 9s", "6s", "RJ RJ", "7s"])  # 抗贡, seat 0 leads
    assert g.current_player == 0
    force_finish(g, [1, 0, 2])  # team 1 +1: 3 vs 3
    assert tuple(g.levels) == ("3", "3")
    assert g.last_result["game_winner"] == 1


def test_best_of_three_sudden_death_match():
    g = new_game(["5s", "4s", "6s", "7s 7d"], leader=1, sudden_death=True, best_of=3)
    force_finish(g, [1, 0, 2])
    assert g.phase == "game_over" and g.last_result["game_winner"] == 1
    g.next_deal(hands=["5s", "4s", "6s", "7s 7d"], leader=1)
    assert g.phase == "play" and g.tribute is None and g.level == "A"  # a fresh game: no tribute
    force_finish(g, [1, 0, 2])
    assert g.phase == "match_over" and tuple(g.games_won) == (0, 2)


def test_sudden_death_game():
    g = new_game(["5s", "4s", "6s", "7s 7d"], leader=1, sudden_death=True)
    assert g.level == "A"
    force_finish(g, [1, 0, 2])  # team 1 first out, partner last
    assert g.last_result["game_winner"] == 1
    assert g.phase == "match_over"


# --------------------------------------------------------------------------
# differential: settle_deal against the reference
# --------------------------------------------------------------------------

def random_rules(rng):
    kw = dict(
        upgrade=dict(rng.choice(UPGRADE_VARIANTS)),
        a_pass=rng.choice(["partner_not_last", "double_down"]),
        a_max_attempts=rng.choice([3, 3, 1, 2, 4, None]),
        a_fail_reset=rng.choice(["2", "2", "J", "5"]),
        return_max_rank=rng.choice(["T", "T", "8", "A", None]),
        sudden_death=rng.random() < 0.05,
    )
    return kw


def random_level_state(rng, kw):
    levels = tuple(rng.choice(["A", "A", "A"] + list(RANKS)) for _ in range(2))
    limit = kw["a_max_attempts"]
    a_fails = tuple(
        (rng.randrange(limit) if limit is not None else rng.randrange(6)) if levels[t] == "A" else rng.choice([0, 0, 1])
        for t in range(2)
    )
    if limit is not None:
        a_fails = tuple(min(x, limit - 1) for x in a_fails)
    declarer = rng.choice([None, 0, 1, 0, 1])
    return levels, a_fails, declarer


def check_settle(rng):
    kw = random_rules(rng)
    levels, a_fails, declarer = random_level_state(rng, kw)
    finish = list(range(4))
    rng.shuffle(finish)
    got = gf.settle_deal(finish, levels=levels, a_fails=a_fails, declarer=declarer, rules=gf.Rules(**kw))
    want = ref.settle_deal(finish, levels, a_fails, declarer, rules=ref.GameRules(**kw))
    assert norm_settle(got) == norm_settle(want), (finish, levels, a_fails, declarer, kw)


def test_settle_matches_reference():
    rng = random.Random(20240601)
    for _ in range(4000):
        check_settle(rng)


def test_settle_all_orders_all_levels_default_rules():
    # Exhaustive over the 24 orders x 13 x 13 levels x declarer, default rules.
    for finish in itertools.permutations(range(4)):
        for l0, l1 in itertools.product(RANKS, RANKS):
            for declarer in (None, 0, 1):
                got = settle(finish, levels=(l0, l1), a_fails=(1, 2), declarer=declarer)
                want = ref.settle_deal(finish, (l0, l1), (1, 2), declarer)
                assert norm_settle(got) == norm_settle(want), (finish, l0, l1, declarer)


def test_settle_chains_match_reference():
    # Whole games of random finishing orders, each settlement feeding the next.
    rng = random.Random(77)
    for _ in range(200):
        kw = random_rules(rng)
        kw["sudden_death"] = False
        rules, rrules = gf.Rules(**kw), ref.GameRules(**kw)
        levels, a_fails, declarer = ("2", "2"), (0, 0), None
        for _deal in range(60):
            finish = list(range(4))
            rng.shuffle(finish)
            got = norm_settle(gf.settle_deal(finish, levels=levels, a_fails=a_fails, declarer=declarer, rules=rules))
            want = norm_settle(ref.settle_deal(finish, levels, a_fails, declarer, rules=rrules))
            assert got == want, (finish, levels, a_fails, declarer, kw)
            if got["game_winner"] is not None:
                break
            levels, a_fails, declarer = got["levels"], got["a_fails"], got["declarer"]


@pytest.mark.slow
def test_settle_matches_reference_slow():
    rng = random.Random(99)
    for _ in range(100_000):
        check_settle(rng)


# --------------------------------------------------------------------------
# differential: tribute_plan against the reference
# --------------------------------------------------------------------------

def random_finish(rng):
    f = list(range(4))
    rng.shuffle(f)
    return f


def random_hands(rng, level):
    """Four hands from the 108 cards: full 27-card deals, or small hands drawn
    from a narrow deck (few ranks, the level rank and the jokers) so that
    equal tributes, level cards, wildcards and big jokers are frequent."""
    mode = rng.random()
    if mode < 0.35:
        deck = DECK[:]
        rng.shuffle(deck)
        return [deck[27 * i : 27 * i + 27] for i in range(4)]
    ranks = rng.sample(RANKS, rng.randint(1, 4))
    if level not in ranks and rng.random() < 0.6:
        ranks.append(level)
    deck = [c for c in DECK if ref.card_rank(c) in ranks]
    deck += [j for j in ("BJ", "BJ", "RJ", "RJ") if rng.random() < 0.5]
    rng.shuffle(deck)
    hands = [[] for _ in range(4)]
    for s in range(4):
        for _ in range(rng.randint(1, 6)):
            if deck:
                hands[s].append(deck.pop())
    # Every giver needs a card that is not a wildcard (27-card hands always have one).
    spare = [c for c in DECK if not ref.is_wildcard(c, level) and c not in ("BJ", "RJ")]
    for s in range(4):
        if all(ref.is_wildcard(c, level) for c in hands[s]):
            used = Counter(c for h in hands for c in h)
            hands[s].append(next(c for c in spare if used[c] < 2))
    return hands


def check_plan(rng):
    level = rng.choice(RANKS)
    hands = random_hands(rng, level)
    prev = random_finish(rng)
    form = rng.randrange(3)
    arg = [list(h) if form == 0 else (" ".join(h) if form == 1 else gf.Hand(" ".join(h))) for h in hands]
    got = gf.tribute_plan(arg, prev, level)
    want = ref.tribute_plan(hands, prev, level)
    ctx = (hands, prev, level)
    assert got["kind"] == want["kind"], ctx
    assert sorted(tuple(p) for p in got["payments"]) == sorted(want["payments"]), ctx
    assert {int(k): texts(v) for k, v in got["options"].items()} == want["options"], ctx
    assert got["leader"] == want["leader"], ctx


def test_tribute_plan_matches_reference():
    rng = random.Random(31337)
    for _ in range(3000):
        check_plan(rng)


@pytest.mark.slow
def test_tribute_plan_matches_reference_slow():
    rng = random.Random(4242)
    for _ in range(60_000):
        check_plan(rng)


def check_return_options(rng):
    level = rng.choice(RANKS)
    hand = random_hands(rng, level)[0]
    limit = rng.choice(["T", "T", "8", "2", "A", None])
    rules = gf.Rules(return_max_rank=limit)
    got = texts(gf.return_options(" ".join(hand), level, rules=rules))
    assert got == ref.return_options(hand, level, limit), (hand, level, limit)


def test_return_options_match_reference():
    rng = random.Random(555)
    for _ in range(3000):
        check_return_options(rng)


# --------------------------------------------------------------------------
# differential: whole random games against the reference
# --------------------------------------------------------------------------

def small_hands(rng, level, max_size):
    """Four small disjoint-within-two-decks hands, none made only of wildcards."""
    while True:
        deck = DECK[:]
        rng.shuffle(deck)
        hands, i = [], 0
        for _ in range(4):
            n = rng.randint(1, max_size)
            hands.append(deck[i : i + n])
            i += n
        if rng.random() < 0.15:  # plant both big jokers with one or two players
            rest = [c for c in deck[i:] if c == "RJ"]
            seats = rng.sample(range(4), 2)
            for s, j in zip(seats if rng.random() < 0.5 else [seats[0]] * 2, rest):
                hands[s].append(j)
        if all(any(not ref.is_wildcard(c, level) for c in h) for h in hands):
            return hands


def play_random_game(seed, max_deals=12, max_size=6, full=False):
    """Plays a random game (random legal choices) and checks every step
    against the reference: tribute options, receivers, return options, cards
    moved and the leader; whose turn it is, passing, 接风 and the finishing
    order; each settlement.  Small hand-made deals unless `full` (27-card
    deals from the engine's seeded shuffle)."""
    rng = random.Random(seed)
    kw = random_rules(rng)
    kw["sudden_death"] = False
    rrules = ref.GameRules(**kw)
    if full:
        g = gf.Game(rules=gf.Rules(**kw), seed=seed)
        leader = g.current_player
    else:
        hands = small_hands(rng, "2", max_size)
        leader = rng.randrange(4)
        g = gf.Game(rules=gf.Rules(**kw), seed=seed, hands=hands, leader=leader)
    levels, a_fails, declarer, prev = ("2", "2"), (0, 0), None, None
    for deal in range(max_deals):
        if full:
            hands = [hand_texts(h) for h in g.hands]
            assert sorted(c for h in hands for c in h) == sorted(DECK)
        level = "2" if declarer is None else levels[declarer]
        assert g.level == level
        assert tuple(g.levels) == tuple(levels) and tuple(g.a_fails) == tuple(a_fails) and g.declarer == declarer
        assert [hand_texts(h) for h in g.hands] == [sorted(h) for h in hands]
        if prev is None:
            assert g.tribute is None and g.phase == "play" and g.current_player == leader
        else:
            want = ref.tribute_plan(hands, prev, level)
            assert g.tribute["kind"] == want["kind"], (hands, prev, level)
            cur = [Counter(h) for h in hands]
            paid = {}
            while g.phase == "tribute":
                seat = g.current_player
                assert seat in want["options"]
                assert tribute_actions(g) == want["options"][seat]
                card = rng.choice(want["options"][seat])
                g.apply(gf.Tribute(gf.Card(card)))
                paid[seat] = card
            receiver_of = dict(want["payments"])
            assert set(paid) == set(receiver_of)
            for giver, card in paid.items():
                cur[giver][card] -= 1
                cur[receiver_of[giver]][card] += 1
            returned = {}
            while g.phase == "return":
                seat = g.current_player
                giver = next(gv for gv, rc in want["payments"] if rc == seat)
                allowed = ref.return_options(list(cur[seat].elements()), level, rrules.return_max_rank)
                assert return_actions(g) == allowed, (seat, dict(cur[seat]), level)
                card = rng.choice(allowed)
                g.apply(gf.Return(gf.Card(card)))
                cur[seat][card] -= 1
                cur[giver][card] += 1
                returned[seat] = (giver, card)
            assert g.phase == "play"
            assert g.current_player == want["leader"], (hands, prev, level, want)
            # Tribute and return cards are public: the Game's record of them.
            t = g.tribute
            assert sorted((int(a), int(b), str(c)) for a, b, c in t["tributes"]) == sorted(
                (gv, receiver_of[gv], card) for gv, card in paid.items()
            )
            assert sorted((int(a), int(b), str(c)) for a, b, c in t["returns"]) == sorted(
                (rc, gv, card) for rc, (gv, card) in returned.items()
            )
            assert t["leader"] == want["leader"]
            assert [hand_texts(h) for h in g.hands] == [sorted(c.elements()) for c in cur]
        # The play phase against the turn-order reference.
        trick = ref.TrickRef([len(h) for h in g.hands], g.current_player)
        while g.phase == "play":
            assert g.current_player == trick.current
            assert list(g.finish_order) == trick.finish
            acts = g.legal_actions()
            can_pass = any(is_pass(a) for a in acts)
            assert can_pass == (trick.top is not None)
            assert (g.top is None) == (trick.top is None)
            ps = [a for a in acts if not is_pass(a)]
            seat = g.current_player
            if can_pass and (not ps or rng.random() < 0.45):
                g.apply(gf.PASS)
                trick.pass_(seat)
            else:
                a = rng.choice(ps)
                g.apply(a)
                trick.play(seat, len(a))
        assert trick.over
        assert list(g.finish_order) == trick.finish
        want = ref.settle_deal(trick.finish, levels, a_fails, declarer, rules=rrules)
        assert norm_settle(g.last_result) == norm_settle(want)
        if want["game_winner"] is not None:
            assert g.phase == "match_over"
            return deal + 1
        assert g.phase == "deal_over"
        levels, a_fails, declarer = want["levels"], want["a_fails"], want["declarer"]
        assert tuple(g.levels) == tuple(levels)
        prev = list(trick.finish)
        if full:
            g.next_deal()
        else:
            hands = small_hands(rng, levels[declarer], max_size)
            g.next_deal(hands=hands)
    return max_deals


def test_random_games_match_reference():
    for seed in range(60):
        play_random_game(seed)


def test_random_full_deals_match_reference():
    for seed in range(12):
        play_random_game(seed, max_deals=8, full=True)


@pytest.mark.slow
def test_random_games_match_reference_slow():
    for seed in range(1000, 3000):
        play_random_game(seed, max_deals=40, max_size=9)


@pytest.mark.slow
def test_random_full_games_match_reference_slow():
    for seed in range(100, 400):
        play_random_game(seed, max_deals=30, full=True)


def test_first_leader_given_or_drawn():
    for leader in range(4):
        assert gf.Game(seed=5, leader=leader).current_player == leader
    assert {gf.Game(seed=s).current_player for s in range(64)} == {0, 1, 2, 3}


def test_tribute_never_stuck_when_the_giver_holds_only_wildcards():
    # RULES is silent (27-card deals always have a payable card), but a game
    # in the tribute phase must never be left without a legal action: the
    # engine should either refuse such hand-made hands or let the giver pay.
    g = game_after([0, 1, 2])  # next level 4: 4h is a wildcard
    try:
        g.next_deal(hands=["3s Ts", "5s 6s", "7s 8s", "4h"])
    except gf.GuandanError:
        return
    assert g.phase == "tribute"
    assert g.legal_actions(), "seat 3 must pay tribute but has no legal action"
