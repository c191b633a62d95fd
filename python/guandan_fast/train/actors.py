"""Self-play actors for Deep Monte Carlo, in numpy: they play with weights
broadcast by a learner elsewhere, so a cluster's actor nodes need the
package, numpy and Ray, not PyTorch.

- `mlp_forward` (and `numpy_scorer`) is the forward pass of an MLP of
  `guandan_fast.train.dmc.build_mlp` from its layers' weights as numpy
  arrays (`DMC.layers()` gives them): ``x @ W.T + b`` a layer, ReLU between.
- `SelfPlay` is one `VectorEnv` of self-play tables with its
  `EpisodeTracker` and exploration generator: `step(scorer)` plays one
  vector step (the move of `DMC.act`, which is built on it) and returns the
  (row, target) pairs of the deals that ended.
- `SelfPlayActor` holds some of a run's streams (a `SelfPlay` each) and
  plays a cycle of vector steps on each with the weights of that cycle.
- `ActorPool` deals the streams among actors on a backend of
  `guandan_fast.distributed` (``"local"``: this process; ``"ray"``: Ray
  actors of one CPU on a cluster) and gathers each cycle's pairs in stream
  order.

A stream's deals and exploration come from (seed, stream, resumption point)
alone, never from which actor plays it, so the pairs of a run depend on the
seed, the number of streams and the weights sent each cycle, not on the
number of actors nor the backend (on the same numpy: a cluster whose nodes
compute float32 products differently can break a near tie differently).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from guandan_fast._core import DANZERO_ROW_SIZE, InvalidArgumentError, InvalidStateError, VectorEnv
from guandan_fast.arguments import check_int, check_number
from guandan_fast.distributed.backends import make_backend
from guandan_fast.models import Scorer, pick
from guandan_fast.train.returns import MAX_TABLES, EpisodeTracker

__all__ = ["ActorPool", "Cycle", "Layers", "SelfPlay", "SelfPlayActor", "check_epsilon", "check_layers", "check_pool", "mlp_forward", "numpy_scorer", "stream_seed"]

#: An MLP's layers: ``(weight, bias)`` per linear layer, weight ``(out, in)``, bias ``(out,)``, float32.
Layers = Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
#: The most streams (vector envs) a run deals among its actors.
MAX_STREAMS = 2**16
#: The most actors a pool starts.
MAX_ACTORS = 2**12
#: The most vector steps a stream plays in one cycle.
MAX_CYCLE_STEPS = 2**20
#: Seconds the actors have to start (a cluster without free CPUs for them never starts them).
START_SECONDS = 120.0


def check_layers(layers: object) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
    """`layers` as float32 ``(weight, bias)`` pairs of an MLP from DanZero's
    567-value row to one score; anything else raises `InvalidArgumentError`."""
    if isinstance(layers, (str, bytes)) or not isinstance(layers, Sequence) or not layers:
        raise InvalidArgumentError(f"layers must be a list of (weight, bias) pairs, not {type(layers).__name__}")
    out = []
    width = DANZERO_ROW_SIZE
    for i, pair in enumerate(layers):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise InvalidArgumentError(f"layer {i} must be a (weight, bias) pair, not {type(pair).__name__}")
        try:
            w = np.asarray(pair[0], np.float32)
            b = np.asarray(pair[1], np.float32)
        except (TypeError, ValueError) as e:
            raise InvalidArgumentError(f"layer {i}'s weight and bias must be arrays of numbers: {e}") from None
        if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],) or w.shape[0] < 1:
            raise InvalidArgumentError(f"layer {i} must have weight ({{out}}, {width}) and bias ({{out}},), not {w.shape} and {b.shape}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise InvalidArgumentError(f"layer {i} holds a NaN or infinite weight")
        out.append((w, b))
        width = w.shape[0]
    if width != 1:
        raise InvalidArgumentError(f"the last layer must give one score, not {width}")
    return out


def mlp_forward(layers: Layers, rows: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The scores ``(n,)`` float32 of `rows` ``(n, 567)`` by the ReLU MLP of
    `layers` (checked by `check_layers` first): what
    ``guandan_fast.train.dmc.torch_scorer(net)`` gives for the network the
    layers were read from, to float32 rounding."""
    x = np.asarray(rows, np.float32)
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        x = x @ w.T
        x += b
        if i < last:
            np.maximum(x, 0, out=x)
    return x.reshape(-1)


