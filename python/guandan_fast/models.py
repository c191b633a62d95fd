"""Learned models as players: a network that scores DanZero's 567-value rows
(`danzero_actions`: the state and one candidate action per row) plays the
best-scored legal action, one decision at a time (`OnnxBot`) or every table
of a `VectorEnv` in one batch per step (`BatchedModel`), or guides a native
search as its prior and leaf value (`ModelSearch`). A model is an ONNX
file (run by onnxruntime, the ``[onnx]`` extra, imported only when a file is
loaded) or any callable taking a ``(B, 567)`` float32 array and returning B
scores. docs/models.md describes the formats.
"""

from __future__ import annotations

import functools
import operator
import os
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union

import numpy as np
import numpy.typing as npt

from guandan_fast._core import (
    DANZERO_ROW_SIZE,
    Game,
    IllegalMoveError,
    InvalidArgumentError,
    Observation,
    _check_args,
    _model_scores,
    _search_options,
    danzero_actions,
    index_action,
    model_search,
    policy_action,
)

if TYPE_CHECKING:
    from guandan_fast._core import _ModelSearchResult

__all__ = ["BatchedModel", "MODEL_PREFIXES", "ModelSearch", "SEARCH_PREFIXES", "OnnxBot", "Scorer", "is_model_name", "load_onnx", "model_from_spec", "pick"]

#: A model: ``(B, 567)`` float32 rows in, B scores out.
Scorer = Callable[[npt.NDArray[np.float32]], Any]

CardOrder = Literal["rank-major", "suit-major"]
_CARD_ORDERS = ("rank-major", "suit-major")
_ENCODINGS = ("danzero567",)
#: Rules a model seat uses for tribute and return (policies of the engine).
_TRIBUTE_RULES = ("rule", "greedy")


def _card_order(card_order: object) -> CardOrder:
    if not isinstance(card_order, str) or card_order not in _CARD_ORDERS:
        raise InvalidArgumentError(f"card_order must be 'rank-major' or 'suit-major', not {card_order!r:.40}")
    return card_order  # type: ignore[return-value]


def _encoding(encoding: object) -> str:
    if not isinstance(encoding, str) or encoding not in _ENCODINGS:
        raise InvalidArgumentError(f"encoding must be 'danzero567' (the only model input so far), not {encoding!r:.40}")
    return str(encoding)


def _temperature(temperature: object) -> float:
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature >= 0 or temperature == float("inf"):
        raise InvalidArgumentError(f"temperature must be a finite number >= 0 (0 plays the best-scored action), not {temperature!r:.40}")
    return float(temperature)


class _OnnxScorer:
    """An ONNX model's session as a `Scorer` (picklable: reloaded from its path)."""

    def __init__(self, path: str, threads: int) -> None:
        self.path = path
        self.threads = threads
        self._open()

    def _open(self) -> None:
        try:
            import onnxruntime as ort  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            raise InvalidArgumentError("loading an ONNX model needs onnxruntime: pip install 'guandan_fast[onnx]'") from None
        if not os.path.isfile(self.path):
            raise InvalidArgumentError(f"no model file {self.path!r}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(self.path, options, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types for a file it cannot read
            raise InvalidArgumentError(f"{self.path!r} is not an ONNX model onnxruntime can load: {str(e)[:200]}") from None
        inputs, outputs = self._session.get_inputs(), self._session.get_outputs()
        if len(inputs) != 1 or len(outputs) < 1:
            raise InvalidArgumentError(f"{self.path!r} must take one input (the rows), not {len(inputs)}")
        shape = inputs[0].shape
        width = shape[-1] if shape else None
        if len(shape) != 2 or (isinstance(width, int) and width != DANZERO_ROW_SIZE):
            raise InvalidArgumentError(
                f"{self.path!r} takes input of shape {shape}, not (batch, {DANZERO_ROW_SIZE}) (the danzero567 rows)"
            )
        self._input = inputs[0].name
        self._output = outputs[0].name

    def __call__(self, rows: npt.NDArray[np.float32]) -> Any:
        return self._session.run([self._output], {self._input: rows})[0]

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "threads": self.threads}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path, self.threads = state["path"], state["threads"]
        self._open()


