"""Monte Carlo targets: each decision's return, read off the episode's rewards."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from guandan_fast._core import DANZERO_ROW_SIZE, InvalidArgumentError
from guandan_fast.arguments import check_int

__all__ = ["EpisodeTracker", "MAX_TABLES"]

#: The most tables a `VectorEnv` takes (its own check of ``num_envs``).
MAX_TABLES = 2**20


class EpisodeTracker:
    """For every table of a `VectorEnv`, the rows of the actions chosen in
    the episode it is playing, and when that episode ends, their Monte Carlo
    targets.

    The target of a decision is the sum of the rewards its seat gets from
    the step that decision was played in to the episode's end (undiscounted,
    as DouZero and DanZero). With the vector env's ``reward="deal"`` every
    reward comes at the deal's end, so each row of a seat gets the deal's
    level points for that seat's team: ``+gain`` won, ``-gain`` lost.

    Per step: `record` the chosen rows and the seats that chose them, step
    the env, then `settle` with the step's ``reward`` and the tables whose
    episode ended (``terminated | truncated``).
    """

    def __init__(self, num_envs: int, *, width: int = DANZERO_ROW_SIZE) -> None:
        self.num_envs = check_int("num_envs", num_envs, 1, MAX_TABLES)
        self.width = width
        self._rows: list[list[npt.NDArray[np.int8]]] = [[] for _ in range(num_envs)]
        self._seats: list[list[int]] = [[] for _ in range(num_envs)]
        #: The rewards each table's seats got so far in the episode, at the time of each decision.
        self._before: list[list[npt.NDArray[np.float64]]] = [[] for _ in range(num_envs)]
        self._total = np.zeros((num_envs, 4), np.float64)

    def pending(self, table: int) -> int:
        """Decisions of `table`'s current episode recorded and not yet settled."""
        return len(self._seats[table])

    def record(self, rows: npt.ArrayLike, seats: npt.ArrayLike) -> None:
        """The row of the action each table's seat to act chose (``(N, width)``,
        one per table) and that seat (``(N,)``, 0..3)."""
        r = np.asarray(rows)
        s = np.asarray(seats)
        if r.shape != (self.num_envs, self.width) or s.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"record takes rows ({self.num_envs}, {self.width}) and seats ({self.num_envs},), not {r.shape} and {s.shape}"
            )
        if not ((s >= 0) & (s < 4)).all():
            raise InvalidArgumentError("seats must be 0..3")
        small = r.astype(np.int8)
        for i in range(self.num_envs):
            self._rows[i].append(small[i])
            self._seats[i].append(int(s[i]))
            self._before[i].append(self._total[i].copy())

    def settle(self, reward: npt.ArrayLike, ended: npt.ArrayLike) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
        """Adds the step's rewards (``(N, 4)``, per seat) and, for each table
        where `ended` (``(N,)`` bool) is set, returns the rows of its episode
        with their targets and forgets them: rows ``(M, width)`` int8 and
        targets ``(M,)`` float32, table by table, each in the order played."""
        rw = np.asarray(reward, dtype=np.float64)
        done = np.asarray(ended, dtype=bool)
        if rw.shape != (self.num_envs, 4) or done.shape != (self.num_envs,):
            raise InvalidArgumentError(f"settle takes reward ({self.num_envs}, 4) and ended ({self.num_envs},), not {rw.shape} and {done.shape}")
        self._total += rw
        rows: list[npt.NDArray[np.int8]] = []
        targets: list[npt.NDArray[np.float64]] = []
        for i in np.flatnonzero(done):
            if self._seats[i]:
                seats = np.asarray(self._seats[i], np.int64)
                before = np.stack(self._before[i])
                targets.append((self._total[i] - before)[np.arange(len(seats)), seats])
                rows.append(np.stack(self._rows[i]))
            self._rows[i], self._seats[i], self._before[i] = [], [], []
            self._total[i] = 0
        if not rows:
            return np.zeros((0, self.width), np.int8), np.zeros(0, np.float32)
        return np.concatenate(rows), np.concatenate(targets).astype(np.float32)
