"""Deep Monte Carlo in PyTorch on `VectorEnv`: DanZero's network, the actor
and learner loop, checkpoints, and the export of the network to ONNX for
`OnnxBot` and `BatchedModel`.

Needs PyTorch (the ``[train]`` extra) and, for the export, the onnx package.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

try:
    import torch  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - depends on the install
    raise ImportError("guandan_fast.train.dmc needs PyTorch: pip install 'guandan_fast[train]'") from None

from guandan_fast._core import DANZERO_ROW_SIZE, InvalidArgumentError, InvalidStateError, _check_args
from guandan_fast.arguments import check_int, check_number
from guandan_fast.distributed.backends import make_backend
from guandan_fast.models import Scorer, load_onnx
from guandan_fast.train.actors import ActorPool, SelfPlay, check_epsilon, check_pool
from guandan_fast.train.buffer import ReplayBuffer
from guandan_fast.train.returns import MAX_TABLES, EpisodeTracker

__all__ = ["DANZERO_SIZES", "DMC", "build_mlp", "export_onnx", "load_checkpoint", "torch_scorer"]

#: DanZero's Q network: 567 inputs, five ReLU layers, one score.
DANZERO_SIZES: tuple[int, ...] = (DANZERO_ROW_SIZE, 512, 1024, 512, 1024, 512, 1)
#: What a checkpoint file says it is.
CHECKPOINT_FORMAT = "guandan_fast.train.dmc/1"


def _sizes(sizes: Sequence[int]) -> tuple[int, ...]:
    out = tuple(sizes)
    if len(out) < 2 or out[0] != DANZERO_ROW_SIZE or out[-1] != 1 or not all(isinstance(s, int) and s >= 1 for s in out):
        raise InvalidArgumentError(f"sizes must run from {DANZERO_ROW_SIZE} (the row) to 1 (the score) in positive ints, not {out!r:.80}")
    return out


def build_mlp(sizes: Sequence[int] = DANZERO_SIZES, *, seed: Optional[int] = None) -> torch.nn.Sequential:
    """A ReLU MLP of layer widths `sizes` (``567, ..., 1``): DanZero's by default.
    With `seed`, its initial weights come from that seed."""
    widths = _sizes(sizes)
    if seed is not None:
        torch.manual_seed(seed)
    layers: list[torch.nn.Module] = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        layers.append(torch.nn.Linear(a, b))
        if i < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def mlp_sizes(net: torch.nn.Sequential) -> tuple[int, ...]:
    """The layer widths of an MLP of `build_mlp`."""
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    return (linear[0].in_features, *(m.out_features for m in linear))


def torch_scorer(net: torch.nn.Module, device: Union[str, torch.device] = "cpu") -> Scorer:
    """`net` as a `Scorer` (numpy rows in, numpy scores out, no gradients),
    for `BatchedModel`, `OnnxBot` or `pit_model`."""

    def score(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        with torch.inference_mode():
            out: npt.NDArray[np.float32] = net(torch.from_numpy(np.ascontiguousarray(rows)).to(device)).reshape(-1).cpu().numpy()
        return out

    return score


def export_onnx(net: torch.nn.Sequential, path: Union[str, os.PathLike[str]], *, check: bool = True) -> Path:
    """Writes the MLP `net` (of `build_mlp`) as an ONNX file: input ``rows``
    ``(batch, 567)`` float32, output ``score`` ``(batch, 1)``, as `OnnxBot`
    and `BatchedModel` read it. With `check`, the file is loaded by the
    package's own loader (`guandan_fast.models.load_onnx`) and must give
    the network's scores on a few rows, else `InvalidStateError`.

    The graph is written from the weights (Gemm and Relu nodes, opset 13)
    with the onnx package, not traced, so it does not depend on the
    version of PyTorch's exporter."""
    try:
        import onnx  # type: ignore[import-not-found,unused-ignore]
        from onnx import TensorProto, helper, numpy_helper  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise InvalidArgumentError("exporting to ONNX needs the onnx package: pip install 'guandan_fast[train]'") from None
    out = Path(path)
    nodes: list[Any] = []
    inits: list[Any] = []
    prev = "rows"
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    for i, layer in enumerate(linear):
        w = layer.weight.detach().cpu().numpy().astype(np.float32)
        b = layer.bias.detach().cpu().numpy().astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        name = "score" if i == len(linear) - 1 else f"h{i}"
        nodes.append(helper.make_node("Gemm", [prev, f"w{i}", f"b{i}"], [name], transB=1))
        prev = name
        if i < len(linear) - 1:
            nodes.append(helper.make_node("Relu", [prev], [f"r{i}"]))
            prev = f"r{i}"
    graph = helper.make_graph(
        nodes,
        "danzero_q",
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, ["batch", linear[0].in_features])],
        [helper.make_tensor_value_info("score", TensorProto.FLOAT, ["batch", 1])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="guandan_fast.train")
    model.ir_version = 8
    onnx.checker.check_model(model)
    tmp = out.with_name(out.name + ".part")
    onnx.save(model, str(tmp))
    os.replace(tmp, out)
    if check:
        rows = np.random.default_rng(0).integers(-1, 3, (16, linear[0].in_features)).astype(np.float32)
        device = linear[0].weight.device
        want = torch_scorer(net, device)(rows)
        got = np.asarray(load_onnx(out)(rows), np.float32).reshape(-1)
        if not np.allclose(got, want, rtol=1e-3, atol=1e-3 * (1 + float(np.abs(want).max()))):
            raise InvalidStateError(f"the ONNX file {str(out)!r} does not give the network's scores (max difference {np.abs(got - want).max():.3g})")
    return out


