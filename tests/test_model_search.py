"""The native search guided by a learned model (`model_search`, `ModelSearch`):
PUCT information-set MCTS whose priors and leaf values come from a batched
callable, called once per wave of leaves. The models here are hand-written
numpy callables (no torch or onnx needed), and one small ONNX file when
onnxruntime is installed."""

from __future__ import annotations

import math
import pickle
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.models import BatchedModel, ModelSearch, OnnxBot, model_from_spec

ROW = gf.DANZERO_ROW_SIZE
STATE = gf.DANZERO_SIZE


def linear(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 0.05, ROW).astype(np.float32)


class Recorder:
    """A linear model that records the number of rows of every call."""

    def __init__(self, seed: int = 0) -> None:
        self.w = linear(seed)
        self.calls: list[int] = []

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        assert rows.dtype == np.float32 and rows.ndim == 2 and rows.shape[1] == ROW
        self.calls.append(rows.shape[0])
        return rows @ self.w


def position(seed: int, skip: int = 0) -> gf.Game:
    """A game in play at a decision with at least three legal actions, after `skip` such decisions."""
    g = gf.Game(seed=seed)
    seen = 0
    while True:
        if g.phase == "play" and len(g.legal_action_indices()) >= 3:
            if seen == skip:
                return g
            seen += 1
        g.apply(gf.policy_action(g, "rule", seed=seen))


def test_the_same_seed_decides_the_same_for_any_thread_count() -> None:
    for prior, value in [(True, True), (True, False), (False, True)]:
        g = position(3, 2)
        runs = [gf.model_search(g, Recorder(), playouts=40, wave=8, prior=prior, value=value, seed=5, threads=t) for t in (1, 2)]
        a, b = runs
        assert a["searched"] and a["action"] == b["action"]
        assert (a["visits"] == b["visits"]).all() and np.array_equal(a["q"], b["q"]) and np.array_equal(a["prior"], b["prior"])
        assert a["visits"].sum() == a["playouts"] == 40


def test_the_model_is_called_once_per_wave_not_once_per_node() -> None:
    g = position(1, 0)
    m = Recorder()
    r = gf.model_search(g, m, playouts=50, wave=16, seed=1)
    waves = math.ceil(50 / 16)
    assert r["waves"] == waves
    # One call for the root's prior, then one per wave holding the rows of all its leaves.
    assert len(m.calls) == r["calls"] == 1 + waves
    assert m.calls[0] == len(g.legal_action_indices()) == len(r["actions"])
    assert sum(m.calls) == r["rows"]
    assert all(n >= 16 for n in m.calls[1:-1])  # every leaf of a full wave has at least one legal action


