"""guandan_fast.distributed: chunked runs give exactly the one-machine results,
locally and on a Ray cluster of this machine (started by these tests on the
loopback address, two CPUs, shut down at the end with every process it
started; those tests are marked slow: ``-m "not slow"`` leaves them out); a worker killed mid-run costs a retry, not a changed result; bad
input raises the package's own errors."""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest
from ray_helpers import BOUND, local_ray, wait_dead

import guandan_fast as gf
import guandan_fast.distributed as gd
from guandan_fast.cli import main
from guandan_fast.distributed.chunks import Span, simulate_chunk
from guandan_fast.distributed.runs import run_chunks


def same_arrays(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype for k in a)


def same_evaluation(a: dict[str, Any], b: dict[str, Any]) -> bool:
    arrays = ("mean", "win_prob", "stderr", "count")
    return a["actions"] == b["actions"] and a["best"] == b["best"] and all(np.array_equal(a[k], b[k]) for k in arrays)


def positions() -> list[Any]:
    """Games, an Observation and a position string, a few moves into their deals."""
    out: list[Any] = []
    for seed in range(5):
        g = gf.Game(seed=seed)
        for _ in range(seed):
            g.apply(gf.policy_action(g, "greedy"))
        out.append(g)
    out.append(out[1].observation(out[1].current_player))
    out.append(out[2].position())
    return out


# ---------------------------------------------------------------- no cluster


def test_importing_the_package_does_not_import_ray() -> None:
    code = "import sys, guandan_fast, guandan_fast.distributed; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("chunk", [None, 1, 7, 1000])
def test_local_simulate_is_the_one_call(chunk: int | None) -> None:
    for unit, n in (("deal", 120), ("game", 6)):
        want = gf.simulate(n, seed=11, start=5, unit=unit, policy=["greedy", "random", "greedy", "random"])
        got = gd.simulate(n, seed=11, start=5, unit=unit, policy=["greedy", "random", "greedy", "random"], chunk=chunk)
        assert same_arrays(got, want)


def test_local_pit_and_evaluate_are_the_one_calls() -> None:
    assert gd.pit("greedy", "random", n=90, seed=4, chunk=13) == gf.pit("greedy", "random", n=90, seed=4)
    assert gd.pit("greedy", "random", n=8, seed=4, unit="game") == gf.pit("greedy", "random", n=8, seed=4, unit="game")
    ps = positions()
    want = [gf.evaluate(p if not isinstance(p, str) else gf.Game.from_position(p), playouts=20, seed=3) for p in ps]
    for chunk in (None, 1, 3):
        got = gd.evaluate(ps, playouts=20, seed=3, chunk=chunk)
        assert len(got) == len(want) and all(same_evaluation(a, b) for a, b in zip(got, want))
    assert gd.evaluate([], playouts=20) == []


def test_local_collect_is_the_one_call() -> None:
    for kw in (dict(policy="greedy"), dict(policy=["greedy", "random", "mc:4", "random"], unit="game", reward="game")):
        want = gf.collect(12, seed=4, start=2, **kw)
        for chunk in (None, 1, 5):
            assert same_arrays(gd.collect(12, seed=4, start=2, chunk=chunk, **kw), want)
    assert same_arrays(gd.collect(0, seed=4), gf.collect(0, seed=4))
    with pytest.raises(gf.InvalidArgumentError):
        gd.collect(5, policy="nobody")


TOURNAMENT = dict(format="swiss", rounds=3, max_deals=12, at_limit="sudden_death", seed=3)
FIELD = ["greedy", "random", "greedy", "random", "random", "mc:6"]


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_local_tournament_is_the_one_run(fmt: str) -> None:
    kw = dict(TOURNAMENT, format=fmt, rounds=3 if fmt == "swiss" else None)
    want = gf.Tournament(FIELD, **kw).run(keep_games=True).to_dict(records=True)
    for chunk in (None, 1, 4):
        assert gd.tournament(gf.Tournament(FIELD, **kw), chunk=chunk, keep_games=True).to_dict(records=True) == want


def test_progress_counts_every_item_once() -> None:
    seen: list[int] = []
    gd.simulate(100, seed=1, chunk=30, progress=seen.append)
    assert seen == [30, 30, 30, 10]
    seen.clear()
    gd.pit("random", "random", n=50, chunk=20, progress=seen.append)
    assert seen == [40, 40, 20]  # both seatings
    seen.clear()
    gd.simulate(3000, seed=1, policy="greedy", progress=seen.append)  # measured chunks
    assert sum(seen) == 3000 and all(k > 0 for k in seen)


