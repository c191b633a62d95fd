"""`Tournament`: a field of entrants run through one of the formats, seeded and reproducible."""

from __future__ import annotations

import contextlib
import functools
import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

from guandan_fast._core import InvalidArgumentError, Rules
from guandan_fast.arguments import check_callable, check_int
from guandan_fast.distributed.backends import Backend, make_backend
from guandan_fast.distributed.chunks import check_chunk
from guandan_fast.tournament import formats
from guandan_fast.models import is_model_name
from guandan_fast.tournament.match import AtLimit, MatchResult, Player, bot_makers, check_player, play_on

__all__ = ["MAX_DEALS", "Entrant", "Tournament", "TournamentResult"]

#: The longest deal limit a match takes (the engine counts deals in 32 bits).
MAX_DEALS = 2**32 - 1


@dataclass(frozen=True)
class Entrant:
    """A named team: a built-in policy name, a model name (``onnx:PATH``,
    ``puct:PATH``, ...: a new bot of the model for each match) or a Python
    bot, optionally of a unit (for the draw)."""

    name: str
    player: Player
    unit: Optional[str] = None


EntrantArg = Union[Entrant, str, Any]


def _entrants(entrants: object, units: Optional[Sequence[Optional[str]]]) -> list[Entrant]:
    if isinstance(entrants, (str, bytes)) or not isinstance(entrants, Iterable):
        raise InvalidArgumentError(f"entrants must be a list of entrants (policy or model names, bots or Entrant), not a {type(entrants).__name__}")
    items: list[Any] = list(entrants.items()) if isinstance(entrants, Mapping) else list(entrants)
    if len(items) < 2:
        raise InvalidArgumentError(f"a tournament needs at least two entrants, not {len(items)}")
    if units is not None:
        if isinstance(units, (str, bytes)) or not isinstance(units, Iterable):
            raise InvalidArgumentError(f"units must be a list of one unit (a str or None) per entrant, not a {type(units).__name__}")
        units = list(units)
        if len(units) != len(items):
            raise InvalidArgumentError(f"units must give one unit per entrant ({len(items)}), not {len(units)}")
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for i, e in enumerate(items):
        if isinstance(entrants, Mapping):
            e = Entrant(name=e[0], player=e[1])
        elif not isinstance(e, Entrant):
            name = e if isinstance(e, str) else getattr(e, "name", None) or type(e).__name__
            e = Entrant(name=str(name), player=e)
        if not isinstance(e.name, str) or not e.name.strip():
            raise InvalidArgumentError(f"the name of entrant {i} must be a non-empty str, not {e.name!r:.40}")
        player = e.player if is_model_name(e.player) else check_player(e.player, f"entrant {i} ({e.name!r:.40})")
        unit = e.unit if units is None else units[i]
        if unit is not None and not isinstance(unit, str):
            raise InvalidArgumentError(f"the unit of entrant {i} must be a str or None, not a {type(unit).__name__}")
        unit = unit or None
        name = e.name
        if name in seen:
            seen[name] += 1
            name = f"{name}#{seen[name]}"
        seen.setdefault(name, 1)
        out.append(Entrant(name=name, player=player, unit=unit))
    return out


@dataclass
class TournamentResult:
    """A finished tournament: standings (best first), the bracket or final, and every match played."""

    format: str
    seed: int
    entrants: list[Entrant]
    #: One dict per entrant, best first: ``place`` and ``entrant`` (the name), plus the format's figures.
    standings: list[dict[str, Any]]
    #: The knockout bracket (positions, ties by round, third-place play-off), the qualify_final final, or None.
    bracket: Optional[dict[str, Any]]
    #: Every match in the order played: (stage, entrant a, entrant b, result).
    matches: list[tuple[str, str, str, MatchResult]] = field(default_factory=list)

    @property
    def winner(self) -> str:
        """The name of the entrant placed first ("–" while an event of people is not over)."""
        if self.standings[0].get("place") != 1:
            return "–"
        name: str = self.standings[0]["entrant"]
        return name

    def to_dict(self, records: bool = False) -> dict[str, Any]:
        """The whole result as JSON-ready data; with `records`, each match's games in full (see `game_from_record`)."""
        return {
            "format": self.format,
            "seed": self.seed,
            "entrants": [{"name": e.name, "player": e.player if isinstance(e.player, str) else type(e.player).__name__, "unit": e.unit} for e in self.entrants],
            "winner": self.winner,
            "standings": self.standings,
            "bracket": self.bracket,
            "matches": [dict(stage=s, a=a, b=b, **r.to_dict(records)) for s, a, b, r in self.matches],
        }

    def to_json(self, records: bool = False) -> str:
        """`to_dict` as JSON text."""
        return json.dumps(self.to_dict(records), ensure_ascii=False, indent=1)