def test_a_strong_preference_is_played() -> None:
    for seed in range(3):
        g = position(seed, 1)
        rows = gf.danzero_actions(g)
        target = rows[len(rows) // 2, STATE:].copy()

        def prefers(x: np.ndarray) -> np.ndarray:
            return np.where((x[:, STATE:] == target).all(axis=1), 3.0, -3.0)

        # With rollouts, their values may outweigh the prior unless its weight is large.
        for value, c_puct in ((True, 1.5), (False, 20.0)):
            a = gf.model_search(g, prefers, playouts=64, wave=8, value=value, c_puct=c_puct, seed=seed)["action"]
            k = list(g.legal_action_indices()).index(gf.actions.index(a))
            assert (rows[k, STATE:] == target).all(), (seed, value)


def test_prior_only_and_value_only() -> None:
    g = position(2, 3)
    n = len(g.legal_action_indices())
    m = Recorder()
    prior_only = gf.model_search(g, m, playouts=24, wave=8, value=False, rollout="greedy", seed=2)
    assert prior_only["calls"] == 1 + 3 and m.calls[0] == n
    assert abs(prior_only["prior"].sum() - 1) < 1e-9 and prior_only["prior"].std() > 0
    m = Recorder()
    value_only = gf.model_search(g, m, playouts=24, wave=8, prior=False, seed=2)
    assert value_only["calls"] == len(m.calls) == 3  # no call for the root's prior
    assert np.allclose(value_only["prior"], 1 / n)
    m = Recorder()
    neither = gf.model_search(g, m, playouts=24, wave=8, prior=False, value=False, seed=2)
    assert neither["calls"] == 0 and m.calls == [] and neither["visits"].sum() == 24
    for r in (prior_only, value_only, neither):
        assert gf.actions.index(r["action"]) in set(g.legal_action_indices())


@pytest.mark.parametrize(
    "model, problem",
    [
        (lambda x: np.zeros(len(x) + 1), "shape"),
        (lambda x: np.zeros((len(x), 2)), "shape"),
        (lambda x: np.zeros(()), "shape"),
        (lambda x: ["a"] * len(x), "numbers"),
        (lambda x: None, "shape"),
        (lambda x: np.full(len(x), np.nan), "NaN"),
        (lambda x: np.full(len(x), np.inf), "NaN"),
        (lambda x: np.full(len(x), 1e300), "NaN"),
    ],
)
def test_bad_answers_raise_and_leave_the_game_unchanged(model: object, problem: str) -> None:
    g = position(4, 1)
    before = pickle.dumps(g)
    with pytest.raises(gf.InvalidStateError, match=problem):
        gf.model_search(g, model, playouts=16, wave=4)  # type: ignore[arg-type]
    assert pickle.dumps(g) == before
    with pytest.raises(gf.InvalidStateError, match=problem):
        ModelSearch(model, playouts=16, wave=4).act(g)  # type: ignore[arg-type]
    assert pickle.dumps(g) == before
    # The players of one decision or of many tables check the answers the same way.
    with pytest.raises(gf.InvalidStateError, match=problem):
        OnnxBot(model).act(g)  # type: ignore[arg-type]
    assert pickle.dumps(g) == before
    env = gf.VectorEnv(2, seed=1)
    with pytest.raises(gf.InvalidStateError, match=problem):
        BatchedModel(model).actions(env, env.reset())  # type: ignore[arg-type]
    env.close()


def test_good_answers_are_one_float_per_row() -> None:
    g = position(4, 1)
    rows = gf.danzero_actions(g)
    w = linear(3)
    for model in (lambda x: x @ w, lambda x: (x @ w)[:, None], lambda x: list(map(float, x @ w)), lambda x: (x @ w).astype(np.float16)):
        _, scores = OnnxBot(model).scores(g)
        assert scores.dtype == np.float64 and scores.shape == (len(rows),)
        assert np.allclose(scores, rows @ w, atol=1e-2)


def test_an_exception_of_the_model_is_the_package_error_with_its_cause() -> None:
    g = position(4, 2)
    before = pickle.dumps(g)

    def broken(x: np.ndarray) -> np.ndarray:
        raise RuntimeError("out of memory on the device")

    with pytest.raises(gf.InvalidStateError, match="raised RuntimeError .*out of memory") as e:
        gf.model_search(g, broken, playouts=8, name="mine")
    assert "model mine" in str(e.value) and isinstance(e.value.__cause__, RuntimeError)
    assert pickle.dumps(g) == before

    with pytest.raises(gf.InvalidStateError, match="model function raised RuntimeError .*out of memory") as e:
        OnnxBot(broken).act(g)
    assert isinstance(e.value.__cause__, RuntimeError)
    env = gf.VectorEnv(1, seed=1)
    with pytest.raises(gf.InvalidStateError, match="raised RuntimeError") as e:
        BatchedModel(broken).actions(env, env.reset())
    assert isinstance(e.value.__cause__, RuntimeError)
    assert pickle.dumps(g) == before

    def interrupted(x: np.ndarray) -> np.ndarray:
        raise KeyboardInterrupt

    def leaving(x: np.ndarray) -> np.ndarray:
        raise SystemExit(3)

    for stop, kind in ((interrupted, KeyboardInterrupt), (leaving, SystemExit)):
        with pytest.raises(kind):
            gf.model_search(g, stop, playouts=8)
        with pytest.raises(kind):
            OnnxBot(stop).act(g)
        with pytest.raises(kind):
            BatchedModel(stop).actions(env, env.reset())
    env.close()


def test_bad_options_are_refused() -> None:
    g = position(0)
    m = Recorder()
    for kw in [
        {"playouts": 0},
        {"wave": 0},
        {"prior": 1},
        {"value": "yes"},
        {"rollout": "mc"},
        {"c_puct": -1.0},
        {"c_puct": float("nan")},
        {"temperature": 0},
        {"temperature": True},
        {"card_order": "rank"},
        {"seed": 1.5},
        {"threads": -1},
        {"think_ms": -1},
        {"wave": 5000},
        {"playouts": 2**24 + 1},
    ]:
        what = next(iter(kw))
        with pytest.raises(gf.InvalidArgumentError, match=f"^{what} must be"):
            gf.model_search(g, m, **kw)  # type: ignore[arg-type]
        with pytest.raises(gf.InvalidArgumentError, match=f"^{what} must be"):
            ModelSearch(m, **kw)  # type: ignore[arg-type]
    for bad in (0, 257, 1.0, True, "2"):
        with pytest.raises(gf.InvalidArgumentError, match="^model_threads must be"):
            ModelSearch(m, model_threads=bad)  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError):
        gf.model_search(g, "not callable")  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError):
        ModelSearch(42)  # type: ignore[arg-type]
    assert m.calls == []