def test_chunks_are_consecutive_spans() -> None:
    assert gd.chunks.spans(10, 25, 10) == [Span(10, 10), Span(20, 10), Span(30, 5)]
    assert gd.chunks.spans(0, 0, 10) == []
    k, first, size = gd.chunks.chunk_size(lambda k: gf.simulate(k, seed=2), 10**6)
    assert 1 <= k <= 10**6 and len(first["winner"]) == k and size >= 1


def test_bad_input_raises_the_package_errors() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="chunk must be at least 1"):
        gd.simulate(10, chunk=0)
    with pytest.raises(gf.InvalidArgumentError, match="chunk must be at least 1"):
        gd.pit("greedy", "random", n=10, chunk=0)
    with pytest.raises(gf.InvalidArgumentError, match="chunk must be at least 1"):
        gd.evaluate(positions()[:1], chunk=0)
    with pytest.raises(gf.InvalidArgumentError, match="chunk must be a positive number"):
        gd.simulate(10, chunk=2.5)  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="backend must be 'local', 'ray'"):
        gd.simulate(10, backend="spark")
    with pytest.raises(gf.InvalidArgumentError, match="needs backend='ray'"):
        gd.simulate(10, address="127.0.0.1:6379")
    with pytest.raises(gf.InvalidArgumentError, match="policy must be"):
        gd.simulate(10, policy="nobody", backend="ray", address="127.0.0.1:1")  # checked before connecting
    with pytest.raises(gf.InvalidArgumentError, match="n must be"):
        gd.pit("greedy", "random", n=0)
    with pytest.raises(gf.InvalidArgumentError, match="n must be"):
        gd.simulate(2**32 + 1)  # as gf.simulate refuses it
    with pytest.raises(gf.InvalidArgumentError, match="n must be"):
        gd.simulate(-1)
    with pytest.raises(gf.InvalidArgumentError, match="position 1 must be a Game"):
        gd.evaluate([gf.Game(seed=1), 42])  # type: ignore[list-item]
    with pytest.raises(gf.GuandanError, match="position 0"):
        gd.evaluate(["gf2 nonsense"])
    with pytest.raises(gf.InvalidArgumentError, match="positions must be a list"):
        gd.evaluate(gf.Game(seed=1))  # type: ignore[arg-type]
    with pytest.raises(gf.InvalidArgumentError, match="address must be"):
        gd.RayBackend("no-port-here").connect()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_dead_address_raises_cluster_error() -> None:
    dead = f"127.0.0.1:{free_port()}"
    with pytest.raises(gd.ClusterError, match=f"no Ray cluster answers at {dead}"):
        gd.simulate(10, backend="ray", address=dead)
    assert issubclass(gd.ClusterError, gf.GuandanError)


# ---------------------------------------------------------------- a Ray cluster on this machine


def _pid(_: object) -> int:
    return os.getpid()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """One local Ray of two CPUs for the module, on 127.0.0.1 only; every process it started ends with it."""
    with local_ray(2) as (ray, workers):
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the test's task functions
        workers.update(gd.RayBackend().map(_pid, list(range(4))))
        yield ray


@pytest.mark.slow
def test_ray_simulate_is_the_one_call(cluster: Any) -> None:
    for unit, n, chunk in (("deal", 400, 37), ("deal", 3000, None), ("game", 6, 2)):
        want = gf.simulate(n, seed=7, start=3, unit=unit, policy="greedy")
        got = gd.simulate(n, seed=7, start=3, unit=unit, policy="greedy", backend="ray", chunk=chunk)
        assert same_arrays(got, want)


@pytest.mark.slow
def test_ray_pit_and_evaluate_are_the_one_calls(cluster: Any) -> None:
    seen: list[int] = []
    got = gd.pit("greedy", "random", n=120, seed=9, backend="ray", chunk=25, progress=seen.append)
    assert got == gf.pit("greedy", "random", n=120, seed=9)
    assert sorted(seen) == [40] + [50] * 4
    ps = positions()
    want = gd.evaluate(ps, playouts=20, seed=5)
    got_e = gd.evaluate(ps, playouts=20, seed=5, backend="ray", chunk=2)
    assert len(got_e) == len(want) and all(same_evaluation(a, b) for a, b in zip(got_e, want))


@pytest.mark.slow
def test_ray_tournament_is_the_one_run(cluster: Any, tmp_path: Path) -> None:
    want = gf.Tournament(FIELD, **TOURNAMENT).run(keep_games=True).to_dict(records=True)
    got = gd.tournament(gf.Tournament(FIELD, **TOURNAMENT), backend="ray", chunk=2, keep_games=True)
    assert got.to_dict(records=True) == want
    outs = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"t{len(outs)}.json"
        args = ["tournament", *FIELD, "--format", "swiss", "--rounds", "3", "--seed", "3", "--no-progress", "--out", str(out)]
        assert main(args + extra) == 0
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_ray_collect_is_the_one_call(cluster: Any, tmp_path: Path) -> None:
    want = gf.collect(30, seed=6, policy="greedy", observation="guandan")
    seen: list[int] = []
    got = gd.collect(30, seed=6, policy="greedy", observation="guandan", backend="ray", chunk=7, progress=seen.append)
    assert same_arrays(got, want) and sorted(seen) == [2, 7, 7, 7, 7]
    files = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"c{len(files)}.npz"
        assert main(["collect", "greedy", "--n", "20", "--seed", "2", "--no-progress", "--out", str(out), *extra]) == 0
        with np.load(out) as f:
            files.append({k: f[k] for k in f.files})
    assert same_arrays(files[0], files[1])


