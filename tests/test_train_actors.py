"""guandan_fast.train.actors: self-play actors that score in numpy with
weights sent to them, dealt among actors in this process or on a Ray
cluster of this machine (started by these tests on the loopback address,
two CPUs, shut down at the end with every process it started; those tests
are marked slow). The pairs do not depend on the number of actors nor on
the backend; the weights sent each cycle change what the actors play; the
numpy forward pass is torch's (with PyTorch installed); bad input raises the
package's own errors."""

from __future__ import annotations

import os
import socket
from typing import Any, Iterator, Sequence

import numpy as np
import pytest
from examples_helpers import load_example
from ray_helpers import local_ray, wait_dead

import guandan_fast as gf
from guandan_fast.distributed import ClusterError, LocalBackend
from guandan_fast.train.actors import ActorPool, Cycle, SelfPlayActor, check_layers, mlp_forward, numpy_scorer

W = gf.DANZERO_ROW_SIZE


def exact_layers(seed: int, sign: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    """A 567 -> 8 -> 1 network of small whole weights: every score is an exact
    float32 whole number whatever order a matrix product adds in, so any
    numpy, thread count or machine gives the same scores and choices."""
    rng = np.random.default_rng(seed)
    return [
        (rng.integers(-3, 4, (8, W)).astype(np.float32), rng.integers(-3, 4, 8).astype(np.float32)),
        (sign * rng.integers(-3, 4, (1, 8)).astype(np.float32), np.zeros(1, np.float32)),
    ]


def float_layers(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [
        ((rng.standard_normal((16, W)) * 0.1).astype(np.float32), (rng.standard_normal(16) * 0.1).astype(np.float32)),
        (rng.standard_normal((1, 16)).astype(np.float32), np.zeros(1, np.float32)),
    ]


def run_pool(backend: object, actors: int, layers: Sequence[Any], *, streams: int = 2, steps: int = 150, **kw: Any) -> list[Cycle]:
    """One cycle per entry of `layers`, on a pool of `actors` actors."""
    with ActorPool(backend, actors=actors, streams=streams, tables=3, steps=steps, seed=7, epsilon=0.1, **kw) as pool:
        out = []
        for each in layers:
            pool.submit(each)
            out.append(pool.collect())
        return out


def same_cycles(a: Sequence[Cycle], b: Sequence[Cycle]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(x.rows, y.rows) and np.array_equal(x.targets, y.targets) and (x.steps, x.episodes) == (y.steps, y.episodes)
        for x, y in zip(a, b)
    )


def check_cycles(cycles: Sequence[Cycle], streams: int, steps: int) -> None:
    """Pairs of finished deals: int8 rows of DanZero's values, whole nonzero targets, counters that add up."""
    assert sum(c.episodes for c in cycles) > 0
    for c in cycles:
        assert c.rows.dtype == np.int8 and c.rows.shape == (len(c.targets), W) and c.targets.dtype == np.float32
        assert set(np.unique(c.rows)) <= {-1, 0, 1, 2}
        assert np.all(np.abs(c.targets) >= 1) and np.all(c.targets == np.round(c.targets))
        assert c.steps == streams * steps


# ---------------------------------------------------------------- numpy only


def test_mlp_forward_is_the_layers_by_hand() -> None:
    layers = float_layers(1)
    rows = np.random.default_rng(2).integers(-1, 3, (5, W)).astype(np.float32)
    (w0, b0), (w1, b1) = layers
    want = [float(w1[0].astype(np.float64) @ np.maximum(w0.astype(np.float64) @ r + b0, 0) + b1[0]) for r in rows.astype(np.float64)]
    got = mlp_forward(layers, rows)
    assert got.shape == (5,) and got.dtype == np.float32
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5)
    assert np.array_equal(numpy_scorer(layers)(rows), got)


def test_the_pairs_do_not_depend_on_the_number_of_actors() -> None:
    layers = [float_layers(3), float_layers(4)]
    one = run_pool("local", 1, layers, streams=3)
    three = run_pool(LocalBackend(), 3, layers, streams=3)
    check_cycles(one, 3, 150)
    assert same_cycles(one, three)
    # The streams, not the actors, carry the deals: another count of streams plays other deals.
    assert not same_cycles(one, run_pool("local", 1, layers, streams=2))


def test_the_weights_sent_change_what_the_actors_play() -> None:
    a, b = exact_layers(5), exact_layers(5, sign=-1)
    kept = run_pool("local", 2, [a, a, a])
    changed = run_pool("local", 2, [a, b, b])
    assert same_cycles(kept[:1], changed[:1])  # the same first cycle
    assert not np.array_equal(kept[2].rows, changed[2].rows)  # the actors played the new weights


def test_an_actor_plays_its_streams_in_turn() -> None:
    actor = SelfPlayActor([4, 9], 2, 0.0, 1, 0, 1)
    try:
        out = actor.play(exact_layers(2), 200)
        assert [s for s, *_ in out] == [4, 9]
        assert all(len(rows) == len(targets) for _, rows, targets, _ in out)
        assert actor.play(exact_layers(2), 0)[0][1].shape == (0, W)
    finally:
        actor.close()


def bad_layers() -> list[Any]:
    good = exact_layers(0)
    return [
        None, "layers", [], [good[0]], [good[1]],  # empty, or not from 567 to 1
        [(good[0][0][:, :100], good[0][1]), good[1]],  # 100 inputs
        [good[0], (good[1][0], np.zeros(3, np.float32))],  # a bias of the wrong width
        [good[0], (np.full((1, 8), np.nan, np.float32), good[1][1])],
        [good[0], (good[1][0],)], [good[0], ("x", "y")], [(object(), object()), good[1]],
    ]


@pytest.mark.parametrize("layers", bad_layers(), ids=range(len(bad_layers())))
def test_bad_layers_are_refused(layers: Any) -> None:
    with pytest.raises(gf.InvalidArgumentError):
        check_layers(layers)
    with pytest.raises(gf.InvalidArgumentError):
        numpy_scorer(layers)


BAD_POOLS: list[dict[str, Any]] = [
    {"actors": 0}, {"actors": 2.0}, {"actors": "2"}, {"actors": True}, {"actors": 2**40}, {"actors": 2, "streams": 1},
    {"streams": 0}, {"tables": 0}, {"tables": 2**63}, {"steps": 0}, {"steps": None}, {"epsilon": 1.5}, {"epsilon": float("nan")},
    {"seed": -1}, {"start": 2**64}, {"backend": "spark"}, {"backend": "local", "address": "127.0.0.1:6379"},
    {"backend": object()},
]


@pytest.mark.parametrize("kw", BAD_POOLS, ids=range(len(BAD_POOLS)))
def test_bad_pool_settings_raise_the_package_errors(kw: dict[str, Any]) -> None:
    with pytest.raises(gf.InvalidArgumentError):
        ActorPool(**kw)


def test_a_pool_out_of_order_raises_invalid_state() -> None:
    pool = ActorPool("local", actors=1, tables=2, steps=1)
    with pytest.raises(gf.InvalidStateError, match="no cycle is out"):
        pool.collect()
    pool.submit(exact_layers(0))
    with pytest.raises(gf.InvalidStateError, match="already out"):
        pool.submit(exact_layers(0))
    assert pool.collect().steps == 1
    with pytest.raises(gf.InvalidArgumentError):
        pool.submit([])
    pool.close()
    with pytest.raises(gf.InvalidStateError, match="closed"):
        pool.submit(exact_layers(0))


def test_a_dead_address_raises_cluster_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ClusterError, match="no Ray cluster answers"):
        ActorPool("ray", address=f"127.0.0.1:{port}")


