"""A knockout that people play (docs/rules.md §9): entrants that are teams of people
(or built-in policies, mixed in one event), drawn into the seeded bracket of
`draw.py` (byes, same-unit teams in opposite halves), whose match results
are reported as they come in, in any order.

An `Event` holds only the draw and the results reported; the bracket, the
ties to play now and the standings follow from them, so an event saved to
JSON (`to_json`, `save`) and resumed (`from_json`, `load`) is the same
event, and the same results give the same bracket whatever order they were
reported in. A result is the winner and the games each team won, how the
match ended (``"played"``, ``"levels"`` or ``"sudden_death"`` at the time
limit, ``"forfeit"``), each team's level when a match stopped at the limit
and how equal levels or games there were decided (docs/rules.md §9), and
the referee's decisions of the match (docs/rules.md §10), kept as
reported. Ties between two built-in policies (or models) are played by `play_bots`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from guandan_fast._core import _RANKS, PENALTY_KINDS, InvalidArgumentError, _check_policy
from guandan_fast.tournament.draw import draw_bracket
from guandan_fast.tournament.event import Entrant, TournamentResult
from guandan_fast.models import is_model_name
from guandan_fast.tournament.match import BotMaker, MatchSpec, bot_makers, match_player, play_match, sub_seed

__all__ = ["ENDINGS", "LEVELS", "PENALTIES", "TIE_BREAKS", "Event"]

#: How a reported match ended.
ENDINGS = ("played", "levels", "sudden_death", "forfeit")
#: The endings of a match stopped at the deal limit, which may report each team's level.
AT_LIMIT = ("levels", "sudden_death")
#: The levels a team reaches, as the engine names them.
LEVELS = _RANKS[:13]
#: How equal levels (or games) of a match ended on levels are decided (docs/rules.md §9):
#: to the team of the last deal's first player out, or by drawing lots.
TIE_BREAKS = ("first_out", "lots")
#: A report's levels: one per team in the order the tie is named, or a dict team -> level.
LevelsArg = Union[Sequence[str], Mapping[str, str]]
#: The referee's decisions a result may list (docs/rules.md §10).
PENALTIES = PENALTY_KINDS
#: The tag of the event's JSON.
TAG = "guandan-fast knockout event 1"


def _round_name(r: int, rounds: int) -> str:
    left = rounds - r
    return {1: "final", 2: "semi-final", 3: "quarter-final"}.get(left, f"round of {2 ** left}")


def _level(value: object, what: str) -> str:
    """`value` as the engine names a level ('2'..'9', 'T', 'J', 'Q', 'K', 'A'; '10' and lower case taken)."""
    text = value.strip().upper() if isinstance(value, str) else None
    text = "T" if text == "10" else text
    if text not in LEVELS:
        raise InvalidArgumentError(f"{what} must be a level '2'..'9', 'T', 'J', 'Q', 'K' or 'A', not {value!r:.20}")
    return text


def _check_tie_break(value: object, what: str) -> Optional[str]:
    """`value` as a way of deciding equal levels (`TIE_BREAKS`) or None."""
    if value is not None and (not isinstance(value, str) or value not in TIE_BREAKS):
        raise InvalidArgumentError(f"{what} must be one of {', '.join(TIE_BREAKS)} or None, not {value!r:.20}")
    return value


@dataclass
class Event:
    """A knockout of `names` (each a team of people, or in `players` a
    built-in policy or a model name, ``onnx:PATH``, ``puct:PATH``, ...), in
    `units` (None for none), seeded by `seed`; each tie is `best_of` 1 or 3
    games; `third_place` adds the play-off of the semi-final losers.
    `tie_break` is how the event decides equal levels (or games) of a match
    ended on levels at the deal limit (`TIE_BREAKS`; None: each such report
    says)."""

    names: list[str]
    players: list[Optional[str]]
    units: list[Optional[str]]
    seed: int = 0
    best_of: int = 1
    third_place: bool = False
    #: The drawn bracket: entrant index at each position, None for a bye.
    slots: list[Optional[int]] = field(default_factory=list)
    #: Reported results by tie key (``"R.I"``: round R, tie I; ``"third"``).
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: How equal levels or games at the deal limit are decided (`TIE_BREAKS`), None: by each report.
    tie_break: Optional[str] = None

    @staticmethod
    def create(
        teams: Sequence[str],
        *,
        units: Optional[Sequence[Optional[str]]] = None,
        players: Optional[Sequence[Optional[str]]] = None,
        seed: int = 0,
        best_of: int = 1,
        third_place: bool = False,
        tie_break: Optional[str] = None,
    ) -> Event:
        """A new event, its bracket drawn from `seed` (as `Tournament`'s knockout draws it)."""
        names = list(teams)
        if len(names) < 2 or any(not isinstance(n, str) or not n.strip() for n in names):
            raise InvalidArgumentError(f"an event needs two or more teams, each a non-empty name, not {names!r:.60}")
        if len(set(names)) != len(names):
            raise InvalidArgumentError("two teams have the same name")
        us = list(units) if units is not None else [None] * len(names)
        ps = list(players) if players is not None else [None] * len(names)
        if len(us) != len(names) or len(ps) != len(names):
            raise InvalidArgumentError(f"units and players give one entry per team ({len(names)})")
        ps = [p if p is None or is_model_name(p) else _check_policy(p) for p in ps]
        if best_of not in (1, 3) or isinstance(best_of, bool):
            raise InvalidArgumentError(f"best_of must be 1 or 3, not {best_of!r:.20}")
        _check_tie_break(tie_break, "tie_break")
        draw = draw_bracket(len(names), [u or None for u in us], sub_seed(seed, "draw"))
        return Event(names, ps, [u or None for u in us], seed, best_of, bool(third_place), list(draw.slots), tie_break=tie_break)

    # ------------------------------------------------------------ the bracket

    def rounds(self) -> list[list[dict[str, Any]]]:
        """The bracket so far: per round, each tie's ``a``, ``b`` (entrant
        indices, None when not known yet or a bye), ``winner`` (None until
        decided), ``bye``, and the reported result's fields."""
        size = len(self.slots)
        n_rounds = size.bit_length() - 1
        current: list[Optional[int]] = list(self.slots)
        known = [True] * size  # whether the entrant (or the bye) at each position is decided
        out = []
        for r in range(n_rounds):
            ties, nxt, nxt_known = [], [], []
            for i in range(len(current) // 2):
                a, b = current[2 * i], current[2 * i + 1]
                ka, kb = known[2 * i], known[2 * i + 1]
                tie: dict[str, Any] = {"a": a if ka else None, "b": b if kb else None, "winner": None}
                w: Optional[int] = None
                done = False
                if r == 0 and (a is None or b is None):
                    w, done = (a if a is not None else b), True
                    tie.update(winner=w, bye=True)
                elif ka and kb and f"{r}.{i}" in self.results:
                    res = self.results[f"{r}.{i}"]
                    w, done = res["winner"], True
                    tie.update(res)
                ties.append(tie)
                nxt.append(w)
                nxt_known.append(done)
            out.append(ties)
            current, known = nxt, nxt_known
        return out

    def _third(self) -> Optional[dict[str, Any]]:
        rounds = self.rounds()
        if not self.third_place or len(rounds) < 2:
            return None
        semis = rounds[-2]
        losers = [t["b"] if t["winner"] == t["a"] else t["a"] for t in semis if t["winner"] is not None and not t.get("bye")]
        if len(losers) < 2:
            return {"a": None, "b": None, "winner": None}
        tie: dict[str, Any] = {"a": losers[0], "b": losers[1], "winner": None}
        tie.update(self.results.get("third", {}))
        return tie

    def pairings(self) -> list[tuple[str, str, str]]:
        """The ties to play now: (stage, team a, team b), both known and no result yet."""
        rounds = self.rounds()
        out = []
        for r, ties in enumerate(rounds):
            for t in ties:
                if t["a"] is not None and t["b"] is not None and t["winner"] is None:
                    out.append((_round_name(r, len(rounds)), self.names[t["a"]], self.names[t["b"]]))
        third = self._third()
        if third is not None and third["a"] is not None and third["winner"] is None:
            out.append(("third place", self.names[third["a"]], self.names[third["b"]]))
        return out

    @property
    def over(self) -> bool:
        """Whether every tie has a result."""
        third = self._third()
        return self.rounds()[-1][0]["winner"] is not None and (third is None or third["winner"] is not None)

    # ------------------------------------------------------------ results

    def _index(self, team: str) -> int:
        if team not in self.names:
            raise InvalidArgumentError(f"no team {team!r:.40} in the event")
        return self.names.index(team)

    def report(
        self,
        a: str,
        b: str,
        *,
        winner: str,
        games: Optional[Sequence[int]] = None,
        ending: str = "played",
        deals: Optional[int] = None,
        penalties: Sequence[tuple[str, str]] = (),
        levels: Optional[LevelsArg] = None,
        tie_break: Optional[str] = None,
    ) -> None:
        """Reports the result of the tie of teams `a` and `b` (now to play):
        the `winner`, the games each won (`games` for a then b; default
        what best_of needs), how it `ending` ended, the `deals` played and
        the referee's decisions `penalties` as (team, kind). A match stopped
        at the deal limit may report each team's `levels` (for a then b, or
        a dict team -> level; ending ``"levels"`` or ``"sudden_death"``).
        Ended on levels, its games count the game in progress, which the
        higher level wins; equal levels, or equal games, are decided by
        `tie_break` (default the event's), which levels reported equal
        need. Refused, changing nothing, when the tie is not to be played
        now or the result does not fit."""
        ia, ib, iw = self._index(a), self._index(b), self._index(winner)
        if iw not in (ia, ib):
            raise InvalidArgumentError(f"the winner {winner!r} is neither {a!r} nor {b!r}")
        if ending not in ENDINGS:
            raise InvalidArgumentError(f"ending must be one of {', '.join(ENDINGS)}, not {ending!r:.20}")
        key, flipped = self._tie_key(ia, ib)
        need = (self.best_of + 1) // 2
        g = list(games) if games is not None else ([need, 0] if iw == ia else [0, need])
        if len(g) != 2 or any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= need for x in g):
            raise InvalidArgumentError(f"games must be two counts 0..{need}, not {games!r:.30}")
        won, lost = (g[0], g[1]) if iw == ia else (g[1], g[0])
        if ending == "played" and (won != need or lost >= need):
            raise InvalidArgumentError(f"a match played out is won with {need} game(s), the loser fewer; not {g[0]}-{g[1]}")
        if ending != "played" and won < lost:
            raise InvalidArgumentError(f"the winner cannot have won fewer games ({g[0]}-{g[1]})")
        if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool) or deals < 0):
            raise InvalidArgumentError(f"deals must be a count, not {deals!r:.20}")
        lv = self._levels(levels, a, b, ending)
        how = self._decided_by(winner, None if lv is None else lv if iw == ia else lv[::-1], tie_break, won, lost, ending)
        pens = []
        for p in penalties:
            team, kind = p
            self._index(team)
            if self._index(team) not in (ia, ib):
                raise InvalidArgumentError(f"a penalty against {team!r}, who did not play this tie")
            if kind not in PENALTIES:
                raise InvalidArgumentError(f"penalty kind must be one of {', '.join(PENALTIES)}, not {kind!r:.20}")
            pens.append({"team": self._index(team), "kind": kind})
        if flipped:
            g = g[::-1]
            lv = None if lv is None else lv[::-1]
        res: dict[str, Any] = {"winner": iw, "games": g, "ending": ending, "deals": deals}
        if lv is not None:
            res["levels"] = lv
        if how is not None:
            res["tie_break"] = how
        if pens:
            res["penalties"] = pens
        self.results[key] = res

    def _levels(self, levels: object, a: str, b: str, ending: str) -> Optional[list[str]]:
        """The reported `levels` of `a` then `b`, as the engine names them (None: not reported)."""
        if levels is None:
            return None
        if ending not in AT_LIMIT:
            raise InvalidArgumentError(f"levels are reported for a match stopped at the deal limit (ending 'levels' or 'sudden_death'), not for one ending {ending!r}")
        if isinstance(levels, Mapping):
            if set(levels) != {a, b}:
                raise InvalidArgumentError(f"levels must give the level of {a!r} and of {b!r}, not of {', '.join(map(repr, levels))}"[:160])
            pair = [levels[a], levels[b]]
        elif isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
            raise InvalidArgumentError(f"levels must be two levels (of {a!r} then {b!r}) or a dict team -> level, not a {type(levels).__name__}")
        else:
            pair = list(levels)
            if len(pair) != 2:
                raise InvalidArgumentError(f"levels must be two levels (of {a!r} then {b!r}), not {len(pair)}")
        return [_level(v, f"the level of {t!r}") for v, t in zip(pair, (a, b))]

    def _decided_by(self, winner: str, levels: Optional[list[str]], tie_break: object, won: int, lost: int, ending: str) -> Optional[str]:
        """How the result's equal levels or games were decided (`tie_break`,
        else the event's), checking the `levels` (the winner's then the
        loser's) against the `winner` and the games it `won` and `lost`."""
        how = _check_tie_break(tie_break, "tie_break")
        tied = ending == "levels" and won == lost
        if levels is not None and ending == "levels":
            hi, lo = levels
            if not 1 <= won + lost <= self.best_of:
                raise InvalidArgumentError(
                    f"the games of a match ended on levels count the game in progress (to the higher level): "
                    f"1..{self.best_of} in all, not {won}-{lost}"
                )
            if won > lost and LEVELS.index(hi) < LEVELS.index(lo):
                raise InvalidArgumentError(
                    f"{winner!r} won {won}-{lost} on levels, the game in progress included, at level {hi} against {lo}: "
                    "the game in progress goes to the higher level"
                )
            tied = tied or hi == lo
            if tied and how is None and self.tie_break is None:
                what = "levels" if hi == lo else "games"
                raise InvalidArgumentError(
                    f"equal {what} at the deal limit: say how they were decided (tie_break {' or '.join(map(repr, TIE_BREAKS))}), "
                    "or create the event with a tie_break"
                )
            if tied and how is None:
                return self.tie_break
        if how is not None and not tied:
            raise InvalidArgumentError(f"tie_break {how!r} is for equal levels or games of a match ended on levels; this result has none")
        return how

    def _tie_key(self, ia: int, ib: int) -> tuple[str, bool]:
        """The key of the tie of `ia` and `ib` to play now, and whether they are named b then a."""
        for r, ties in enumerate(self.rounds()):
            for i, t in enumerate(ties):
                if {t["a"], t["b"]} == {ia, ib} and t["winner"] is None:
                    return f"{r}.{i}", t["a"] == ib
        third = self._third()
        if third is not None and {third["a"], third["b"]} == {ia, ib} and third["winner"] is None:
            return "third", third["a"] == ib
        raise InvalidArgumentError(f"{self.names[ia]!r} and {self.names[ib]!r} have no tie to play now")

    def play_bots(self) -> int:
        """Plays every tie to play now between two built-in policies or models
        (seeded by the event's seed and the tie; a model's side by a new bot
        of it, the models of a round's ties loaded and checked before any is
        played), repeatedly; returns how many were played."""
        played = 0
        makers: dict[str, BotMaker] = {}
        while True:
            todo = [(s, a, b) for s, a, b in self.pairings() if self.players[self._index(a)] and self.players[self._index(b)]]
            if not todo:
                return played
            sides = [self.players[self._index(t)] for _, a, b in todo for t in (a, b)]
            makers.update(bot_makers(p for p in sides if p not in makers))
            for stage, a, b in todo:
                ia, ib = self._index(a), self._index(b)
                key, _ = self._tie_key(ia, ib)
                pa, pb = self.players[ia], self.players[ib]
                assert pa is not None and pb is not None
                seed = sub_seed(self.seed, "event", key)
                spec = MatchSpec(match_player(pa, makers, seed, 0), match_player(pb, makers, seed, 1), {"best_of": self.best_of}, seed=seed)
                r = play_match(spec)
                self.report(a, b, winner=a if r.winner == 0 else b, games=list(r.games_won), ending=r.ending, deals=r.deals)
                played += 1

    # ------------------------------------------------------------ standings and rendering

    def standings(self) -> list[dict[str, Any]]:
        """Places so far, best first: a team out of the event has its place
        (1-4, then the place shared by the round it lost in); a team still
        in has place None. ``levels``: the team's level and its opponent's
        in its last tie decided, when it stopped at the deal limit and they
        were reported (else None)."""
        rounds = self.rounds()
        place: dict[int, int] = {}
        lost_in: dict[int, str] = {}
        last: dict[int, dict[str, Any]] = {}  # each team's last tie decided
        for r, ties in enumerate(rounds):
            left = len(ties)  # the teams that go on from this round
            for t in ties:
                if t["winner"] is not None and not t.get("bye"):
                    lo = t["b"] if t["winner"] == t["a"] else t["a"]
                    place[lo] = 1 + left
                    lost_in[lo] = _round_name(r, len(rounds))
                    last[t["a"]] = last[t["b"]] = t
        final = rounds[-1][0]
        if final["winner"] is not None:
            place[final["winner"]] = 1
        third = self._third()
        if third is not None and third["winner"] is not None:
            w = third["winner"]
            place[w], place[third["b"] if w == third["a"] else third["a"]] = 3, 4
            last[third["a"]] = last[third["b"]] = third

        def levels(e: int) -> Optional[list[str]]:
            t = last.get(e)
            if t is None or "levels" not in t:
                return None
            own: list[str] = t["levels"] if e == t["a"] else t["levels"][::-1]
            return own

        rows = [
            {"place": place.get(e), "entrant": self.names[e], "unit": self.units[e], "eliminated": lost_in.get(e), "levels": levels(e)}
            for e in range(len(self.names))
        ]
        return sorted(rows, key=lambda s: (s["place"] is None, s["place"] or 0, s["entrant"]))

    def result(self) -> TournamentResult:
        """The event so far as a `TournamentResult` (for `render`'s tree, table and SVG)."""
        def named(t: dict[str, Any]) -> dict[str, Any]:
            d = dict(t)
            for k in ("a", "b", "winner"):
                d[k] = None if t.get(k) is None else self.names[t[k]]
            if "penalties" in d:
                d["penalties"] = [{"team": self.names[p["team"]], "kind": p["kind"]} for p in d["penalties"]]
            return d

        third = self._third()
        bracket = {
            "size": len(self.slots),
            "slots": [None if s is None else self.names[s] for s in self.slots],
            "rounds": [[named(t) for t in ties] for ties in self.rounds()],
            "third_place": None if third is None or third["a"] is None else named(third),
        }
        entrants = [Entrant(n, p if p is not None else "people", u) for n, p, u in zip(self.names, self.players, self.units)]
        return TournamentResult(format="knockout", seed=self.seed, entrants=entrants, standings=self.standings(), bracket=bracket)

    # ------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data (what `from_dict` reads)."""
        return {
            "event": TAG,
            "teams": [{"name": n, "unit": u, "player": p} for n, u, p in zip(self.names, self.units, self.players)],
            "seed": self.seed,
            "best_of": self.best_of,
            "third_place": self.third_place,
            "slots": self.slots,
            "tie_break": self.tie_break,
            "results": self.results,
        }

    def to_json(self) -> str:
        """`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @staticmethod
    def from_dict(d: Any) -> Event:
        """The event `to_dict` wrote; the draw is checked against the seed and
        every result is reported again, in order, as `report` checks it."""
        try:
            if d.get("event") != TAG:
                raise InvalidArgumentError(f"not a knockout event file (it must be tagged {TAG!r})")
            teams = d["teams"]
            e = Event.create(
                [t["name"] for t in teams], units=[t["unit"] for t in teams], players=[t["player"] for t in teams],
                seed=d["seed"], best_of=d["best_of"], third_place=d["third_place"], tie_break=d.get("tie_break"),
            )
            if list(d["slots"]) != e.slots:
                raise InvalidArgumentError("the bracket is not the draw of the event's seed")
            for key, res in d["results"].items():
                e._replay(key, res)
            return e
        except (KeyError, TypeError, AttributeError, ValueError, IndexError) as x:
            raise InvalidArgumentError(f"not a knockout event: {type(x).__name__} {str(x)[:60]}") from None

    def _replay(self, key: str, res: dict[str, Any]) -> None:
        tie = self._third() if key == "third" else self.rounds()[int(key.split(".")[0])][int(key.split(".")[1])]
        if tie is None or tie["a"] is None or tie["b"] is None or tie["winner"] is not None:
            raise InvalidArgumentError(f"result {key} is for a tie that is not to be played")
        a, b = self.names[tie["a"]], self.names[tie["b"]]
        pens = [(self.names[p["team"]], p["kind"]) for p in res.get("penalties", [])]
        self.report(
            a, b, winner=self.names[res["winner"]], games=res["games"], ending=res["ending"], deals=res["deals"], penalties=pens,
            levels=res.get("levels"), tie_break=res.get("tie_break"),
        )

    @staticmethod
    def from_json(text: str) -> Event:
        """The event `to_json` wrote."""
        try:
            data = json.loads(text)
        except ValueError as x:
            raise InvalidArgumentError(f"not JSON: {x}") from None
        return Event.from_dict(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the event to `path` (JSON), replacing the file at once."""
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(self.to_json())
        os.replace(tmp, path)

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Event:
        """The event saved at `path`."""
        with open(path, encoding="utf-8") as f:
            return Event.from_json(f.read())