def test_a_model_search_keeps_its_options_as_the_engine_reads_them() -> None:
    bot = ModelSearch(Recorder(), playouts=np.int64(40), c_puct=2, prior=np.bool_(False), temperature=np.float32(0.5), seed=-1, rollout="mix")
    assert (bot.playouts, bot.wave, bot.prior, bot.value, bot.rollout) == (40, 16, False, True, "mix")
    assert (bot.c_puct, bot.temperature, bot.card_order, bot.seed, bot.threads, bot.think_ms) == (2.0, 0.5, "rank-major", -1, 0, 0)
    assert type(bot.playouts) is int and type(bot.prior) is bool and type(bot.c_puct) is float
    assert repr(bot) == "ModelSearch(Recorder, playouts=40, wave=16, prior=False, value=True, rollout='mix')"


def test_tribute_and_obvious_plays_do_not_call_the_model() -> None:
    m = Recorder()
    bot = ModelSearch(m, playouts=8, wave=4)
    g = gf.Game(seed=11)
    checked = 0
    for _ in range(3):
        while g.phase in ("tribute", "return"):
            assert bot.act(g) == gf.policy_action(g, "rule")
            g.apply(gf.policy_action(g, "rule"))
            checked += 1
        if g.phase == "play":
            finish = gf.play_deal(g, [gf.RuleBot(), gf.RuleBot(), gf.RuleBot(), gf.RuleBot()])
            assert finish
        g.next_deal()
    assert checked > 0 and m.calls == []


def test_a_model_search_plays_whole_deals_as_a_bot_and_from_observations() -> None:
    m = Recorder()
    bot = ModelSearch(m, playouts=16, wave=8, seed=3)
    g = gf.Game(seed=2)
    o = g.observation(g.current_player)
    assert gf.model_search(o, m, playouts=16, wave=8, seed=1)["action"] == gf.model_search(g, m, playouts=16, wave=8, seed=1)["action"]
    finish = gf.play_deal(g, [bot, gf.GreedyBot(), bot, gf.GreedyBot()])
    assert sorted(finish) == sorted(set(finish)) and len(finish) >= 2
    assert len(m.calls) > 10
    assert "ModelSearch(" in repr(bot)


def test_an_onnx_model_searches_by_path(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    w = linear(7).reshape(ROW, 1)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "linear",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", ROW])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 1])],
        [numpy_helper.from_array(w, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = tmp_path / "linear.onnx"
    onnx.save(model, str(path))
    g = position(5, 1)
    by_path = ModelSearch(str(path), playouts=24, wave=8, seed=4).search(g)
    by_callable = ModelSearch(lambda x: x @ w, playouts=24, wave=8, seed=4).search(g)
    # onnxruntime's sums may differ from numpy's in the last bits: the same search, not always the same visits.
    assert by_path["searched"] and by_path["calls"] == by_callable["calls"] and by_path["rows"] > 0
    assert np.allclose(by_path["prior"], by_callable["prior"], atol=1e-4)
    assert gf.actions.index(by_path["action"]) in set(g.legal_action_indices())
    bot = model_from_spec(f"puct:{path}", seed=1)
    assert isinstance(bot, ModelSearch) and bot.card_order == "rank-major"
    assert model_from_spec(f"puct-suit-major:{path}").card_order == "suit-major"  # type: ignore[union-attr]
    assert gf.models.is_model_name(f"puct:{path}")
    with pytest.raises(gf.InvalidArgumentError):
        ModelSearch(str(tmp_path / "missing.onnx"))