class Tournament:
    """A tournament of `entrants` in `format` (see `formats.FORMATS` and docs/tournaments.md).

    `entrants`: policy names, model names (``onnx:PATH``, ``puct:PATH``, ...;
    each model loaded and checked here, each match played by new bots of it
    seeded by the match's seed), bots, `Entrant`s, or a dict name -> player;
    `units`: one unit (or None) per entrant, for the knockout draw and the
    tables. Matches are `best_of` 1 or 3 games under `rules`; `max_deals`
    is each match's time limit in deals, after which it ends on levels
    (`at_limit="levels"`; `"lots"`: equal levels decided by seeded lots) or
    switches to sudden death (`"sudden_death"`).
    `third_place`: a knockout third-place play-off. `qualify_deals`: the
    deals of a qualify_final table. `rounds`: the rounds of a swiss (default
    ceil(log2 n)). The same `seed` gives the same tournament for any
    `threads`.
    """

    def __init__(
        self,
        entrants: Iterable[EntrantArg] | Mapping[str, Player],
        *,
        format: str = "knockout",
        best_of: int = 1,
        rules: Optional[Rules] = None,
        max_deals: Optional[int] = None,
        at_limit: AtLimit = "levels",
        third_place: bool = False,
        qualify_deals: int = 6,
        rounds: Optional[int] = None,
        units: Optional[Sequence[Optional[str]]] = None,
        seed: int = 0,
        threads: int = 0,
    ) -> None:
        if not isinstance(format, str) or format not in formats.FORMATS:
            raise InvalidArgumentError(f"format must be one of {', '.join(formats.FORMATS)}, not {format!r:.40}")
        if not isinstance(best_of, int) or isinstance(best_of, bool) or best_of not in (1, 3):
            raise InvalidArgumentError(f"best_of must be 1 or 3, not {best_of!r:.40}")
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules or None, not a {type(rules).__name__}")
        if max_deals is not None:
            check_int("max_deals (None: no limit)", max_deals, 1, MAX_DEALS)
        if not isinstance(at_limit, str) or at_limit not in ("levels", "lots", "sudden_death"):
            raise InvalidArgumentError(f"at_limit must be 'levels', 'lots' or 'sudden_death', not {at_limit!r:.40}")
        if not isinstance(third_place, bool):
            raise InvalidArgumentError(f"third_place must be True or False, not {third_place!r:.40}")
        check_int("qualify_deals", qualify_deals, 1, MAX_DEALS)
        check_int("seed", seed, 0, 2**64 - 1)
        check_int("threads", threads, 0, 2**32)
        self.entrants = _entrants(entrants, units)
        n = len(self.entrants)
        if format == "qualify_final" and n < 3:
            raise InvalidArgumentError(f"qualify_final needs at least three entrants (two tables, one with a bye), not {n}")
        if rounds is not None and format != "swiss":
            raise InvalidArgumentError(f"rounds is an option of the swiss format, not of {format}")
        self.rounds = max(1, math.ceil(math.log2(n))) if rounds is None else rounds
        if format == "swiss" and (not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or not 1 <= self.rounds <= n - 1):
            raise InvalidArgumentError(f"a swiss of {n} entrants takes 1..{n - 1} rounds, not {rounds!r:.40}")
        rules_dict = (rules or Rules()).to_dict()
        rules_dict.pop("max_deals", None)
        self.format = format
        self.best_of = best_of
        self.rules = rules_dict
        self.max_deals = max_deals
        self.at_limit: AtLimit = at_limit
        self.third_place = bool(third_place)
        self.qualify_deals = qualify_deals
        self.seed = seed
        self.threads = threads
        self._makers = bot_makers(e.player for e in self.entrants)

    def run(
        self,
        backend: Any = "local",
        progress: Optional[Callable[[int, int], None]] = None,
        *,
        address: Optional[str] = None,
        chunk: Optional[int] = None,
        keep_games: bool = False,
        on_match: Optional[Callable[[str, str, str, MatchResult], None]] = None,
    ) -> TournamentResult:
        """Plays the tournament, each batch of matches (a round, a play-off, an
        extra deal) on `backend`: ``"local"`` (one native batch on `threads`
        threads), ``"ray"`` (a Ray cluster at `address`), a backend object
        (guandan_fast.distributed), or any object with ``map(func, items)``
        (``map(play_match, specs)``). `chunk`: matches per chunk on a backend
        (None: one batch locally, measured on a cluster). `progress(done, total)`
        after each batch (total grows when ties need extra deals). The result
        does not depend on the backend.

        The result keeps a summary of each match (`MatchResult.summary`: no
        games, so memory does not grow with the games played); `keep_games`
        keeps every match's games too (`replay`, ``to_dict(records=True)``).
        `on_match(stage, a, b, result)` is given each match with its games as
        it is played, in order: a way to stream the records of a large field."""
        if backend is None:
            backend = "local"
        if isinstance(backend, (str, Backend)):
            backend = make_backend(backend, threads=self.threads, address=address)
        elif not callable(getattr(backend, "map", None)):
            raise InvalidArgumentError(f"backend must be 'local', 'ray' or have a map(func, items) method, not a {type(backend).__name__}")
        elif address is not None:
            raise InvalidArgumentError(f"address={address!r} goes with backend='ray'")
        check_chunk(chunk)
        check_callable("progress", progress)
        check_callable("on_match", on_match)
        if not isinstance(keep_games, bool):
            raise InvalidArgumentError(f"keep_games must be True or False, not {keep_games!r:.40}")
        with backend if isinstance(backend, Backend) else contextlib.nullcontext():
            return self._run(functools.partial(play_on, backend, chunk=chunk), progress, keep_games, on_match)

    def _run(
        self,
        play_batch: Callable[[list[Any]], list[MatchResult]],
        progress: Optional[Callable[[int, int], None]],
        keep_games: bool,
        on_match: Optional[Callable[[str, str, str, MatchResult], None]],
    ) -> TournamentResult:
        names = [e.name for e in self.entrants]
        rt = formats.Runner(
            names=names,
            players=[e.player for e in self.entrants],
            units=[e.unit for e in self.entrants],
            rules=self.rules,
            best_of=self.best_of,
            limit=self.max_deals,
            at_limit=self.at_limit,
            seed=self.seed,
            play_batch=play_batch,
            progress=progress,
            keep_games=keep_games,
            on_match=None if on_match is None else lambda stage, a, b, r: on_match(stage, names[a], names[b], r),
            makers=self._makers,
        )
        if self.format == "knockout":
            out = formats.knockout(rt, self.third_place)
        elif self.format == "qualify_final":
            out = formats.qualify_final(rt, self.qualify_deals)
        elif self.format == "race":
            out = formats.race(rt)
        elif self.format == "round_robin":
            out = formats.round_robin(rt)
        else:
            out = formats.swiss(rt, self.rounds)
        standings = [dict(s, entrant=names[s["entrant"]], unit=self.entrants[s["entrant"]].unit) for s in out["standings"]]
        bracket = _named(out.get("bracket") or out.get("final"), names)
        return TournamentResult(
            format=self.format,
            seed=self.seed,
            entrants=list(self.entrants),
            standings=standings,
            bracket=bracket,
            matches=[(s, names[a], names[b], r) for s, a, b, r in rt.matches],
        )


def _named(x: Any, names: list[str]) -> Any:
    """`x` with the entrant indices of its ``a``, ``b``, ``winner`` and ``slots`` replaced by names."""
    if isinstance(x, list):
        return [_named(v, names) for v in x]
    if isinstance(x, dict):
        out: dict[str, Any] = {}
        for k, v in x.items():
            if k in ("a", "b", "winner"):
                out[k] = None if v is None else names[v]
            elif k == "slots":
                out[k] = [None if s is None else names[s] for s in v]
            else:
                out[k] = _named(v, names)
        return out
    return x