# ---------------------------------------------------------------- with PyTorch


def test_the_numpy_forward_is_torchs() -> None:
    pytest.importorskip("torch")
    from guandan_fast.train.dmc import DANZERO_SIZES, DMC, build_mlp, torch_scorer

    env = gf.VectorEnv(4, seed=3)
    env.reset()
    rows = env.danzero_actions()
    env.close()
    for sizes in (DANZERO_SIZES, (W, 16, 8, 1)):
        net = build_mlp(sizes, seed=11)
        dmc = DMC(tables=2, sizes=sizes, batch_size=8, buffer_size=8, seed=11, device="cpu")
        want = torch_scorer(net)(rows)
        for layers in (dmc.layers(), [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in net if hasattr(m, "weight")]):
            got = mlp_forward(check_layers(layers), rows)
            scale = 1 + float(np.abs(want).max())
            assert got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5 * scale)
        dmc.close()


def test_layers_are_copies_of_the_network() -> None:
    torch = pytest.importorskip("torch")
    from guandan_fast.train.dmc import DMC

    dmc = DMC(tables=2, sizes=(W, 8, 1), seed=1, device="cpu")
    before = dmc.layers()
    with torch.no_grad():
        dmc.net[0].weight.add_(1.0)
    assert not np.array_equal(before[0][0], dmc.layers()[0][0])  # what was sent does not follow later training
    assert [w.shape for w, _ in before] == [(8, W), (1, 8)]


