"""Learned models in the loop: the cost of DanZero's 567-value rows, of one
`OnnxBot` decision and of `VectorEnv` steps whose decisions a model makes in
one batch per step (`BatchedModel`).

The model is an MLP of DanZero's size, 567 -> 512 -> 1024 -> 512 -> 1024 ->
512 -> 1 with ReLUs, seeded random weights, written as ONNX and run by
onnxruntime on the CPU (`--threads` intra-op threads). Figures:

- rows: `danzero_actions(game)` per decision (µs), over the play decisions
  of seeded games played by the greedy policy;
- bot: `OnnxBot.act` per play decision (ms), the same decisions;
- vector: table-steps per second of `VectorEnv(N)` driven by `BatchedModel`
  (rows of all N tables, one model call, one step), self-play (every seat
  the model) and against native `rule` seats on 1/3.

Run: python benches/models.py [--tables 64 256] [--steps 200] [--threads 2]
(needs the [onnx] extra and the onnx package).
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import time
from pathlib import Path

import numpy as np

import guandan_fast as gf
from guandan_fast.models import BatchedModel, OnnxBot

SIZES = [gf.DANZERO_ROW_SIZE, 512, 1024, 512, 1024, 512, 1]


def write_mlp(path: Path, sizes: list[int], seed: int = 0) -> Path:
    """A seeded ReLU MLP of `sizes` as an ONNX file."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits, prev = [], [], "x"
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        inits += [
            numpy_helper.from_array(rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), f"w{i}"),
            numpy_helper.from_array(np.zeros(b, np.float32), f"b{i}"),
        ]
        nodes.append(helper.make_node("Gemm", [prev, f"w{i}", f"b{i}"], [f"h{i}"]))
        prev = f"h{i}"
        if i < len(sizes) - 2:
            nodes.append(helper.make_node("Relu", [prev], [f"r{i}"]))
            prev = f"r{i}"
    graph = helper.make_graph(
        nodes, "danzero_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", sizes[0]])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, ["batch", 1])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def play_states(games: int) -> list[gf.Game]:
    """Copies of the play decisions of seeded games (first deal) played by the greedy policy."""
    out = []
    for seed in range(games):
        g = gf.Game(seed=seed)
        while g.phase in ("tribute", "return", "play"):
            if g.phase == "play":
                out.append(copy.copy(g))
            g.apply(gf.policy_action(g, "greedy"))
    return out


def time_rows(states: list[gf.Game], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for g in states:
            gf.danzero_actions(g)
        best = min(best, time.perf_counter() - t)
    return best / len(states)


def time_bot(bot: OnnxBot, states: list[gf.Game]) -> tuple[float, float]:
    t = time.perf_counter()
    for g in states:
        bot.act(g)
    per = (time.perf_counter() - t) / len(states)
    actions = np.mean([len(g.legal_action_indices()) for g in states])
    return per, float(actions)


def time_vector(model: BatchedModel, tables: int, steps: int, opponents: list | None) -> tuple[float, float]:
    env = gf.VectorEnv(tables, seed=0, opponents=opponents)
    d = env.reset()
    for _ in range(5):  # warm-up
        d = env.step(model.actions(env, d))
    rows = 0
    t = time.perf_counter()
    for _ in range(steps):
        rows += int(d["legal_offset"][-1])
        d = env.step(model.actions(env, d))
    dt = time.perf_counter() - t
    env.close()
    return tables * steps / dt, rows / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = write_mlp(Path(tmp) / "danzero_mlp.onnx", SIZES)
        states = play_states(args.games)
        print(f"model {' -> '.join(map(str, SIZES))}, onnxruntime, {args.threads} threads; {len(states)} play decisions")
        rows = sum(len(g.legal_action_indices()) for g in states)
        per = time_rows(states)
        print(f"rows      danzero_actions per decision: {per * 1e6:.1f} µs ({per * len(states) / rows * 1e6:.2f} µs per row, {rows / len(states):.1f} rows per decision)")
        per, k = time_bot(OnnxBot(path, threads=args.threads), states)
        print(f"bot       OnnxBot.act per play decision: {per * 1e3:.2f} ms ({k:.1f} legal actions on average)")
        model = BatchedModel(path, threads=args.threads)
        for n in args.tables:
            for name, opp in (("self-play", None), ("vs rule", [None, "rule", None, "rule"])):
                rate, rows = time_vector(model, n, args.steps, opp)
                print(f"vector    {n:4d} tables {name:9s}: {rate:8.0f} table-steps/s ({rows:.0f} rows per model call)")


if __name__ == "__main__":
    main()