@pytest.mark.slow
def test_an_engine_error_in_a_task_is_raised_as_itself(cluster: Any) -> None:
    done = gf.Game(seed=3)
    gf.play_deal(done, [gf.GreedyBot()] * 4)  # the deal is over: no play phase to evaluate
    with pytest.raises(gf.IllegalMoveError, match="position 2"):
        gd.evaluate(positions()[:2] + [done], playouts=5, backend="ray", chunk=1)


@pytest.mark.slow
def test_the_cli_runs_on_ray_with_the_same_results(cluster: Any, tmp_path: Path, capsys: Any) -> None:
    address = cluster.get_runtime_context().gcs_address
    outs = []
    for extra in ([], ["--ray"], [f"--ray={address}"]):
        out = tmp_path / f"r{len(outs)}.json"
        args = ["simulate", "greedy", "random", "mc:4", "--n", "40", "--seed", "3", "--no-progress", "--out", str(out)]
        assert main(args + extra) == 0
        outs.append([{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(out.read_text())["results"]])
    assert outs[0] == outs[1] == outs[2] and len(outs[0]) == 3
    assert "error" not in capsys.readouterr().err


# A worker killed in the middle of a chunk.

DOOMED = 120  # the span start whose first run is killed


def _doomed_simulate(span: Span, config: dict[str, Any], marks: str) -> dict[str, np.ndarray]:
    """`simulate_chunk`, but the first run of span DOOMED waits to be killed; every run leaves a mark."""
    folder = Path(marks)
    doomed = folder / "doomed"
    if span.start == DOOMED and not doomed.exists():
        doomed.with_suffix(".tmp").write_text(str(os.getpid()))
        doomed.with_suffix(".tmp").rename(doomed)
        for _ in range(int(BOUND * 10)):
            time.sleep(0.1)  # killed meanwhile
        raise AssertionError("the doomed worker was not killed")
    (folder / f"ran-{span.start}-{uuid.uuid4().hex}").touch()
    return simulate_chunk(span, config)


@pytest.mark.slow
def test_a_killed_worker_costs_a_retry_not_a_changed_result(cluster: Any, tmp_path: Path) -> None:
    killed: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            doomed = tmp_path / "doomed"
            if doomed.exists():
                pid = int(doomed.read_text())
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    config = dict(seed=21, threads=1, rules=None, unit="deal", policy="greedy", mode="pattern")
    work = functools.partial(_doomed_simulate, config=config, marks=str(tmp_path))
    n, chunk = 600, 40
    parts = run_chunks(gd.RayBackend(max_retries=3), n, work, chunk=chunk)
    thread.join(BOUND)
    assert len(killed) == 1 and not wait_dead(set(killed))
    got = gd.chunks.concat(parts)
    assert same_arrays(got, gf.simulate(n, seed=21, threads=1, policy="greedy"))
    runs = sorted(int(p.name.split("-")[1]) for p in tmp_path.glob("ran-*"))
    assert runs == list(range(0, n, chunk))  # every chunk once, the killed one retried once


def _blocked(i: int, marks: str) -> int:
    """Item 0 returns at once; the others record their worker and wait (they are to be cancelled)."""
    if i == 0:
        return os.getpid()
    (Path(marks) / f"pid-{os.getpid()}").touch()
    for _ in range(int(BOUND * 10)):
        time.sleep(0.1)
    (Path(marks) / f"finished-{i}").touch()
    return os.getpid()


@pytest.mark.slow
def test_ctrl_c_cancels_the_outstanding_tasks(cluster: Any, tmp_path: Path) -> None:
    def interrupt(i: int) -> None:
        deadline = time.monotonic() + BOUND  # wait until a blocked task holds a worker
        while not list(tmp_path.glob("pid-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gd.RayBackend().map(functools.partial(_blocked, marks=str(tmp_path)), list(range(6)), interrupt)
    running = {int(p.name.split("-")[1]) for p in tmp_path.glob("pid-*")}
    assert running and not wait_dead(running)  # force-cancelled: their workers are ended
    assert not list(tmp_path.glob("finished-*"))
    assert gd.RayBackend().map(_pid, [0, 1])  # the cluster still serves
