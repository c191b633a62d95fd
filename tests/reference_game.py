"""Slow, obviously-correct pure-Python reference of RULES.md sections 5-7:
settling a deal (levels, the A rules, the game's end), the tribute plan of
the next deal, and the cards a receiver may return.

This module does NOT import ``guandan_fast``; it is the oracle that
tests/test_game_rules.py compares the engine against.  It is written to be
read next to RULES.md, one rule per line, not to be fast.

Conventions (the engine's):

* seats 0..3; team of a seat = seat % 2 (team 0 = seats 0 and 2); partners
  sit opposite (seat + 2) % 4; the player after seat s is (s + 1) % 4;
* levels are rank text '2'..'9', 'T', 'J', 'Q', 'K', 'A';
* cards are text: rank then suit ('Th', '4s'), 'BJ' small joker, 'RJ' big
  joker.  Wildcards are the heart cards of the level rank.

Public functions:

settle_deal(finish_order, levels=("2", "2"), a_fails=(0, 0), declarer=None,
            rules=None) -> dict
    keys: winner, partner_place, gain, a_failed, a_reset, levels, a_fails,
    declarer, game_winner (same keys as the engine's ``settle_deal``).
tribute_plan(hands, prev_finish, level, rules=None) -> dict
    keys: kind ('single' | 'double' | 'resisted'), payments (list of
    (giver, receiver)), options (giver -> sorted list of card text), leader.
tribute_options(hand, level) -> list[str]      the cards a giver may pay
return_options(hand, level, return_max_rank="T") -> list[str]
strength(card, level) -> int                   RULES section 2 single-card order
TrickRef(hand_sizes, leader)                   section 5 turn order: whose turn, when a
    trick ends, 接风, going out and the finishing order (from hand sizes only)

``rules`` is a :class:`GameRules` (or None for the defaults), or any object
with the same attribute names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS = "23456789TJQKA"  # natural order, A high
SUITS = "hscd"
DEFAULT_UPGRADE = {2: 3, 3: 2, 4: 1}


@dataclass(frozen=True)
class GameRules:
    """The rules options of sections 6 and 7 (defaults as in RULES.md)."""

    upgrade: dict = field(default_factory=lambda: dict(DEFAULT_UPGRADE))
    a_pass: str = "partner_not_last"  # or "double_down"
    a_max_attempts: int | None = 3  # None = unlimited
    a_fail_reset: str = "2"
    return_max_rank: str | None = "T"  # None = any card may be returned
    sudden_death: bool = False


DEFAULT_RULES = GameRules()


# --------------------------------------------------------------------------
# seats, ranks, cards
# --------------------------------------------------------------------------

def team(seat: int) -> int:
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % 4


def next_seat(seat: int) -> int:
    """The player seated after `seat` (下家)."""
    return (seat + 1) % 4


def rank_index(rank: str) -> int:
    """'2' -> 0 ... 'A' -> 12 ('10' accepted for 'T')."""
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in RANKS:
        raise ValueError(f"not a rank: {rank!r}")
    return RANKS.index(rank)


def card_rank(card: str) -> str:
    """Rank text of a card: '2'..'A', or 'BJ' / 'RJ' for the jokers."""
    if card in ("BJ", "RJ"):
        return card
    return card[:-1] if card[:-1] != "10" else "T"


def card_suit(card: str) -> str | None:
    if card in ("BJ", "RJ"):
        return None
    return card[-1]


def is_wildcard(card: str, level: str) -> bool:
    """A wildcard (逢人配) is a heart of the level rank."""
    return card_rank(card) == level and card_suit(card) == "h"


def strength(card: str, level: str) -> int:
    """RULES section 2: 2 < 3 < ... < K < A < level rank < small joker < big joker."""
    r = card_rank(card)
    if r == "RJ":
        return 15
    if r == "BJ":
        return 14
    if r == level:
        return 13
    return rank_index(r)  # 0..12, A = 12


# --------------------------------------------------------------------------
# section 7: settling a deal
# --------------------------------------------------------------------------

def settle_deal(finish_order, levels=("2", "2"), a_fails=(0, 0), declarer=None, rules=None) -> dict:
    """The result of a deal that finished in `finish_order` (f1..f4).

    `levels` and `a_fails` are each team's state before the deal; `declarer`
    is the team whose level was played (None for a game's first deal).
    """
    rules = rules or DEFAULT_RULES
    finish = list(finish_order)
    assert sorted(finish) == [0, 1, 2, 3], finish
    levels = [str(levels[0]), str(levels[1])]
    levels = ["T" if lv == "10" else lv for lv in levels]
    a_fails = [int(a_fails[0]), int(a_fails[1])]

    f1 = finish[0]
    winner = team(f1)  # the team of f1 wins the deal
    partner_place = finish.index(partner(f1)) + 1  # 2, 3 or 4

    result = dict(
        winner=winner,
        partner_place=partner_place,
        gain=0,
        a_failed=False,
        a_reset=False,
        levels=tuple(levels),
        a_fails=tuple(a_fails),
        declarer=winner,  # the winner's level is played in the next deal
        game_winner=None,
    )

    # Sudden death: the first f1 wins the game.
    if rules.sudden_death:
        result["game_winner"] = winner
        return result

    # Was this deal an attempt at A?  Only when it was played at the
    # declarer's level and that level is A.
    attempt_at_a = declarer is not None and levels[declarer] == "A"

    if attempt_at_a and winner == declarer:
        if rules.a_pass == "partner_not_last":
            passed = partner_place != 4
        elif rules.a_pass == "double_down":
            passed = partner_place == 2
        else:
            raise ValueError(rules.a_pass)
        if passed:
            result["game_winner"] = winner
            return result

    # Upgrade the winner, capped at A (A必打).
    upgrade = dict(rules.upgrade)
    old = rank_index(levels[winner])
    new = min(old + upgrade[partner_place], rank_index("A"))
    levels[winner] = RANKS[new]
    result["gain"] = new - old

    # A failed attempt at A (lost, or won without passing).
    if attempt_at_a:
        result["a_failed"] = True
        a_fails[declarer] += 1
        if rules.a_max_attempts is not None and a_fails[declarer] >= rules.a_max_attempts:
            levels[declarer] = rules.a_fail_reset
            a_fails[declarer] = 0
            result["a_reset"] = True

    result["levels"] = tuple(levels)
    result["a_fails"] = tuple(a_fails)
    return result


# --------------------------------------------------------------------------
# section 6: tribute and return
# --------------------------------------------------------------------------

def tribute_options(hand, level: str) -> list:
    """A giver's highest cards by section 2 order, wildcards exempt (distinct, sorted)."""
    candidates = [c for c in hand if not is_wildcard(c, level)]
    if not candidates:
        return []
    best = max(strength(c, level) for c in candidates)
    return sorted({c for c in candidates if strength(c, level) == best})


def return_options(hand, level: str, return_max_rank: str | None = "T") -> list:
    """Cards a receiver may return: face value 2..return_max_rank and not a
    level card; any card when it holds none such (or when the option is None)."""
    allowed = sorted(set(hand))
    if return_max_rank is None:
        return allowed
    limit = rank_index(return_max_rank)
    ok = [
        c
        for c in allowed
        if card_rank(c) not in ("BJ", "RJ")  # jokers have no face value 2..10
        and rank_index(card_rank(c)) <= limit
        and card_rank(c) != level
    ]
    return ok if ok else allowed


def tribute_plan(hands, prev_finish, level: str, rules=None) -> dict:
    """Tribute of a deal whose new hands are `hands` (4 lists of card text),
    after a deal that finished in `prev_finish`, played at `level`."""
    hands = [list(h) for h in hands]
    f1, f2, f3, f4 = prev_finish
    level = "T" if level == "10" else level

    def big_jokers(seat):
        return hands[seat].count("RJ")

    double_down = team(f1) == team(f2)

    if double_down:
        # 抗贡: f3 and f4 together hold both big jokers.
        if big_jokers(f3) + big_jokers(f4) == 2:
            return dict(kind="resisted", payments=[], options={}, leader=f1)
        options = {f3: tribute_options(hands[f3], level), f4: tribute_options(hands[f4], level)}
        v3 = strength(options[f3][0], level)
        v4 = strength(options[f4][0], level)
        if v3 > v4:
            payments = [(f3, f1), (f4, f2)]
            leader = f3
        elif v4 > v3:
            payments = [(f4, f1), (f3, f2)]
            leader = f4
        else:
            # Equal: f1 takes from the player seated after f1, who leads.
            after_f1 = next_seat(f1)
            other = f4 if after_f1 == f3 else f3
            assert after_f1 in (f3, f4)
            payments = [(after_f1, f1), (other, f2)]
            leader = after_f1
        return dict(kind="double", payments=payments, options=options, leader=leader)

    # Single tribute (every finish that is not a double-down, 1-4 included).
    if big_jokers(f4) == 2:
        return dict(kind="resisted", payments=[], options={}, leader=f1)
    return dict(
        kind="single",
        payments=[(f4, f1)],
        options={f4: tribute_options(hands[f4], level)},
        leader=f4,
    )


# --------------------------------------------------------------------------
# section 5: turns, tricks, 接风 and the finishing order
# --------------------------------------------------------------------------

class TrickRef:
    """Who acts next in the play phase of a deal, from hand sizes alone.

    ``play(seat, n)`` records that `seat` played `n` cards (beating the top
    play, or leading), ``pass_(seat)`` a pass.  Attributes: ``current`` (seat
    to act, None once the deal is over), ``top`` (seat of the play to beat,
    None when ``current`` leads), ``finish`` (seats out so far; all four once
    the deal is over), ``over``.
    """

    def __init__(self, sizes, leader: int):
        self.sizes = list(sizes)
        assert all(n > 0 for n in self.sizes)
        self.current = leader
        self.top = None
        self.passed = set()  # seats that passed since the top play
        self.finish = []
        self.over = False

    def holding(self):
        return [s for s in range(4) if self.sizes[s] > 0]

    def _next_holding(self, seat: int) -> int:
        s = next_seat(seat)
        while self.sizes[s] == 0:
            s = next_seat(s)
        return s

    def play(self, seat: int, n: int) -> None:
        assert not self.over and seat == self.current and 0 < n <= self.sizes[seat]
        self.sizes[seat] -= n
        self.top = seat
        self.passed = set()
        if self.sizes[seat] == 0:
            self.finish.append(seat)
            if partner(seat) in self.finish:
                # Both players of a team are out: the rest rank after them in
                # their order of play, starting after the last player out.
                s = seat
                for _ in range(3):
                    s = next_seat(s)
                    if s not in self.finish:
                        self.finish.append(s)
                self.over = True
                self.current = None
                self.top = None
                return
        self.current = self._next_holding(seat)

    def pass_(self, seat: int) -> None:
        assert not self.over and seat == self.current and self.top is not None
        self.passed.add(seat)
        others = [s for s in self.holding() if s != self.top]
        if all(s in self.passed for s in others):
            # Every other player still holding cards passed: the trick ends.
            # The top player leads, or its partner if it has gone out (接风).
            self.current = self.top if self.sizes[self.top] > 0 else partner(self.top)
            self.top = None
            self.passed = set()
        else:
            self.current = self._next_holding(seat)