def train_with_actors(backend: object, actors: int, iterations: int) -> tuple[Any, list[float]]:
    from guandan_fast.train.dmc import DMC

    dmc = DMC(tables=3, sizes=(W, 16, 1), batch_size=64, buffer_size=10_000, seed=4, device="cpu", threads=1)
    dmc.use_actors(backend, actors=actors, streams=2, cycle_steps=60)
    losses: list[float] = []
    try:
        for _ in range(iterations):
            losses += dmc.iterate()
        rows = dmc.buffer._rows[: len(dmc.buffer)].copy()
        return (dmc.counters(), rows, [w.copy() for w, _ in dmc.layers()]), losses
    finally:
        dmc.close()


def test_the_learner_trains_on_the_actors_pairs() -> None:
    pytest.importorskip("torch")
    (counters, rows, weights), losses = train_with_actors("local", 2, 6)
    assert counters["env_steps"] == 6 * 2 * 60 and counters["samples"] == len(rows) > 0
    assert counters["steps"] > 0 and losses and all(np.isfinite(losses))
    (counters1, rows1, weights1), losses1 = train_with_actors("local", 1, 6)
    assert {k: v for k, v in counters1.items() if k != "seconds"} == {k: v for k, v in counters.items() if k != "seconds"}
    assert np.array_equal(rows1, rows) and losses1 == losses and all(np.array_equal(a, b) for a, b in zip(weights, weights1))


def test_bad_actor_settings_raise_before_anything_starts() -> None:
    pytest.importorskip("torch")
    from guandan_fast.train.dmc import DMC

    dmc = DMC(tables=2, sizes=(W, 8, 1), device="cpu")
    for kw in ({"actors": 0}, {"actors": 2, "streams": 1}, {"cycle_steps": 0}, {"actors": "2"}, {"backend": "local", "address": "h:1"}):
        with pytest.raises(gf.InvalidArgumentError):
            dmc.use_actors(**kw)
    with pytest.raises(gf.InvalidStateError):
        dmc.start_actors()
    ex = load_example("dmc")
    with pytest.raises(gf.InvalidArgumentError, match="go with --ray"):
        ex.main(["--actors", "2", "--steps", "1"])


# ---------------------------------------------------------------- a Ray cluster on this machine


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Any, set[int]]]:
    with local_ray(2) as ray_and_workers:
        yield ray_and_workers


@pytest.mark.slow
def test_ray_actors_play_the_local_pairs(cluster: tuple[Any, set[int]]) -> None:
    ray, workers = cluster
    exact = [exact_layers(1), exact_layers(2)]
    with ActorPool("ray", actors=2, streams=2, tables=3, steps=150, seed=7, epsilon=0.1) as pool:
        pids = set(pool.pids)
        workers.update(pids)
        assert len(pids) == 2 and os.getpid() not in pids  # two processes of their own
        on_ray = []
        for layers in exact:
            pool.submit(layers)
            on_ray.append(pool.collect())
    assert not wait_dead(pids)  # closing the pool ended its actors
    assert ray.is_initialized()  # and left the Ray it did not start
    check_cycles(on_ray, 2, 150)
    assert same_cycles(on_ray, run_pool("local", 1, exact))
    # Float weights: Ray's actors all run numpy on one thread, so any number of them plays the same pairs.
    floats = [float_layers(5), float_layers(6)]
    assert same_cycles(run_pool("ray", 1, floats), run_pool("ray", 2, floats))


@pytest.mark.slow
def test_the_example_trains_on_ray(cluster: tuple[Any, set[int]], tmp_path: Any) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    ray, _ = cluster
    ex = load_example("dmc")
    tiny = ["--tables", "3", "--sizes", "567,16,1", "--batch-size", "64", "--eval-every", "2", "--eval-deals", "2",
            "--eval-tables", "2", "--opponents", "random", "--final-deals", "0", "--final-games", "0", "--threads", "1",
            "--no-picture", "--actors", "2", "--cycle-steps", "60"]
    address = ray.get_runtime_context().gcs_address
    for i, where in enumerate(["--ray", f"--ray={address}"]):
        out = ex.main(["--steps", "3", "--out", str(tmp_path / f"r{i}"), where, *tiny])
        c = out["counters"]
        assert c["steps"] == 3 and c["samples"] >= c["trained"] > 0 and c["env_steps"] % (2 * 60) == 0
        assert out["ray"]["actors"] == 2 and (tmp_path / f"r{i}" / "model.onnx").is_file()
    assert ray.is_initialized()
