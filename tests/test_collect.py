"""gf.collect and ``guandan-fast collect``: trajectories of native policies.

Chunks of the seeded stream concatenate to one call whatever the thread
count; the deals are the ones `simulate` plays (deterministic greedy
policies reach the same results); each row's mask holds its action and the
rewards-to-go are the deal's settlement; bad input raises.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.cli import main
from guandan_fast.cli.collect import BLOCK


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_chunks_concatenate_for_any_thread_count() -> None:
    whole = gf.collect(6, policy=["greedy", "random", "greedy", "random"], seed=4, threads=1)
    parts = [gf.collect(2, policy=["greedy", "random", "greedy", "random"], seed=4, start=s, threads=t) for s, t in ((0, 2), (2, 3), (4, 0))]
    joined = {k: np.concatenate([p[k] for p in parts]) for k in whole}
    assert same(dict(whole), joined)
    assert sorted(set(whole["deal"].tolist())) == list(range(6))


def test_rows_and_rewards() -> None:
    n = 20
    d = gf.collect(n, policy="greedy", seed=9)
    sim = gf.simulate(n, seed=9, policy="greedy")
    rows = len(d["action"])
    assert d["obs"].shape == (rows, gf.DANZERO_SIZE) and d["mask"].shape == (rows, gf.actions.SIZE)
    assert (d["mask"][np.arange(rows), d["action"]] == 1).all()
    for i in range(n):
        sel = d["deal"] == i
        seats = d["seat"][sel]
        rtg = d["reward_to_go"][sel]
        gain = float(sim["gain"][i])
        want = np.where(seats % 2 == sim["winner"][i], gain, -gain)
        assert np.array_equal(rtg, want)
        assert int(sel.sum()) == int(sim["actions"][i])


def test_games_and_game_rewards() -> None:
    d = gf.collect(2, policy="greedy", seed=1, unit="game", reward="game", observation="guandan", masks=False)
    assert "mask" not in d and d["obs"].shape[1] == gf.OBSERVATION_SIZE
    assert set(np.unique(d["reward_to_go"]).tolist()) == {-1.0, 1.0}
    assert {0, 1, 2} <= set(d["phase"].tolist())  # tribute, return and play decisions


def test_bad_input() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="n"):
        gf.collect(-1)
    with pytest.raises(gf.InvalidArgumentError, match="policy"):
        gf.collect(1, policy="nope")
    with pytest.raises(gf.InvalidArgumentError, match="observation"):
        gf.collect(1, observation="x")  # type: ignore[arg-type]
    assert len(gf.collect(0)["action"]) == 0


def test_cli_writes_the_arrays_of_one_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "data.npz"
    n = BLOCK + 3
    assert main(["collect", "greedy", "random", "greedy", "random", "--n", str(n), "--seed", "2", "--out", str(out), "--no-progress"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    want = gf.collect(n, policy=["greedy", "random", "greedy", "random"], seed=2)
    with np.load(out) as got:
        assert same({k: got[k] for k in got.files}, dict(want))
    assert main(["collect", "greedy", "random", "--out", str(out)]) == 2
    assert "one policy" in capsys.readouterr().err
    assert main(["collect", "greedy", "--out", str(tmp_path / "x.json")]) == 2
