"""The tournament formats: each plays a field through a `Runner` and returns its standings.

- ``knockout`` (单淘汰): the seeded bracket of `draw.py`; each tie one
  match (``best_of`` 1 or 3); winners advance; an optional third-place
  play-off between the semi-final losers; places 1-4, then the rest share a
  place by the round they lost in.
- ``qualify_final``: tables of two play a fixed number of deals; teams are
  ranked by (passed A, fewest deals to pass it, level reached); the top two
  meet in a final match.
- ``race``: tables of two each play one game; ranked by the deals needed to
  pass A (fewest first), the teams that did not pass A by the level reached.
- ``round_robin``: every pair once; ranked by match wins, then wins in the
  matches between the tied teams, games difference, games won, a seeded lot.
- ``swiss``: N rounds, each pairing teams of equal score as far as possible
  and never twice the same pair; ranked by score (a bye counts as a win),
  then Buchholz (the sum of the opponents' scores), games difference, a
  seeded lot.

In qualify_final and race an odd field has a bye: the entrant drawn for it
(seeded) plays its table against a stand-in, another entrant drawn by lot
(of another unit when there is one), in a game that counts for the bye's
entrant only. (A knockout's bye advances a team to the next round; a table
round has no round to advance to, and a bye counted as a win would give a
free final place, so the bye's entrant plays a game like every other.)

In qualify_final and race, teams equal on their ranking key play extra
deals: each pair of tied teams one deal (a fresh game at A that the first
team out wins), the group ordered by those deals.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from guandan_fast._core import _RANKS, InvalidArgumentError
from guandan_fast.tournament.draw import draw_bracket, draw_tables
from guandan_fast.tournament.match import AtLimit, BotMaker, MatchResult, MatchSpec, Player, match_player, sub_seed

__all__ = ["FORMATS", "Runner"]

#: Every format name.
FORMATS = ("knockout", "qualify_final", "race", "round_robin", "swiss")


@dataclass
class Runner:
    """What a format needs: the field, the match options, the seed and a way to play a batch of matches."""

    names: list[str]
    players: list[Player]
    units: list[Optional[str]]
    rules: dict[str, Any]
    best_of: int
    limit: Optional[int]
    at_limit: AtLimit
    seed: int
    #: Plays a batch of matches, in order (`match.play_on` on the tournament's backend).
    play_batch: Callable[[list[MatchSpec]], list[MatchResult]]
    progress: Optional[Callable[[int, int], None]] = None
    #: Whether `matches` keeps each result's games (else its `MatchResult.summary`).
    keep_games: bool = False
    #: Given each match with its games as it is played: (stage, a, b, result).
    on_match: Optional[Callable[[str, int, int, MatchResult], None]] = None
    #: The bot maker of each model name among `players` (`match.bot_makers`): each match gets new bots.
    makers: Mapping[str, BotMaker] = field(default_factory=dict)
    total: int = 0
    done: int = 0
    #: Every match played, in order: (stage, a, b, result).
    matches: list[tuple[str, int, int, MatchResult]] = field(default_factory=list)
    #: The rules of each kind of match, one dict shared by its specs.
    _rules: dict[tuple[int, bool], dict[str, Any]] = field(default_factory=dict)

    def spec(self, a: int, b: int, *path: object, best_of: Optional[int] = None, limit: Any = "match", sudden_death: bool = False) -> MatchSpec:
        """The match of entrant `a` (team 0) against `b`, seeded by `path`."""
        key = (self.best_of if best_of is None else best_of, sudden_death)
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = dict(self.rules, best_of=key[0], **({"sudden_death": True} if sudden_death else {}))
        seed = sub_seed(self.seed, "match", *path)
        return MatchSpec(
            a=match_player(self.players[a], self.makers, seed, 0),
            b=match_player(self.players[b], self.makers, seed, 1),
            rules=rules,
            seed=seed,
            limit=self.limit if limit == "match" else limit,
            at_limit=self.at_limit,
        )

    def play(self, stage: str, pairs: Sequence[tuple[int, int]], specs: Sequence[MatchSpec]) -> list[MatchResult]:
        """Plays `specs` (the matches of `pairs`) as one batch and records them under `stage`."""
        if not specs:
            return []
        self.total = max(self.total, self.done + len(specs))
        results = self.play_batch(list(specs))
        for (a, b), spec, r in zip(pairs, specs, results):
            if self.on_match is not None:
                self.on_match(stage, a, b, r)
            self.matches.append((stage, a, b, r if self.keep_games else r.summary(spec)))
        self.done += len(specs)
        if self.progress is not None:
            self.progress(self.done, self.total)
        return results

    def lot(self, i: int, stage: str) -> float:
        """Entrant `i`'s seeded lot in `stage` (the last tie-break)."""
        return random.Random(sub_seed(self.seed, "lot", stage, i)).random()

    def extra_deals(self, group: list[int], stage: str) -> list[int]:
        """`group` (tied teams) ordered by one extra deal between each pair that needs comparing."""
        played: dict[tuple[int, int], int] = {}

        def winner(a: int, b: int) -> int:
            key = (min(a, b), max(a, b))
            if key not in played:
                x, y = key
                r = self.play(f"{stage} extra deal", [key], [self.spec(x, y, stage, "extra", x, y, best_of=1, limit=None, sudden_death=True)])[0]
                played[key] = x if r.winner == 0 else y
            return played[key]

        def first(a: int, b: int) -> int:
            return -1 if winner(a, b) == a else 1

        return sorted(group, key=functools.cmp_to_key(first))

    def stats(self) -> list[dict[str, int]]:
        """Each entrant's matches and games so far."""
        s = [dict(played=0, won=0, lost=0, games_for=0, games_against=0) for _ in self.names]
        for _, a, b, r in self.matches:
            for side, e in ((0, a), (1, b)):
                s[e]["played"] += 1
                s[e]["won" if r.winner == side else "lost"] += 1
                s[e]["games_for"] += r.games_won[side]
                s[e]["games_against"] += r.games_won[1 - side]
        return s