def load_onnx(path: Union[str, os.PathLike[str]], *, threads: int = 1) -> Scorer:
    """The ONNX model at `path` as a `Scorer` (onnxruntime on the CPU,
    `threads` intra-op threads); checked now: a missing file, a file
    onnxruntime cannot load or an input that is not ``(batch, 567)``
    raises `InvalidArgumentError`."""
    _check_args(threads=threads)
    return _load(path, max(1, threads))


def _load(path: object, threads: int) -> _OnnxScorer:
    """`load_onnx` of a checked thread count 1..256."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"path must be a file name, not a {type(path).__name__}")
    scorer = _OnnxScorer(os.fspath(path), threads)
    _model_scores(scorer, np.zeros((1, DANZERO_ROW_SIZE), np.float32), repr(scorer.path))
    return scorer


def _scorer(model: object, threads: int = 1) -> tuple[Scorer, str]:
    """`model` (a path, a loaded ONNX model or a callable; `threads`, for a
    path, checked already) as a `Scorer` and its name in errors."""
    if isinstance(model, (str, os.PathLike)):
        model = _load(model, max(1, threads))
    if isinstance(model, _OnnxScorer):
        return model, repr(model.path)
    if callable(model):
        return model, type(model).__name__
    raise InvalidArgumentError(f"model must be an ONNX file's path or a callable (rows -> scores), not a {type(model).__name__}")


def pick(
    scores: npt.NDArray[np.float64],
    offsets: npt.NDArray[np.int64],
    temperature: float = 0.0,
    rng: Optional[np.random.Generator] = None,
) -> npt.NDArray[np.int64]:
    """For each decision `i` (rows ``offsets[i]:offsets[i + 1]``, none empty),
    the position of its chosen row: the first highest score, or with
    `temperature` > 0 a draw from the softmax of scores / temperature."""
    starts = offsets[:-1]
    counts = np.diff(offsets)
    best = np.maximum.reduceat(scores, starts)
    if temperature == 0:
        rows = np.arange(len(scores), dtype=np.int64)
        at_best = np.where(scores == np.repeat(best, counts), rows, len(scores))
        return np.minimum.reduceat(at_best, starts)
    assert rng is not None
    w = np.exp((scores - np.repeat(best, counts)) / temperature)
    cum = np.cumsum(w)
    before = np.concatenate([[0.0], cum])[starts]
    totals = cum[offsets[1:] - 1] - before
    u = before + rng.random(len(starts)) * totals
    chosen = np.searchsorted(cum, u, side="right")
    return np.minimum(chosen, offsets[1:] - 1).astype(np.int64)


class OnnxBot:
    """A learned player: scores DanZero's 567-value row of every legal action
    (`danzero_actions`, one batch per decision) with the ONNX model at
    `path` (or a `Scorer` callable) and plays the best-scored one, or with
    `temperature` > 0 a softmax draw seeded by `seed`; tribute and return
    by the engine's policy `tribute` ('rule' or 'greedy'). A decision with
    one legal action is played without the model.

    `card_order`: how the model numbers the 54 card columns ('rank-major',
    DanZero's own code; 'suit-major', ``13 * suit + rank``); docs/models.md.
    """

    def __init__(
        self,
        path: Union[str, os.PathLike[str], Scorer],
        *,
        encoding: str = "danzero567",
        card_order: CardOrder = "rank-major",
        temperature: float = 0.0,
        seed: int = 0,
        tribute: Literal["rule", "greedy"] = "rule",
        threads: int = 1,
    ) -> None:
        _check_args(seed=seed, threads=threads)
        self.encoding = _encoding(encoding)
        self.card_order = _card_order(card_order)
        self.temperature = _temperature(temperature)
        if not isinstance(tribute, str) or tribute not in _TRIBUTE_RULES:
            raise InvalidArgumentError(f"tribute must be 'rule' or 'greedy', not {tribute!r:.40}")
        self.tribute = tribute
        self.seed = operator.index(seed)
        self._model, self._name = _scorer(path, threads)
        self._rng = np.random.default_rng(self.seed % 2**64)  # the engine reads a negative seed as its 64-bit pattern

    def scores(self, state: Game | Observation) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The legal action indices of `state` (a Game, or the Observation of
        the seat to act) in play, and the model's score of each."""
        rows = danzero_actions(state, card_order=self.card_order)
        indices = state.legal_action_indices()
        return indices, _model_scores(self._model, rows, self._name)

    def act(self, game: Game | Observation) -> Any:
        """The action of the seat to act in `game` (a Game or that seat's Observation)."""
        if not isinstance(game, (Game, Observation)):
            raise InvalidArgumentError(f"state must be a Game or an Observation, not a {type(game).__name__}")
        if game.phase in ("tribute", "return"):
            return policy_action(game, self.tribute)
        if game.phase != "play":
            raise IllegalMoveError(f"no action is expected in the {game.phase} phase")
        indices = game.legal_action_indices()
        if len(indices) == 1:
            return index_action(int(indices[0]), game)
        indices, scores = self.scores(game)
        k = pick(scores, np.array([0, len(scores)], np.int64), self.temperature, self._rng)[0]
        return index_action(int(indices[k]), game)

    def __repr__(self) -> str:
        return f"OnnxBot({self._name}, card_order={self.card_order!r}, temperature={self.temperature})"


class BatchedModel:
    """A model choosing the action of every table of a `VectorEnv` in one call
    per step: the rows of all tables' decisions (`VectorEnv.danzero_actions`,
    written into a buffer kept between steps) are scored together and each
    table's best-scored (or softmax-drawn, seeded) legal index is chosen.

    `model`: an ONNX file's path or a `Scorer` callable (numpy in, numpy out).
    """

    def __init__(
        self,
        model: Union[str, os.PathLike[str], Scorer],
        *,
        card_order: CardOrder = "rank-major",
        temperature: float = 0.0,
        seed: int = 0,
        threads: int = 1,
    ) -> None:
        _check_args(seed=seed, threads=threads)
        self.card_order = _card_order(card_order)
        self.temperature = _temperature(temperature)
        self._model, self._name = _scorer(model, threads)
        self._rng = np.random.default_rng(operator.index(seed) % 2**64)  # the engine reads a negative seed as its 64-bit pattern
        self._buffer = np.zeros((0, DANZERO_ROW_SIZE), np.float32)

    def actions(self, env: Any, decision: dict[str, Any]) -> npt.NDArray[np.int64]:
        """One action index per table for the decisions `decision` (what
        `env.reset()` or `env.step()` returned last)."""
        offsets = decision["legal_offset"]
        total = int(offsets[-1])
        if self._buffer.shape[0] < total:
            self._buffer = np.zeros((max(total, 2 * self._buffer.shape[0]), DANZERO_ROW_SIZE), np.float32)
        rows = env.danzero_actions(self._buffer[:total], card_order=self.card_order)
        scores = _model_scores(self._model, rows, self._name)
        return decision["legal"][pick(scores, offsets, self.temperature, self._rng)]


class ModelSearch:
    """A native search guided by a learned model: information-set MCTS
    (PUCT) of every legal action whose priors are the softmax of the model's
    scores / `temperature` over a node's legal actions and whose leaves are
    valued by the model's best score for the seat to move, the leaves
    scored in waves of `wave`, one model call per wave, the search itself
    in Rust without the GIL (`model_search`). With ``value=False`` the
    leaves are valued by rollouts of the policy `rollout` ('rule', 'greedy',
    'random' or 'mix'); with ``prior=False`` the priors are uniform (both
    off: PUCT with rollouts, no model call). Tribute and return are the
    rollout policy's, like a play that is the only one or goes out at once.

    `model`: an ONNX file's path (onnxruntime, `model_threads` intra-op
    threads) or a `Scorer` callable: ``(rows, 567)`` float32 in, one score
    per row out, the deal points the mover's team expects after the row's
    action (what `guandan_fast.train`'s DMC learns). Decision `k` (1, 2, ...)
    is seeded by ``decision_seed(seed, k)``; with a playout budget the
    decision does not depend on `threads`, with `think_ms` > 0 it stops on
    the clock. docs/models.md, "Searching with a model".
    """

    def __init__(
        self,
        model: Union[str, os.PathLike[str], Scorer],
        *,
        playouts: int = 200,
        wave: int = 16,
        prior: bool = True,
        value: bool = True,
        rollout: Literal["rule", "greedy", "random", "mix"] = "rule",
        c_puct: float = 1.5,
        temperature: float = 1.0,
        card_order: CardOrder = "rank-major",
        seed: int = 0,
        threads: int = 0,
        think_ms: int = 0,
        model_threads: int = 1,
    ) -> None:
        o = _search_options(
            playouts=playouts, wave=wave, prior=prior, value=value, rollout=rollout, c_puct=c_puct, temperature=temperature,
            card_order=card_order, seed=seed, threads=threads, think_ms=think_ms, model_threads=model_threads,
        )
        self.playouts = o["playouts"]
        self.wave = o["wave"]
        self.prior = o["prior"]
        self.value = o["value"]
        self.rollout = o["rollout"]
        self.c_puct = o["c_puct"]
        self.temperature = o["temperature"]
        self.card_order = o["card_order"]
        self.seed = o["seed"]
        self.threads = o["threads"]
        self.think_ms = o["think_ms"]
        self._model, self._name = _scorer(model, o["model_threads"])
        self._decisions = 0

    def search(self, state: Game | Observation) -> _ModelSearchResult:
        """The search of the decision of the seat to act in `state` (a Game
        or that seat's Observation; never changed): a dict of the ``action``,
        whether it ``searched``, the root's ``actions`` with their ``visits``,
        mean values ``q`` (deal points) and ``prior``, and the ``playouts``,
        ``waves``, model ``calls`` and ``rows`` it took."""
        from guandan_fast.bots import decision_seed

        k = self._decisions + 1
        result = model_search(
            state,
            self._model,
            playouts=self.playouts,
            wave=self.wave,
            prior=self.prior,
            value=self.value,
            rollout=self.rollout,
            c_puct=self.c_puct,
            temperature=self.temperature,
            card_order=self.card_order,
            seed=decision_seed(self.seed, k),
            threads=self.threads,
            think_ms=self.think_ms,
            name=self._name,
        )
        self._decisions = k  # a refused call is not a decision
        return result

    def act(self, game: Game | Observation) -> Any:
        """The action of the seat to act in `game` (a Game or that seat's Observation)."""
        return self.search(game)["action"]

    def __repr__(self) -> str:
        return (
            f"ModelSearch({self._name}, playouts={self.playouts}, wave={self.wave}, prior={self.prior}, "
            f"value={self.value}, rollout={self.rollout!r})"
        )


#: Name prefixes of a model bot and the card order each reads.
MODEL_PREFIXES: dict[str, CardOrder] = {"onnx:": "rank-major", "onnx-suit-major:": "suit-major"}

#: Name prefixes of a model-guided search (`ModelSearch` with its defaults) and the card order each reads.
SEARCH_PREFIXES: dict[str, CardOrder] = {"puct:": "rank-major", "puct-suit-major:": "suit-major"}


def is_model_name(name: object) -> bool:
    """Whether `name` names a model bot (``onnx:PATH``, ``onnx-suit-major:PATH``)
    or a model-guided search (``puct:PATH``, ``puct-suit-major:PATH``)."""
    return isinstance(name, str) and name.startswith(tuple(MODEL_PREFIXES) + tuple(SEARCH_PREFIXES))


def model_from_spec(spec: str, *, seed: int = 0) -> Union[OnnxBot, ModelSearch]:
    """The bot of a name ``onnx:PATH`` (``onnx-suit-major:PATH`` for the
    suit-major card order) or the search ``puct:PATH`` (``puct-suit-major:PATH``;
    a `ModelSearch` with its defaults), the model loaded and checked now;
    `InvalidArgumentError` for anything else."""
    return _model_bots(spec)(seed=seed)


def _model_bots(spec: str) -> Callable[..., Union[OnnxBot, ModelSearch]]:
    """The bots of a model name (as `model_from_spec` reads it) made from one
    loading of its model: called with ``seed=``, a new bot, the one
    `model_from_spec` makes with that seed (picklable: a copy loads the
    model again)."""
    kinds: tuple[tuple[dict[str, CardOrder], type[Union[OnnxBot, ModelSearch]]], ...] = ((MODEL_PREFIXES, OnnxBot), (SEARCH_PREFIXES, ModelSearch))
    for prefixes, kind in kinds:
        for prefix, order in prefixes.items():
            if isinstance(spec, str) and spec.startswith(prefix) and spec[len(prefix) :]:
                return functools.partial(kind, _load(spec[len(prefix) :], 1), card_order=order)
    raise InvalidArgumentError(
        f"a model bot is named onnx:PATH, onnx-suit-major:PATH, puct:PATH or puct-suit-major:PATH, not {spec!r:.60}"
    )
