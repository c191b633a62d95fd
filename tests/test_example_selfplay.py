"""examples/selfplay.py in a bounded run: it trains, draws its curve and evaluates against random and greedy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from examples_helpers import load_example

import guandan_fast as gf


def test_action_features_describe_every_index() -> None:
    phi = load_example("selfplay").action_features()
    assert phi.shape[0] == gf.actions.SIZE
    assert (phi.sum(axis=1) > 0).all(), "an index without features"
    assert phi[gf.actions.PASS_INDEX, 0] == 1 and phi[gf.actions.PASS_INDEX].sum() == 1


def test_an_update_makes_rewarded_actions_likelier() -> None:
    ex = load_example("selfplay")
    policy = ex.Policy(seed=0)
    g = gf.Game(seed=3)
    obs = gf.encode_observation(g.observation(g.current_player))[None, :]
    mask = g.legal_action_mask()[None, :]
    a, dphi, x = policy.sample(obs, mask)
    assert mask[0, a[0]] == 1

    def prob(i: int) -> float:
        legal = np.flatnonzero(mask[0])
        logits = (x @ policy.w.T @ policy.phi[legal].T)[0]
        p = np.exp(logits - logits.max())
        return float(p[list(legal).index(i)] / p.sum())

    before = prob(int(a[0]))
    policy.update(dphi, x, np.array([1.0], np.float32), lr=1.0)
    assert prob(int(a[0])) > before


@pytest.mark.slow
def test_a_bounded_run_trains_draws_and_evaluates(tmp_path: Path) -> None:
    results = load_example("selfplay").main(
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
    assert np.load(tmp_path / "weights.npy").shape[1] == 10