def _level(text: str) -> int:
    return _RANKS.index(text)


def _round_name(r: int, rounds: int) -> str:
    left = rounds - r
    return {1: "final", 2: "semi-final", 3: "quarter-final"}.get(left, f"round of {2 ** left}")


def knockout(rt: Runner, third_place: bool = False) -> dict[str, Any]:
    """Single elimination over the seeded bracket; see the module docstring."""
    n = len(rt.names)
    draw = draw_bracket(n, rt.units, sub_seed(rt.seed, "draw"))
    rounds = int(math.log2(draw.size))
    rt.total = n - 1 + (1 if third_place and n >= 4 else 0)
    current: list[Optional[int]] = list(draw.slots)
    bracket: list[list[dict[str, Any]]] = []
    place: dict[int, int] = {}
    semi_losers: list[int] = []
    for r in range(rounds):
        name = _round_name(r, rounds)
        pairs = [(current[2 * i], current[2 * i + 1]) for i in range(len(current) // 2)]
        live = [(i, a, b) for i, (a, b) in enumerate(pairs) if a is not None and b is not None]
        results = rt.play(name, [(a, b) for _, a, b in live], [rt.spec(a, b, "knockout", r, i) for i, a, b in live])
        by_tie = {i: res for (i, _, _), res in zip(live, results)}
        ties: list[dict[str, Any]] = []
        nxt: list[Optional[int]] = []
        losers: list[int] = []
        for i, (a, b) in enumerate(pairs):
            tie: dict[str, Any] = {"a": a, "b": b}
            if i in by_tie:
                res = by_tie[i]
                w, lo = (a, b) if res.winner == 0 else (b, a)
                assert lo is not None
                losers.append(lo)
                tie.update(winner=w, games=list(res.games_won), ending=res.ending, deals=res.deals)
            else:
                w = a if a is not None else b
                tie.update(winner=w, bye=True)
            ties.append(tie)
            nxt.append(w)
        bracket.append(ties)
        for lo in losers:
            place[lo] = 1 + sum(w is not None for w in nxt)
        if name == "semi-final":
            semi_losers = losers
        current = nxt
    champion = current[0]
    assert champion is not None
    place[champion] = 1
    third: Optional[dict[str, Any]] = None
    if third_place and len(semi_losers) == 2:
        a, b = semi_losers
        res = rt.play("third place", [(a, b)], [rt.spec(a, b, "third place")])[0]
        w, lo = (a, b) if res.winner == 0 else (b, a)
        place[w], place[lo] = 3, 4
        third = {"a": a, "b": b, "winner": w, "games": list(res.games_won), "ending": res.ending, "deals": res.deals}
    order = sorted(range(n), key=lambda e: (place[e], rt.lot(e, "knockout")))
    round_lost = {e: _round_name(r, rounds) for r, ties in enumerate(bracket) for t in ties if "bye" not in t for e in (t["a"], t["b"]) if e != t["winner"]}
    standings = [{"place": place[e], "entrant": e, "eliminated": round_lost.get(e)} for e in order]
    return {"standings": standings, "bracket": {"size": draw.size, "slots": list(draw.slots), "rounds": bracket, "third_place": third}}


def _ranked_tables(rt: Runner, stage: str, limit: Optional[int]) -> tuple[list[int], list[dict[str, Any]]]:
    """Tables of two each play one game (stopped on levels after `limit` deals);
    the field ranked by (passed A, fewest deals, level reached), ties by extra deals."""
    n = len(rt.names)
    tables, bye = _tables(rt, stage)
    specs = [rt.spec(a, b, stage, i, best_of=1, limit=limit) for i, (a, b) in enumerate(tables)]
    if bye is not None:
        specs.append(rt.spec(bye[0], bye[1], stage, "bye", best_of=1, limit=limit))
    results = rt.play(stage, tables + ([bye] if bye else []), specs)
    info: dict[int, dict[str, Any]] = {}
    for k, ((a, b), r) in enumerate(zip(tables + ([bye] if bye else []), results)):
        for side, e in ((0, a), (1, b)):
            if k == len(tables) and side == 1:
                continue  # the stand-in's game counts for the bye's entrant only
            passed = r.ending == "played" and r.winner == side
            info[e] = {"passed_a": passed, "deals": r.deals if passed else None, "level": r.levels[side], "played": r.deals}
            if k == len(tables):
                info[e]["bye"] = True
    def key(e: int) -> tuple[int, int, int]:
        i = info[e]
        return (1 if i["passed_a"] else 0, -(i["deals"] or 0), _level(i["level"]))
    order = sorted(range(n), key=key, reverse=True)
    ranked: list[int] = []
    for _, group in _groups(order, key):
        ranked += rt.extra_deals(group, stage) if len(group) > 1 else group
    return ranked, [dict(info[e], entrant=e) for e in ranked]


def _tables(rt: Runner, stage: str) -> tuple[list[tuple[int, int]], Optional[tuple[int, int]]]:
    """The tables of two of `stage`, and in an odd field the bye: (its entrant, the stand-in)."""
    n = len(rt.names)
    if n % 2 == 0:
        return draw_tables(n, rt.units, sub_seed(rt.seed, stage, "tables")), None
    rng = random.Random(sub_seed(rt.seed, stage, "bye"))
    bye = rng.randrange(n)
    rest = [i for i in range(n) if i != bye]
    drawn = draw_tables(n - 1, [rt.units[i] for i in rest], sub_seed(rt.seed, stage, "tables"))
    others = [i for i in rest if rt.units[bye] is None or rt.units[i] != rt.units[bye]] or rest
    return [(rest[a], rest[b]) for a, b in drawn], (bye, rng.choice(others))


def _groups(order: list[int], key: Callable[[int], Any]) -> list[tuple[Any, list[int]]]:
    out: list[tuple[Any, list[int]]] = []
    for e in order:
        if out and out[-1][0] == key(e):
            out[-1][1].append(e)
        else:
            out.append((key(e), [e]))
    return out


def qualify_final(rt: Runner, deals: int) -> dict[str, Any]:
    """A qualifying round of `deals` deals per table, then a final between the top two."""
    rt.total = (len(rt.names) + 1) // 2 + 1
    ranked, rows = _ranked_tables(rt, "qualifying", deals)
    a, b = ranked[0], ranked[1]
    res = rt.play("final", [(a, b)], [rt.spec(a, b, "final")])[0]
    w, lo = (a, b) if res.winner == 0 else (b, a)
    order = [w, lo] + ranked[2:]
    qual = {row["entrant"]: dict(row, qualifying_place=k + 1) for k, row in enumerate(rows)}
    standings = [dict(qual[e], place=k + 1) for k, e in enumerate(order)]
    final = {"a": a, "b": b, "winner": w, "games": list(res.games_won), "ending": res.ending, "deals": res.deals}
    return {"standings": standings, "final": final}


def race(rt: Runner) -> dict[str, Any]:
    """Every table at once; ranked by the deals needed to pass A, then the level reached."""
    rt.total = (len(rt.names) + 1) // 2
    ranked, rows = _ranked_tables(rt, "race", rt.limit)
    return {"standings": [dict(row, place=k + 1) for k, row in enumerate(rows)]}


def round_robin(rt: Runner) -> dict[str, Any]:
    """Every pair once, in rounds (the circle method)."""
    n = len(rt.names)
    field_: list[Optional[int]] = list(range(n)) + ([None] if n % 2 else [])
    m = len(field_)
    rt.total = n * (n - 1) // 2
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            x, y = field_[i], field_[m - 1 - i]
            if x is not None and y is not None:
                pairs.append((x, y) if (r + i) % 2 == 0 else (y, x))
        rt.play(f"round {r + 1}", pairs, [rt.spec(a, b, "round robin", r, a, b) for a, b in pairs])
        field_ = [field_[0], field_[-1]] + field_[1:-1]
    stats = rt.stats()
    head: dict[tuple[int, int], int] = {}
    for _, a, b, res in rt.matches:
        w, lo = (a, b) if res.winner == 0 else (b, a)
        head[(w, lo)] = head.get((w, lo), 0) + 1
    order = sorted(range(n), key=lambda e: -stats[e]["won"])
    ranked: list[int] = []
    for _, group in _groups(order, lambda e: stats[e]["won"]):
        h2h = {e: sum(head.get((e, o), 0) for o in group) for e in group}
        ranked += sorted(
            group,
            key=lambda e: (-h2h[e], -(stats[e]["games_for"] - stats[e]["games_against"]), -stats[e]["games_for"], rt.lot(e, "round robin")),
        )
    return {"standings": [dict(stats[e], place=k + 1, entrant=e, points=stats[e]["won"]) for k, e in enumerate(ranked)]}


def _pair(order: list[int], met: set[tuple[int, int]]) -> Optional[list[tuple[int, int]]]:
    """Pairs `order` top down, each with the highest-placed opponent not met before (backtracking)."""
    if not order:
        return []
    a, rest = order[0], order[1:]
    for j, b in enumerate(rest):
        if (min(a, b), max(a, b)) in met:
            continue
        tail = _pair(rest[:j] + rest[j + 1 :], met)
        if tail is not None:
            return [(a, b)] + tail
    return None


def swiss(rt: Runner, rounds: int) -> dict[str, Any]:
    """`rounds` rounds paired by score without rematches."""
    n = len(rt.names)
    if not 1 <= rounds <= n - 1:
        raise InvalidArgumentError(f"a swiss of {n} entrants takes 1..{n - 1} rounds, not {rounds}")
    rt.total = rounds * (n // 2)
    score = [0] * n
    byes: set[int] = set()
    met: set[tuple[int, int]] = set()
    opponents: list[list[int]] = [[] for _ in range(n)]
    home = [0] * n
    for r in range(rounds):
        order = sorted(range(n), key=lambda e: (-score[e], rt.lot(e, f"swiss {r}")))
        bye = None
        if n % 2:
            bye = next(e for e in reversed(order) if e not in byes)
            byes.add(bye)
            order.remove(bye)
            score[bye] += 1
        pairs = _pair(order, met)
        if pairs is None:
            raise InvalidArgumentError(f"swiss round {r + 1}: the field cannot be paired without a rematch; play fewer rounds")
        pairs = [(a, b) if home[a] <= home[b] else (b, a) for a, b in pairs]
        results = rt.play(f"round {r + 1}", pairs, [rt.spec(a, b, "swiss", r, a, b) for a, b in pairs])
        for (a, b), res in zip(pairs, results):
            met.add((min(a, b), max(a, b)))
            opponents[a].append(b)
            opponents[b].append(a)
            home[a] += 1
            score[a if res.winner == 0 else b] += 1
    stats = rt.stats()
    buchholz = [sum(score[o] for o in opponents[e]) for e in range(n)]
    ranked = sorted(
        range(n),
        key=lambda e: (-score[e], -buchholz[e], -(stats[e]["games_for"] - stats[e]["games_against"]), rt.lot(e, "swiss")),
    )
    return {
        "standings": [dict(stats[e], place=k + 1, entrant=e, score=score[e], buchholz=buchholz[e], bye=e in byes) for k, e in enumerate(ranked)]
    }