def numpy_scorer(layers: Layers) -> Scorer:
    """`layers` (checked) as a `Scorer`: rows in, `mlp_forward` scores out."""
    checked = check_layers(layers)

    def score(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        return mlp_forward(checked, rows)

    return score


def check_epsilon(epsilon: float) -> float:
    """`epsilon`, the chance of a random legal action, as a float in [0, 1];
    anything else raises `InvalidArgumentError`."""
    if not 0 <= check_number("epsilon", epsilon) <= 1:
        raise InvalidArgumentError(f"epsilon must be a number in [0, 1], not {epsilon!r:.40}")
    return float(epsilon)


def check_pool(actors: int, streams: Optional[int], steps: int, steps_name: str = "steps") -> int:
    """Checks an actor pool's shape: `actors` actors, `streams` streams
    (None: one per actor; never fewer than the actors), `steps` vector
    steps a stream per cycle (named `steps_name` in errors); returns the
    number of streams."""
    check_int("actors", actors, 1, MAX_ACTORS)
    n = actors if streams is None else check_int("streams", streams, 1, MAX_STREAMS)
    if n < actors:
        raise InvalidArgumentError(f"streams ({n}) must be at least actors ({actors}): an actor without a stream has nothing to play")
    check_int(steps_name, steps, 1, MAX_CYCLE_STEPS)
    return n


def stream_seed(seed: int, stream: int, start: int) -> int:
    """The 63-bit seed of stream `stream` of a run seeded by `seed` from vector step
    `start` on (a resumed run's streams play new deals)."""
    words = np.random.SeedSequence([seed % 2**64, stream, start % 2**64]).generate_state(2, np.uint64)
    return int(words[0]) >> 1


class SelfPlay:
    """`tables` self-play tables of a `VectorEnv` (``unit="deal"``,
    ``reward="deal"``, seeded by `seed`, `threads` engine threads) with the
    `EpisodeTracker` of their deals and the generator `rng` of the
    exploration: each step every table plays its best-scored action, or with
    probability `epsilon` a uniformly random legal one."""

    def __init__(self, tables: int, *, seed: int, epsilon: float, rng: np.random.Generator, threads: int = 0) -> None:
        check_int("tables", tables, 1, MAX_TABLES)
        self.epsilon = check_epsilon(epsilon)
        self.rng = rng
        self.env = VectorEnv(tables, seed=seed, threads=threads, unit="deal", reward="deal")
        self.tracker = EpisodeTracker(tables)
        self._step: Any = self.env.reset()
        self._rows = np.zeros((0, DANZERO_ROW_SIZE), np.float32)
        #: Vector steps played and deals ended so far.
        self.steps = self.episodes = 0

    def step(self, scorer: Scorer) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
        """One vector step, every table's rows scored in one `scorer` call; the
        (rows, targets) of the deals it ended (`EpisodeTracker.settle`)."""
        env, step = self.env, self._step
        offsets = step["legal_offset"]
        total = int(offsets[-1])
        if self._rows.shape[0] < total:
            self._rows = np.zeros((max(total, 2 * self._rows.shape[0]), DANZERO_ROW_SIZE), np.float32)
        rows = env.danzero_actions(self._rows[:total])
        scores = np.asarray(scorer(rows), np.float64)
        if not np.isfinite(scores).all():
            raise InvalidStateError("the network gave a NaN or infinite score (the learning rate may be too high)")
        chosen = pick(scores, offsets)
        counts = np.diff(offsets)
        explore = self.rng.random(len(counts)) < self.epsilon
        if explore.any():
            drawn = offsets[:-1] + np.minimum((self.rng.random(len(counts)) * counts).astype(np.int64), counts - 1)
            chosen = np.where(explore, drawn, chosen)
        self.tracker.record(rows[chosen], step["seat"])
        self._step = step = env.step(step["legal"][chosen])
        self.steps += 1
        ended = step["terminated"] | step["truncated"]
        self.episodes += int(ended.sum())
        return self.tracker.settle(step["reward"], ended)

    def close(self) -> None:
        """Releases the vector env."""
        self.env.close()


class SelfPlayActor:
    """The streams `streams` of a run (a `SelfPlay` of `tables` tables each,
    seeded by `stream_seed` (seed, stream, start), its exploration generator
    by the same three numbers): `play` runs a cycle on each. Made by
    `ActorPool` on a backend: on Ray, one actor process of one CPU."""

    def __init__(self, streams: Sequence[int], tables: int, epsilon: float, seed: int, start: int, threads: int) -> None:
        self.streams = {
            s: SelfPlay(tables, seed=stream_seed(seed, s, start), epsilon=epsilon, threads=threads,
                        rng=np.random.default_rng([seed % 2**64, s, start % 2**64, 1]))
            for s in streams
        }

    def ready(self) -> int:
        """The actor's process id (an answer: the actor has started)."""
        return os.getpid()

    def play(self, layers: Layers, steps: int) -> list[tuple[int, npt.NDArray[np.int8], npt.NDArray[np.float32], int]]:
        """`steps` vector steps on each stream with the network of `layers`
        (float32 numpy, `mlp_forward`); per stream, in order: ``(stream, rows,
        targets, deals ended)``, the rows int8."""
        check_int("steps", steps, 0, MAX_CYCLE_STEPS)
        scorer = numpy_scorer(layers)
        out = []
        for s, play in self.streams.items():
            before = play.episodes
            parts = [play.step(scorer) for _ in range(steps)]
            rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, DANZERO_ROW_SIZE), np.int8)
            targets = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.float32)
            out.append((s, rows, targets, play.episodes - before))
        return out

    def close(self) -> None:
        """Releases the streams' vector envs."""
        for play in self.streams.values():
            play.close()