class DMC:
    """Deep Monte Carlo on `tables` self-play tables of a `VectorEnv`
    (``unit="deal"``: each episode one deal; ``reward="deal"``: the level
    points of the deal).

    `act` plays one step at every table: the network scores the rows of all
    tables' legal actions in one call and each table plays its best-scored
    action, or with probability `epsilon` a uniformly random legal one.
    Ended deals give each chosen row its seat's return (`EpisodeTracker`)
    into the `ReplayBuffer`. `learn` is one optimizer step (Adam, mean
    squared error of the score to the target) on `batch_size` pairs drawn
    from the buffer. `iterate` is one `act` and then as many `learn` as keep
    the pairs trained at `replay_ratio` times the pairs collected.

    After `use_actors`, `act` is one cycle of an `ActorPool` instead: its
    actors (Ray actors on a cluster, or objects of this process) play their
    streams with the weights sent to them (`layers`, a forward pass in
    numpy), and the learner here trains on the pairs. Each `act` collects
    the cycle out and sends the current weights for the next one at once,
    so the actors play while the learner trains, on weights one cycle old.

    Counters (kept in checkpoints): `steps` (optimizer steps), `env_steps`
    (vector steps, of every stream with actors), `samples` (pairs
    collected), `trained` (pairs trained on), `episodes` (deals finished),
    `seconds` (time spent in `iterate`).
    """

    def __init__(
        self,
        *,
        tables: int = 128,
        sizes: Sequence[int] = DANZERO_SIZES,
        batch_size: int = 512,
        lr: float = 3e-4,
        epsilon: float = 0.05,
        buffer_size: int = 200_000,
        replay_ratio: float = 1.0,
        seed: int = 0,
        device: Optional[str] = None,
        threads: int = 0,
    ) -> None:
        _check_args(seed=seed, threads=threads)
        check_int("tables", tables, 1, MAX_TABLES)
        check_int("batch_size", batch_size, 1, 2**32)
        for name, value in (("lr", lr), ("replay_ratio", replay_ratio)):
            if not check_number(name, value) > 0:
                raise InvalidArgumentError(f"{name} must be a finite number > 0, not {value!r:.40}")
        check_epsilon(epsilon)
        check_int("buffer_size", buffer_size, batch_size, 2**32)
        self.config: dict[str, Any] = {
            "tables": tables,
            "sizes": list(_sizes(sizes)),
            "batch_size": batch_size,
            "lr": float(lr),
            "epsilon": float(epsilon),
            "buffer_size": buffer_size,
            "replay_ratio": float(replay_ratio),
            "seed": seed,
        }
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        if threads:
            torch.set_num_threads(threads)
        self.net = build_mlp(sizes, seed=seed).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.buffer = ReplayBuffer(buffer_size, seed=seed)
        self.tracker = EpisodeTracker(tables)
        self.scorer = torch_scorer(self.net, self.device)
        self.steps = self.env_steps = self.samples = self.trained = self.episodes = 0
        self.seconds = 0.0
        self._rng = np.random.default_rng(seed % 2**64)
        self._play: Optional[SelfPlay] = None
        self._actor_options: Optional[dict[str, Any]] = None
        self._pool: Optional[ActorPool] = None

    # ------------------------------------------------------------ actors

    def _start(self) -> SelfPlay:
        """The vector env, started at a seed of its own for each resumption
        (the seed and the vector steps so far), so a resumed run plays new deals."""
        seed = (self.config["seed"] * 1_000_003 + self.env_steps) % 2**63
        self._play = SelfPlay(self.config["tables"], seed=seed, epsilon=self.config["epsilon"], rng=self._rng)
        self.tracker = self._play.tracker
        return self._play

    def use_actors(
        self,
        backend: object = "ray",
        *,
        address: Optional[str] = None,
        actors: int = 2,
        streams: Optional[int] = None,
        cycle_steps: int = 16,
    ) -> None:
        """From the next `act` on, self-play runs on an `ActorPool` of
        `actors` actors on `backend` (``"ray"`` at `address`, ``"local"``, or a
        backend object), `streams` streams (default: one per actor) of
        ``tables`` tables each, `cycle_steps` vector steps a stream per cycle.
        The pool starts at the first `act` (and again after `load`); `close`
        stops it. The arguments are checked here."""
        check_pool(actors, streams, cycle_steps, "cycle_steps")
        make_backend(backend, address=address)  # checks the pair; connects to nothing
        self.close()
        self._actor_options = {"backend": backend, "address": address, "actors": actors, "streams": streams, "steps": cycle_steps}

    def layers(self) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """The network's ``(weight, bias)`` per linear layer, float32 numpy
        copies (weight ``(out, in)``): what `ActorPool.submit` sends and
        `guandan_fast.train.actors.mlp_forward` reads."""
        return [
            (m.weight.detach().cpu().numpy().astype(np.float32, copy=True), m.bias.detach().cpu().numpy().astype(np.float32, copy=True))
            for m in self.net
            if isinstance(m, torch.nn.Linear)
        ]

    def act(self) -> int:
        """One vector step of self-play at every table (one model call), or
        with actors one cycle; returns the pairs it added to the buffer."""
        if self._actor_options is not None:
            return self._cycle()
        play = self._play or self._start()
        self.net.eval()
        before = play.episodes
        new_rows, targets = play.step(self.scorer)
        self.env_steps += 1
        self.episodes += play.episodes - before
        return self._add(new_rows, targets)

    def start_actors(self) -> ActorPool:
        """The `ActorPool` of `use_actors`, started now if it is not running
        (connecting to the cluster, or starting a local Ray); its streams
        start from the seed and the vector steps so far, so a resumed run
        plays new deals. `act` starts it when needed."""
        if self._actor_options is None:
            raise InvalidStateError("use_actors was not called: self-play runs in this process")
        if self._pool is None:
            c = self.config
            self._pool = ActorPool(**self._actor_options, tables=c["tables"], epsilon=c["epsilon"], seed=c["seed"], start=self.env_steps)
        return self._pool

    def _cycle(self) -> int:
        """Collects the actors' cycle out (sending the weights first if none
        is out) and sends the current weights for the next cycle."""
        pool = self.start_actors()
        if not pool.pending:
            pool.submit(self.layers())
        cycle = pool.collect()
        pool.submit(self.layers())
        self.env_steps += cycle.steps
        self.episodes += cycle.episodes
        return self._add(cycle.rows, cycle.targets)

    def _add(self, rows: npt.NDArray[np.int8], targets: npt.NDArray[np.float32]) -> int:
        if len(targets):
            self.buffer.push(rows, targets)
            self.samples += len(targets)
        return len(targets)

    # ------------------------------------------------------------ learner

    def learn(self) -> float:
        """One optimizer step on a minibatch of the buffer; its loss (mean squared error)."""
        rows, targets = self.buffer.sample(self.config["batch_size"])
        x = torch.from_numpy(rows).to(self.device)
        y = torch.from_numpy(targets).to(self.device)
        self.net.train()
        loss = torch.nn.functional.mse_loss(self.net(x).reshape(-1), y)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
        self.optimizer.step()
        self.steps += 1
        self.trained += len(targets)
        value = float(loss.detach().cpu())
        if not math.isfinite(value):
            raise InvalidStateError(f"the loss is {value} at step {self.steps} (the learning rate may be too high)")
        return value

    def iterate(self, max_steps: Optional[int] = None) -> list[float]:
        """One `act`, then the `learn` steps that keep the pairs trained on at
        `replay_ratio` times the pairs collected (none before the buffer holds
        a batch), stopping when `steps` reaches `max_steps`; the losses of
        those steps."""
        start = time.perf_counter()
        self.act()
        losses = []
        batch = self.config["batch_size"]
        while (
            len(self.buffer) >= batch
            and self.trained + batch <= self.config["replay_ratio"] * self.samples
            and (max_steps is None or self.steps < max_steps)
        ):
            losses.append(self.learn())
        self.seconds += time.perf_counter() - start
        return losses

    def close(self) -> None:
        """Releases the vector env and stops the actors (a later `act` starts them again)."""
        if self._play is not None:
            self._play.close()
            self._play = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.close()

    # ------------------------------------------------------------ checkpoints

    def counters(self) -> dict[str, Any]:
        """The counters of the run so far."""
        return {
            "steps": self.steps,
            "env_steps": self.env_steps,
            "samples": self.samples,
            "trained": self.trained,
            "episodes": self.episodes,
            "seconds": self.seconds,
        }

    def save(self, path: Union[str, os.PathLike[str]], extra: Optional[dict[str, Any]] = None) -> Path:
        """Writes a checkpoint: the network, the optimizer, the counters, the
        configuration and `extra` (anything `torch.save` keeps with plain
        Python values). The replay buffer is not kept: a resumed run refills it."""
        out = Path(path)
        state = {
            "format": CHECKPOINT_FORMAT,
            "config": self.config,
            "counters": self.counters(),
            "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self._rng.bit_generator.state,
            "extra": extra or {},
        }
        tmp = out.with_name(out.name + ".part")
        torch.save(state, tmp)
        os.replace(tmp, out)
        return out

    def load(self, path: Union[str, os.PathLike[str]]) -> dict[str, Any]:
        """Continues from the checkpoint at `path` (of a run with the same
        network sizes): the network, the optimizer and the counters; returns
        its `extra`."""
        state = load_checkpoint(path)
        if list(state["config"]["sizes"]) != self.config["sizes"]:
            raise InvalidArgumentError(f"the checkpoint's network has sizes {state['config']['sizes']}, not {self.config['sizes']}")
        self.net.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        for group in self.optimizer.param_groups:
            group["lr"] = self.config["lr"]
        for key, value in state["counters"].items():
            setattr(self, key, value)
        self._rng.bit_generator.state = state["rng"]
        self.close()
        extra: dict[str, Any] = state.get("extra", {})
        return extra


def load_checkpoint(path: Union[str, os.PathLike[str]]) -> dict[str, Any]:
    """The contents of a checkpoint written by `DMC.save` (tensors on the CPU);
    `InvalidArgumentError` for a missing file or another kind of file."""
    if not os.path.isfile(path):
        raise InvalidArgumentError(f"no checkpoint file {os.fspath(path)!r}")
    try:
        state: dict[str, Any] = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises several types for a file that is not its own
        raise InvalidArgumentError(f"{os.fspath(path)!r} is not a checkpoint torch can read: {str(e)[:160]}") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise InvalidArgumentError(f"{os.fspath(path)!r} is not a checkpoint of guandan_fast.train.dmc")
    return state
