"""Who sits where at a platform table: the seats the built-in bots take, and
the others given to clients in order of connection.

A client takes a seat (`Seating.take`) once its connection is open, not at
its handshake: a request that never becomes a connection (plain HTTP, an
aborted handshake) holds nothing. A client that leaves before its match
starts frees its seat; once a match has seated the table (`start_match`),
nobody's seat is freed until `end_match`. Nothing here touches a socket.
"""

from __future__ import annotations

from typing import Generic, Mapping, Optional, TypeVar

from guandan_fast._core import InvalidArgumentError, _check_policy

__all__ = ["Seating", "check_bot_name", "check_bots", "parse_bots"]

C = TypeVar("C")


def check_bot_name(name: str) -> str:
    """A bot seat's name as the referee plays it: a model (``onnx:PATH``,
    guandan_fast.models) unchanged, else the engine's name of the policy."""
    from guandan_fast.models import is_model_name

    return name if is_model_name(name) else _check_policy(name)


def parse_bots(text: str) -> dict[int, str]:
    """``"1:mc:200,3:greedy"`` -> ``{1: "mc:200", 3: "greedy"}`` (seats 0..3, policies checked)."""
    bots: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, sep, policy = part.partition(":")
        if not sep or seat.strip() not in ("0", "1", "2", "3"):
            raise InvalidArgumentError(f"a bot is SEAT:POLICY with a seat 0..3, like 1:mc:200; got {part[:40]!r}")
        if int(seat) in bots:
            raise InvalidArgumentError(f"seat {seat} is given two bots")
        bots[int(seat)] = check_bot_name(policy.strip())
    if len(bots) == 4:
        raise InvalidArgumentError("four bots leave no seat for a client")
    return bots


def check_bots(bots: object) -> dict[int, str]:
    """`bots` (seat -> policy name) with the policies as the engine writes them; at most three, in seats 0..3."""
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise InvalidArgumentError(f"bots must be a dict seat -> policy name, not a {type(bots).__name__}")
    if any(type(s) is not int or s not in range(4) for s in bots) or len(bots) > 3:
        raise InvalidArgumentError(f"bots are seats 0..3 (at most three) -> policy names, not {sorted(map(repr, bots))!r:.60}")
    return {s: check_bot_name(p) for s, p in bots.items()}


class Seating(Generic[C]):
    """The seats of one table: `bots` (seat -> policy) and the clients (seat -> `C`, the transport's client)."""

    def __init__(self, bots: Mapping[int, str]) -> None:
        self.bots = dict(bots)
        #: Seat -> client, in order of connection.
        self.clients: dict[int, C] = {}
        self.playing = False
        self._seated: list[C] = []

    def open_seats(self) -> list[int]:
        """The seats no bot or client holds."""
        taken = set(self.clients) | set(self.bots)
        return [s for s in range(4) if s not in taken]

    @property
    def full(self) -> bool:
        """Whether every seat is taken (a match may start)."""
        return not self.open_seats()

    @property
    def open(self) -> bool:
        """Whether a client may take a seat now: a seat is free and no match is being played."""
        return not self.playing and not self.full

    def take(self, client: C) -> Optional[int]:
        """The first open seat, now `client`'s; None when the table is full or playing."""
        if not self.open:
            return None
        seat = self.open_seats()[0]
        self.clients[seat] = client
        return seat

    def leave(self, seat: int, client: C) -> bool:
        """`client` of `seat` is gone: its seat is freed unless a match seated it; True when freed."""
        if self.playing or any(c is client for c in self._seated) or self.clients.get(seat) is not client:
            return False
        del self.clients[seat]
        return True

    def start_match(self) -> None:
        """The table's clients are seated for a match."""
        self.playing = True
        self._seated = list(self.clients.values())

    def end_match(self) -> None:
        """The match is over: every seat but the bots' is open again."""
        self.playing = False
        self.clients.clear()
        self._seated = []
