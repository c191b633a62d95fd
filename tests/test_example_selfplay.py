"""examples/selfplay.py in a bounded run: it trains, draws its curve and evaluates against random and greedy."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "selfplay.py"


def load_example():
    spec = importlib.util.spec_from_file_location("selfplay_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_action_features_describe_every_index() -> None:
    phi = load_example().action_features()
    assert phi.shape[0] == gf.actions.SIZE
    assert (phi.sum(axis=1) > 0).all(), "an index without features"
    assert phi[gf.actions.PASS_INDEX, 0] == 1 and phi[gf.actions.PASS_INDEX].sum() == 1


def test_updates_move_values_towards_the_targets() -> None:
    ex = load_example()
    policy = ex.Policy(seed=0)
    obs = np.zeros((8, gf.OBSERVATION_SIZE), np.float32)
    taken = np.arange(1, 9)
    target = np.full(8, 2.0, np.float32)
    errors = [policy.update(obs, taken, target, lr=0.5) for _ in range(30)]
    assert errors[-1] < errors[0] / 10


@pytest.mark.slow
def test_a_bounded_run_trains_draws_and_evaluates(tmp_path: Path) -> None:
    results = load_example().main(
        ["--steps", "40", "--tables", "8", "--eval-every", "20", "--eval-deals", "4", "--final-deals", "4", "--out", str(tmp_path)]
    )
    curve = results["curve"]
    assert [p[0] for p in curve] == [0, 160, 320]  # decisions trained at each point
    assert all(0 <= lo <= rate <= hi <= 1 for _, rate, lo, hi in curve)
    picture = Path(str(results["picture"]))
    assert picture.exists() and picture.suffix in (".png", ".svg")
    if picture.suffix == ".svg":
        assert picture.read_text(encoding="utf-8").startswith("<svg") and "polyline" in picture.read_text(encoding="utf-8")
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    for opponent in ("random", "greedy"):
        assert saved[opponent]["deals"] == 8 and 0 <= saved[opponent]["wins"] <= 8
    assert np.load(tmp_path / "weights.npy").shape == (ex_width(), 10)


def ex_width() -> int:
    return int(load_example().action_features().shape[1])
