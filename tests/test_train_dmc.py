"""guandan_fast.train and examples/dmc.py: the Monte Carlo targets on hand-built
episodes, the replay buffer, and (with PyTorch installed) a bounded training
run of a tiny network: a finite loss, a checkpoint that --resume continues,
and an ONNX export that `gf.OnnxBot` loads and plays a whole game with."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from examples_helpers import load_example

import guandan_fast as gf
from guandan_fast.train import EpisodeTracker, ReplayBuffer, pit_model

W = gf.DANZERO_ROW_SIZE


def row(tag: int) -> np.ndarray:
    """A row told apart by its first values (the decision's number, in base 3)."""
    r = np.zeros(W, np.int8)
    r[0], r[1] = tag % 3, tag // 3 % 3
    r[2] = tag // 9 % 3
    return r


def test_targets_of_a_hand_built_episode() -> None:
    # Two tables. Table 0: seats 0, 1, 2, 3, 0, 1 act; the deal ends with
    # seats 0/2 winning 2 levels. Table 1: seats 3, 0 act, and its deal has
    # not ended when table 0's does; then it ends, seats 1/3 winning 3.
    tracker = EpisodeTracker(2)
    zero = np.zeros((2, 4))
    seats0 = [0, 1, 2, 3, 0, 1]
    seats1 = [3, 0, 1, 2, 3, 0]
    for k in range(6):
        tracker.record(np.stack([row(k), row(10 + k)]), np.array([seats0[k], seats1[k]]))
        if k < 5:
            rows, targets = tracker.settle(zero, np.array([False, False]))
            assert len(rows) == len(targets) == 0
    reward = np.array([[2, -2, 2, -2], [0, 0, 0, 0]], np.float32)
    rows, targets = tracker.settle(reward, np.array([True, False]))
    assert [int(r[0] + 3 * r[1] + 9 * r[2]) for r in rows] == [0, 1, 2, 3, 4, 5]  # table 0's rows, in order
    assert targets.tolist() == [2, -2, 2, -2, 2, -2]  # each row: its seat's team's return
    assert tracker.pending(0) == 0 and tracker.pending(1) == 6
    # Table 0's next deal: one decision by seat 2, ended with seats 1/3 winning 1.
    tracker.record(np.stack([row(20), row(16)]), np.array([2, 1]))
    reward = np.array([[-1, 1, -1, 1], [-3, 3, -3, 3]], np.float32)
    rows, targets = tracker.settle(reward, np.array([True, True]))
    tags = [int(r[0] + 3 * r[1] + 9 * r[2]) for r in rows]
    assert tags == [20, 10, 11, 12, 13, 14, 15, 16]
    assert targets.tolist() == [-1, 3, -3, 3, -3, 3, -3, 3]  # the old deal's reward is not carried over


def test_targets_are_the_rewards_from_the_decision_on() -> None:
    # A reward in the middle of the episode counts only for the decisions before it.
    tracker = EpisodeTracker(1)
    tracker.record(row(0)[None], np.array([0]))
    tracker.settle(np.array([[1.0, 0, 0, 0]]), np.array([False]))
    tracker.record(row(1)[None], np.array([0]))
    rows, targets = tracker.settle(np.array([[2.0, 0, 0, 0]]), np.array([True]))
    assert targets.tolist() == [3.0, 2.0]


def test_targets_on_the_vector_env_match_the_deals() -> None:
    # Random self-play: every row of a finished deal gets +gain or -gain, by
    # the team of the seat that chose it, as the finished deal's result says.
    env = gf.VectorEnv(4, seed=5)
    tracker = EpisodeTracker(4)
    step = env.reset()
    checked = 0
    rng = np.random.default_rng(0)
    while checked < 4:
        offsets = step["legal_offset"]
        rows = env.danzero_actions()
        pos = offsets[:-1] + (rng.random(4) * step["legal_count"]).astype(np.int64)
        tracker.record(rows[pos], step["seat"])
        seats = step["seat"].copy()
        pending = [tracker.pending(i) for i in range(4)]
        step = env.step(step["legal"][pos])
        out_rows, targets = tracker.settle(step["reward"], step["terminated"])
        at = 0
        for i in np.flatnonzero(step["terminated"]):
            f = env.finished(int(i))
            assert f is not None
            result = f.deals[-1]
            gain = result["gain"]
            mine = targets[at : at + pending[i]]
            assert len(mine) == len(f.actions) and set(np.abs(mine).tolist()) == {gain}
            assert mine[-1] == (gain if seats[i] % 2 == result["winner"] else -gain)
            at += pending[i]
            checked += 1
        assert at == len(targets) == len(out_rows)
    env.close()


def test_replay_buffer_keeps_the_latest_and_refuses_bad_rows() -> None:
    buf = ReplayBuffer(3, width=4, seed=0)
    buf.push(np.arange(8).reshape(2, 4) % 3, [1.0, 2.0])
    buf.push(np.ones((2, 4)), [3.0, 4.0])
    assert len(buf) == 3 and buf.added == 4
    rows, targets = buf.sample(50)
    assert set(targets.tolist()) == {2.0, 3.0, 4.0}  # the first pair was overwritten
    assert rows.dtype == np.float32 and rows.shape == (50, 4)
    with pytest.raises(gf.InvalidArgumentError):
        buf.push(np.full((1, 4), 0.5), [0.0])
    with pytest.raises(gf.InvalidArgumentError):
        buf.push(np.zeros((1, 5)), [0.0])
    with pytest.raises(gf.InvalidArgumentError):
        ReplayBuffer(0)


BAD_COUNTS = (None, "4", 2.0, True, 0, -1, 2**63, "x" * 10**6)


@pytest.mark.parametrize("bad", BAD_COUNTS)
def test_sizes_and_counts_are_refused_before_anything_is_allocated(bad: Any) -> None:
    buf = ReplayBuffer(4, width=2)
    buf.push(np.zeros((1, 2)), [1.0])
    for make in (lambda: ReplayBuffer(bad), lambda: ReplayBuffer(4, width=bad), lambda: buf.sample(bad), lambda: EpisodeTracker(bad),
                 lambda: pit_model(lambda rows: rows[:, 0], "greedy", n=bad), lambda: pit_model(lambda rows: rows[:, 0], "greedy", tables=bad)):
        with pytest.raises(gf.InvalidArgumentError):
            make()
    assert len(buf) == 1 and buf.added == 1


def test_pit_model_counts_the_same_deals_as_pit() -> None:
    # A model that plays like the first legal index loses to greedy; the record has n deals a side.
    r = pit_model(lambda rows: -np.arange(len(rows), dtype=np.float32), "greedy", n=6, tables=4)
    assert r.played == 12 and 0 <= r.a_wins <= 12 and r.b == "greedy"
    with pytest.raises(gf.InvalidArgumentError):
        pit_model(lambda rows: rows[:, 0], "no-such-policy", n=2)


def test_importing_the_package_does_not_import_torch() -> None:
    code = "import sys, guandan_fast, guandan_fast.train; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- with PyTorch



TINY = ["--tables", "4", "--sizes", "567,16,8,1", "--batch-size", "32", "--lr", "1e-3", "--eval-every", "3",
        "--eval-deals", "2", "--eval-tables", "2", "--opponents", "random", "--final-deals", "0", "--final-games", "0",
        "--threads", "1", "--no-picture"]


def test_a_tiny_network_trains_checkpoints_resumes_and_exports(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from guandan_fast.train.dmc import load_checkpoint

    ex = load_example("dmc")
    out = tmp_path / "run"
    first = ex.main(["--steps", "4", "--out", str(out), *TINY])
    c = first["counters"]
    assert c["steps"] == 4 and c["samples"] >= c["trained"] > 0
    saved = load_checkpoint(out / "checkpoint.pt")
    assert saved["counters"]["steps"] == c["steps"]
    lines = (out / "curve.csv").read_text().splitlines()
    header = lines[0].split(",")
    losses = [float(line.split(",")[header.index("loss")]) for line in lines[1:] if line.split(",")[header.index("loss")]]
    assert losses and all(np.isfinite(losses))

    second = ex.main(["--steps", str(c["steps"] + 3), "--out", str(out), "--resume", *TINY])
    c2 = second["counters"]
    assert c2["steps"] == c["steps"] + 3 and c2["samples"] > c["samples"] and c2["episodes"] >= c["episodes"]
    assert load_checkpoint(out / "checkpoint.pt")["counters"]["steps"] == c2["steps"]
    assert len((out / "curve.csv").read_text().splitlines()) > len(lines)
    assert json.loads((out / "results.json").read_text())["counters"]["steps"] == c2["steps"]

    bot = gf.OnnxBot(out / "model.onnx")
    g = gf.Game(seed=7)
    deals = 0
    while not g.is_over and deals < 200:  # a whole game: a deal is won every time, so it ends
        if g.phase == "deal_over":
            g.next_deal()
        finish = gf.play_deal(g, [bot, gf.RandomBot(seed=1), bot, gf.RandomBot(seed=2)])
        assert sorted(finish) == sorted(set(finish)) and len(finish) >= 2
        deals += 1
    assert g.is_over and g.game_winners and len(g.deals) == deals


def test_export_gives_the_networks_scores(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from guandan_fast.train.dmc import build_mlp, export_onnx, torch_scorer

    net = build_mlp((gf.DANZERO_ROW_SIZE, 8, 4, 1), seed=3)
    path = export_onnx(net, tmp_path / "m.onnx")
    g = gf.Game(seed=4)
    rows = gf.danzero_actions(g)
    indices, scores = gf.OnnxBot(path).scores(g)
    assert np.allclose(scores, torch_scorer(net)(rows), atol=1e-5)
    assert indices.tolist() == g.legal_action_indices().tolist()
    with torch.no_grad():
        net[0].weight.add_(1.0)  # another network: the file no longer matches it
    assert not np.allclose(gf.OnnxBot(path).scores(g)[1], torch_scorer(net)(rows), atol=1e-5)


def test_bad_settings_raise_guandan_errors() -> None:
    pytest.importorskip("torch")
    from guandan_fast.train.dmc import DMC, build_mlp

    for kwargs in ({"tables": 0}, {"lr": 0.0}, {"epsilon": 1.5}, {"batch_size": 8, "buffer_size": 4}, {"sizes": (10, 1)},
                   {"tables": 2**63}, {"batch_size": 2**63}, {"lr": float("nan")}, {"epsilon": None}):
        with pytest.raises(gf.InvalidArgumentError):
            DMC(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError):
        build_mlp((gf.DANZERO_ROW_SIZE, 4, 2))