@dataclass
class Cycle:
    """The pairs a cycle gave: rows ``(M, 567)`` int8 and targets ``(M,)``
    float32, stream after stream; the vector steps played (over all
    streams) and the deals ended."""

    rows: npt.NDArray[np.int8]
    targets: npt.NDArray[np.float32]
    steps: int
    episodes: int


class ActorPool:
    """`actors` actors on `backend` (``"local"``, ``"ray"`` at `address`, or a
    backend object of `guandan_fast.distributed` with ``start`` and
    ``share``) playing `streams` self-play streams (default: one per actor)
    of `tables` tables each, stream `s` on actor ``s % actors``.

    `submit(layers)` starts a cycle: the weights are shared once
    (``ray.put`` on Ray) and every stream plays `steps` vector steps with
    them; `collect()` waits for it and returns its `Cycle`. One cycle is out
    at a time, so a learner can train on one cycle's pairs while the actors
    play the next. The pairs depend on `seed`, `streams`, `start` and the
    weights of each cycle, not on `actors` nor the backend. A ``with``
    block (or `close()`) stops the actors and the connection the pool opened.
    """

    def __init__(
        self,
        backend: object = "local",
        *,
        address: Optional[str] = None,
        actors: int = 2,
        streams: Optional[int] = None,
        tables: int = 128,
        steps: int = 16,
        epsilon: float = 0.05,
        seed: int = 0,
        start: int = 0,
    ) -> None:
        streams = check_pool(actors, streams, steps)
        check_int("tables", tables, 1, MAX_TABLES)
        check_epsilon(epsilon)
        check_int("seed", seed, 0, 2**64 - 1)
        check_int("start", start, 0, 2**64 - 1)
        be: Any = make_backend(backend, address=address)
        if not (callable(getattr(be, "start", None)) and callable(getattr(be, "share", None))):
            raise InvalidArgumentError(f"backend {type(be).__name__} cannot hold actors (it has no start and share)")
        self.backend = be
        self.streams, self.steps = streams, steps
        self._actors: list[Any] = []
        self._pending: list[Any] = []
        self.pids: list[int] = []
        self._entered = False
        threads = getattr(be, "threads", 0)
        be.__enter__()
        self._entered = True
        try:
            for a in range(actors):
                mine = list(range(a, streams, actors))
                self._actors.append(be.start(SelfPlayActor, mine, tables, float(epsilon), seed, start, threads))
            #: The process id of each actor (this process's own with the local backend).
            self.pids = [actor.call("ready").result(timeout=START_SECONDS) for actor in self._actors]
        except BaseException:
            self.close()
            raise

    @property
    def actors(self) -> int:
        """The actors playing."""
        return len(self._actors)

    @property
    def pending(self) -> bool:
        """Whether a cycle was submitted and not yet collected."""
        return bool(self._pending)

    def submit(self, layers: Layers) -> None:
        """Starts a cycle with the network of `layers` (checked; float32 numpy
        ``(weight, bias)`` pairs, `DMC.layers()`)."""
        if not self._actors:
            raise InvalidStateError("the actor pool is closed")
        if self._pending:
            raise InvalidStateError("a cycle is already out: collect it first")
        shared = self.backend.share(check_layers(layers))
        self._pending = [actor.call("play", shared, self.steps) for actor in self._actors]

    def collect(self) -> Cycle:
        """The pairs of the cycle submitted last, stream after stream."""
        if not self._pending:
            raise InvalidStateError("no cycle is out: submit one first")
        pending, self._pending = self._pending, []
        per_stream = sorted((r for p in pending for r in p.result()), key=lambda r: r[0])
        rows = np.concatenate([r[1] for r in per_stream])
        targets = np.concatenate([r[2] for r in per_stream])
        return Cycle(rows, targets, self.steps * self.streams, sum(r[3] for r in per_stream))

    def close(self) -> None:
        """Stops the actors (a cycle still out is dropped) and closes the connection the pool opened."""
        actors, self._actors, self._pending = self._actors, [], []
        for actor in actors:
            actor.stop()
        if self._entered:
            self._entered = False
            self.backend.__exit__(None, None, None)

    def __enter__(self) -> ActorPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
