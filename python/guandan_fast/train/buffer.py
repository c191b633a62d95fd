"""A replay buffer of DanZero rows and their Monte Carlo targets."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from guandan_fast._core import DANZERO_ROW_SIZE, InvalidArgumentError
from guandan_fast.arguments import check_int

__all__ = ["ReplayBuffer"]


class ReplayBuffer:
    """The latest `capacity` (row, target) pairs, the oldest overwritten
    first, and uniform minibatches of them drawn from a generator seeded by
    `seed`.

    Rows are stored as int8: every value of DanZero's rows is -1, 0, 1 or 2
    (docs/encodings.md), so a row takes `width` bytes; a row holding any
    other value is refused.
    """

    def __init__(self, capacity: int, *, width: int = DANZERO_ROW_SIZE, seed: int = 0) -> None:
        self.capacity = check_int("capacity", capacity, 1, 2**32)
        self.width = check_int("width", width, 1, 2**16)
        self._rows = np.zeros((capacity, width), np.int8)
        self._targets = np.zeros(capacity, np.float32)
        self._size = 0
        self._next = 0
        #: Pairs pushed since the buffer was made (the overwritten included).
        self.added = 0
        self._rng = np.random.default_rng(seed % 2**64)

    def __len__(self) -> int:
        return self._size

    def push(self, rows: npt.ArrayLike, targets: npt.ArrayLike) -> None:
        """Adds the pairs ``(rows[k], targets[k])``: rows ``(M, width)``, targets ``(M,)``."""
        r = np.asarray(rows)
        t = np.asarray(targets, dtype=np.float32)
        if r.ndim != 2 or r.shape[1] != self.width or t.shape != (r.shape[0],):
            raise InvalidArgumentError(f"push takes rows (M, {self.width}) and targets (M,), not {r.shape} and {t.shape}")
        small = r.astype(np.int8)
        if not np.array_equal(small, r):
            raise InvalidArgumentError("rows must hold only the values -1, 0, 1, 2 of DanZero's encoding (they are stored as int8)")
        if not np.isfinite(t).all():
            raise InvalidArgumentError("targets must be finite")
        m = len(t)
        if m > self.capacity:  # only the last `capacity` would stay
            small, t = small[-self.capacity :], t[-self.capacity :]
        at = (self._next + np.arange(len(t))) % self.capacity
        self._rows[at] = small
        self._targets[at] = t
        self._next = int((self._next + len(t)) % self.capacity)
        self._size = min(self.capacity, self._size + len(t))
        self.added += m

    def sample(self, n: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """`n` pairs drawn uniformly (with replacement): rows ``(n, width)`` float32 and targets ``(n,)``."""
        if self._size == 0:
            raise InvalidArgumentError("the buffer is empty")
        check_int("n", n, 1, 2**32)
        at = self._rng.integers(0, self._size, n)
        return self._rows[at].astype(np.float32), self._targets[at].copy()
