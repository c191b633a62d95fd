"""One match between two entrants, with a time limit in deals, and batches of matches.

A match is described by a picklable `MatchSpec`; `play_matches` plays a list
of them. Matches between built-in policies run natively on the engine's
thread pool without the GIL; a match with a Python bot on either side is
played in the calling thread, holding the GIL, one after the other.
`play_on` plays a list on a backend (guandan_fast.distributed) in chunks.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Union

from guandan_fast._core import Game, InvalidArgumentError, InvalidStateError, Rules, _check_policy, _rebuild_game, play_bot_match, simulate_matches
from guandan_fast.bots import Bot
from guandan_fast.distributed.backends import Backend
from guandan_fast.distributed.chunks import run_chunks
from guandan_fast.models import _model_bots, is_model_name

__all__ = ["AtLimit", "BotMaker", "MatchResult", "MatchSpec", "Player", "bot_makers", "game_from_record", "match_player", "play_match", "play_matches", "play_on", "sub_seed"]

#: What a match does at its deal limit: end on levels (equal levels to the last
#: deal's first team out, or by drawing seeded lots), or switch to sudden death.
AtLimit = Literal["levels", "lots", "sudden_death"]
#: A built-in policy name (``random``, ``greedy``, ``mc:N``, ...) or a Python bot.
Player = Union[str, Bot]
#: Makes a new bot: ``maker(seed=...)``.
BotMaker = Callable[..., Bot]


def sub_seed(seed: int, *path: object) -> int:
    """The 64-bit seed of the part of a seeded event named by `path` (the same for the same inputs)."""
    text = repr((seed, *path)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def check_player(player: object, what: str) -> Player:
    """`player` as a match takes it: a policy name as the engine writes it, or a bot."""
    if isinstance(player, str):
        name: str = _check_policy(player)
        return name
    if callable(getattr(player, "act", None)):
        return player  # type: ignore[return-value]
    raise InvalidArgumentError(f"{what} must be a policy name or a bot with an act(game) method, not a {type(player).__name__}")


def bot_makers(players: Iterable[object]) -> dict[str, BotMaker]:
    """The bot maker of each model name among `players` (``onnx:PATH``,
    ``puct:PATH``, ...; `guandan_fast.models.model_from_spec`), each model
    loaded and checked once, now."""
    return {p: _model_bots(p) for p in players if isinstance(p, str) and is_model_name(p)}


def match_player(player: Player, makers: Mapping[str, BotMaker], seed: int, side: int) -> Player:
    """`player` as the match of `seed` takes it on `side` (0: seats 0 and 2,
    1: seats 1 and 3): for a model name of `makers` a new bot, seeded by the
    match's seed and the side (a match plays the same wherever and after
    whatever it is played); anything else as it is."""
    make = makers.get(player) if isinstance(player, str) else None
    return player if make is None else make(seed=sub_seed(seed, "bot", side))


@dataclass(frozen=True)
class MatchSpec:
    """A match to play: `a` on seats 0 and 2 (team 0) against `b` on seats 1 and 3 (team 1).

    `rules` are `Rules` keyword arguments (`best_of` among them; their
    `max_deals` is not used: `limit` is the match's clock). After `limit`
    deals in all (None: no limit) the match ends on levels
    (``at_limit="levels"``; ``"lots"``: anything equal decided by drawing
    lots seeded by the match's seed) or switches to sudden death
    (``"sudden_death"``).
    The first deal's leader is the engine's seeded turned-up card.
    """

    a: Player
    b: Player
    rules: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    limit: int | None = None
    at_limit: AtLimit = "levels"

    def _core(self) -> tuple[Any, ...]:
        return (self.a, self.b, Rules(**self.rules), self.seed, self.limit, self.at_limit)

    @property
    def native(self) -> bool:
        """Whether both sides are built-in policies (the match runs natively)."""
        return isinstance(self.a, str) and isinstance(self.b, str)


@dataclass(frozen=True)
class MatchResult:
    """A played match: the winner (0: `spec.a`, 1: `spec.b`) and the games it was played as."""

    spec: MatchSpec
    winner: int
    #: Games credited to each side (a game decided on levels at the limit included).
    games_won: tuple[int, int]
    #: ``"played"`` (won within the limit), ``"levels"`` or ``"sudden_death"``.
    ending: str
    #: Deals played in all, sudden-death deals included.
    deals: int
    #: Each side's level when regular play stopped.
    levels: tuple[str, str]
    #: Each game's seed: the regular games, then the sudden-death games if any.
    seeds: tuple[int, ...]
    #: The Games as played (`replay` rebuilds them from seeds and actions).
    games: tuple[Game, ...]

    def summary(self, spec: Optional[MatchSpec] = None) -> MatchResult:
        """The result without its games (`spec` in place of its own, when given:
        the one spec a tournament made, not a copy back from a backend)."""
        return dataclasses.replace(self, spec=self.spec if spec is None else spec, games=())

    def _games(self) -> tuple[Game, ...]:
        if not self.games:
            raise InvalidStateError(
                "this MatchResult is a summary without its games: run the tournament with keep_games=True "
                "(or on_match), or play its spec again with play_match(result.spec)"
            )
        return self.games

    def replay(self) -> list[Game]:
        """The match's games rebuilt from their seeds and actions (`InvalidStateError` for a `summary`)."""
        return [Game.replay(g.actions, seed=s, rules=g.rules) for s, g in zip(self.seeds, self._games())]

    def to_dict(self, records: bool = False) -> dict[str, Any]:
        """The result as JSON-ready data; with `records`, every game's full record (see `game_from_record`)."""
        d: dict[str, Any] = {
            "winner": self.winner,
            "games_won": list(self.games_won),
            "ending": self.ending,
            "deals": self.deals,
            "levels": list(self.levels),
            "seed": self.spec.seed,
            "game_seeds": list(self.seeds),
        }
        if records:
            d["games"] = [_game_record(g) for g in self._games()]
        return d


def _game_record(g: Game) -> dict[str, Any]:
    _, (rules, record) = g.__reduce__()
    return {"rules": rules.to_dict(), "record": record}


def game_from_record(record: dict[str, Any]) -> Game:
    """Rebuilds a Game from `MatchResult.to_dict(records=True)["games"][i]` (as read back from JSON)."""
    rules = dict(record["rules"])
    rules["upgrade"] = {int(k): v for k, v in rules["upgrade"].items()}
    if "record" in record:
        return _rebuild_game(Rules(**rules), record["record"])
    # Written by release 0.1.0: the origin and log as lists.
    return _rebuild_game(Rules(**rules), tuple(record["origin"]), [tuple(e) for e in record["log"]])


def _result(spec: MatchSpec, d: Mapping[str, Any]) -> MatchResult:
    return MatchResult(
        spec=spec,
        winner=d["winner"],
        games_won=d["games_won"],
        ending=d["ending"],
        deals=d["deals"],
        levels=d["levels"],
        seeds=tuple(d["seeds"]),
        games=tuple(d["games"]),
    )


def play_match(spec: MatchSpec) -> MatchResult:
    """Plays one match (natively when both sides are built-in policies)."""
    return play_matches([spec])[0]


def play_matches(specs: Sequence[MatchSpec], threads: int = 0) -> list[MatchResult]:
    """Plays every match of `specs`, in order of the list: the built-in ones in one
    native batch split into `threads` parts (0: one per core) without the GIL,
    the ones with a Python bot in this thread. The results do not depend on
    `threads`."""
    specs = list(specs)
    for i, s in enumerate(specs):
        if not isinstance(s, MatchSpec):
            raise InvalidArgumentError(f"specs[{i}] must be a MatchSpec, not a {type(s).__name__}")
    native = [i for i, s in enumerate(specs) if s.native]
    out: list[MatchResult | None] = [None] * len(specs)
    for i, d in zip(native, simulate_matches([specs[i]._core() for i in native], threads=threads)):
        out[i] = _result(specs[i], d)
    for i, s in enumerate(specs):
        if out[i] is None:
            out[i] = _result(s, play_bot_match(s._core()))
    return [r for r in out if r is not None]


def play_on(backend: Any, specs: Sequence[MatchSpec], chunk: Optional[int] = None) -> list[MatchResult]:
    """Plays `specs` on `backend`, in order: on a `Backend` in chunks of `chunk`
    matches (None: one native batch on a `LocalBackend`, measured chunks on a
    cluster), each chunk one `play_matches` call; on any other object with
    ``map(func, items)``, as ``backend.map(play_match, specs)``."""
    specs = list(specs)
    if not isinstance(backend, Backend):
        return list(backend.map(play_match, specs))
    work = functools.partial(play_matches, threads=backend.threads)
    parts = run_chunks(backend, len(specs), work, chunk=chunk, item=lambda s: specs[s.start : s.start + s.size])
    return [r for part in parts for r in part]
